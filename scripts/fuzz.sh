#!/usr/bin/env bash
# Builds llmperf's libFuzzer targets with clang (-fsanitize=fuzzer,address,undefined) into
# build-fuzz and runs each for SECONDS (default 10) on its corpus in fuzz/corpus/<target>/, seeded
# from tests/fixtures and datasets/. New inputs found go to build-fuzz/corpus/<target>/ (not
# checked in); crashes to build-fuzz/artifacts/. Usage: scripts/fuzz.sh [SECONDS] [TARGET...]
# Runs FUZZ_JOBS targets at a time (default: one per core). Exits non-zero once a target has
# crashed or hung (one input running longer than FUZZ_UNIT_TIMEOUT seconds, default 10; raise it
# for long runs on a busy machine, where a starved process can trip it), after the targets already
# running end. Prints executions and exec/s per target.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-10}"
shift || true
all=(sse_parser_fuzz chunk_decoder_fuzz responses_decoder_fuzz pooling_response_fuzz
     tokenize_api_fuzz prometheus_fuzz server_identity_fuzz keep_alive_fuzz
     dataset_openqa_fuzz dataset_line_by_line_fuzz dataset_longalpaca_fuzz sharegpt_fuzz cli_fuzz
     record_fuzz trace_fuzz study_space_fuzz sampler_bridge_fuzz study_prefer_fuzz study_slots_fuzz history_args_fuzz
     storage_url_fuzz server_log_fuzz)
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("${all[@]}")

# FUZZ_BUILD_DIR: a clang build configured with -DLLMPERF_FUZZ=ON (scripts/test.sh passes its
# sanitizer build, build-sanitize); by default a fuzz-only build in build-fuzz.
build="${FUZZ_BUILD_DIR:-build-fuzz}"
if [ ! -f "$build/build.ninja" ]; then
  CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DBUILD_TESTING=OFF -DLLMPERF_FUZZ=ON >/dev/null
fi
ninja -C "$build" -j "${FUZZ_JOBS:-$(nproc)}" "${targets[@]}"

mkdir -p "$build/artifacts"
# One target: its log in $build/<target>.log; the outcome line is printed when it ends.
fuzz_one() {
  local target=$1
  local work="$build/corpus/$target" log="$build/$target.log"
  mkdir -p "$work"
  if ! "$build/fuzz/$target" -max_total_time="$seconds" -print_final_stats=1 \
      -timeout="${FUZZ_UNIT_TIMEOUT:-10}" -rss_limit_mb=2048 -max_len=65536 \
      -artifact_prefix="$build/artifacts/$target"- "$work" "fuzz/corpus/$target" >"$log" 2>&1; then
    tail -n 40 "$log"
    echo "fuzz: $target FAILED (log: $log)"
    return 1
  fi
  local runs rate
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
  rate=$(grep -o 'exec/s: *[0-9]*' "$log" | tail -n 1 | grep -o '[0-9]*$' || echo '?')
  echo "fuzz: $target ok: $runs executions, $rate exec/s (${seconds}s, seeds: fuzz/corpus/$target)"
}

# FUZZ_JOBS targets at a time; a failure stops the starting of new ones.
jobs_at_once="${FUZZ_JOBS:-$(nproc)}"
running=()
failed=0
for target in "${targets[@]}"; do
  while [ ${#running[@]} -ge "$jobs_at_once" ]; do
    wait "${running[0]}" || failed=1
    running=("${running[@]:1}")
  done
  [ "$failed" = 1 ] && break
  fuzz_one "$target" &
  running+=($!)
done
for pid in "${running[@]}"; do wait "$pid" || failed=1; done
exit "$failed"
