#!/usr/bin/env bash
# WebSocket echo: fiber vs virtual threads vs raw Netty, interleaved rounds (A B C C B A ...).
# Each server runs alone in its JVM (WebSocketEchoServerMain); the load is WebSocketEchoClientMain
# in another JVM: CONNECTIONS sockets, each sending a SIZE-byte binary message and waiting for
# its echo (a closed loop), WARMUP seconds unmeasured, MEASURE seconds counted.
#
# usage: loadtest/bin/websocket-echo.sh CLASSPATH [CONNECTIONS] [ROUNDS] [SIZE] [WARMUP] [MEASURE]
# CLASSPATH: the loadtest module's runtime classpath with woven krill classes
# (target/classes after `mvn -pl loadtest -am process-classes`).
set -euo pipefail
CP=$1; CONNECTIONS=${2:-10000}; ROUNDS=${3:-2}; SIZE=${4:-32}; WARMUP=${5:-5}; MEASURE=${6:-10}
JAVA=${JAVA:-java}
fifo=$(mktemp -u); mkfifo "$fifo"; trap 'rm -f "$fifo"' EXIT

one() { # kind -> prints "kind messages/s"
  local kind=$1 out port
  out=$(mktemp)
  "$JAVA" -Xms1g -Xmx1g -cp "$CP" io.krill.loadtest.echo.WebSocketEchoServerMain "$kind" 600 <"$fifo" >"$out" 2>/dev/null &
  local pid=$!
  exec 8>"$fifo"
  for _ in $(seq 900); do port=$(grep -o '^port [0-9]*' "$out" | cut -d' ' -f2 || true); [[ -n $port ]] && break; sleep 0.2; done
  local line=""
  [[ -n $port ]] && line=$("$JAVA" -Xms1g -Xmx1g -cp "$CP" io.krill.loadtest.echo.WebSocketEchoClientMain "$port" "$CONNECTIONS" "$SIZE" "$WARMUP" "$MEASURE" 2>/dev/null | tail -1 || true)
  exec 8>&-
  wait "$pid" 2>/dev/null || true
  rm -f "$out"
  echo "$kind ${line:-failed (no port within 180 s, or the client failed)}"
}

order=(fiber virtual netty)
for r in $(seq "$ROUNDS"); do
  if (( r % 2 == 1 )); then kinds=("${order[@]}"); else kinds=(netty virtual fiber); fi
  for k in "${kinds[@]}"; do echo "round $r $(one "$k")"; done
done
