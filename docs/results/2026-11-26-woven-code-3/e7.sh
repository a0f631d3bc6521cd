#!/bin/bash
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
JMH="-f 1 -wi 3 -i 5 -w 1s -r 1s"
Q="-XX:CompileCommand=quiet"
R="-XX:CompileCommand=dontinline,io.krill.fibers.Stack::reserveFrame"
O="-XX:CompileCommand=dontinline,io.krill.fibers.Stack::openFrame"
T="-XX:CompileCommand=dontinline,io.krill.fibers.Stack::takeRef"
J=/tmp/woven-exp/new.jar
echo "start $(date -u +%T) load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "--- tight enter2"
taskset -c 1 $J25 -jar $J 'TightLoopBenchmark' $JMH 2>&1 | sed -n '/^Benchmark/,$p'
echo "--- tight enter2 dontinline both"
taskset -c 1 $J25 -jar $J 'TightLoopBenchmark' -p weaving=woven $JMH -jvmArgsAppend "$Q $R $O" 2>&1 | sed -n '/^Benchmark/,$p'
echo "--- tight enter2 dontinline takeRef"
taskset -c 1 $J25 -jar $J 'TightLoopBenchmark' -p weaving=woven $JMH -jvmArgsAppend "$Q $T" 2>&1 | sed -n '/^Benchmark/,$p'
for jar in /tmp/woven-base.jar $J $J /tmp/woven-base.jar; do
echo "--- deepring $jar"
taskset -c 1 $J25 -jar $jar 'DeepRingBenchmark' -p competitor=fiber -p loopDepth=1,5 -p receiveDepth=1 $JMH 2>&1 | sed -n '/^Benchmark/,$p'
done
echo "end $(date -u +%T)"
