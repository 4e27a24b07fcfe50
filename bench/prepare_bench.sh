#!/usr/bin/env bash
# Preparation time of token-exact prompts (--dataset random): how long llmperf takes to make N
# prompts of L tokens with the server's tokenizer, against llmperf-mock (vLLM-shaped tokenize API)
# and, where it is present, llama.cpp's server (../shared/llama-server, or $LLAMA_SERVER_DIR). Each
# case runs RUNS times (default 3) and prints the time llmperf reports for making the prompts
# ("prompts: N made in S s"), the tokenize calls it took, and whether every prompt fitted.
# Usage: bench/prepare_bench.sh [build-dir] [prompts] [tokens]   (default: build 1000 1000)
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build}"
prompts="${2:-1000}"
tokens="${3:-1000}"
runs="${RUNS:-3}"
llmperf="$build/llmperf"
mock="$build/llmperf-mock"
[ -x "$llmperf" ] && [ -x "$mock" ] || { echo "build llmperf first (scripts/build.sh)" >&2; exit 2; }
work=$(mktemp -d)
server_pid=""
trap '[ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT

# Starts a server command whose log announces "listening on http://HOST:PORT"; sets $base.
start_server() {
  "$@" >"$work/server.log" 2>&1 &
  server_pid=$!
  base=""
  for _ in $(seq 300); do
    base=$(sed -n 's/.*listening on \(http:\/\/[0-9.:]*\).*/\1/p' "$work/server.log" | head -n 1)
    [ -n "$base" ] && break
    sleep 0.1
  done
  [ -n "$base" ] || { echo "server did not start:" >&2; cat "$work/server.log" >&2; exit 1; }
}
stop_server() { kill -TERM "$server_pid" 2>/dev/null; wait "$server_pid" 2>/dev/null || true; server_pid=""; }

# Makes $prompts prompts of $tokens tokens $runs times against $base (model $1, API path $2).
measure() {
  local model=$1 path=$2 label=$3
  for i in $(seq "$runs"); do
    "$llmperf" --url "$base$path" --model "$model" --dataset random --input-tokens "$tokens" \
      --output-tokens 1 --parallel 1 -n "$prompts" --no-probe --duration 0.001 \
      --outputs-dir "$work/out" >/dev/null 2>"$work/client.err" || true
    line=$(grep -o 'prompts: .*' "$work/client.err" | head -n 1)
    echo "    $label run $i: ${line:-no preparation line (see below)}"
    [ -n "$line" ] || tail -n 5 "$work/client.err"
  done
}

echo "Preparing $prompts prompts of $tokens tokens ($runs runs each)"
start_server "$mock" --port 0
measure mock-model /v1/chat/completions "llmperf-mock, chat      "
measure mock-model /v1/completions "llmperf-mock, completions"
stop_server

llama_dir="${LLAMA_SERVER_DIR:-../shared/llama-server}"
if [ -x "$llama_dir/llama-server" ]; then
  # A 1,000-token prompt needs slots of more than 1,000 tokens: 4 slots of 2,048.
  start_server "$llama_dir/llama-server" -m "$llama_dir/tiny-llama-spm.gguf" --host 127.0.0.1 \
    --port 0 -c 8192 --parallel 4 -t 1 --alias tiny-llama --no-webui
  for _ in $(seq 300); do curl -sf "$base/health" >/dev/null && break; sleep 0.1; done
  measure tiny-llama /v1/chat/completions "llama.cpp server, chat   "
  stop_server
else
  echo "    (llama.cpp server not found at $llama_dir: skipped)"
fi
