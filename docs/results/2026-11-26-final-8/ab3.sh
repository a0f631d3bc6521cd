#!/bin/bash
# usage: ab3.sh out jar... ; fiber rows only: SpawnJoin, ParkUnpark; JDK 25, one JMH run per jar
out=$1; shift
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
OPTS="--sun-misc-unsafe-memory-access=allow --add-opens=java.base/sun.nio.ch=ALL-UNNAMED -Dio.netty.tryReflectionSetAccessible=true"
for jar in "$@"; do
  echo "=== $jar $(date -u +%H:%M:%S) load: $(cat /proc/loadavg)" >> $out
  $J $OPTS -jar $jar 'fibers\.(ParkUnparkBenchmark|SpawnJoinBenchmark)\.' -p competitor=fiber \
    -f 1 -wi 3 -i 5 -w 1s -r 1s -jvmArgsPrepend "$OPTS" 2>&1 | grep -E "^(ParkUnpark|SpawnJoin)Benchmark" >> $out
done
echo "--- end $(date -u +%H:%M:%S) load: $(cat /proc/loadavg)" >> $out
