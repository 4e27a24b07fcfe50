#!/usr/bin/env bash
# Do two llmperf builds send the same prompts? Runs a set of workloads (every kind of prompt
# source: datasets of text, ShareGPT, synthetic prompts and grids, shared prefixes, conversations,
# traces, embeddings, estimated lengths) with a fixed --seed against llmperf-mock, once with each
# build, through a logging proxy (scripts/capture_proxy.py), and compares what was sent:
#   - the bodies POSTed to the measured endpoint, in order (one request at a time: --parallel 1);
#   - the other POSTs (the tokenize API, length calibration), as a sorted list (they may overlap);
#   - requests.jsonl's prompt fields (prompt_index, target and counted lengths, characters,
#     prefix groups, conversation turns), timings left out, and summary.json's dataset, workload
#     (but its prepare_s), exactness and trace sections;
#   - llmperf's exit code.
# Prints SAME or DIFFERENT per workload and exits 1 when any differs.
#   scripts/same_prompts.sh OLD_BIN_DIR NEW_BIN_DIR    e.g. /work/baseline build
# Both sides use OLD_BIN_DIR's llmperf-mock, so only the client differs. KEEP=1 keeps the work
# directory (its path is printed) to look at the differences.
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 OLD_BIN_DIR NEW_BIN_DIR" >&2
  exit 2
fi
old_dir=$(cd "$1" && pwd)
new_dir=$(cd "$2" && pwd)
repo=$(cd "$(dirname "$0")/.." && pwd)
mock_bin="$old_dir/llmperf-mock"
work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  if [ "${KEEP:-0}" = 1 ]; then echo "kept $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT

# A Mooncake trace: 10 requests 30 ms apart, two families of shared leading blocks.
trace="$work/trace.jsonl"
for i in $(seq 0 9); do
  if [ $((i % 2)) = 0 ]; then ids="1, 2, $((100 + i))"; else ids="1, 3, $((100 + i))"; fi
  echo "{\"timestamp\": $((1000 + i * 30)), \"input_length\": $((150 - i)), \"output_length\": $((3 + i % 4)), \"hash_ids\": [$ids]}"
done >"$trace"

datasets="$repo/datasets"
sharegpt="$repo/tests/fixtures/sharegpt/sample.json"
workloads=(openqa openqa_max_tokens_range random_grid random_estimated random_token_ids
           shared_prefix random_multi_turn sharegpt sharegpt_multi_turn mooncake_trace embeddings)

# Sets `path` (the endpoint), `mock_args` and `args` for workload $1.
describe() {
  path=/v1/chat/completions
  mock_args=()
  case "$1" in
    openqa) args=(--dataset openqa --dataset-path "$datasets/open_qa.jsonl" -n 20) ;;
    openqa_max_tokens_range)
      args=(--dataset openqa --dataset-path "$datasets/open_qa.jsonl" -n 12 --max-tokens 5 40) ;;
    random_grid) args=(--dataset random --input-tokens 24 60 --output-tokens 4 9 -n 5) ;;
    random_estimated)
      mock_args=(--tokenize-api none)
      args=(--dataset random --min-prompt-length 10 --max-prompt-length 80 --max-tokens 12 -n 8) ;;
    random_token_ids)
      path=/v1/completions
      args=(--dataset random --input-tokens 30 --max-tokens 6 --tokenize-prompt -n 6) ;;
    shared_prefix)
      args=(--dataset shared_prefix --prefix-groups 3 --prefix-length 40 --input-tokens 20
            --prefix-zipf 1.1 --max-tokens 5 -n 12) ;;
    random_multi_turn)
      args=(--dataset random_multi_turn --input-tokens 30 --min-turns 2 --max-turns 4
            --max-tokens 6 -n 4) ;;
    sharegpt) args=(--dataset sharegpt --dataset-path "$sharegpt" -n 20) ;;
    sharegpt_multi_turn)
      args=(--dataset sharegpt --multi-turn --dataset-path "$sharegpt" --max-turns 3 -n 5) ;;
    mooncake_trace)
      args=(--dataset mooncake_trace --dataset-path "$trace" --trace-block-tokens 64) ;;
    embeddings)
      path=/v1/embeddings
      args=(--dataset openqa --dataset-path "$datasets/open_qa.jsonl" -n 6) ;;
  esac
}

