#!/usr/bin/env bash
# Configures and builds llmperf into build/ (Release by default). Extra arguments go to cmake
# configure, e.g. `scripts/build.sh -DLLMPERF_SANITIZE=ON` (then use BUILD_DIR=build-asan).
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir="${BUILD_DIR:-build}"
generator=()
if command -v ninja >/dev/null 2>&1; then generator=(-G Ninja); fi
if [ ! -f "$build_dir/CMakeCache.txt" ]; then
  cmake -S . -B "$build_dir" "${generator[@]}" -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-Release}" "$@"
else
  cmake -S . -B "$build_dir" "$@" >/dev/null
fi
cmake --build "$build_dir" --parallel "$(nproc)"
