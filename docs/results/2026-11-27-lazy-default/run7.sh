#!/bin/bash
# Ring, CommsTime and park -> unpark again, lazy resume counted in flow (lazy2) vs without (eager2): run5's three rounds were too noisy to read; five alternations, pinned, JDK 25
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
OPTS="--sun-misc-unsafe-memory-access=allow --add-opens=java.base/sun.nio.ch=ALL-UNNAMED -Dio.netty.tryReflectionSetAccessible=true"
cd /tmp/lazydef
for round in 1 2 3 4 5; do
  for v in lazy2 eager2; do
    chrt -r 20 taskset -c 1 $J25 $OPTS -jar /tmp/bench-$v.jar '(RingBenchmark|ParkUnparkBenchmark|CommsTimeBenchmark)' -p competitor=fiber -p tokens=1 \
      -f 1 -wi 4 -w 1s -i 6 -r 1s -jvmArgsAppend "$OPTS" > hop7-$v-$round.txt 2>&1
    grep -E '^(Ring|ParkUnpark|CommsTime)' hop7-$v-$round.txt | sed "s/^/$v r$round /"
  done
done
echo DONE
