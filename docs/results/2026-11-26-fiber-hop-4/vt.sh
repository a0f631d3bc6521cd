#!/bin/bash
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
echo "=== vt $1 $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
flock /tmp/krill-bench.lock chrt -r 20 $J -jar $1 '\.(Ring|CommsTime)Benchmark' -p competitor=virtualThreadSyncQueue -p tokens=1 \
  -f 1 -wi 3 -i 5 -w 1s -r 1s -jvm $J \
  -jvmArgsPrepend "--sun-misc-unsafe-memory-access=allow --add-opens=java.base/sun.nio.ch=ALL-UNNAMED -Dio.netty.tryReflectionSetAccessible=true" 2>&1 | grep -E "^Benchmark|Benchmark\.|Run complete"
echo "=== end vt $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
