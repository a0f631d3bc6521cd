#!/bin/bash
# usage: gcs.sh out jar; the new shapes (heap collected before each iteration) under G1, the
# JDK's default, and under the Parallel collector, whose card-marking write barrier has no fence.
d=$(dirname $0)
$d/run.sh $1 $2 'fibers\.(ParkUnpark|SpawnJoin)Benchmark'
HEAP="-XX:+UseParallelGC" $d/run.sh $1 $2 'fibers\.(ParkUnpark|SpawnJoin)Benchmark'
