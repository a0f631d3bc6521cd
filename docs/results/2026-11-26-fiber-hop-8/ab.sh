#!/bin/bash
# usage: ab.sh out.txt base.jar new.jar regex [extra JMH args...]; base, new, new, base, each pinned (taskset -c 1,
# Serial) and on two CPUs (G1). Run under the lock: flock /tmp/krill-bench.lock chrt -r 20 ab.sh ...
out=$1; base=$2; new=$3; re=$4; shift 4; d=$(dirname $0)
for jar in $base $new $new $base; do
  echo "### pinned" >> $out; taskset -c 1 $d/../2026-11-26-fiber-hop-7/run.sh $out $jar "$re" "$@"
  echo "### two CPUs" >> $out; $d/../2026-11-26-fiber-hop-7/run.sh $out $jar "$re" "$@"
done
