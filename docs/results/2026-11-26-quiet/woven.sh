#!/bin/bash
# Woven-code timings, quiet, one core, real-time; two passes (A B B A style over whole sets).
cd /work/main
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
JAR=benchmarks/target/benchmarks.jar
JMH="-f 1 -wi 3 -i 5 -w 1s -r 1s"
for pass in 1 2; do
  echo "=== pass $pass $(date -u +%T) load: $(cut -d' ' -f1-3 /proc/loadavg)"
  for jdk in $J25 java; do
    echo "--- CompileTime on $jdk"
    taskset -c 1 $jdk -Xbatch -XX:-TieredCompilation -cp $JAR io.krill.benchmarks.continuations.CompileTime 30000 2>&1 | grep "^compile"
  done
  taskset -c 1 $J25 -jar $JAR 'NonSuspendingCallBenchmark' -p callDepth=5 -p inlining=never $JMH 2>&1 | sed -n '/^Benchmark/,$p'
  taskset -c 1 $J25 -jar $JAR 'TightLoopBenchmark' $JMH 2>&1 | sed -n '/^Benchmark/,$p'
  taskset -c 1 $J25 -jar $JAR 'DeepRingBenchmark' -p loopDepth=1,5,20 -p receiveDepth=1 $JMH 2>&1 | sed -n '/^Benchmark/,$p'
done
echo "=== end $(date -u +%T)"
