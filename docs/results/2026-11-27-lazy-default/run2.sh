#!/bin/bash
# Woven code with lazy resume as the default weaving: C2 compile time (CompileTime, JDK 25 and 17),
# the tight loop and the depth-5 non-suspending call, default (lazy) vs krill.weave.lazyResume=false
# (eager) jars, alternated, one CPU. Run: bash run2.sh > summary2.txt
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
J17=/usr/lib/jvm/java-17-openjdk-amd64/bin/java
OPTS="--sun-misc-unsafe-memory-access=allow --add-opens=java.base/sun.nio.ch=ALL-UNNAMED -Dio.netty.tryReflectionSetAccessible=true"
cd /tmp/lazydef
for round in 1 2; do
  for v in eager lazy; do
    for java in $J25 $J17; do
      echo "== compile $v r$round $java"
      chrt -r 20 taskset -c 1 "$java" -Xbatch -XX:-TieredCompilation -cp /tmp/bench-$v.jar io.krill.benchmarks.continuations.CompileTime 20000 2>/dev/null
    done
  done
done
for round in 1 2 3; do
  for v in eager lazy; do
    chrt -r 20 taskset -c 1 $J25 $OPTS -jar /tmp/bench-$v.jar '(TightLoopBenchmark|NonSuspendingCallBenchmark)' -p callDepth=5 -p inlining=never \
      -f 1 -wi 4 -w 1s -i 5 -r 1s -jvmArgsAppend "$OPTS" > woven-$v-$round.txt 2>&1
    grep -E '^(TightLoop|NonSuspending)' woven-$v-$round.txt | sed "s/^/$v r$round /"
  done
done
echo DONE
