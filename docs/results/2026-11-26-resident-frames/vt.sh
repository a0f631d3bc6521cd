#!/bin/bash
# DeepRingBenchmark with JDK virtual threads over a channel (virtualThreadChannel, one carrier),
# loop depth 1, 5 and 20, receive depth 1, JDK 25, one core: the ratio's other side.
# Run as: flock /tmp/krill-bench.lock chrt -r 20 vt.sh JAR
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
JMH=${JMH:-"-f 1 -wi 3 -i 5 -w 1s -r 1s"}
OUT=${OUT:-/tmp/frames-json}
mkdir -p "$OUT"
OPTS="--sun-misc-unsafe-memory-access=allow --add-opens=java.base/sun.nio.ch=ALL-UNNAMED -Dio.netty.tryReflectionSetAccessible=true -Djdk.virtualThreadScheduler.parallelism=1"
jar=$1
echo "=== $jar $(date -u +%T) load: $(cut -d' ' -f1-3 /proc/loadavg)"
taskset -c 1 $J25 -jar $jar 'fibers\.DeepRingBenchmark' -p competitor=virtualThreadChannel,fiber \
  -p loopDepth=1,5,20 -p receiveDepth=1 -jvmArgsPrepend "$OPTS" $JMH \
  -rf json -rff "$OUT/$(basename $jar .jar)-$(date -u +%H%M%S)-vt.json" 2>&1 | sed -n '/^Benchmark/,$p'
echo "=== end $(date -u +%T) load: $(cut -d' ' -f1-3 /proc/loadavg)"
