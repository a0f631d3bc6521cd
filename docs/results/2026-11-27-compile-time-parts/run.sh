#!/usr/bin/env bash
# C2 compile time of the corpus loops, woven ÷ plain, with each set of suspension paths live
# (CompileTime --paths both|capture|none), interleaved, three passes, on JDK 25 and JDK 17.
# Run pinned: chrt -r 20 taskset -c 1 bash run.sh > compile-time-parts.txt
set -euo pipefail
jar=${JAR:-benchmarks/target/benchmarks.jar}
for pass in 1 2 3; do
  for java in /usr/lib/jvm/temurin-25-jdk-amd64/bin/java /usr/lib/jvm/java-17-openjdk-amd64/bin/java; do
    for paths in both capture none; do
      echo "== pass $pass $java --paths $paths"
      "$java" -Xbatch -XX:-TieredCompilation -cp "$jar" io.krill.benchmarks.continuations.CompileTime 20000 --paths "$paths" 2>/dev/null
    done
  done
done
