#!/usr/bin/env bash
# Runs the README's test command (scripts/test.sh) in a fresh minimal Debian root: mmdebstrap's
# minbase variant plus only the base toolchain (build-essential, cmake, git, ca-certificates,
# python3), from the mirror this machine's apt uses, with a clean clone of this repository's HEAD
# inside. It proves that scripts/setup.sh installs every tool the build, the tests and the package
# step use: a developer's machine has tools a fresh one lacks, and a green run there can hide a
# missing install step. Run it before a release, and after changing scripts or dependencies.
#   scripts/fresh_root_test.sh                 the whole test command (as CI runs it)
#   scripts/fresh_root_test.sh QUICK=1         environment assignments are passed to scripts/test.sh
#   KEEP_ROOT=1 scripts/fresh_root_test.sh     keep the root (its path is printed) to look inside
# Needs root and mmdebstrap (scripts/setup.sh --test). Takes as long as the test command plus a few
# minutes for the root and the packages setup.sh installs in it.
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$(id -u)" -eq 0 ] || { echo "fresh_root_test: needs root (mmdebstrap --mode=root, chroot)" >&2; exit 1; }
command -v mmdebstrap >/dev/null ||
  { echo "fresh_root_test: mmdebstrap is missing: bash scripts/setup.sh --test" >&2; exit 1; }
# shellcheck disable=SC1091
codename="$(. /etc/os-release && echo "${VERSION_CODENAME:-}")"
[ -n "$codename" ] || { echo "fresh_root_test: no release name in /etc/os-release" >&2; exit 1; }

root="$(mktemp -d /var/tmp/llmperf-fresh-root.XXXXXX)"
mounted=()
child=""
cleanup() {
  # The test command runs in a process group of its own: end all of it before unmounting.
  if [ -n "$child" ] && kill -0 "$child" 2>/dev/null; then
    kill -TERM -- "-$child" 2>/dev/null
    sleep 2
    kill -KILL -- "-$child" 2>/dev/null
  fi
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
    umount -R "${mounted[$i]}" 2>/dev/null || umount -R -l "${mounted[$i]}" 2>/dev/null || true
  done
  if [ "${KEEP_ROOT:-0}" = "1" ]; then
    echo "fresh_root_test: the root is kept at $root"
  else
    rm -rf --one-file-system "$root"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

started=$SECONDS
echo "fresh_root_test: building a minimal Debian $codename root in $root"
# No mirror is named: mmdebstrap takes its default Debian mirror for the release.
mmdebstrap --mode=root --variant=minbase --quiet \
  --include=build-essential,cmake,git,ca-certificates,python3 "$codename" "$root"
git clone --quiet "$PWD" "$root/llmperf"
cp /etc/resolv.conf "$root/etc/resolv.conf"
for fs in proc sys dev; do
  case $fs in
    proc) mount -t proc proc "$root/proc" ;;
    *) mount --rbind "/$fs" "$root/$fs" && mount --make-rslave "$root/$fs" ;;
  esac
  mounted+=("$root/$fs")
done
echo "fresh_root_test: root ready after $((SECONDS - started)) s; running scripts/test.sh $*"
test_started=$SECONDS
set +e
setsid chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 CI=true \
  "$@" bash -c 'cd /llmperf && bash scripts/test.sh' </dev/null &
child=$!
wait "$child"
rc=$?
set -e
echo "fresh_root_test: scripts/test.sh exited $rc after $((SECONDS - test_started)) s" \
  "($((SECONDS - started)) s with the root)"
exit $rc
