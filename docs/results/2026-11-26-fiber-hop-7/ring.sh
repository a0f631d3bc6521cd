#!/bin/bash
# usage: ring.sh out jar; the ring of 256 with one token, fiber and virtual thread, as the
# benchmark runs it (never collects: the young state) and with -gc true (the promoted state).
d=$(dirname $0); out=$1
COMP=fiber,virtualThreadSyncQueue $d/run.sh $out $2 'fibers\.RingBenchmark' -p tokens=1
COMP=fiber,virtualThreadSyncQueue $d/run.sh $out $2 'fibers\.RingBenchmark' -p tokens=1 -gc true
