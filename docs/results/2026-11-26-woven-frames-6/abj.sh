#!/bin/bash
# As ab.sh, and each JMH run also writes its iterations as JSON into $OUT (default /tmp/frames-json; this round's are in json/),
# named <jar>-<time>-{fibers,calls}.json, for the medians over all passes (medians.py).
# Run as: flock /tmp/krill-bench.lock chrt -r 20 abj.sh JAR...
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
JMH="-f 1 -wi 3 -i 5 -w 1s -r 1s"
OUT=${OUT:-/tmp/frames-json}
OPTS="--sun-misc-unsafe-memory-access=allow --add-opens=java.base/sun.nio.ch=ALL-UNNAMED -Dio.netty.tryReflectionSetAccessible=true"
for jar in "$@"; do
  tag="$(basename $jar .jar)-$(date -u +%H%M%S)"
  echo "=== $jar $(date -u +%T) load: $(cut -d' ' -f1-3 /proc/loadavg)"
  taskset -c 1 $J25 -jar $jar 'fibers\.(RingBenchmark|CommsTimeBenchmark|ParkUnparkBenchmark|DeepRingBenchmark)' \
    -p competitor=fiber -p tokens=1 -p loopDepth=1,5 -p receiveDepth=1 -jvmArgsPrepend "$OPTS" $JMH \
    -rf json -rff "$OUT/$tag-fibers.json" 2>&1 | sed -n '/^Benchmark/,$p'
  taskset -c 1 $J25 -jar $jar 'NonSuspendingCallBenchmark' -p callDepth=5 -p inlining=never \
    -jvmArgsPrepend "$OPTS" $JMH -rf json -rff "$OUT/$tag-calls.json" 2>&1 | sed -n '/^Benchmark/,$p'
done
echo "=== end $(date -u +%T) load: $(cut -d' ' -f1-3 /proc/loadavg)"
