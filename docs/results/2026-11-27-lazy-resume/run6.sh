#!/bin/bash
# DeepRingBenchmark loopDepth 1/5/20, aboveCall static and interface: default weaving (eager) vs krill.weave.lazyResume=true (lazy), 2 alternations, JDK 25, one CPU
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
OPTS="--sun-misc-unsafe-memory-access=allow --add-opens=java.base/sun.nio.ch=ALL-UNNAMED -Dio.netty.tryReflectionSetAccessible=true"
for round in 1 2; do
  for jar in eager lazy; do
    chrt -r 20 taskset -c 1 $J $OPTS -jar /tmp/bench-$jar.jar 'DeepRingBenchmark' -p competitor=fiber -p receiveDepth=1 -p loopDepth=1,5,20 -p aboveCall=static,interface \
      -f 1 -wi 4 -w 1s -i 5 -r 1s -jvmArgsAppend "$OPTS" -rf json -rff /tmp/lazyrun/deep-$jar-$round.json > /tmp/lazyrun/deep-$jar-$round.txt 2>&1
    grep -E '^DeepRing' /tmp/lazyrun/deep-$jar-$round.txt | sed "s/^/$jar r$round /"
  done
done
