#!/bin/bash
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
JAR=/tmp/woven-base.jar
JMH="-f 1 -wi 3 -i 5 -w 1s -r 1s"
echo "start $(date -u +%T) load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "--- base"
taskset -c 1 $J25 -jar $JAR 'TightLoopBenchmark' $JMH 2>&1 | sed -n '/^Benchmark/,$p'
echo "--- dontinline reserveFrame openFrame"
taskset -c 1 $J25 -jar $JAR 'TightLoopBenchmark' -p weaving=woven $JMH -jvmArgsAppend "-XX:CompileCommand=quiet -XX:CompileCommand=dontinline,io.krill.fibers.Stack::reserveFrame -XX:CompileCommand=dontinline,io.krill.fibers.Stack::openFrame" 2>&1 | sed -n '/^Benchmark/,$p'
echo "--- dontinline Continuation::suspend"
taskset -c 1 $J25 -jar $JAR 'TightLoopBenchmark' -p weaving=woven $JMH -jvmArgsAppend "-XX:CompileCommand=quiet -XX:CompileCommand=dontinline,io.krill.fibers.Stack::suspendCurrent" 2>&1 | sed -n '/^Benchmark/,$p'
echo "end $(date -u +%T)"
