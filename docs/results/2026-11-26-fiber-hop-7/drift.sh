#!/bin/bash
# spawn + join (10,000 children per invocation), fiber only, 12 iterations without warm-up:
# once with the JVM's default heap sizing, once with a fixed 2 GB heap.
d=$(dirname $0)
COMP=fiber WI=0 ITERS=12 $d/run.sh $1 $2 'fibers\.SpawnJoinBenchmark\.spawnJoin10k' -prof gc
COMP=fiber WI=0 ITERS=12 $d/run.sh $1 $2 'fibers\.SpawnJoinBenchmark\.spawnJoin10k' -prof gc -jvmArgsAppend "-Xms2g -Xmx2g"
