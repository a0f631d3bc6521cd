#!/bin/bash
# usage: tight.sh out jar passes
# TightLoopBenchmark on JDK 25, pinned: woven, unwoven, and unwoven with the twin's stand-in for the
# suspension (PlainLoops.nothing) kept out of line, so its loop holds a call where the woven loop's does.
out=$1; jar=$2; passes=$3
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
OPTS="--sun-misc-unsafe-memory-access=allow --add-opens=java.base/sun.nio.ch=ALL-UNNAMED -Dio.netty.tryReflectionSetAccessible=true -XX:+UseSerialGC"
DONT="-XX:CompileCommand=quiet -XX:CompileCommand=dontinline,io.krill.benchmarks.continuations.PlainLoops::nothing"
for p in $(seq "$passes"); do
  for cfg in woven unwoven unwoven-call; do
    w=${cfg%-call}; extra=""; [ "$cfg" = unwoven-call ] && extra="$DONT"
    echo "=== $cfg pass $p $(date -u +%H:%M:%S) load: $(cat /proc/loadavg)" >> "$out"
    chrt -r 20 taskset -c 1 $J -jar "$jar" 'TightLoopBenchmark' -p weaving=$w -p loop=tight,nested \
      -f 1 -wi 3 -w 1s -i 5 -r 1s -jvmArgsAppend "$OPTS $extra" 2>&1 | grep -E "^TightLoopBenchmark.loop " >> "$out"
  done
done
echo "--- end $(date -u +%H:%M:%S)" >> "$out"
