#!/bin/bash
# C2 compile time after lazy resume counts its waiting frames in flow (lazy2) against the
# header-bit build (lazy) and the build without lazy resume (eager2, same tree as lazy2), pinned, alternated
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
J17=/usr/lib/jvm/java-17-openjdk-amd64/bin/java
for round in 1 2 3; do
  for v in eager2 lazy lazy2; do
    for java in $J25 $J17; do
      echo "== compile $v r$round $java"
      chrt -r 20 taskset -c 1 "$java" -Xbatch -XX:-TieredCompilation -cp /tmp/bench-$v.jar io.krill.benchmarks.continuations.CompileTime 20000 2>/dev/null
    done
  done
done
