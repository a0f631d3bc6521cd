#!/bin/bash
# usage: prof.sh jar regex outdir
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
OPTS="--sun-misc-unsafe-memory-access=allow --add-opens=java.base/sun.nio.ch=ALL-UNNAMED -Dio.netty.tryReflectionSetAccessible=true"
jar=$1; re=$2; dir=$3
echo "=== $jar $re $(date -u +%H:%M:%S) load: $(cat /proc/loadavg)"
$J $OPTS -jar $jar "$re" -p competitor=fiber -f 1 -wi 3 -i 3 -w 1s -r 2s ${EXTRA} -jvmArgsPrepend "$OPTS" \
  -prof "async:libPath=/tmp/ap/linux-x64/libasyncProfiler.so;output=collapsed;dir=$dir;event=cpu;interval=200000;threads=true" -prof gc 2>&1 \
  | grep -E "^Benchmark|Benchmark\.|gc.alloc.rate.norm|Error|Exception"
echo "--- end $(date -u +%H:%M:%S) load: $(cat /proc/loadavg)"
