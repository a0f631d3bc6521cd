#!/bin/bash
# usage: run.sh out.txt jar regex [extra JMH args...]; one JMH run, JDK 25, one carrier
# (the JVM options of `bin/krill bench fibers` prepended), fiber and virtual thread interleaved.
# Run it under the lock: flock /tmp/krill-bench.lock chrt -r 20 run.sh ...
out=$1; jar=$2; re=$3; shift 3
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
OPTS="--sun-misc-unsafe-memory-access=allow --add-opens=java.base/sun.nio.ch=ALL-UNNAMED -Dio.netty.tryReflectionSetAccessible=true"
echo "=== $jar $re $* HEAP=${HEAP:-} $(date -u +%H:%M:%S) load: $(cat /proc/loadavg)" >> $out
$J $OPTS -jar $jar "$re" -p competitor=${COMP:-fiber,virtualThread} -f 1 -wi ${WI:-3} -i ${ITERS:-5} -w 1s -r 1s -jvmArgsPrepend "$OPTS ${HEAP:-}" "$@" 2>&1 \
  | grep -E "^# VM options|^Benchmark|Benchmark\.|^Iteration|gc.alloc.rate.norm|gc.count|Error|Exception" >> $out
echo "--- end $(date -u +%H:%M:%S) load: $(cat /proc/loadavg)" >> $out
