#!/bin/bash
# The loop-depth rows with the resume entries (one waiting frame set aside) against the commit
# before (method handle, two frames): DeepRingBenchmark, receive depth 1, loop depth 1, 5 and 20,
# frames above called statically and through an interface; three rounds, the jars alternated,
# pinned, JDK 25.
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
OPTS="--sun-misc-unsafe-memory-access=allow --add-opens=java.base/sun.nio.ch=ALL-UNNAMED -Dio.netty.tryReflectionSetAccessible=true"
out=${1:-.}
for round in 1 2 3; do
  if [ $((round % 2)) -eq 1 ]; then jars="d36 base"; else jars="base d36"; fi
  for v in $jars; do
    chrt -r 20 taskset -c 1 $J $OPTS -jar /tmp/jar-$v.jar 'DeepRingBenchmark' -p competitor=fiber -p receiveDepth=1 \
      -p loopDepth=1,5,20 -p aboveCall=static,interface \
      -f 1 -wi 4 -w 1s -i 5 -r 1s -jvmArgsAppend "$OPTS" > $out/deep-$v-$round.txt 2>&1
  done
done
echo DONE
