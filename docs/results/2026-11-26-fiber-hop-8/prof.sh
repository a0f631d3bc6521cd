#!/bin/bash
# usage: prof.sh jar regex outdir [competitor]; async-profiler (cpu, 200 us, per thread) and -prof gc,
# JDK 25, one carrier, the JVM options of `bin/krill bench fibers` prepended. Run under the lock.
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
OPTS="--sun-misc-unsafe-memory-access=allow --add-opens=java.base/sun.nio.ch=ALL-UNNAMED -Dio.netty.tryReflectionSetAccessible=true"
jar=$1; re=$2; dir=$3; comp=${4:-fiber}
echo "=== $jar $re $comp $(date -u +%H:%M:%S) load: $(cat /proc/loadavg)"
$J $OPTS -jar $jar "$re" -p competitor=$comp -f 1 -wi 3 -i 3 -w 1s -r 2s -jvmArgsPrepend "$OPTS" "${@:5}" \
  -prof "async:libPath=/tmp/ap/linux-x64/libasyncProfiler.so;output=collapsed;dir=$dir;event=cpu;interval=200000;threads=true" -prof gc 2>&1 \
  | grep -E "^Benchmark|Benchmark\.|gc.alloc.rate.norm|Error|Exception"
echo "--- end $(date -u +%H:%M:%S) load: $(cat /proc/loadavg)"
