#!/bin/bash
# usage: xbind.sh out new.jar xbind.jar; swap-out measurement (never committed): xbind is new with
# Stack.bind storing null instead of Stack.NONE into the carrier thread (current() maps it back).
d=$(dirname $0); out=$1
for jar in $2 $3 $2 $3; do COMP=fiber $d/run.sh $out $jar 'fibers\.(ParkUnpark|SpawnJoin)Benchmark'; done
