#!/usr/bin/env bash
# Installs wrk, the second load generator the loadtest harness uses to cross-check the hello
# scenario, when it is missing. Idempotent: does nothing when wrk is on the PATH. Nothing in
# the build or the tests depends on wrk.
set -euo pipefail
if command -v wrk >/dev/null 2>&1; then
  echo "wrk: already installed ($(command -v wrk))"
  exit 0
fi
SUDO=""
if [[ "$(id -u)" != 0 ]]; then SUDO=sudo; fi
$SUDO apt-get update
$SUDO apt-get install -y wrk
echo "wrk: installed ($(command -v wrk))"
