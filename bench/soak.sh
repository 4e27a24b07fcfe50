#!/usr/bin/env bash
# Bounded soak test (not part of CI): 2,000 concurrent streams against llmperf-mock for SECONDS
# with 1 % of requests hit by faults (HTTP 500, 429, drop, reset, stall, malformed SSE, error
# event, truncated chunked body). Every 10 s it samples llmperf's resident memory (VmRSS), open
# descriptors (/proc/PID/fd) and finished requests (lines of the live requests.jsonl.partial), and
# prints them all, then the RSS growth per finished request over the second half of the run: with
# records streamed to disk, that is the 64-byte row per request that exact per-request percentiles
# keep (DESIGN §3), and anything well above it is a leak. Checks that every request is accounted
# for: summary.json total = succeeded + failed = failures by kind + succeeded = lines of
# requests.jsonl. Exits 1 when a check fails.
# Usage: bench/soak.sh [SECONDS (default 180)] [build-dir (default build)] [PARALLEL (default 2000)]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-180}"
build="${2:-build}"
parallel="${3:-2000}"
llmperf="$build/llmperf"
mock="$build/llmperf-mock"
[ -x "$llmperf" ] && [ -x "$mock" ] || { echo "build llmperf first (scripts/build.sh)" >&2; exit 2; }
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
work=$(mktemp -d)
mock_pid=""
client_pid=""
cleanup() {
  [ -n "$client_pid" ] && kill "$client_pid" 2>/dev/null
  [ -n "$mock_pid" ] && kill "$mock_pid" 2>/dev/null
  wait 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

# Each stream: 200 ms to the first token, then 40 tokens 50 ms apart (about 2.2 s).
"$mock" --port 0 --ttft-ms 200 --itl-ms 50 --output-tokens 40 --seed 5 \
  --fault-http-rate 0.0015 --fault-429-rate 0.0015 --fault-drop-rate 0.001 \
  --fault-reset-rate 0.001 --fault-stall-rate 0.001 --fault-malformed-rate 0.001 \
  --fault-error-event-rate 0.0015 --fault-truncate-rate 0.0015 \
  >"$work/mock.out" 2>"$work/mock.err" &
mock_pid=$!
for _ in $(seq 100); do grep -q listening "$work/mock.out" && break; sleep 0.1; done
url="$(grep -o 'http://[^ ]*' "$work/mock.out")/v1/chat/completions"

"$llmperf" --url "$url" --model mock-model --prompt "soak test prompt" --no-probe \
  --parallel "$parallel" -n 100000000 --duration "$seconds" --read-timeout 5 \
  --outputs-dir "$work/out" --name soak >"$work/stdout" 2>"$work/stderr" &
client_pid=$!

sample() {  # elapsed_s rss_kib fds finished_requests
  local rss fds finished partial
  rss=$(awk '/^VmRSS/ {print $2}' "/proc/$client_pid/status" 2>/dev/null || echo 0)
  fds=$(ls "/proc/$client_pid/fd" 2>/dev/null | wc -l)
  partial=$(find "$work/out" -name requests.jsonl.partial 2>/dev/null | head -n 1)
  finished=$([ -n "$partial" ] && wc -l <"$partial" || echo 0)
  echo "$1 $rss $fds $finished"
}
echo "elapsed_s rss_kib fds finished" >"$work/samples"
start=$(date +%s)
while kill -0 "$client_pid" 2>/dev/null; do
  elapsed=$(( $(date +%s) - start ))
  [ "$elapsed" -ge 10 ] && [ "$elapsed" -le "$seconds" ] && sample "$elapsed" >>"$work/samples"
  sleep 10
done
set +e
wait "$client_pid"
rc=$?
set -e
client_pid=""
echo "soak: llmperf exited $rc after $(( $(date +%s) - start )) s"
echo "soak: samples:"
column -t "$work/samples"
python3 - "$work/samples" <<'PY'
import sys
rows = [list(map(int, line.split())) for line in open(sys.argv[1]).read().splitlines()[1:]]
if len(rows) >= 4:
    a, b = rows[len(rows) // 2], rows[-1]
    if b[3] > a[3]:
        print(f"soak: RSS {rows[0][1] / 1024:.1f} MB -> {b[1] / 1024:.1f} MB; second half: "
              f"{(b[1] - a[1]) * 1024 / (b[3] - a[3]):.0f} bytes per finished request "
              f"({b[3] - a[3]} requests); descriptors {rows[0][2]} -> {b[2]}")
PY

summary=$(find "$work/out" -name summary.json | head -n 1)
requests=$(dirname "$summary")/requests.jsonl
[ -n "$summary" ] || { echo "soak: FAIL: no summary.json"; tail "$work/stderr"; exit 1; }
python3 - "$summary" "$requests" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
r = s["requests"]
lines = sum(1 for _ in open(sys.argv[2]))
by_kind = s.get("failures_by_kind", {})
print(f"soak: requests total {r['total']}, succeeded {r['succeeded']}, failed {r['failed']}, "
      f"requests.jsonl lines {lines}, qps {s.get('qps')}")
print("soak: failures by kind: " + (", ".join(f"{k} {v}" for k, v in sorted(by_kind.items())) or "none"))
ok = (r["total"] == r["succeeded"] + r["failed"] == lines
      and sum(by_kind.values()) == r["failed"])
print("soak: every request accounted for" if ok else "soak: FAIL: counts disagree")
sys.exit(0 if ok else 1)
PY
