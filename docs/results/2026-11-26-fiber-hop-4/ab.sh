#!/bin/bash
# usage: ab.sh <label> <jar> [extra jmh args]
label=$1; jar=$2; shift 2
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
echo "=== $label $jar $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)" 
flock /tmp/krill-bench.lock chrt -r 20 $J -jar $jar '\.(Ring|CommsTime|ParkUnpark|SpawnJoin)Benchmark' -p competitor=fiber -p tokens=1 \
  -f 1 -wi 3 -i 5 -w 1s -r 1s -jvm $J \
  -jvmArgsPrepend "--sun-misc-unsafe-memory-access=allow --add-opens=java.base/sun.nio.ch=ALL-UNNAMED -Dio.netty.tryReflectionSetAccessible=true" "$@" 2>&1 | grep -E "^Benchmark|^io\.krill|^[A-Z][a-zA-Z]*Benchmark\.|Run complete" 
echo "=== end $label $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
