#!/bin/bash
# A B B A per workload, CPU time per operation (CpuBench), one carrier pinned to CPU 1.
# Usage: ab.sh A_JAR B_JAR OUT WORKLOAD...
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
A=$1; B=$2; out=$3; shift 3
CP=/tmp/hop2/cpu
echo "start $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" >> $out
one() { r=$(timeout 300 taskset -c 1 $J -Djdk.virtualThreadScheduler.parallelism=1 -Xms1g -Xmx1g -cp $1:$CP CpuBench $2 fiber 200 2>&1 | grep "^cpu"); echo "$(date +%T) $(basename $1 .jar) $r load $(cut -d' ' -f1 /proc/loadavg)" >> $out; }
for w in "$@"; do
  one $A $w; one $B $w; one $B $w; one $A $w
done
echo "end $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" >> $out
