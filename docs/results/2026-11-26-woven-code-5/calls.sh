#!/bin/bash
# The non-suspending call (depth 1 and 5, both inlining values, fiber and off-fiber, woven and
# unwoven: the unwoven rows are each run's control), JDK 25, one core, over the jars named as
# arguments, in the order given. Run as: flock /tmp/krill-bench.lock chrt -r 20 calls.sh JAR...
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
JMH="-f 1 -wi 3 -i 5 -w 1s -r 1s"
for jar in "$@"; do
  echo "=== $jar $(date -u +%T) load: $(cut -d' ' -f1-3 /proc/loadavg)"
  taskset -c 1 $J25 -jar $jar 'NonSuspendingCallBenchmark' -p callDepth=1,5 $JMH 2>&1 | sed -n '/^Benchmark/,$p'
done
echo "=== end $(date -u +%T) load: $(cut -d' ' -f1-3 /proc/loadavg)"
