#!/usr/bin/env bash
# harness.sh JAR RESULTS: the hello A/B as bin/krill runs it, from a given jar
export KRILL_HOME="${KRILL_HOME:-$(pwd)}"
exec java -Dkrill.fibers.track=true -jar "$1" loadtest --scenario hello --connections 10000 --variants netty,httpd-fiber --rounds 2 --results "$2"
