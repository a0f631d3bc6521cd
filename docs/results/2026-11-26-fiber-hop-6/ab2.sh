#!/bin/bash
# usage: ab.sh out.txt jar1 jar2 ... ; runs each jar once, in the order given, under the lock
out=$1; shift
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
OPTS="--sun-misc-unsafe-memory-access=allow --add-opens=java.base/sun.nio.ch=ALL-UNNAMED -Dio.netty.tryReflectionSetAccessible=true"
for jar in "$@"; do
  echo "=== $jar $(date -u +%H:%M:%S) load: $(cat /proc/loadavg)" >> $out
  $J $OPTS -jar $jar 'fibers\.(ParkUnpark|SpawnJoin)Benchmark' -p competitor=${COMP:-fiber} -f 1 -wi 3 -i ${ITERS:-5} -w 1s -r 1s -jvmArgsPrepend "$OPTS" 2>&1 | grep -E "^Benchmark|^ParkUnpark|^SpawnJoin|Error|Exception" >> $out
  echo "--- end $(date -u +%H:%M:%S) load: $(cat /proc/loadavg)" >> $out
done
