# Sourced by .ci/run and run-tests.sh: installs Debian/Ubuntu packages as root, or through sudo when it needs no
# password; apt_install returns non-zero where that is impossible (no apt-get, not root, no sudo).
as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null 2>&1; then sudo -n "$@"; else return 1; fi
}

apt_updated=false
apt_install() {
  command -v apt-get >/dev/null 2>&1 || return 1
  if ! $apt_updated; then
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq || true
    apt_updated=true
  fi
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@"
}
