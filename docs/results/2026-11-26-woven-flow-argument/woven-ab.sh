#!/bin/bash
# Woven-code A/B over the jars named as arguments (the recipe of ../2026-11-26-quiet/woven.sh):
# C2 compile time on JDK 25, the tight loop, the ring at loop depth 1 and 5, one core.
# Run as: flock /tmp/krill-bench.lock chrt -r 20 ab.sh JAR...
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
JMH="-f 1 -wi 3 -i 5 -w 1s -r 1s"
for jar in "$@"; do
  echo "=== $jar $(date -u +%T) load: $(cut -d' ' -f1-3 /proc/loadavg)"
  taskset -c 1 $J25 -Xbatch -XX:-TieredCompilation -cp $jar io.krill.benchmarks.continuations.CompileTime 30000 2>&1 | grep "^compile"
  taskset -c 1 $J25 -jar $jar 'TightLoopBenchmark' $JMH 2>&1 | sed -n '/^Benchmark/,$p'
  taskset -c 1 $J25 -jar $jar 'DeepRingBenchmark' -p competitor=fiber -p loopDepth=1,5 -p receiveDepth=1 $JMH 2>&1 | sed -n '/^Benchmark/,$p'
done
echo "=== end $(date -u +%T)"
