#!/bin/bash
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
JAR=/tmp/woven-base.jar
JMH="-f 1 -wi 3 -i 5 -w 1s -r 1s"
Q="-XX:CompileCommand=quiet"
R="-XX:CompileCommand=dontinline,io.krill.fibers.Stack::reserveFrame"
O="-XX:CompileCommand=dontinline,io.krill.fibers.Stack::openFrame"
echo "start $(date -u +%T) load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "--- tight dontinline reserveFrame"
taskset -c 1 $J25 -jar $JAR 'TightLoopBenchmark' -p weaving=woven $JMH -jvmArgsAppend "$Q $R" 2>&1 | sed -n '/^Benchmark/,$p'
echo "--- tight dontinline openFrame"
taskset -c 1 $J25 -jar $JAR 'TightLoopBenchmark' -p weaving=woven $JMH -jvmArgsAppend "$Q $O" 2>&1 | sed -n '/^Benchmark/,$p'
echo "--- deepring base"
taskset -c 1 $J25 -jar $JAR 'DeepRingBenchmark' -p competitor=fiber -p loopDepth=1,5 -p receiveDepth=1 $JMH 2>&1 | sed -n '/^Benchmark/,$p'
echo "--- deepring dontinline both"
taskset -c 1 $J25 -jar $JAR 'DeepRingBenchmark' -p competitor=fiber -p loopDepth=1,5 -p receiveDepth=1 $JMH -jvmArgsAppend "$Q $R $O" 2>&1 | sed -n '/^Benchmark/,$p'
echo "end $(date -u +%T)"
