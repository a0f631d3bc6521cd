#!/bin/bash
# CPU time per operation of the fibers workloads, main's jar against hop's, interleaved
# main, hop, hop, main per workload; then (with "vt") each virtual-thread competitor once.
# Usage: cpu.sh HOP_JAR OUT [vt]   (jars in /tmp: hop-base.jar is main's benchmarks.jar)
# Sittings: cpu.sh hop-byte cpu.txt vt (a61e6e1), then cpu.sh hop-final cpu2.txt (951ec45;
# workloads in the order spawn ring park comms).
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
HOP=$1
out=$2
cd "$(dirname "$0")" && javac -cp /tmp/hop-base.jar -d /tmp/hopab/cpu CpuBench.java
echo "start $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" > $out
one() { r=$(timeout 300 taskset -c 0 $J -Djdk.virtualThreadScheduler.parallelism=1 -Xms1g -Xmx1g -cp /tmp/$1.jar:/tmp/hopab/cpu CpuBench $2 $3 200 2>&1 | grep "^cpu"); echo "$(date +%T) $1 $r" >> $out; }
for w in ring park comms spawn; do
  one hop-base $w fiber; one $HOP $w fiber; one $HOP $w fiber; one hop-base $w fiber
done
if [ "$3" = vt ]; then
  one hop-base ring virtualThreadSyncQueue; one hop-base park virtualThread; one hop-base comms virtualThreadSyncQueue; one hop-base spawn virtualThread
fi
echo "end $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" >> $out
