#!/bin/bash
# HTTP/2 hello with h2load: httpd (h2c, a fiber per stream, one carrier) against raw Netty HTTP/2
# (frame codec + multiplexer, an async handler per stream, one event loop), interleaved
# httpd netty netty httpd per round. Servers run on core 0, h2load on core 1.
#
#   mvn -B -q -o -pl httpd -am test-compile && loadtest/bin/h2load-hello.sh [ROUNDS] [REQUESTS]
#
# Needs h2load (Debian nghttp2-client; bin/install-test-tools.sh installs it).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS="${1:-2}"
REQUESTS="${2:-300000}"
mvn -B -q -o -pl httpd dependency:build-classpath -Dmdep.outputFile="$PWD/target/h2load-cp.txt" -Dmdep.includeScope=test >/dev/null
CP="fibers/target/classes:netio/target/classes:httpd/target/classes:httpd/target/test-classes:$(cat target/h2load-cp.txt)"
# utime + stime of a process, in clock ticks
cpu_ticks() {
  awk '{print $14 + $15}' "/proc/$1/stat"
}
run() {
  local kind=$1
  coproc SRV { taskset -c 0 java -Xms512m -Xmx512m -cp "$CP" io.krill.httpd.Http2HelloMain "$kind" 2>/dev/null; }
  local line port
  read -r line <&"${SRV[0]}"
  port=${line#port }
  timeout 300 taskset -c 1 h2load -n 100000 -c 10 -m 100 -t 1 "http://127.0.0.1:$port/hello" >/dev/null 2>&1
  local jvm before after
  jvm=$(pgrep -P "$SRV_PID" | head -1)
  before=$(cpu_ticks "$jvm")
  local out
  out=$(timeout 600 taskset -c 1 h2load -n "$REQUESTS" -c 10 -m 100 -t 1 "http://127.0.0.1:$port/hello" 2>&1 \
    | grep -E '^finished in|succeeded' | tr '\n' ' ')
  after=$(cpu_ticks "$jvm")
  # Server CPU per request: less sensitive than req/s to other processes sharing the cores.
  echo "$kind $out server-cpu-ns-per-request $(( (after - before) * 1000000000 / $(getconf CLK_TCK) / REQUESTS ))"
  eval "exec ${SRV[1]}>&-"
  wait "$SRV_PID" 2>/dev/null || true
}
for _ in $(seq 1 "$ROUNDS"); do
  run httpd; run netty; run netty; run httpd
done
