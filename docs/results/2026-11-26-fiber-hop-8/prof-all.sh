#!/bin/bash
# usage: prof-all.sh jar outdir ; async-profiler cpu profiles of the three fiber rows, pinned (Serial) and on two CPUs (G1)
jar=$1; out=$2; d=$(dirname $0)
for b in 'RingBenchmark.hops' 'CommsTimeBenchmark' 'ParkUnparkBenchmark'; do
  n=$(echo $b | cut -d. -f1)
  PROFARGS="-p tokens=1" 
  [ $n != RingBenchmark ] && PROFARGS=""
  taskset -c 1 $d/prof.sh $jar "$b" $out/pinned-$n fiber $PROFARGS
  $d/prof.sh $jar "$b" $out/g1-$n fiber $PROFARGS
done
