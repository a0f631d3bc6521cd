#!/usr/bin/env bash
# prof2.sh JAR KIND OUT: one long wrk run on the pinned server; the profile covers 10 s of it once the
# connections are open (no connects in the window); requests from the bytes the server wrote
set -euo pipefail
JAR=$1; KIND=$2; OUT=$3; C=${C:-10000}; LEAD=${LEAD:-40}
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
SIZE=$(curl -s -i http://127.0.0.1:$PORT/hello | wc -c)
taskset -c 1 wrk -t1 -c$C --timeout 10s -d$((LEAD+15))s http://127.0.0.1:$PORT/hello > $OUT.wrk.txt &
WPID=$!
sleep $LEAD
fds=$(ls /proc/$PID/fd | wc -l)
$J/jcmd $PID JVMTI.agent_load $AP '"start,event=cpu,interval=1ms"' > /dev/null
t0=$(awk '{print $14+$15}' /proc/$PID/stat); w0=$(awk '/wchar/{print $2}' /proc/$PID/io)
sleep 10
t1=$(awk '{print $14+$15}' /proc/$PID/stat); w1=$(awk '/wchar/{print $2}' /proc/$PID/io)
$J/jcmd $PID JVMTI.agent_load $AP "\"stop,file=$OUT.collapsed,collapsed\"" > /dev/null
wait $WPID || true
req=$(( (w1-w0)/SIZE ))
echo "$KIND cpu_ticks=$((t1-t0)) requests=$req us_per_req=$(echo "scale=2; ($t1-$t0)*10000/$req" | bc) rps=$((req/10)) fds_at_start=$fds size=$SIZE load=$(cut -d' ' -f1-3 /proc/loadavg)" | tee $OUT.summary
exec 3>&-
wait $PID || true
rm -f $fifo
