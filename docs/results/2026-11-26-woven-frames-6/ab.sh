#!/bin/bash
# The rows of the frames work, JDK 25, one core, with the JVM options of `krill bench fibers`,
# over the jars named as arguments, in the order given (interleave: base new, then new base):
# the fiber rows of RingBenchmark (one token), CommsTimeBenchmark, ParkUnparkBenchmark and
# DeepRingBenchmark (loop depth 1 and 5, receive depth 1), and NonSuspendingCallBenchmark at call
# depth 5, out of line, on a fiber and off one, woven and unwoven (the unwoven rows are each
# run's control). Run as: flock /tmp/krill-bench.lock chrt -r 20 ab.sh JAR...
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
JMH="-f 1 -wi 3 -i 5 -w 1s -r 1s"
OPTS="--sun-misc-unsafe-memory-access=allow --add-opens=java.base/sun.nio.ch=ALL-UNNAMED -Dio.netty.tryReflectionSetAccessible=true"
for jar in "$@"; do
  echo "=== $jar $(date -u +%T) load: $(cut -d' ' -f1-3 /proc/loadavg)"
  taskset -c 1 $J25 -jar $jar 'fibers\.(RingBenchmark|CommsTimeBenchmark|ParkUnparkBenchmark|DeepRingBenchmark)' \
    -p competitor=fiber -p tokens=1 -p loopDepth=1,5 -p receiveDepth=1 -jvmArgsPrepend "$OPTS" $JMH 2>&1 \
    | sed -n '/^Benchmark/,$p'
  taskset -c 1 $J25 -jar $jar 'NonSuspendingCallBenchmark' -p callDepth=5 -p inlining=never \
    -jvmArgsPrepend "$OPTS" $JMH 2>&1 | sed -n '/^Benchmark/,$p'
done
echo "=== end $(date -u +%T) load: $(cut -d' ' -f1-3 /proc/loadavg)"
