#!/bin/bash
# CrossLoopUnparkBenchmark fiber, jar A against jar B, A B B A, plus virtualThread from A between.
# Usage: xlab.sh A.jar B.jar OUT [rounds]
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
A=$1; B=$2; out=$3; n=${4:-1}
one() { r=$(timeout 300 $J -jar $1 CrossLoopUnpark -f 1 -wi 3 -i 5 -w 1 -r 1 -p competitor=$2 2>&1 | grep "^CrossLoop" | awk '{print $5, $6, $7}'); echo "$(date +%T) $(basename $1 .jar) $2 $r load $(cut -d' ' -f1 /proc/loadavg)" >> $out; }
for i in $(seq $n); do one $A fiber; one $B fiber; one $A virtualThread; one $B fiber; one $A fiber; done
