#!/bin/bash
# CPU time per operation of the fibers workloads, main's benchmark jar against hop's,
# interleaved main, hop, hop, main per workload, then each virtual-thread competitor once.
# Usage: cpu.sh MAIN_JAR HOP_JAR OUT    (CpuBench.java: ../2026-11-25-fiber-hop/, compiled into /tmp/hop2/cpu)
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
MAIN=$1; HOP=$2; out=$3
CP=/tmp/hop2/cpu
echo "start $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" > $out
one() { r=$(timeout 300 taskset -c 1 $J -Djdk.virtualThreadScheduler.parallelism=1 -Xms1g -Xmx1g -cp $1:$CP CpuBench $2 $3 200 2>&1 | grep "^cpu"); echo "$(date +%T) $(basename $1 .jar) $r load $(cut -d' ' -f1 /proc/loadavg)" >> $out; }
for w in ring comms park spawn; do
  one $MAIN $w fiber; one $HOP $w fiber; one $HOP $w fiber; one $MAIN $w fiber
done
one $MAIN ring virtualThreadSyncQueue; one $MAIN comms virtualThreadSyncQueue; one $MAIN park virtualThread; one $MAIN spawn virtualThread
echo "end $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" >> $out
