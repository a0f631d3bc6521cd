#!/bin/bash
# Fibers against virtual threads in the same run (the goals' ratios): RingBenchmark (one token),
# CommsTimeBenchmark and ParkUnparkBenchmark, fiber and virtual-thread rows, JDK 25, one core,
# the JVM options of `krill bench fibers`, over the jars named as arguments, in the order given.
# Run as: flock /tmp/krill-bench.lock chrt -r 20 vt.sh JAR...
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
JMH="-f 1 -wi 3 -i 5 -w 1s -r 1s"
OPTS="--sun-misc-unsafe-memory-access=allow --add-opens=java.base/sun.nio.ch=ALL-UNNAMED -Dio.netty.tryReflectionSetAccessible=true"
for jar in "$@"; do
  echo "=== $jar $(date -u +%T) load: $(cut -d' ' -f1-3 /proc/loadavg)"
  taskset -c 1 $J25 -jar $jar 'fibers\.(RingBenchmark|CommsTimeBenchmark)' \
    -p competitor=fiber,virtualThreadSyncQueue -p tokens=1 -jvmArgsPrepend "$OPTS" $JMH 2>&1 | sed -n '/^Benchmark/,$p'
  taskset -c 1 $J25 -jar $jar 'fibers\.ParkUnparkBenchmark' \
    -p competitor=fiber,virtualThread -jvmArgsPrepend "$OPTS" $JMH 2>&1 | sed -n '/^Benchmark/,$p'
done
echo "=== end $(date -u +%T) load: $(cut -d' ' -f1-3 /proc/loadavg)"
