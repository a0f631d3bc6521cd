#!/bin/bash
# Swap-out experiment on one jar (exp.jar: the slot runtime with two switches): the watchdog's
# slice bookkeeping (-Dexp.noslice) and the JFR park hooks (-Dexp.noevents) turned off.
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
out=$1; shift
CP=/tmp/hop2/cpu
echo "start $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" >> $out
one() { r=$(timeout 300 taskset -c 1 $J $2 -Djdk.virtualThreadScheduler.parallelism=1 -Xms1g -Xmx1g -cp /tmp/hop2/exp.jar:$CP CpuBench $1 fiber 200 2>&1 | grep "^cpu"); echo "$(date +%T) [$2] $r load $(cut -d' ' -f1 /proc/loadavg)" >> $out; }
for w in "$@"; do
  one $w -Dx=base; one $w -Dexp.noslice=true; one $w "-Dexp.noevents=true"; one $w "-Dexp.noevents=true"; one $w -Dexp.noslice=true; one $w -Dx=base
done
echo "end $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" >> $out
