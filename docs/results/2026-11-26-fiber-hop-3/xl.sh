#!/bin/bash
# CrossLoopUnparkBenchmark (JMH wall clock, JDK 25, two CPUs, not pinned): fiber from jar A and
# jar B and virtualThread from A, interleaved A B VT B A, ROUNDS times.
# Usage: [PREFIX="chrt -r 10"] xl.sh A.jar B.jar OUT [ROUNDS]
# PREFIX runs the benchmark JVMs (JMH's forks inherit it) under a real-time policy, ahead of
# every ordinary process: the machine as seen from the benchmark is then about idle.
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
A=$1; B=$2; out=$3; n=${4:-1}
one() {
  for try in $(seq 60); do # another JMH run holds /tmp/jmh.lock: wait for it rather than disturb it
    o=$(timeout 300 $PREFIX $J -jar $1 CrossLoopUnpark -f 1 -wi 3 -i 5 -w 1 -r 1 -p competitor=$2 2>&1)
    echo "$o" | grep -q "Unable to acquire the JMH lock" || break
    sleep 10
  done
  r=$(echo "$o" | grep "^CrossLoop" | awk '{print $5, $6, $7}'); echo "$(date +%T) $(basename $1 .jar) $2 $r load $(cut -d' ' -f1 /proc/loadavg) ${PREFIX:+($PREFIX)}" >> $out; }
for i in $(seq $n); do one $A fiber; one $B fiber; one $A virtualThread; one $B fiber; one $A fiber; done
