#!/bin/bash
# spawn + join (10,000 children per invocation), fiber, 8 iterations without warm-up: with the
# JVM's defaults, then with JMH's -gc true (a System.gc() before each iteration, which moves
# the carrier's long-lived objects to the old generation at once).
d=$(dirname $0)
COMP=fiber WI=0 ITERS=8 $d/run.sh $1 $2 'fibers\.SpawnJoinBenchmark\.spawnJoin10k' -prof gc
COMP=fiber WI=0 ITERS=8 $d/run.sh $1 $2 'fibers\.SpawnJoinBenchmark\.spawnJoin10k' -prof gc -gc true
