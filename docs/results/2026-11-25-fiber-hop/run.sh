#!/bin/bash
# A/B of main's benchmark jar against hop's, interleaved A B B A, JDK 25, one carrier.
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
OUT=/tmp/hopab
run() { # jar label round
  $J -jar /tmp/$1.jar \
    'RingBenchmark.hops|CommsTimeBenchmark|ParkUnparkBenchmark|SpawnJoinBenchmark|CrossLoopUnparkBenchmark' \
    -p competitor=fiber,virtualThreadSyncQueue,virtualThread -p tokens=1 \
    -f 1 -wi 3 -i 5 -w 1 -r 1 -rf json -rff $OUT/$2-$3.json > $OUT/$2-$3.log 2>&1
  echo "$(date +%T) done $2 $3 load: $(cut -d' ' -f1-3 /proc/loadavg)" >> $OUT/progress
}
echo "$(date +%T) start load: $(cut -d' ' -f1-3 /proc/loadavg)" > $OUT/progress
run hop-base main 1
run hop-new hop 1
run hop-new hop 2
run hop-base main 2
$J -jar /tmp/hop-base.jar 'RingBenchmark.hops' -p competitor=fiber -p tokens=1 -f 1 -wi 3 -i 3 -w 1 -r 1 -prof gc > $OUT/main-gc.log 2>&1
$J -jar /tmp/hop-new.jar 'RingBenchmark.hops' -p competitor=fiber -p tokens=1 -f 1 -wi 3 -i 3 -w 1 -r 1 -prof gc > $OUT/hop-gc.log 2>&1
echo "$(date +%T) all done" >> $OUT/progress
