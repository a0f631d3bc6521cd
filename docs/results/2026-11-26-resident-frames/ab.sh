#!/bin/bash
# The A/B rows of the resident frames, JDK 25, one core, with the JVM options of `krill bench fibers`,
# over the jars named after the kind, in the order given (interleave them: base new new base).
#   deep:  DeepRingBenchmark (fiber, receive depth 1, loop depth 1, 5 and 20) and RingBenchmark
#          (fiber, one token);
#   calls: NonSuspendingCallBenchmark (call depth 5, out of line, on a fiber and off one, woven
#          and unwoven) and TightLoopBenchmark (woven and unwoven);
#   vt:    DeepRingBenchmark, JDK virtual threads over a channel (one carrier) and fibers, loop
#          depth 1, 5 and 20, receive depth 1: the ratio against virtual threads.
# Each JMH run also writes its iterations as JSON into $OUT, named <jar>-<time>-<kind>.json
# (medians.py reads them). Run as: flock /tmp/krill-bench.lock chrt -r 20 ab.sh deep|calls|vt JAR...
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
JMH=${JMH:-"-f 1 -wi 3 -i 5 -w 1s -r 1s"}
OUT=${OUT:-/tmp/frames-json}
mkdir -p "$OUT"
OPTS="--sun-misc-unsafe-memory-access=allow --add-opens=java.base/sun.nio.ch=ALL-UNNAMED -Dio.netty.tryReflectionSetAccessible=true"
kind=$1
shift
case $kind in
  deep) ROWS=('fibers\.(RingBenchmark|DeepRingBenchmark)' -p competitor=fiber -p tokens=1 -p loopDepth=1,5,20 -p receiveDepth=1) ;;
  calls) ROWS=('continuations\.(NonSuspendingCallBenchmark|TightLoopBenchmark)' -p callDepth=5 -p inlining=never) ;;
  vt) ROWS=('fibers\.DeepRingBenchmark' -p competitor=virtualThreadChannel,fiber -p loopDepth=1,5,20 -p receiveDepth=1)
    OPTS="$OPTS -Djdk.virtualThreadScheduler.parallelism=1" ;;
  *) echo "kind: $kind (expected: deep, calls or vt)" >&2; exit 2 ;;
esac
for jar in "$@"; do
  tag="$(basename $jar .jar)-$(date -u +%H%M%S)"
  echo "=== $jar $(date -u +%T) load: $(cut -d' ' -f1-3 /proc/loadavg)"
  taskset -c 1 $J25 -jar $jar "${ROWS[@]}" -jvmArgsPrepend "$OPTS" $JMH \
    -rf json -rff "$OUT/$tag-$kind.json" 2>&1 | sed -n '/^Benchmark/,$p'
done
echo "=== end $(date -u +%T) load: $(cut -d' ' -f1-3 /proc/loadavg)"
