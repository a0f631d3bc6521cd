#!/usr/bin/env bash
# Builds the benchmarks jar and runs the continuation benchmarks of issue #2 on the newest JDK
# (Temurin 25 when present) and on JDK 17, then writes
#   loadtest/results/<date>-continuations.{json,md} and loadtest/results/README-fragment-issue2.md
#
# usage: loadtest/bench/issue2.sh [--quick]     (--quick: 1 warmup + 1 measurement, 100k heap items)
# env:   JDK_NEWEST, JDK_17 (JDK homes), DATE (default: today), HEAP_COUNT (default 1000000),
#        SKIP_BUILD=1 to reuse loadtest/target/benchmarks.jar
# JMH and the heap runs are pinned to CPU 0 (taskset -c 0); the machine is shared, so the report
# records the load and compares ratios within one run.
set -euo pipefail
cd "$(dirname "$0")/../.."

# shellcheck source=jdk.sh
source loadtest/bench/jdk.sh

JDK_NEWEST=${JDK_NEWEST:-/usr/lib/jvm/temurin-25-jdk-amd64}
[[ -x "$JDK_NEWEST/bin/java" ]] || JDK_NEWEST=$(newest_jdk)
JDK_17=${JDK_17:-/usr/lib/jvm/java-17-openjdk-amd64}
DATE=${DATE:-$(date +%F)}
HEAP_COUNT=${HEAP_COUNT:-1000000}
QUICK=()
[[ "${1:-}" == "--quick" ]] && QUICK=(--quick)

JDKS=(--jdk "$JDK_NEWEST")
if [[ -x "$JDK_17/bin/java" && "$(readlink -f "$JDK_17")" != "$(readlink -f "$JDK_NEWEST")" ]]; then
  JDKS+=(--jdk "$JDK_17")
fi
case "$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$JDK_NEWEST/release")" in
  1[7-9]|20) echo "virtualThread: skipped: no JDK 21+ under /usr/lib/jvm (newest: $JDK_NEWEST)";;
esac

if [[ "${SKIP_BUILD:-}" != 1 ]]; then
  mvn -B -q package -pl loadtest -am -DskipTests
fi

TASKSET=()
command -v taskset >/dev/null && TASKSET=(taskset -c 0)
COMMIT=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
git diff --quiet HEAD -- loadtest fibers transform 2>/dev/null || COMMIT="$COMMIT+local changes"

mkdir -p loadtest/results
"${TASKSET[@]}" "$JDK_NEWEST/bin/java" -cp loadtest/target/benchmarks.jar \
  io.krill.loadtest.continuations.ContinuationsReport "${JDKS[@]}" \
  --out loadtest/results --name "$DATE-continuations" --heap-count "$HEAP_COUNT" \
  --command "$(echo loadtest/bench/issue2.sh "${QUICK[@]}")" --commit "$COMMIT" "${QUICK[@]}" \
  2>&1 | tee loadtest/target/issue2.log
