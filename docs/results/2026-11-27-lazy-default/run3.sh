#!/bin/bash
# C2 compile time again (run2's lazy `tight` on JDK 25 read 59.6 ms twice): three more alternations, pinned
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
J17=/usr/lib/jvm/java-17-openjdk-amd64/bin/java
for round in 3 4 5; do
  for v in eager lazy; do
    for java in $J25 $J17; do
      echo "== compile $v r$round $java"
      chrt -r 20 taskset -c 1 "$java" -Xbatch -XX:-TieredCompilation -cp /tmp/bench-$v.jar io.krill.benchmarks.continuations.CompileTime 20000 2>/dev/null
    done
  done
done
