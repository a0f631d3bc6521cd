#!/bin/bash
# Ring and park/unpark: default weaving (eager) vs lazy weaving with the inline test of the second waiting frame (lazy2), 3 alternations, JDK 25, one CPU
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
OPTS="--sun-misc-unsafe-memory-access=allow --add-opens=java.base/sun.nio.ch=ALL-UNNAMED -Dio.netty.tryReflectionSetAccessible=true"
for round in 1 2 3; do
  for v in eager lazy2; do
    chrt -r 20 taskset -c 1 $J $OPTS -jar /tmp/bench-$v.jar '(RingBenchmark|ParkUnparkBenchmark)' -p competitor=fiber -p tokens=1 \
      -f 1 -wi 4 -w 1s -i 6 -r 1s -jvmArgsAppend "$OPTS" > /tmp/lazyrun/r7-$v-$round.txt 2>&1
    grep -E '^(Ring|ParkUnpark)' /tmp/lazyrun/r7-$v-$round.txt | sed "s/^/$v r$round /"
  done
done
