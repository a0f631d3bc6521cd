#!/bin/bash
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
JMH="-f 1 -wi 3 -i 5 -w 1s -r 1s"
echo "start $(date -u +%T) load: $(cut -d' ' -f1-3 /proc/loadavg)"
for jar in /tmp/woven-base.jar /tmp/woven-exp/enter.jar /tmp/woven-exp/plain.jar /tmp/woven-exp/enter.jar /tmp/woven-base.jar; do
echo "--- tight $jar"
taskset -c 1 $J25 -jar $jar 'TightLoopBenchmark' $JMH 2>&1 | sed -n '/^Benchmark/,$p'
done
for jar in /tmp/woven-base.jar /tmp/woven-exp/plain.jar; do
echo "--- nonsusp $jar"
taskset -c 1 $J25 -jar $jar 'NonSuspendingCallBenchmark' -p callDepth=5 -p inlining=never $JMH 2>&1 | sed -n '/^Benchmark/,$p'
done
echo "end $(date -u +%T)"
