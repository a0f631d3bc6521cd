#!/bin/bash
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
OPTS="--sun-misc-unsafe-memory-access=allow --add-opens=java.base/sun.nio.ch=ALL-UNNAMED -Dio.netty.tryReflectionSetAccessible=true"
out=$1; jar=$2; passes=$3
for p in $(seq $passes); do
  if [ $((p % 2)) -eq 1 ]; then order="16 256"; else order="256 16"; fi
  echo "=== pass $p $(date -u +%H:%M:%S) load: $(cat /proc/loadavg)" >> $out
  for sz in $order; do
    chrt -r 20 taskset -c 1 $J $OPTS -jar $jar 'fibers\.RingBenchmark\.' -p competitor=fiber,virtualThreadChannel -p tokens=1 \
      -f 1 -wi 3 -i 5 -w 1s -r 1s -jvmArgsPrepend "$OPTS -XX:+UseSerialGC -Dkrill.bench.ringSize=$sz" 2>&1 | grep -E "^RingB" | sed "s/^/size=$sz /" >> $out
  done
done
echo "--- end $(date -u +%H:%M:%S)" >> $out
