#!/bin/bash
# CPU time per operation of the fibers workloads, jar A against jar B, A B B A per workload,
# then each virtual-thread competitor once (from A), one carrier (taskset -c 1), JDK 25.
# Usage: cpu.sh A_JAR B_JAR OUT    (CpuBench.java: ../2026-11-25-fiber-hop/, compiled into /tmp/hop3/cpu)
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
A=$1; B=$2; out=$3
CP=/tmp/hop3/cpu
echo "start $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" >> $out
one() { r=$(timeout 300 taskset -c 1 $J -Djdk.virtualThreadScheduler.parallelism=1 -Xms1g -Xmx1g -cp $1:$CP CpuBench $2 $3 200 2>&1 | grep "^cpu"); echo "$(date +%T) $(basename $1 .jar) $r load $(cut -d' ' -f1 /proc/loadavg)" >> $out; }
for w in ring comms park spawn; do
  one $A $w fiber; one $B $w fiber; one $B $w fiber; one $A $w fiber
done
one $A ring virtualThreadSyncQueue; one $A comms virtualThreadSyncQueue; one $A park virtualThread; one $A spawn virtualThread
echo "end $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" >> $out
