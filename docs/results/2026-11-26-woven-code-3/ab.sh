#!/bin/bash
# Woven-code A/B: the woven.sh recipe over two jars, in the order given.
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
JMH="-f 1 -wi 3 -i 5 -w 1s -r 1s"
for jar in "$@"; do
  echo "=== $jar $(date -u +%T) load: $(cut -d' ' -f1-3 /proc/loadavg)"
  for jdk in $J25 java; do
    echo "--- CompileTime on $jdk"
    taskset -c 1 $jdk -Xbatch -XX:-TieredCompilation -cp $jar io.krill.benchmarks.continuations.CompileTime 30000 2>&1 | grep "^compile"
  done
  taskset -c 1 $J25 -jar $jar 'NonSuspendingCallBenchmark' -p callDepth=5 -p inlining=never $JMH 2>&1 | sed -n '/^Benchmark/,$p'
  taskset -c 1 $J25 -jar $jar 'TightLoopBenchmark' $JMH 2>&1 | sed -n '/^Benchmark/,$p'
  taskset -c 1 $J25 -jar $jar 'DeepRingBenchmark' -p competitor=fiber -p loopDepth=1,5,20 -p receiveDepth=1 $JMH 2>&1 | sed -n '/^Benchmark/,$p'
done
echo "=== end $(date -u +%T)"
