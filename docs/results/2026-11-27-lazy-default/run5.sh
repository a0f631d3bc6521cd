#!/bin/bash
# The tight loop and the depth-5 non-suspending call, lazy resume counted in flow (lazy2) vs without lazy resume (eager2), four alternations, pinned, JDK 25
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
OPTS="--sun-misc-unsafe-memory-access=allow --add-opens=java.base/sun.nio.ch=ALL-UNNAMED -Dio.netty.tryReflectionSetAccessible=true"
cd /tmp/lazydef
for round in 1 2 3 4; do
  for v in eager2 lazy2; do
    chrt -r 20 taskset -c 1 $J25 $OPTS -jar /tmp/bench-$v.jar '(TightLoopBenchmark|NonSuspendingCallBenchmark)' -p callDepth=5 -p inlining=never \
      -f 1 -wi 4 -w 1s -i 5 -r 1s -jvmArgsAppend "$OPTS" > woven5-$v-$round.txt 2>&1
    grep -E '^(TightLoop|NonSuspending)' woven5-$v-$round.txt | sed "s/^/$v r$round /"
  done
done
for round in 1 2 3; do
  for v in eager2 lazy2; do
    chrt -r 20 taskset -c 1 $J25 $OPTS -jar /tmp/bench-$v.jar '(RingBenchmark|ParkUnparkBenchmark|CommsTimeBenchmark)' -p competitor=fiber -p tokens=1 \
      -f 1 -wi 4 -w 1s -i 6 -r 1s -jvmArgsAppend "$OPTS" > hop5-$v-$round.txt 2>&1
    grep -E '^(Ring|ParkUnpark|CommsTime)' hop5-$v-$round.txt | sed "s/^/$v r$round /"
  done
done
echo DONE
