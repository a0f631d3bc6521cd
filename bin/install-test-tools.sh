#!/usr/bin/env bash
# Installs the Debian tools that krill's tests and benchmarks drive, when they are missing:
#
#   tool          command checked                  Debian package
#   nginx         nginx                            nginx
#   wrk           wrk                              wrk
#   nghttp        nghttp (and h2load)              nghttp2-client
#   chromium      /usr/lib/chromium/chromium       chromium
#   chromedriver  chromedriver                     chromium-driver
#
# Usage: bin/install-test-tools.sh [tool...]   (no tool: all of them)
#
# Idempotent: a tool already present is left alone, and when nothing is missing no package index
# is fetched. Otherwise it runs `apt-get update` once and installs only the missing packages (as
# root, else through sudo). Concurrent runs (several test JVMs) queue on one lock file, so only
# one of them talks to apt at a time. Exit status: 0 when every requested tool is present at the
# end, 1 when one is still missing (its name is printed), 2 for an unknown tool name.
set -euo pipefail

ALL=(nginx wrk nghttp chromium chromedriver)

package_of() {
  case "$1" in
    nginx) echo nginx ;;
    wrk) echo wrk ;;
    nghttp | h2load) echo nghttp2-client ;;
    chromium) echo chromium ;;
    chromedriver) echo chromium-driver ;;
    *) return 1 ;;
  esac
}

present() {
  case "$1" in
    # nginx lives in /usr/sbin, which a non-root PATH may lack.
    nginx) command -v nginx >/dev/null 2>&1 || [[ -x /usr/sbin/nginx ]] ;;
    # The real binary, not the /usr/bin/chromium wrapper: tests start it directly.
    chromium) [[ -x /usr/lib/chromium/chromium ]] ;;
    *) command -v "$1" >/dev/null 2>&1 ;;
  esac
}

tools=("$@")
if [[ ${#tools[@]} -eq 0 ]]; then tools=("${ALL[@]}"); fi
for t in "${tools[@]}"; do
  if ! package_of "$t" >/dev/null; then
    echo "install-test-tools: unknown tool '$t' (expected one of: ${ALL[*]} h2load)" >&2
    exit 2
  fi
done

missing_packages() {
  local t p out=()
  for t in "${tools[@]}"; do
    if ! present "$t"; then
      p=$(package_of "$t")
      [[ " ${out[*]-} " == *" $p "* ]] || out+=("$p")
    fi
  done
  echo "${out[*]-}"
}

missing=$(missing_packages)
if [[ -n "$missing" ]]; then
  SUDO=""
  if [[ "$(id -u)" != 0 ]]; then SUDO=sudo; fi
  # One installer at a time; the second one re-checks after the first one finished.
  exec 9>"${TMPDIR:-/tmp}/krill-install-test-tools.lock"
  flock 9
  missing=$(missing_packages)
  if [[ -n "$missing" ]]; then
    echo "install-test-tools: installing $missing"
    export DEBIAN_FRONTEND=noninteractive
    # shellcheck disable=SC2086 # the package list is meant to split into words
    $SUDO apt-get -o DPkg::Lock::Timeout=600 update -q
    # shellcheck disable=SC2086
    $SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -q $missing
  fi
fi

status=0
for t in "${tools[@]}"; do
  if present "$t"; then
    echo "$t: present"
  else
    echo "$t: MISSING (package $(package_of "$t"))" >&2
    status=1
  fi
done
exit $status
