#!/bin/bash
# DeepRingBenchmark loop depth 1 and RingBenchmark (fiber), JDK 25, one core, the jars named, in
# the order given: the depth-1 rows alone, to compare two builds of the branch with the base.
# Run as: flock /tmp/krill-bench.lock chrt -r 20 depth1.sh JAR...
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
OUT=${OUT:-/tmp/frames-json}
mkdir -p "$OUT"
OPTS="--sun-misc-unsafe-memory-access=allow --add-opens=java.base/sun.nio.ch=ALL-UNNAMED -Dio.netty.tryReflectionSetAccessible=true"
for jar in "$@"; do
  echo "=== $jar $(date -u +%T) load: $(cut -d' ' -f1-3 /proc/loadavg)"
  taskset -c 1 $J25 -jar $jar 'fibers\.(RingBenchmark|DeepRingBenchmark)' -p competitor=fiber -p tokens=1 \
    -p loopDepth=1 -p receiveDepth=1 -jvmArgsPrepend "$OPTS" -f 1 -wi 3 -i 5 -w 1s -r 1s \
    -rf json -rff "$OUT/$(basename $jar .jar)-$(date -u +%H%M%S)-depth1.json" 2>&1 | sed -n '/^Benchmark/,$p'
done
echo "=== end $(date -u +%T) load: $(cut -d' ' -f1-3 /proc/loadavg)"
