#!/bin/bash
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
JMH="-f 1 -wi 3 -i 5 -w 1s -r 1s"
echo "start $(date -u +%T) load: $(cut -d' ' -f1-3 /proc/loadavg)"
for jar in /tmp/woven-base.jar /tmp/woven-exp/enter.jar; do
  for jdk in $J25 java; do
    echo "--- CompileTime $jar $jdk"
    taskset -c 1 $jdk -Xbatch -XX:-TieredCompilation -cp $jar io.krill.benchmarks.continuations.CompileTime 30000 2>&1 | grep "^compile"
  done
done
for jar in /tmp/woven-base.jar /tmp/woven-exp/enter.jar /tmp/woven-exp/enter.jar /tmp/woven-base.jar; do
echo "--- deepring $jar"
taskset -c 1 $J25 -jar $jar 'DeepRingBenchmark' -p competitor=fiber -p loopDepth=1,5,20 -p receiveDepth=1 $JMH 2>&1 | sed -n '/^Benchmark/,$p'
done
echo "end $(date -u +%T)"
