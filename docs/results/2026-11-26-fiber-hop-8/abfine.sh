#!/bin/bash
# usage: abfine.sh out.txt base.jar new.jar mode reps [extra JMH args...]; mode = pinned (taskset -c 1, Serial) or g1
# (two CPUs). For each of ring (1 token), CommsTime and park -> unpark, one short JMH fork per jar, in the
# order base, new, new, base, repeated reps/2 times. Run under the lock:
#   flock /tmp/krill-bench.lock chrt -r 20 abfine.sh ...
out=$1; base=$2; new=$3; mode=$4; reps=$5; shift 5; d=$(dirname $0)
pin=""; [ "$mode" = pinned ] && pin="taskset -c 1"
for ((k = 0; k < reps / 2; k++)); do
  for jar in $base $new $new $base; do
    echo "### $mode" >> $out
    COMP=fiber WI=2 ITERS=4 $pin $d/../2026-11-26-fiber-hop-7/run.sh $out $jar 'fibers\.(RingBenchmark|CommsTimeBenchmark|ParkUnparkBenchmark)\.' -p tokens=1 "$@"
  done
done