# Waits for "... listening on URL" in file $1 and prints the URL.
listening_url() {
  for _ in $(seq 100); do
    if grep -qs "listening on" "$1"; then
      sed -n 's/.*listening on \(http[^ ]*\).*/\1/p' "$1"
      return 0
    fi
    sleep 0.1
  done
  echo "no server started: $(cat "$1")" >&2
  return 1
}

# Runs workload $2 with $1/llmperf into directory $3.
run_side() {
  local bin=$1 name=$2 dir=$3
  describe "$name"
  mkdir -p "$dir"
  "$mock_bin" --port 0 --seed 1 --honour-max-tokens "${mock_args[@]}" >"$dir/mock.log" 2>&1 &
  local mock_pid=$!
  pids+=("$mock_pid")
  local mock_url proxy_url
  mock_url=$(listening_url "$dir/mock.log")
  python3 "$repo/scripts/capture_proxy.py" "$mock_url" "$dir/sent.log" >"$dir/proxy.log" 2>&1 &
  local proxy_pid=$!
  pids+=("$proxy_pid")
  proxy_url=$(listening_url "$dir/proxy.log")
  local code=0
  "$bin/llmperf" --url "$proxy_url$path" --model mock-model --seed 42 --parallel 1 \
    --outputs-dir "$dir/out" --keep-text 0 "${args[@]}" >"$dir/stdout" 2>"$dir/stderr" || code=$?
  echo "exit $code" >"$dir/exit"
  kill "$proxy_pid" "$mock_pid"
  wait "$proxy_pid" "$mock_pid" 2>/dev/null || true
  touch "$dir/sent.log"
  python3 - "$dir/out" >"$dir/records.txt" <<'EOF'
import json, pathlib, sys
keys = ("id", "prompt_index", "warmup", "stream", "target_input_tokens", "target_output_tokens",
        "input_tokens", "output_tokens", "input_chars", "items", "prefix_group", "prefix_first_use",
        "session_id", "turn", "session_turns", "input_token_source", "ok")
for path in sorted(pathlib.Path(sys.argv[1]).rglob("requests.jsonl")):
    print("#", "/".join(path.parts[-3:-1][1:]))
    records = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    for r in sorted(records, key=lambda r: r["id"]):
        print(json.dumps({k: r[k] for k in keys if k in r}, sort_keys=True))
    # What summary.json says of the dataset and the workload (no timings but prepare_s, dropped).
    summary = json.loads((path.parent / "summary.json").read_text())
    if isinstance(summary.get("workload"), dict):
        summary["workload"].pop("prepare_s", None)
    print("#", json.dumps({k: summary.get(k) for k in ("dataset", "workload", "exactness", "trace")},
                          sort_keys=True))
EOF
  # The run's requests (and the probe before them) go one at a time; length calibration (where
  # there is no tokenize API) sends to the same endpoint, concurrently, before them.
  local records
  records=$(grep -vc '^#' "$dir/records.txt" || true)
  grep -F "POST $path " "$dir/sent.log" >"$dir/all_measured.txt" || true
  tail -n $((records + 1)) "$dir/all_measured.txt" >"$dir/measured.txt"
  { head -n -$((records + 1)) "$dir/all_measured.txt"; grep -vF "POST $path " "$dir/sent.log" || true; } |
    sort >"$dir/side.txt"
}

status=0
for name in "${workloads[@]}"; do
  run_side "$old_dir" "$name" "$work/old/$name"
  run_side "$new_dir" "$name" "$work/new/$name"
  differs=()
  for file in exit measured.txt side.txt records.txt; do
    cmp -s "$work/old/$name/$file" "$work/new/$name/$file" || differs+=("$file")
  done
  sent=$(wc -l <"$work/old/$name/measured.txt")
  side=$(wc -l <"$work/old/$name/side.txt")
  records=$(grep -vc '^#' "$work/old/$name/records.txt" || true)
  if [ ${#differs[@]} -eq 0 ]; then
    printf '%-26s SAME       (%s requests sent, %s other POSTs, %s records, %s)\n' "$name" "$sent" \
      "$side" "$records" "$(cat "$work/old/$name/exit")"
  else
    printf '%-26s DIFFERENT  (%s)\n' "$name" "${differs[*]}"
    status=1
  fi
done
exit $status
