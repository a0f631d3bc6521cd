#!/usr/bin/env bash
# Builds the benchmarks jar and runs the echo comparison of issue #4: round trips per second and
# p50/p99 latency at 1, 100 and 10,000 connections for fibers on netio, raw Netty, blocking
# sockets on virtual threads and blocking sockets on platform threads, interleaved
# (A B C D A B C D ...), each server in its own JVM and the load generator in another. Writes
#   loadtest/results/<date>-echo.{json,md} and loadtest/results/README-fragment-issue4.md
#
# usage: loadtest/bench/issue4.sh [--quick]   (--quick: 1 round, 1 s warm-up, 1.5 s measured per cell)
# env:   JDK (default Temurin 25, else the newest under /usr/lib/jvm), DATE (default: today),
#        ROUNDS (default 3), CONNECTIONS (default 1,100,10000), SERVERS (default
#        fiber,netty,virtual,platform), HEAP (default 1g), SERVER_CPUS / CLIENT_CPUS (default 0 / 1;
#        PIN=0 for no pinning), SKIP_BUILD=1 to reuse loadtest/target/benchmarks.jar
# Every child JVM exits when the driver's pipe to it closes, has its own lifetime limit, and is
# killed by pid from the trap below on any exit of this script.
set -euo pipefail
cd "$(dirname "$0")/../.."

# shellcheck source=jdk.sh
source loadtest/bench/jdk.sh

JDK=${JDK:-/usr/lib/jvm/temurin-25-jdk-amd64}
[[ -x "$JDK/bin/java" ]] || JDK=$(newest_jdk)
DATE=${DATE:-$(date +%F)}
QUICK=()
[[ "${1:-}" == "--quick" ]] && QUICK=(--quick)
case "$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$JDK/release")" in
  1[7-9]|20) echo "virtual: skipped: no JDK 21+ under /usr/lib/jvm (newest: $JDK)";;
esac

SERVER_CPUS=${SERVER_CPUS:-0}
CLIENT_CPUS=${CLIENT_CPUS:-1}
if [[ "${PIN:-1}" == 0 ]] || ! command -v taskset >/dev/null || [[ "$(nproc)" -lt 2 ]]; then
  SERVER_CPUS="" CLIENT_CPUS=""
fi

if [[ "${SKIP_BUILD:-}" != 1 ]]; then
  mvn -B -q package -pl loadtest -am -DskipTests
fi

COMMIT=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
git diff --quiet HEAD -- loadtest netio fibers transform 2>/dev/null || COMMIT="$COMMIT+local changes"
mkdir -p loadtest/results loadtest/target
PIDS=loadtest/target/issue4.pids
: > "$PIDS"
DRIVER=""

cleanup() {
  local p
  if [[ -n "$DRIVER" ]] && kill -0 "$DRIVER" 2>/dev/null; then
    kill -TERM "$DRIVER" 2>/dev/null || true
    for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$DRIVER" 2>/dev/null || break; sleep 0.5; done
    kill -KILL "$DRIVER" 2>/dev/null || true
  fi
  # Children recorded by the driver, killed by pid only if that pid is still one of ours.
  while read -r p; do
    [[ -n "$p" ]] || continue
    if grep -qa 'io.krill.loadtest.echo' "/proc/$p/cmdline" 2>/dev/null; then
      kill -KILL "$p" 2>/dev/null || true
    fi
  done < "$PIDS"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

LOAD_BEFORE=$(uptime)
echo "load before: $LOAD_BEFORE"
ARGS=(--jar loadtest/target/benchmarks.jar --out loadtest/results --name "$DATE-echo"
  --rounds "${ROUNDS:-3}" --connections "${CONNECTIONS:-1,100,10000}"
  --servers "${SERVERS:-fiber,netty,virtual,platform}" --heap "${HEAP:-1g}"
  --server-cpus "$SERVER_CPUS" --client-cpus "$CLIENT_CPUS" --pids "$PIDS"
  --notes loadtest/bench/issue4-notes.md --load-before "$LOAD_BEFORE"
  --command "$(echo loadtest/bench/issue4.sh "${QUICK[@]}")" --commit "$COMMIT" "${QUICK[@]}")
# The driver is bounded: a cell's client has its own time limit, servers exit after 2 hours.
timeout --signal=TERM --kill-after=30 "${TIMEOUT_SECONDS:-3600}" \
  "$JDK/bin/java" -Xmx512m -cp loadtest/target/benchmarks.jar io.krill.loadtest.echo.EchoComparison "${ARGS[@]}" \
  > >(tee loadtest/target/issue4.log) 2>&1 &
DRIVER=$!
STATUS=0
wait "$DRIVER" || STATUS=$?
DRIVER=""
echo "load after: $(uptime)"
exit "$STATUS"
