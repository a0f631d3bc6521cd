#!/bin/bash
# Fiber against virtual threads with the resume entries (commit d36fda93): ring (1 and 64 tokens),
# CommsTime, park -> unpark; three rounds, pinned (chrt -r 20, taskset -c 1), JDK 25, default
# collector. Each round runs the new jar (fiber and every virtual-thread competitor), then the
# jar before the entries (fiber only), so each round has both fibers beside the same virtual threads.
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
OPTS="--sun-misc-unsafe-memory-access=allow --add-opens=java.base/sun.nio.ch=ALL-UNNAMED -Dio.netty.tryReflectionSetAccessible=true"
RE='^io.krill.benchmarks.fibers.(RingBenchmark|CommsTimeBenchmark|ParkUnparkBenchmark)'
out=${1:-.}
for round in 1 2 3; do
  chrt -r 20 taskset -c 1 $J25 $OPTS -jar /tmp/jar-d36.jar "$RE" \
    -p competitor=fiber,virtualThreadSyncQueue,virtualThreadChannel,virtualThread -p tokens=1,64 \
    -f 1 -wi 3 -w 1s -i 5 -r 1s -jvmArgsAppend "$OPTS" > $out/vt-entries-$round.txt 2>&1
  chrt -r 20 taskset -c 1 $J25 $OPTS -jar /tmp/jar-base.jar "$RE" \
    -p competitor=fiber -p tokens=1,64 \
    -f 1 -wi 3 -w 1s -i 5 -r 1s -jvmArgsAppend "$OPTS" > $out/vt-base-$round.txt 2>&1
done
echo DONE
