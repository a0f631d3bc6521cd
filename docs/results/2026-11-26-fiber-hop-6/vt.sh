#!/bin/bash
out=$1
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
OPTS="--sun-misc-unsafe-memory-access=allow --add-opens=java.base/sun.nio.ch=ALL-UNNAMED -Dio.netty.tryReflectionSetAccessible=true"
echo "=== new1 fiber+virtualThread $(date -u +%H:%M:%S) load: $(cat /proc/loadavg)" >> $out
$J $OPTS -jar /tmp/spawn-new1.jar 'fibers\.(ParkUnpark|SpawnJoin)Benchmark' -p competitor=fiber,virtualThread -f 1 -wi 3 -i 5 -w 1s -r 1s -jvmArgsPrepend "$OPTS" 2>&1 | grep -E "^ParkUnpark|^SpawnJoin|Error|Exception" >> $out
echo "=== new1 with BATCH 10000 (not committed) $(date -u +%H:%M:%S) load: $(cat /proc/loadavg)" >> $out
$J $OPTS -jar /tmp/spawn-new1-b10k.jar 'fibers\.SpawnJoinBenchmark' -p competitor=fiber -f 1 -wi 3 -i 5 -w 1s -r 1s -jvmArgsPrepend "$OPTS" 2>&1 | grep -E "^SpawnJoin|Error|Exception" >> $out
echo "--- end $(date -u +%H:%M:%S) load: $(cat /proc/loadavg)" >> $out
