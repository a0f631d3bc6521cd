#!/bin/bash
# Ring and park/unpark: eager jar vs lazy jar (minFrames default 2, and 1000: never set aside), 3 alternations, JDK 25, pinned
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
OPTS="--sun-misc-unsafe-memory-access=allow --add-opens=java.base/sun.nio.ch=ALL-UNNAMED -Dio.netty.tryReflectionSetAccessible=true"
for round in 1 2 3; do
  for v in head eager; do
    jar=$v; extra=""
    if [ $v = lazy1000 ]; then jar=lazy; extra="-Dkrill.lazyResume.minFrames=1000"; fi
    chrt -r 20 taskset -c 1 $J $OPTS -jar /tmp/bench-$jar.jar '(RingBenchmark|ParkUnparkBenchmark)' -p competitor=fiber -p tokens=1 \
      -f 1 -wi 4 -w 1s -i 6 -r 1s -jvmArgsAppend "$OPTS $extra" > /tmp/lazyrun/r5-$v-$round.txt 2>&1
    grep -E '^(Ring|ParkUnpark)' /tmp/lazyrun/r5-$v-$round.txt | sed "s/^/$v r$round /"
  done
done
