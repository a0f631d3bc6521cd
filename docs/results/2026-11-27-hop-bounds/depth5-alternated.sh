#!/bin/bash
# alternate woven/unwoven order per pass, one fork each, pinned, JDK 25
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
OPTS="--sun-misc-unsafe-memory-access=allow --add-opens=java.base/sun.nio.ch=ALL-UNNAMED -Dio.netty.tryReflectionSetAccessible=true"
out=$1; jar=$2; passes=$3
for p in $(seq $passes); do
  if [ $((p % 2)) -eq 1 ]; then order="woven unwoven"; else order="unwoven woven"; fi
  echo "=== pass $p $(date -u +%H:%M:%S) load: $(cat /proc/loadavg)" >> $out
  for c in $order; do
    chrt -r 20 taskset -c 1 $J $OPTS -jar $jar 'continuations\.NonSuspendingCallBenchmark\.' -p callDepth=5 -p inlining=never -p weaving=$c \
      -f 1 -wi 3 -i 5 -w 1s -r 1s -jvmArgsPrepend "$OPTS" 2>&1 | grep -E "^NonSusp" >> $out
  done
done
echo "--- end $(date -u +%H:%M:%S)" >> $out
