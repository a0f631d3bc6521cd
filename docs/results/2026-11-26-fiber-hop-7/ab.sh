#!/bin/bash
# usage: ab.sh out jar1 jar2 ...; each jar once, in the order given (new shapes, fiber and
# virtual thread interleaved in each run). Run it under the lock.
d=$(dirname $0); out=$1; shift
for jar in "$@"; do $d/run.sh $out $jar 'fibers\.(ParkUnpark|SpawnJoin)Benchmark'; done
