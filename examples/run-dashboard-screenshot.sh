#!/usr/bin/env bash
# One command: runs DashboardBrowserIT (two nodes on one Redis, a real headless Chromium) and saves its
# screenshot of the dashboard page to docs/images/dashboard.png (the picture in docs/operations.md).
# Needs JDK 17+, Maven and the Debian/Ubuntu packages chromium and chromium-driver; installs nothing into ~/.m2.
#   examples/run-dashboard-screenshot.sh [output.png]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="$(realpath -m "${1:-$root/docs/images/dashboard.png}")"
cd "$root"
mvn -B -ntp -pl examples/dashboard -am verify -Dtest=NONE -Dit.test=DashboardBrowserIT \
  -Dsurefire.failIfNoSpecifiedTests=false -Dfailsafe.failIfNoSpecifiedTests=false \
  -Djobguard.skipJavadoc=true -Ddashboard.screenshot="$out"
echo "screenshot: $out"
