#!/usr/bin/env bash
# The package test: installs llmperf's .deb into a fresh minimal Debian root of this machine's
# release (Debian 12 here), built by mmdebstrap (variant apt: Essential packages and apt, nothing
# else) from the Debian mirror this machine's apt uses. Inside it, it checks `llmperf --version`,
# the man pages, datasets and docs, and runs two short benchmarks against the installed
# llmperf-mock. It proves the .deb is complete: every library the binaries need is declared in
# Depends, and every file is where the docs say.
#   tests/package/deb_install_test.sh [path/to/llmperf_<version>_<arch>.deb]
# Without an argument it takes the one .deb in build-pkg/ (make it with scripts/package.sh).
# Needs root, mmdebstrap (scripts/setup.sh --test) and the mirror; where one of these is missing,
# or the root cannot be built here, it prints "SKIP: <why>" and exits SKIP_CODE (default 0; 77
# for ctest's SKIP_RETURN_CODE). Takes about 40 s on 2 cores, mostly fetching and unpacking the
# ~100 packages of the root.
set -euo pipefail
cd "$(dirname "$0")/../.."
skip_code="${SKIP_CODE:-0}"
skip() {
  echo "SKIP: deb_install_test: $*"
  exit "$skip_code"
}
fail() {
  echo "FAIL: deb_install_test: $*" >&2
  exit 1
}

