#!/usr/bin/env bash
# The README's second command (and what .ci/run calls): installs what is missing, builds
# everything including the tests, and runs the whole suite with CTest.
# SANITIZE=1 builds into build-asan with AddressSanitizer + UndefinedBehaviorSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
if [ "${SANITIZE:-0}" = "1" ]; then
  export BUILD_DIR=build-asan BUILD_TYPE=RelWithDebInfo
  bash scripts/build.sh -DBUILD_TESTING=ON -DLLMPERF_SANITIZE=ON -DLLMPERF_WERROR=ON
else
  export BUILD_DIR=build
  bash scripts/build.sh -DBUILD_TESTING=ON -DLLMPERF_WERROR=ON
fi
cd "$BUILD_DIR"
ctest --output-on-failure --timeout 600 -j "$(nproc)"
