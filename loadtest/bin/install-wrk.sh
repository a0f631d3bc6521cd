#!/usr/bin/env bash
# Installs wrk, the second load generator the loadtest harness uses to cross-check the hello
# scenario, when it is missing. Idempotent. Kept for its documented path: the project's one
# installer of test tools, bin/install-test-tools.sh, does the work.
set -euo pipefail
exec "$(dirname "$0")/../../bin/install-test-tools.sh" wrk
