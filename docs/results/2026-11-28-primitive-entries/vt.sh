#!/bin/bash
# usage: vt.sh NEW_JAR BASE_JAR [LAST_ROUND [FIRST_ROUND]]  (rounds 1 to 3 by default)
# Fiber against virtual threads: ring (1 and 64 tokens), CommsTime, park -> unpark; pinned
# (chrt -r 20, taskset -c 1), JDK 25, the collector the JVM picks on one CPU (Serial). Each round
# runs NEW_JAR with the fiber and every virtual-thread competitor (vt-new-N.txt), then BASE_JAR
# with the fiber only (vt-base-N.txt), so both fibers meet the same round's virtual threads.
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
OPTS="--sun-misc-unsafe-memory-access=allow --add-opens=java.base/sun.nio.ch=ALL-UNNAMED -Dio.netty.tryReflectionSetAccessible=true"
RE='^io.krill.benchmarks.fibers.(RingBenchmark|CommsTimeBenchmark|ParkUnparkBenchmark)'
for round in $(seq "${4:-1}" "${3:-3}"); do
  chrt -r 20 taskset -c 1 $J25 $OPTS -jar "$1" "$RE" \
    -p competitor=fiber,virtualThreadSyncQueue,virtualThreadChannel,virtualThread -p tokens=1,64 \
    -f 1 -wi 3 -w 1s -i 5 -r 1s -jvmArgsAppend "$OPTS" > vt-new-$round.txt 2>&1
  chrt -r 20 taskset -c 1 $J25 $OPTS -jar "$2" "$RE" -p competitor=fiber -p tokens=1,64 \
    -f 1 -wi 3 -w 1s -i 5 -r 1s -jvmArgsAppend "$OPTS" > vt-base-$round.txt 2>&1
done
