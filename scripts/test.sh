#!/usr/bin/env bash
# The README's second command, and exactly what .ci/run calls: installs what is missing, then
#   1. builds everything (g++, Release, warnings as errors) into build/ and runs the whole suite;
#   2. builds it again with clang, AddressSanitizer + UndefinedBehaviorSanitizer and the libFuzzer
#      targets into build-sanitize/, runs each fuzz target briefly on its seed corpus
#      (FUZZ_SECONDS, default 5), then the whole suite there.
# QUICK=1 runs only step 1.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --test
jobs="$(nproc)"

echo "== test: g++ Release build and suite (build/)"
BUILD_DIR=build bash scripts/build.sh -DBUILD_TESTING=ON -DLLMPERF_WERROR=ON
(cd build && ctest --output-on-failure --timeout 600 -j "$jobs")

if [ "${QUICK:-0}" = "1" ]; then exit 0; fi

echo "== test: clang ASan+UBSan build, suite and fuzz smoke (build-sanitize/)"
if [ ! -f build-sanitize/CMakeCache.txt ]; then
  CC=clang CXX=clang++ cmake -S . -B build-sanitize -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DBUILD_TESTING=ON -DLLMPERF_FUZZ=ON >/dev/null
fi
cmake --build build-sanitize --parallel "$jobs"
FUZZ_BUILD_DIR=build-sanitize bash scripts/fuzz.sh "${FUZZ_SECONDS:-5}"
(cd build-sanitize && ctest --output-on-failure --timeout 600 -j "$jobs")
