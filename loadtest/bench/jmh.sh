#!/usr/bin/env bash
# krill bench [PATTERN]: runs the JMH benchmarks matching PATTERN (a regex; default: all) with
# 2-core defaults (-f 1 -wi 3 -i 5, 1 s warm-up and 2 s measured iterations) and writes
#   loadtest/results/<date>-jmh[-PATTERN]/{jmh.json,report.md}
# env: JDK (default Temurin 25, else the newest under /usr/lib/jvm), SKIP_BUILD=1 to reuse
#      loadtest/target/benchmarks.jar
set -euo pipefail
cd "$(dirname "$0")/../.."

# shellcheck source=jdk.sh
source loadtest/bench/jdk.sh

JDK=${JDK:-/usr/lib/jvm/temurin-25-jdk-amd64}
[[ -x "$JDK/bin/java" ]] || JDK=$(newest_jdk)
[[ -n "$JDK" ]] || JDK=$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")
if [[ "${SKIP_BUILD:-}" != 1 || ! -f loadtest/target/benchmarks.jar ]]; then
  mvn -B -q package -pl loadtest -am -DskipTests
fi
exec "$JDK/bin/java" -Xmx1g -cp loadtest/target/benchmarks.jar io.krill.loadtest.harness.JmhSuite "$@" \
  --results loadtest/results --command "krill bench $*"
