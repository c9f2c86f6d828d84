#!/usr/bin/env bash
# The test command: installs what the suite needs and cannot get from Maven Central, then runs the suite.
#   bash run-tests.sh                 # set up (when something is missing), then mvn -B -ntp verify
#   bash run-tests.sh -pl job-guard-core   # extra arguments go to Maven
#   JOBGUARD_NO_INSTALL=1 bash run-tests.sh   # never install: a missing tool fails its tests, naming the package
# What it installs, on Debian/Ubuntu as root or through sudo, only when missing: redis-server (the tests fall back to
# an embedded Redis binary without it), chromium and chromium-driver (DashboardBrowserIT drives a real headless
# Chromium), prometheus with promtool (PromtoolTest, PrometheusIT). A JDK 17+ and Maven 3.8.1+ must be on PATH
# (.ci/run installs them on a bare machine). PostgreSQL and Redis servers for the tests come from PATH, Docker or
# Maven (see CONTRIBUTING.md); nothing else is needed.
set -euo pipefail
cd "$(dirname "$0")"

log() { printf '[run-tests] %s\n' "$*"; }

. .ci/apt.sh

need() { # what, package..., test expression follows after --
  local what="$1"; shift
  local packages=()
  while [ "$1" != "--" ]; do packages+=("$1"); shift; done
  shift
  if "$@" >/dev/null 2>&1; then
    return 0
  fi
  if [ -n "${JOBGUARD_NO_INSTALL:-}" ]; then
    log "missing: $what (Debian/Ubuntu packages: ${packages[*]}); JOBGUARD_NO_INSTALL is set, not installing"
    return 0
  fi
  log "missing: $what: installing ${packages[*]}"
  apt_install "${packages[@]}" || log "could not install ${packages[*]} (not root, no sudo, or no apt-get): $what's tests will fail, naming these packages"
}

for tool in java mvn; do
  command -v "$tool" >/dev/null 2>&1 || { log "no $tool on PATH: install a JDK 17+ and Maven 3.8.1+ (bash .ci/run does on Debian/Ubuntu)"; exit 1; }
done

need "redis-server (else the embedded Redis binary)" redis-server -- command -v redis-server
need "Chromium and its driver (DashboardBrowserIT)" chromium chromium-driver -- test -x /usr/bin/chromium -a -x /usr/bin/chromedriver
need "prometheus and promtool (PromtoolTest, PrometheusIT)" prometheus -- sh -c 'command -v promtool >/dev/null && command -v prometheus >/dev/null'

log "java: $(java -version 2>&1 | head -1)"
log "mvn: $(mvn -v 2>/dev/null | head -1)"
log "redis-server: $(command -v redis-server || echo 'not on PATH (embedded fallback)')"
log "chromium: $(/usr/bin/chromium --version 2>/dev/null || echo missing)"
log "promtool: $(promtool --version 2>&1 | head -1 || echo missing)"
log "running: mvn -B -ntp verify $*"
exec mvn -B -ntp verify "$@"
