#!/usr/bin/env bash
# Issue 23's run, repeated: ShareGPT against llama.cpp's server (-c 8192 --parallel 4, which closes
# the connection after every streamed response while advertising keep-alive), --ignore-eos --seed 7
# --parallel 4 -n 40, REPEATS times (default 20). Prints each run's failed and resent requests and
# the totals; exits 1 when any request failed. Before issue 23's fix 1 to 4 of the 40 failed with
# "Connection died, tried 5 times before giving up" in every run (libcurl 7.88).
# Usage: bench/llama_reuse_runs.sh [build-dir] [repeats] [llama-server-dir]
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build}"
repeats="${2:-20}"
server_dir="${3:-${LLMPERF_LLAMA_SERVER_DIR:-/work/shared/llama-server}}"
[ -x "$build/llmperf" ] || { echo "build llmperf first" >&2; exit 2; }
[ -x "$server_dir/llama-server" ] || { echo "no llama-server in $server_dir" >&2; exit 2; }
work=$(mktemp -d)
"$server_dir/llama-server" -m "$server_dir/tiny-llama-spm.gguf" --host 127.0.0.1 --port 0 \
  -c 8192 --parallel 4 -t 1 --metrics --alias tiny-llama --no-webui >"$work/server.log" 2>&1 &
server_pid=$!
trap 'kill $server_pid 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 600); do grep -q "listening on http" "$work/server.log" && break; sleep 0.1; done
base=$(sed -n 's/.*listening on \(http:[^ ]*\) .*/\1/p' "$work/server.log" | head -n 1)
python3 - "$base/health" <<'PY'
import sys, time, urllib.request
for _ in range(600):
    try:
        if urllib.request.urlopen(sys.argv[1], timeout=1).status == 200:
            break
    except Exception:
        pass
    time.sleep(0.1)
PY

echo "run  requests  failed  resent  seconds"
total_failed=0
total_resent=0
for run in $(seq "$repeats"); do
  out="$work/run_$run"
  start=$(date +%s%N)
  "$build/llmperf" --url "$base/v1/chat/completions" --model tiny-llama --dataset sharegpt \
    --dataset-path tests/fixtures/sharegpt/sample.json --ignore-eos --seed 7 --parallel 4 -n 40 \
    --outputs-dir "$out" >"$out.txt" 2>"$out.err" || true
  tenths=$((($(date +%s%N) - start) / 100000000))
  summary=$(find "$out" -name summary.json | head -n 1)
  read -r requests failed resent < <(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["requests"]
print(r["total"], r["failed"], r.get("resent", 0))' "$summary")
  printf "%3d  %8d  %6d  %6d  %5d.%d\n" "$run" "$requests" "$failed" "$resent" $((tenths / 10)) $((tenths % 10))
  total_failed=$((total_failed + failed))
  total_resent=$((total_resent + resent))
done
echo "total: $repeats runs, $total_failed failed, $total_resent resent"
[ "$total_failed" -eq 0 ]
