#!/bin/bash
# usage: [JMH_PARAMS="-p tokens=1"] ab.sh out "jvmargs" regex passes jar...
# Fiber rows only, JDK 25, one JMH fork per jar per pass. Unlike run-queue/ab.sh, the jars run
# in the given order on odd passes and in reverse on even ones, so neither always runs first.
out=$1; extra=$2; re=$3; passes=$4; shift 4
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
OPTS="--sun-misc-unsafe-memory-access=allow --add-opens=java.base/sun.nio.ch=ALL-UNNAMED -Dio.netty.tryReflectionSetAccessible=true"
jars=("$@")
for p in $(seq "$passes"); do
  order=("${jars[@]}")
  if [ $((p % 2)) -eq 0 ]; then
    order=()
    for ((i = ${#jars[@]} - 1; i >= 0; i--)); do order+=("${jars[i]}"); done
  fi
  for jar in "${order[@]}"; do
    echo "=== $jar $(date -u +%H:%M:%S) load: $(cat /proc/loadavg)" >> "$out"
    $J $OPTS -jar "$jar" "$re" -p competitor=fiber ${JMH_PARAMS:-} \
      -f 1 -wi 3 -i 5 -w 1s -r 1s -jvmArgsPrepend "$OPTS $extra" 2>&1 | grep -E "Benchmark\.[a-zA-Z]+ +.*fiber" >> "$out"
  done
done
echo "--- end $(date -u +%H:%M:%S) load: $(cat /proc/loadavg)" >> "$out"
