#!/usr/bin/env bash
# Open-loop accuracy benchmark: for a ladder of constant request rates against a zero-delay
# llmperf-mock on loopback (server and client pinned to different cores), prints the achieved
# rate, its error and the p50/p99 schedule lag (actual - planned send), and the largest rate that
# stays within 0.5 % of its target with p99 lag under 200 us.
# Usage: bench/rate_bench.sh [build-dir] [seconds-per-rate]
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build}"
seconds="${2:-3}"
[ -x "$build/llmperf" ] && [ -x "$build/llmperf-mock" ] || { echo "build llmperf first" >&2; exit 2; }
client_core=$(( $(nproc) > 1 ? 1 : 0 ))
work=$(mktemp -d)
taskset -c 0 "$build/llmperf-mock" --port 0 --output-tokens 2 >"$work/mock.out" 2>&1 &
mock_pid=$!
trap 'kill $mock_pid 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 100); do grep -q "listening on" "$work/mock.out" && break; sleep 0.1; done
base=$(sed -n 's/.*listening on \(http[^ ]*\).*/\1/p' "$work/mock.out")

echo "rate (req/s)  achieved  error %  lag p50 (us)  lag p99 (us)  ok"
best=0
for rate in 500 1000 2000 3000 5000 7500 10000; do
  rm -rf "$work/out"
  taskset -c "$client_core" "$build/llmperf" --url "$base/v1/chat/completions" --model m \
    --prompt hi --no-probe --rate "$rate" --arrival constant -n $((rate * seconds)) \
    --parallel 1000 --outputs-dir "$work/out" >/dev/null 2>"$work/err" || true
  summary=$(find "$work/out" -name summary.json | head -n 1)
  line=$(python3 - "$summary" "$rate" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
rate = float(sys.argv[2])
achieved = s["open_loop"]["achieved_rate"]
lag = s["metrics"]["schedule_lag_ms"]["percentiles"]
err = abs(achieved - rate) / rate * 100
good = err <= 0.5 and lag["p99"] * 1000 < 200
print(f"{rate:>12.0f} {achieved:>9.1f} {err:>8.3f} {lag['p50']*1000:>13.1f} {lag['p99']*1000:>13.1f}"
      f"  {'yes' if good else 'no'}")
PY
)
  echo "$line"
  case "$line" in *yes) best=$rate ;; esac
done
echo
echo "largest rate within 0.5 % with p99 schedule lag < 200 us: $best req/s"
