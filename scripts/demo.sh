#!/usr/bin/env bash
# The README's first command: installs what is missing, builds llmperf in Release, starts the
# bundled simulated server (llmperf-mock) on a free loopback port, runs a small concurrency sweep
# on the bundled sample dataset, prints the summary tables, and stops the server.
# Extra arguments are passed to llmperf (e.g. `scripts/demo.sh --threads 2`).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# A unity build (fewer, larger translation units): about a third of the time of one compiler run
# per source. The test command checks that every source also compiles on its own.
bash scripts/build.sh -DBUILD_TESTING=OFF -DCMAKE_UNITY_BUILD=ON

mock_log=$(mktemp)
build/llmperf-mock --port 0 --ttft-ms 80 --itl-ms 15 --output-tokens 32 >"$mock_log" 2>&1 &
mock_pid=$!
cleanup() {
  kill "$mock_pid" 2>/dev/null || true
  wait "$mock_pid" 2>/dev/null || true
  rm -f "$mock_log"
}
trap cleanup EXIT
for _ in $(seq 100); do
  grep -q "listening on" "$mock_log" && break
  sleep 0.1
done
base_url=$(sed -n 's/.*listening on \(http[^ ]*\).*/\1/p' "$mock_log")
if [ -z "$base_url" ]; then
  echo "demo: llmperf-mock did not start:" >&2
  cat "$mock_log" >&2
  exit 1
fi
echo "demo: llmperf-mock is serving at $base_url (TTFT 80 ms, 15 ms between tokens, 32 tokens)" >&2

build/llmperf --url "$base_url/v1/chat/completions" --model mock-model \
  --dataset openqa --dataset-path datasets/open_qa.jsonl \
  --parallel 1 4 16 -n 8 32 128 --sleep-interval 0 "$@"
