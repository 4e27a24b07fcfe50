#!/usr/bin/env bash
# Open-loop accuracy benchmark: for a ladder of constant request rates against a zero-delay
# llmperf-mock on loopback (server and client pinned to different cores), prints the achieved
# rate, its error and the p50/p99 schedule lag (actual - planned send), and the largest rate that
# stays within 0.5 % of its target with p99 lag under 200 us. Each rate runs REPEATS times (default
# 3) and is judged by the median run (by p99 lag); the p99 range over the runs is printed too, since
# on a shared machine a neighbour's burst can ruin a single run.
# Usage: bench/rate_bench.sh [build-dir] [seconds-per-run] [repeats]
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build}"
seconds="${2:-3}"
repeats="${3:-3}"
[ -x "$build/llmperf" ] && [ -x "$build/llmperf-mock" ] || { echo "build llmperf first" >&2; exit 2; }
client_core=$(( $(nproc) > 1 ? 1 : 0 ))
work=$(mktemp -d)
taskset -c 0 "$build/llmperf-mock" --port 0 --output-tokens 2 >"$work/mock.out" 2>&1 &
mock_pid=$!
trap 'kill $mock_pid 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 100); do grep -q "listening on" "$work/mock.out" && break; sleep 0.1; done
base=$(sed -n 's/.*listening on \(http[^ ]*\).*/\1/p' "$work/mock.out")

echo "rate (req/s)  achieved  error %  lag p50 (us)  lag p99 (us)  p99 range (us)  ok"
best=0
for rate in 500 1000 2000 3000 5000 7500 10000; do
  : >"$work/runs"
  rm -rf "$work"/out_*
  for run in $(seq "$repeats"); do
    taskset -c "$client_core" "$build/llmperf" --url "$base/v1/chat/completions" --model m \
      --prompt hi --no-probe --rate "$rate" --arrival constant -n $((rate * seconds)) \
      --parallel 1000 --outputs-dir "$work/out_$run" >/dev/null 2>"$work/err" || true
    find "$work/out_$run" -name summary.json | head -n 1 >>"$work/runs"
  done
  line=$(python3 - "$rate" "$work/runs" <<'PY'
import json, sys
rate = float(sys.argv[1])
runs = []
for path in open(sys.argv[2]).read().split():
    s = json.load(open(path))
    lag = s["metrics"]["schedule_lag_ms"]["percentiles"]
    runs.append((lag["p99"] * 1000, lag["p50"] * 1000, s["open_loop"]["achieved_rate"]))
runs.sort()
p99, p50, achieved = runs[len(runs) // 2]  # the median run by p99 lag
err = abs(achieved - rate) / rate * 100
good = err <= 0.5 and p99 < 200
spread = f"{runs[0][0]:.0f}-{runs[-1][0]:.0f}"
print(f"{rate:>12.0f} {achieved:>9.1f} {err:>8.3f} {p50:>13.1f} {p99:>13.1f} {spread:>15}"
      f"  {'yes' if good else 'no'}")
PY
)
  echo "$line"
  case "$line" in *yes) best=$rate ;; esac
done
echo
echo "largest rate within 0.5 % with p99 schedule lag < 200 us (median of $repeats runs): $best req/s"
