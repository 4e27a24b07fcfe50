#!/usr/bin/env bash
# llmperf's speed benchmarks against llmperf-mock on loopback, server and client pinned to
# different cores with taskset. Prints three figures (see bench/README.md):
#   (a) SSE events per second one client core sustains when the server has zero delays;
#   (b) TTFT and ITL p50/p99 at 1,000 concurrent streams (TTFT 100 ms, ITL 10 ms), next to the
#       server's own record of when it wrote each event, and per event the time from the server's
#       write to llmperf's stamp;
#   (c) resident memory per in-flight stream.
# Usage: bench/run_bench.sh [build-dir]   (a Release build; default: build)
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build}"
llmperf="$build/llmperf"
mock="$build/llmperf-mock"
[ -x "$llmperf" ] && [ -x "$mock" ] || { echo "build llmperf first (scripts/build.sh)" >&2; exit 2; }
cores=$(nproc)
server_core=0
client_core=$(( cores > 1 ? 1 : 0 ))
work=$(mktemp -d)
mock_pid=""
trap '[ -n "$mock_pid" ] && kill "$mock_pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT

start_mock() {  # args: mock flags...
  taskset -c "$server_core" "$mock" --port 0 "$@" >"$work/mock.out" 2>&1 &
  mock_pid=$!
  for _ in $(seq 100); do grep -q "listening on" "$work/mock.out" && break; sleep 0.1; done
  base=$(sed -n 's/.*listening on \(http[^ ]*\).*/\1/p' "$work/mock.out")
}
stop_mock() { kill -TERM "$mock_pid"; wait "$mock_pid" 2>/dev/null || true; mock_pid=""; }

# Runs llmperf pinned to the client core under /usr/bin/time; leaves its summary.json path in
# $summary and "wall user sys maxrss_kib" in $work/time.
run_client() {
  rm -rf "$work/out"
  taskset -c "$client_core" /usr/bin/time -f "%e %U %S %M" -o "$work/time" \
    "$llmperf" --url "$base/v1/chat/completions" --model mock-model --prompt "hello" --no-probe \
    --outputs-dir "$work/out" "$@" >"$work/client.out" 2>"$work/client.err"
  summary=$(find "$work/out" -name summary.json | head -n 1)
}

echo "llmperf benchmarks: $(nproc) cores, server on core $server_core, client on core $client_core"
echo

echo "(a) SSE events/s on one client core, zero-delay server"
start_mock --output-tokens 50000
run_client --parallel 8 -n 48
stop_mock
python3 - "$summary" "$work/time" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
wall, user, sysc, rss = open(sys.argv[2]).read().split()
events = s["metrics"]["chunks_per_request"]["mean"] * s["metrics"]["chunks_per_request"]["count"]
cpu = float(user) + float(sysc)
print(f"    {int(events):,} events in {s['window_s']:.3f} s window: {events / s['window_s']:,.0f} events/s"
      f"  (client CPU {cpu:.2f} s: {events / cpu:,.0f} events per CPU-second; ok {s['requests']['succeeded']})")
PY
echo

echo "(b) 1,000 concurrent streams, server TTFT 100 ms and ITL 10 ms, 200 tokens each"
start_mock --ttft-ms 100 --itl-ms 10 --output-tokens 200 --event-log "$work/events.log"
run_client --parallel 1000 -n 2000 --connect-timeout 30
stop_mock
python3 bench/compare_event_log.py "$(dirname "$summary")" "$work/events.log"
echo

echo "(c) resident memory per in-flight stream (peak RSS, 1,000 vs 10 streams, one request each)"
start_mock --ttft-ms 100 --itl-ms 10 --output-tokens 200
run_client --parallel 10 -n 10
small=$(awk '{print $4}' "$work/time")
run_client --parallel 1000 -n 1000 --connect-timeout 30
large=$(awk '{print $4}' "$work/time")
stop_mock
python3 - "$small" "$large" <<'PY'
import sys
small, large = int(sys.argv[1]), int(sys.argv[2])
print(f"    peak RSS {small} KiB at 10 streams, {large} KiB at 1,000 streams: "
      f"{(large - small) / 990:.2f} KiB per stream (including each request's record)")
PY
