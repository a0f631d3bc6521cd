#!/usr/bin/env bash
# Builds the benchmarks jar and runs the fiber benchmarks of issue #3 on the newest JDK (Temurin 25
# when present) against virtual threads and platform threads, then writes
#   loadtest/results/<date>-fibers.{json,md} and loadtest/results/README-fragment-issue3.md
#
# usage: loadtest/bench/issue3.sh [--quick | --full] [--rounds N]
#   (default) 3 interleaved JMH rounds (-wi 2 -i 3), max-process test up to 1,000,000 strands in a
#             2 GB heap, platform threads up to 10,000, Mandelbrot 800x600 x 3 rounds: about 15 minutes
#   --quick   1 round (-wi 1 -i 1), 100,000 strands, 2,000 platform threads, Mandelbrot 200x150: ~5 minutes
#   --full    3 rounds (-wi 3 -i 5), 10,000,000 live fibers in an 8 GB heap (virtual threads stop where
#             the heap would not hold the next step), 20,000 platform threads, Mandelbrot 4000x3000
# env:   JDK_NEWEST (JDK home), DATE (default: today), SKIP_BUILD=1 to reuse loadtest/target/benchmarks.jar
# One-carrier JMH runs are pinned to CPU 0 (taskset -c 0); cross-loop, max-process and Mandelbrot runs use
# both CPUs. Every harness is bounded in count and time. The machine is shared: the report records the
# load and compares ratios within one run.
set -euo pipefail
cd "$(dirname "$0")/../.."

# shellcheck source=jdk.sh
source loadtest/bench/jdk.sh

JDK_NEWEST=${JDK_NEWEST:-/usr/lib/jvm/temurin-25-jdk-amd64}
[[ -x "$JDK_NEWEST/bin/java" ]] || JDK_NEWEST=$(newest_jdk)
DATE=${DATE:-$(date +%F)}
ARGS=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --quick|--full) ARGS+=("$1"); shift;;
    --rounds) ARGS+=(--rounds "$2"); shift 2;;
    *) echo "usage: $0 [--quick | --full] [--rounds N]" >&2; exit 2;;
  esac
done
case "$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$JDK_NEWEST/release")" in
  1[7-9]|20) echo "virtual threads: skipped: no JDK 21+ under /usr/lib/jvm (newest: $JDK_NEWEST)";;
esac
command -v taskset >/dev/null || { echo "issue3.sh: taskset is required to pin the one-carrier runs" >&2; exit 2; }

if [[ "${SKIP_BUILD:-}" != 1 ]]; then
  mvn -B -q package -pl loadtest -am -DskipTests
fi

COMMIT=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
git diff --quiet HEAD -- loadtest/src loadtest/pom.xml fibers transform 2>/dev/null || COMMIT="$COMMIT+local changes"

# A run started under a real-time policy (e.g. `chrt -r 10 loadtest/bench/issue3.sh`, to shield it from
# other work on a shared machine; every competitor inherits the same policy) says so in its command line.
PREFIX=""
if command -v chrt >/dev/null; then
  POLICY=$(chrt -p $$ | sed -n 's/.*policy: SCHED_\([A-Z]*\).*/\1/p')
  PRIO=$(chrt -p $$ | sed -n 's/.*priority: \([0-9]*\).*/\1/p')
  case "$POLICY" in
    RR) PREFIX="chrt -r $PRIO ";;
    FIFO) PREFIX="chrt -f $PRIO ";;
  esac
fi

mkdir -p loadtest/results
"$JDK_NEWEST/bin/java" -cp loadtest/target/benchmarks.jar io.krill.loadtest.fibers.FibersReport \
  --jdk "$JDK_NEWEST" --jar loadtest/target/benchmarks.jar --out loadtest/results --name "$DATE-fibers" \
  --command "$(echo "${PREFIX}loadtest/bench/issue3.sh" "${ARGS[@]}")" --commit "$COMMIT" "${ARGS[@]}" \
  2>&1 | tee loadtest/target/issue3.log
