#!/usr/bin/env bash
# The README's second command, and exactly what .ci/run calls: installs what is missing, then
#   1. builds everything (g++, Release, warnings as errors) into build/ and runs the whole suite,
#      then packages it as a .deb and installs that into a fresh Debian root (tests/package/),
#      and runs the deploy/ recipes for sharded runs against llmperf-mock (tests/deploy/);
#   2. builds llmperf and its multi-threaded tests with clang and ThreadSanitizer into build-tsan/
#      and runs them (the tests labelled "threads": engine, integration, interruption);
#   3. builds everything with clang, AddressSanitizer + UndefinedBehaviorSanitizer and the
#      libFuzzer targets into build-sanitize/, runs each fuzz target briefly on its seed corpus
#      (FUZZ_SECONDS, default 5), then the whole suite there.
# The sanitizer builds are unity builds (fewer, larger translation units: faster to build); the
# g++ build is the ordinary one, as users build it. QUICK=1 runs only step 1.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --test
jobs="$(nproc)"
started=$SECONDS
step() { echo "== test: $1 [$(( SECONDS - started )) s]"; }

step "g++ Release build and suite (build/)"
BUILD_DIR=build bash scripts/build.sh -DBUILD_TESTING=ON -DLLMPERF_WERROR=ON
(cd build && ctest --output-on-failure --timeout 600 -j "$jobs")

step "Debian package from build/, installed into a fresh Debian root (tests/package/)"
# In a variable first, so that a failing package step stops the script with its own message.
deb="$(BUILD_DIR=build bash scripts/package.sh | tail -n 1)"
bash tests/package/deb_install_test.sh "$deb"

step "deploy/ recipes (Kubernetes, Slurm, MPI) run as their launchers would, then merged"
bash tests/deploy/deploy_recipes_test.sh build

if [ "${QUICK:-0}" = "1" ]; then exit 0; fi

# The sanitizer builds: -O1 with line tables only (what a sanitizer report needs, at a fraction of
# -O2 -g's compile and link time), linked by lld, without the bench programs.
clang_build() {  # dir, extra cmake options...
  local dir=$1
  shift
  if [ ! -f "$dir/CMakeCache.txt" ]; then
    CC=clang CXX=clang++ cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only -DNDEBUG" \
      -DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld -DLLMPERF_BENCH=OFF \
      -DCMAKE_UNITY_BUILD=ON -DBUILD_TESTING=ON "$@" >/dev/null
  fi
}

step "clang ThreadSanitizer build and the multi-threaded tests (build-tsan/)"
clang_build build-tsan -DLLMPERF_TSAN=ON
cmake --build build-tsan --parallel "$jobs" --target llmperf llmperf-mock engine_tests \
  integration_threaded_tests
# A race report makes llmperf (and so the test that ran it) fail.
(cd build-tsan && TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" \
  ctest -L threads --output-on-failure --timeout 600 -j "$jobs")

step "clang ASan+UBSan build, fuzz smoke and suite (build-sanitize/)"
clang_build build-sanitize -DLLMPERF_FUZZ=ON
cmake --build build-sanitize --parallel "$jobs"
FUZZ_BUILD_DIR=build-sanitize bash scripts/fuzz.sh "${FUZZ_SECONDS:-5}"
(cd build-sanitize && ctest --output-on-failure --timeout 600 -j "$jobs")
