#!/bin/bash
# Lazy resume as the default weaving: ring, CommsTime, park -> unpark and loop depth, default (lazy) vs krill.weave.lazyResume=false (eager) jars, alternated, JDK 25, one CPU
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
OPTS="--sun-misc-unsafe-memory-access=allow --add-opens=java.base/sun.nio.ch=ALL-UNNAMED -Dio.netty.tryReflectionSetAccessible=true"
cd /tmp/lazydef
for round in 1 2 3 4; do
  for v in eager lazy; do
    chrt -r 20 taskset -c 1 $J $OPTS -jar /tmp/bench-$v.jar '(RingBenchmark|ParkUnparkBenchmark|CommsTimeBenchmark)' -p competitor=fiber -p tokens=1 \
      -f 1 -wi 4 -w 1s -i 6 -r 1s -jvmArgsAppend "$OPTS" > hop-$v-$round.txt 2>&1
    grep -E '^(Ring|ParkUnpark|CommsTime)' hop-$v-$round.txt | sed "s/^/$v r$round /"
  done
done
for round in 1 2; do
  for v in eager lazy; do
    chrt -r 20 taskset -c 1 $J $OPTS -jar /tmp/bench-$v.jar 'DeepRingBenchmark' -p competitor=fiber -p receiveDepth=1 -p loopDepth=1,5,20 -p aboveCall=static,interface \
      -f 1 -wi 4 -w 1s -i 5 -r 1s -jvmArgsAppend "$OPTS" > deep-$v-$round.txt 2>&1
    grep -E '^DeepRing' deep-$v-$round.txt | sed "s/^/$v r$round /"
  done
done
echo DONE
