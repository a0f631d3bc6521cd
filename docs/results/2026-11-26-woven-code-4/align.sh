#!/bin/bash
# Is the tight loop's gap a code-layout effect? The woven row with C2's default loop alignment (16 bytes),
# with loops aligned to 32, and with loops and entries aligned to 64, on the jars named as arguments.
# (align1.log: the first version, whose flag sets failed to start; JCC-erratum mitigation is off here anyway.)
# Run as: flock /tmp/krill-bench.lock chrt -r 20 align.sh JAR...
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
JMH="-f 1 -wi 3 -i 5 -w 1s -r 1s -p weaving=woven"
for jar in "$@"; do
  for flags in "-Dx=default" "-XX:OptoLoopAlignment=32" "-XX:+UnlockExperimentalVMOptions -XX:CodeEntryAlignment=64 -XX:OptoLoopAlignment=64"; do
    echo "=== $jar $flags $(date -u +%T) load: $(cut -d' ' -f1-3 /proc/loadavg)"
    taskset -c 1 $J25 -jar $jar 'TightLoopBenchmark' $JMH -jvmArgsAppend "$flags" 2>&1 | grep "^TightLoop\|rror"
  done
done
echo "=== end $(date -u +%T)"
