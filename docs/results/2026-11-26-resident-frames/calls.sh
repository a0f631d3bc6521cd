#!/bin/bash
# One pass each of NonSuspendingCallBenchmark (call depth 5, out of line, on a fiber and off one,
# woven and unwoven) and TightLoopBenchmark (woven and unwoven), JDK 25, one core, over the jars
# named as arguments in the order given. Run as: flock /tmp/krill-bench.lock chrt -r 20 calls.sh JAR...
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
JMH=${JMH:-"-f 1 -wi 3 -i 5 -w 1s -r 1s"}
OUT=${OUT:-/tmp/frames-json}
mkdir -p "$OUT"
OPTS="--sun-misc-unsafe-memory-access=allow --add-opens=java.base/sun.nio.ch=ALL-UNNAMED -Dio.netty.tryReflectionSetAccessible=true"
for jar in "$@"; do
  tag="$(basename $jar .jar)-$(date -u +%H%M%S)"
  echo "=== $jar $(date -u +%T) load: $(cut -d' ' -f1-3 /proc/loadavg)"
  taskset -c 1 $J25 -jar $jar 'continuations\.(NonSuspendingCallBenchmark|TightLoopBenchmark)' \
    -p callDepth=5 -p inlining=never -jvmArgsPrepend "$OPTS" $JMH \
    -rf json -rff "$OUT/$tag-calls.json" 2>&1 | sed -n '/^Benchmark/,$p'
done
echo "=== end $(date -u +%T) load: $(cut -d' ' -f1-3 /proc/loadavg)"
