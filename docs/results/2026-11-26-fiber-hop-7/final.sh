#!/bin/bash
# usage: final.sh out base.jar base2.jar new.jar; main's jar (old shapes), main's runtime with the
# new shapes, and this branch: park -> unpark and spawn + join, then CommsTime, against virtual
# threads in each run. Run it under the lock.
d=$(dirname $0); out=$1
$d/run.sh $out $2 'fibers\.(ParkUnpark|SpawnJoin)Benchmark'
COMP=fiber,virtualThreadSyncQueue,virtualThreadChannel $d/run.sh $out $2 'fibers\.CommsTimeBenchmark'
COMP=fiber,virtualThreadSyncQueue,virtualThreadChannel $d/run.sh $out $3 'fibers\.CommsTimeBenchmark'
$d/run.sh $out $4 'fibers\.(ParkUnpark|SpawnJoin)Benchmark'
COMP=fiber,virtualThreadSyncQueue,virtualThreadChannel $d/run.sh $out $4 'fibers\.CommsTimeBenchmark'
