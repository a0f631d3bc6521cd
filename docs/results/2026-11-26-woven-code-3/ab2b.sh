#!/bin/bash
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
JMH="-f 1 -wi 3 -i 5 -w 1s -r 1s"
jar=/tmp/woven-base.jar
echo "=== $jar JMH part $(date -u +%T) load: $(cut -d' ' -f1-3 /proc/loadavg)"
taskset -c 1 $J25 -jar $jar 'NonSuspendingCallBenchmark' -p callDepth=5 -p inlining=never $JMH 2>&1 | sed -n '/^Benchmark/,$p;/rror/p'
taskset -c 1 $J25 -jar $jar 'DeepRingBenchmark' -p competitor=fiber -p loopDepth=1,5,20 -p receiveDepth=1 $JMH 2>&1 | sed -n '/^Benchmark/,$p;/rror/p'
echo "=== end $(date -u +%T)"
