#!/bin/bash
# The depth-5 non-suspending call on a fiber again (run2 and run5 gave lazy medians above eager): five alternations, pinned, JDK 25
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
OPTS="--sun-misc-unsafe-memory-access=allow --add-opens=java.base/sun.nio.ch=ALL-UNNAMED -Dio.netty.tryReflectionSetAccessible=true"
cd /tmp/lazydef
for round in 1 2 3 4 5; do
  for v in lazy2 eager2; do
    chrt -r 20 taskset -c 1 $J25 $OPTS -jar /tmp/bench-$v.jar 'NonSuspendingCallBenchmark' -p callDepth=5 -p inlining=never -p thread=fiber \
      -f 1 -wi 4 -w 1s -i 5 -r 1s -jvmArgsAppend "$OPTS" > call6-$v-$round.txt 2>&1
    grep -E '^NonSuspending' call6-$v-$round.txt | sed "s/^/$v r$round /"
  done
done
echo DONE
