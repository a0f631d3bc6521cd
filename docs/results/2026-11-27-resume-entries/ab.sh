#!/bin/bash
# usage: ab.sh out regex passes jar@minFrames...
# Fiber rows, JDK 25, pinned to CPU 1 (chrt -r 20), Serial collector unless GC= says otherwise, one JMH fork per
# configuration per pass; the configurations run in the given order on odd passes and in
# reverse on even ones.
out=$1; re=$2; passes=$3; shift 3
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
OPTS="--sun-misc-unsafe-memory-access=allow --add-opens=java.base/sun.nio.ch=ALL-UNNAMED -Dio.netty.tryReflectionSetAccessible=true"
cfgs=("$@")
for p in $(seq "$passes"); do
  order=("${cfgs[@]}")
  if [ $((p % 2)) -eq 0 ]; then
    order=()
    for ((i = ${#cfgs[@]} - 1; i >= 0; i--)); do order+=("${cfgs[i]}"); done
  fi
  for cfg in "${order[@]}"; do
    jar=${cfg%@*}; mf=${cfg#*@}
    echo "=== $cfg pass $p $(date -u +%H:%M:%S) load: $(cat /proc/loadavg)" >> "$out"
    chrt -r 20 taskset -c 1 $J $OPTS -jar "$jar" "$re" -p competitor=fiber ${JMH_PARAMS:-} \
      -f 1 -wi 3 -i 5 -w 1s -r 1s -jvmArgsPrepend "$OPTS ${GC--XX:+UseSerialGC} -Dkrill.lazyResume.minFrames=$mf" 2>&1 \
      | grep -E "Benchmark\.[a-zA-Z]+ +.*fiber" >> "$out"
  done
done
echo "--- end $(date -u +%H:%M:%S) load: $(cat /proc/loadavg)" >> "$out"
