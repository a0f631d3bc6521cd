#!/bin/bash
# DeepRingBenchmark (fiber, receive depth 1, loop depth 1, 5 and 20) and RingBenchmark (fiber,
# one token), JDK 25, one core, with the JVM options of `krill bench fibers`, over the jars named
# as arguments in the order given (interleave them: base new new base). Each JMH run also writes
# its iterations as JSON into $OUT. Run as: flock /tmp/krill-bench.lock chrt -r 20 deep.sh JAR...
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
JMH=${JMH:-"-f 1 -wi 3 -i 5 -w 1s -r 1s"}
OUT=${OUT:-/tmp/frames-json}
mkdir -p "$OUT"
OPTS="--sun-misc-unsafe-memory-access=allow --add-opens=java.base/sun.nio.ch=ALL-UNNAMED -Dio.netty.tryReflectionSetAccessible=true"
for jar in "$@"; do
  tag="$(basename $jar .jar)-$(date -u +%H%M%S)"
  echo "=== $jar $(date -u +%T) load: $(cut -d' ' -f1-3 /proc/loadavg)"
  taskset -c 1 $J25 -jar $jar 'fibers\.(RingBenchmark|DeepRingBenchmark)' \
    -p competitor=fiber -p tokens=1 -p loopDepth=1,5,20 -p receiveDepth=1 -jvmArgsPrepend "$OPTS" $JMH \
    -rf json -rff "$OUT/$tag-deep.json" 2>&1 | sed -n '/^Benchmark/,$p'
done
echo "=== end $(date -u +%T) load: $(cut -d' ' -f1-3 /proc/loadavg)"