deb="${1:-}"
if [ -z "$deb" ]; then
  shopt -s nullglob
  debs=(build-pkg/llmperf_*.deb)
  shopt -u nullglob
  [ ${#debs[@]} -eq 1 ] || fail "expected one build-pkg/llmperf_*.deb, found ${#debs[@]}:" \
    "run scripts/package.sh first, or pass the .deb's path"
  deb="${debs[0]}"
fi
[ -f "$deb" ] || fail "$deb: no such file"
deb="$(realpath "$deb")"
version="$(dpkg-deb -f "$deb" Version)"

[ "$(id -u)" -eq 0 ] || skip "needs root to build a chroot (run as root or with sudo)"
command -v mmdebstrap >/dev/null || skip "mmdebstrap is not installed (scripts/setup.sh --test)"

# The root is of this machine's Debian release (the one the .deb's Depends were computed on), from
# the repositories this machine's apt uses, as sources.list lines: the same mirror (and so the
# same proxy or snapshot, if any), not a hard-coded one.
# shellcheck disable=SC1091
codename="$(. /etc/os-release && [ "${ID:-}" = debian ] && echo "${VERSION_CODENAME:-}")" || true
[ -n "$codename" ] || skip "this is not a Debian system with a release name in /etc/os-release"
# shellcheck disable=SC2016  # $(ORIGIN) etc. are apt's placeholders, not the shell's
sources="$(apt-get indextargets --format '$(ORIGIN) $(REPO_URI) $(RELEASE) $(COMPONENT)' \
  'Identifier: Packages' 2>/dev/null |
  awk -v r="$codename" '$1 == "Debian" && ($3 == r || index($3, r "-") == 1) {
         c[$2 " " $3] = c[$2 " " $3] " " $4
       }
       END { for (k in c) print "deb " k c[k] }' | sort)"
if [ -z "$sources" ]; then
  sources="deb http://deb.debian.org/debian $codename main"  # apt-get update was never run
fi
mirror="$(echo "$sources" | awk -v r="$codename" '$3 == r { print $2; exit }')"
[ -n "$mirror" ] || skip "apt's sources have no Debian $codename repository: $sources"
if command -v curl >/dev/null &&
  ! curl -sf -o /dev/null --max-time 20 "${mirror%/}/dists/$codename/Release"; then
  skip "cannot reach the Debian mirror $mirror"
fi

work="$(mktemp -d /tmp/llmperf-deb-test.XXXXXX)"
trap 'rm -rf "$work"' EXIT
echo "$sources" >"$work/sources.list"
cp "$deb" "$work/"
deb_name="$(basename "$deb")"

# What runs inside the root, as root, once the .deb is installed. $1: the expected version.
cat >"$work/check.sh" <<'CHECK'
set -eu
version="$1"
echo "check: llmperf --version"
llmperf --version | tee /tmp/version.txt
grep -qx "llmperf $version" /tmp/version.txt || { echo "expected 'llmperf $version'"; exit 1; }
echo "check: man pages, datasets, docs"
for f in /usr/share/man/man1/llmperf.1.gz /usr/share/man/man1/llmperf-mock.1.gz \
         /usr/share/llmperf/datasets/open_qa.jsonl /usr/share/doc/llmperf/README.md \
         /usr/share/doc/llmperf/copyright /usr/share/doc/llmperf/docs/metrics.md \
         /usr/share/doc/llmperf/docs/mock.md; do
  test -s "$f" || { echo "missing: $f"; exit 1; }
done
# The man pages' FILES sections name the pages under docs/ that the package installs.
zcat /usr/share/man/man1/llmperf.1.gz | grep -q '/usr/share/doc/llmperf/docs/' ||
  { echo "llmperf.1 does not point to /usr/share/doc/llmperf/docs/"; exit 1; }
zcat /usr/share/man/man1/llmperf-mock.1.gz | grep -q '/usr/share/doc/llmperf/docs/mock.md' ||
  { echo "llmperf-mock.1 does not point to /usr/share/doc/llmperf/docs/mock.md"; exit 1; }
# The Optuna bridge is installed where llmperf looks for it; the root has no Python (the package
# only recommends python3-optuna), so a learned search stops before anything runs, naming it.
echo "check: tune --strategy tpe:N without python3-optuna"
test -s /usr/share/llmperf/optuna_bridge.py || { echo "missing: /usr/share/llmperf/optuna_bridge.py"; exit 1; }
# ... and the shared study's module it imports from beside it (--storage).
test -s /usr/share/llmperf/optuna_storage.py || { echo "missing: /usr/share/llmperf/optuna_storage.py"; exit 1; }
if llmperf tune --serve 'never-started {port} {a}' --param a=1,2 --strategy tpe:2 --dry-run \
     --url 'http://127.0.0.1:{port}/v1/chat/completions' --model m --prompt hi 2>/tmp/tpe.txt; then
  echo "tpe:2 ran without Optuna"; exit 1
fi
grep -q "apt-get install python3-optuna" /tmp/tpe.txt || { cat /tmp/tpe.txt; exit 1; }
echo "check: llmperf-mock on a free loopback port"
llmperf-mock --port 0 >/tmp/mock.log 2>&1 &
mock_pid=$!
trap 'kill $mock_pid 2>/dev/null || true' EXIT
i=0
until grep -q "listening on" /tmp/mock.log; do
  i=$((i + 1))
  if [ $i -gt 100 ] || ! kill -0 $mock_pid 2>/dev/null; then cat /tmp/mock.log; exit 1; fi
  sleep 0.1
done
base="$(sed -n 's/.*listening on \(http[^ ]*\).*/\1/p' /tmp/mock.log)"
echo "check: llmperf --prompt hi -n 10 --parallel 2 against $base"
run() {  # outputs dir, llmperf flags...: runs llmperf quietly, shows its output if it fails
  out="$1"
  shift
  llmperf --url "$base/v1/chat/completions" --model mock-model -n 10 --parallel 2 \
    --outputs-dir "$out" "$@" >/tmp/run.log 2>&1 || { cat /tmp/run.log; exit 1; }
  test -n "$(find "$out" -name summary.json)" || { echo "no summary.json in $out"; exit 1; }
}
run /tmp/x --prompt hi
echo "check: the same with the installed open_qa dataset"
run /tmp/y --dataset openqa --dataset-path /usr/share/llmperf/datasets/open_qa.jsonl
echo "check: all passed"
CHECK

# One mmdebstrap run, written to /dev/null: its hooks install the .deb and run the checks inside
# the root while it exists (mmdebstrap mounts /proc, /sys and /dev there and removes everything
# afterwards). The first hook leaves a mark, so a failure before it (no network, chroot or mounts
# not permitted) skips and a failure after it fails.
started=$SECONDS
echo "deb_install_test: building a Debian $codename root from $mirror and installing $deb_name"
set +e
mmdebstrap --mode=root --variant=apt --quiet \
  --customize-hook="touch '$work/root-ready'" \
  --customize-hook="copy-in '$work/$deb_name' '$work/check.sh' /tmp" \
  --customize-hook="chroot \"\$1\" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
    --no-install-recommends '/tmp/$deb_name'" \
  --customize-hook="chroot \"\$1\" sh /tmp/check.sh '$version'" \
  "$codename" /dev/null "$work/sources.list" >"$work/log" 2>&1
rc=$?
set -e
if [ ! -f "$work/root-ready" ]; then
  tail -n 15 "$work/log"
  skip "mmdebstrap could not build the root here (exit $rc, last lines above)"
fi
if [ $rc -ne 0 ]; then
  cat "$work/log"
  fail "the .deb failed in a fresh Debian root (mmdebstrap exit $rc, log above)"
fi
# What apt had to add besides llmperf (its dependencies, resolved from Depends), and the checks.
sed -n '/NEW packages will be installed/,/newly installed/p; /^check:/p' "$work/log"
echo "PASS: deb_install_test: $deb_name installs and runs in a fresh Debian root" \
  "($((SECONDS - started)) s)"
