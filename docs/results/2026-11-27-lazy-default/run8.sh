#!/bin/bash
# Fiber against virtual threads with lazy resume the default (commit ee109d9): ring, CommsTime, park -> unpark, two rounds, pinned, JDK 25, the fiber and virtual-thread competitors only
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
OPTS="--sun-misc-unsafe-memory-access=allow --add-opens=java.base/sun.nio.ch=ALL-UNNAMED -Dio.netty.tryReflectionSetAccessible=true"
cd /tmp/lazydef
for round in 1 2; do
  chrt -r 20 taskset -c 1 $J25 $OPTS -jar /work/main/benchmarks/target/benchmarks.jar '(fibers.RingBenchmark|CommsTimeBenchmark|ParkUnparkBenchmark)' \
    -p competitor=fiber,virtualThreadSyncQueue,virtualThreadChannel,virtualThread -p tokens=1,64 \
    -f 1 -wi 3 -w 1s -i 5 -r 1s -jvmArgsAppend "$OPTS" > vt8-$round.txt 2>&1
  grep -E '^(Ring|ParkUnpark|CommsTime)' vt8-$round.txt | sed "s/^/r$round /"
done
echo DONE
