#!/usr/bin/env bash
# prof.sh JAR KIND OUT: server pinned to CPU 0, wrk pinned to CPU 1; wrk warm-up, then async-profiler over a 10 s wrk run
set -euo pipefail
JAR=$1; KIND=$2; OUT=$3
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin
AP=/tmp/ap/linux-x64/libasyncProfiler.so
fifo=$(mktemp -u); mkfifo $fifo
taskset -c 0 $J/java -Xms1g -Xmx1g -Dkrill.fibers.track=false -Dkrill.fibers.io=nio -XX:+UseG1GC \
  --sun-misc-unsafe-memory-access=allow --add-opens=java.base/sun.nio.ch=ALL-UNNAMED -Dio.netty.tryReflectionSetAccessible=true \
  -XX:+EnableDynamicAgentLoading -XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints \
  -cp $JAR io.krill.loadtest.servers.ServerMain $KIND 120 < $fifo > $OUT.server.log 2>&1 &
PID=$!
exec 3>$fifo
for i in $(seq 100); do grep -q '^port ' $OUT.server.log && break; sleep 0.1; done
PORT=$(awk '/^port /{print $2}' $OUT.server.log)
taskset -c 1 wrk -t1 -c${C:-1000} -d${WARM:-12}s http://127.0.0.1:$PORT/hello > $OUT.warm.txt
[ -n "${PROF:-}" ] && $J/jcmd $PID JVMTI.agent_load $AP '"start,event=cpu,interval=1ms"' > /dev/null
t0=$(awk '{print $14+$15}' /proc/$PID/stat)
taskset -c 1 wrk -t1 -c${C:-1000} -d10s http://127.0.0.1:$PORT/hello > $OUT.wrk.txt
t1=$(awk '{print $14+$15}' /proc/$PID/stat)
[ -n "${PROF:-}" ] && $J/jcmd $PID JVMTI.agent_load $AP "\"stop,file=$OUT.collapsed,collapsed\"" > /dev/null
req=$(awk '/requests in/{print $1}' $OUT.wrk.txt)
echo "$KIND cpu_ticks=$((t1-t0)) requests=$req us_per_req=$(echo "scale=2; ($t1-$t0)*10000/$req" | bc) $(grep Requests/sec $OUT.wrk.txt) load=$(cut -d' ' -f1-3 /proc/loadavg)" | tee $OUT.summary
exec 3>&-
wait $PID || true
rm -f $fifo
