#!/usr/bin/env bash
# The README's second command, and exactly what .ci/run calls: installs what is missing, then
#   1. builds llmperf and llmperf-mock with g++ (Release, warnings as errors) into build/, packages
#      them as a .deb and installs that into a fresh Debian root (tests/package/), runs the
#      deploy/ recipes for sharded runs against llmperf-mock (tests/deploy/), the one strict
#      timing test (a rate held within 2 %) there, alone, the capacity tests and the docs'
#      runnable commands;
#   2. builds everything with clang, AddressSanitizer + UndefinedBehaviorSanitizer and the
#      libFuzzer targets into build-sanitize/, runs each fuzz target briefly on its seed corpus
#      (FUZZ_SECONDS, default 1: 22 targets), then the whole suite there;
#   3. builds llmperf and its multi-threaded tests with clang and ThreadSanitizer (at -O0) into
#      build-tsan/ and runs them (the tests labelled "threads": engine, app, integration,
#      interruption).
# The whole suite runs once, under ASan+UBSan, which checks more than a plain build does, but for
# the three capacity tests, which measure a server, and the docs' runnable commands, which check
# the docs: those run in step 1's Release build. There, the tune tests run step 1's llmperf
# (LLMPERF_TEST_TUNE_BIN, tests/CMakeLists.txt): their time goes to the servers, Optuna's Python
# and PostgreSQL, which no sanitizer checks, and a sanitized llmperf doubled it. Tune's code is
# still checked under the sanitizers by its unit tests and by the TuneSlots tests, which run under
# ThreadSanitizer only (their slots are threads). QUICK=1,
# the developers' loop, instead builds the suite with g++ at -O1 into build-quick/ and runs it
# there, and stops: no package, deploy recipes, sanitizers or fuzzing.
# Every build is a unity build (fewer, larger translation units: less than half the compile time),
# the README's first command's too; scripts/check_standalone.py then checks, in the background
# after the ThreadSanitizer build, that every source still compiles on its own, with clang and the
# ASan+UBSan build's flags, each source given precompiled only the standard headers and the
# third-party headers it includes itself (230 CPU s for the 249 sources, where g++ with the
# standard headers precompiled took 475). The sanitizer suites start the g++ build's llmperf-mock (LLMPERF_TEST_MOCK), so
# that their timing tests meet a fast server; the ASan+UBSan build compiles its own mock without
# optimisation (LLMPERF_MOCK_UNOPTIMISED), for the mock's unit tests, which check its code there.
# The two clang builds compile in the background, one after the other, niced, from the start:
# the foreground's steps mostly wait on servers, package mirrors and sleeps, and the compilers take
# the cores they leave. Each build's output goes to <dir>/build.log, shown if it fails.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --test
jobs="$(nproc)"
# The suites run two tests per core: most of their time, the integration tests wait on servers
# and timers. The ASan+UBSan suite used 174 CPU s in 189 s of wall time at one test per core (2),
# and took 119-125 s at two per core, beside a niced busy loop too, with every test passed.
test_jobs=$((jobs * 2))
started=$SECONDS
step() { echo "== test: $1 [$(( SECONDS - started )) s]"; }
quick="${QUICK:-0}"

# The sanitizer builds: line tables only for debug info (what a sanitizer report needs, at a
# fraction of -g's compile and link time), linked by lld, without the bench programs, with
# precompiled headers (LLMPERF_PCH: a tenth of the ASan+UBSan build's CPU time). ASan+UBSan builds
# at -O1: at -O0 it compiles in a third less CPU time, but its suite then takes 2.7 times the CPU
# (nlohmann/json's parser and writer, most of what llmperf does in the tests, run unoptimised).
# ASan's checks are calls rather than inline code (-fsanitize-address-outline-instrumentation):
# 100 CPU s less to compile (736 instead of 834), for 40 more in its suite.
# Each unit-test executable is one ctest test there (LLMPERF_TEST_PER_EXECUTABLE, tests/CMakeLists.txt):
# a sanitized process costs 30 ms of CPU to start and end, and the 1,347 unit tests took 87 CPU s
# under ASan+UBSan one process each, 43 in one process per executable. The integration tests run
# in a few processes per executable there (GoogleTest's shards), not one each: with the tune tests'
# llmperf above and the TuneSlots tests under ThreadSanitizer only, the ASan+UBSan suite took 212
# CPU s instead of 368.
# ThreadSanitizer builds at -O0: 135 CPU s less to compile (190 instead of 320), for 23 more in its
# suite, which mostly waits on servers and timers (and unoptimised code keeps every memory access
# for it to check).
clang_build() {  # dir, optimisation flags, targets ("" for all), extra cmake options...
  local dir=$1 opt=$2 targets=$3
  shift 3
  # Configured every time, so that a build directory left by an older test.sh gets these options.
  CC=clang CXX=clang++ cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$opt -gline-tables-only -DNDEBUG" \
    -DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld -DLLMPERF_BENCH=OFF -DLLMPERF_WERROR=ON \
    -DLLMPERF_MOCK_UNOPTIMISED=ON -DLLMPERF_PCH=ON -DLLMPERF_TEST_PER_EXECUTABLE=ON \
    -DLLMPERF_TEST_MOCK="$PWD/build/llmperf-mock" -DBUILD_TESTING=ON "$@" >/dev/null
  # shellcheck disable=SC2086  # targets is a list
  cmake --build "$dir" --parallel "$jobs" ${targets:+--target $targets}
}
tsan_targets="llmperf engine_tests app_tests integration_threaded_tests"
# Each clang build leaves <dir>/build.log and, when it ends, <dir>/.test-build-ok or -failed.
background=""
if [ "$quick" != "1" ]; then
  mkdir -p build-tsan build-sanitize
  rm -f build-{tsan,sanitize}/.test-build-{ok,failed} build-sanitize/.test-standalone-{ok,failed}
  # Its own process group (setsid), which the script ends if it stops first. setsid also makes a
  # new session, which the kernel's autogroup scheduling (sched_autogroup_enabled) gives an equal
  # share of the CPU whatever the processes' nice value: the session's autogroup is niced too, so
  # that the foreground, whose timing tests need the CPU when they ask, comes first.
  setsid nice -n 19 bash -c "(echo 19 >/proc/self/autogroup) 2>/dev/null || true
    $(declare -f clang_build); jobs=$jobs
    if clang_build build-sanitize '-O1 -fsanitize-address-outline-instrumentation' '' \
      -DLLMPERF_FUZZ=ON -DLLMPERF_FUZZ_COVERAGE=edges -DCMAKE_UNITY_BUILD=ON \
      -DLLMPERF_TEST_TUNE_BIN='$PWD/build/llmperf' \
      >build-sanitize/build.log 2>&1; then
      touch build-sanitize/.test-build-ok
    else
      touch build-sanitize/.test-build-failed; exit 1
    fi
    if clang_build build-tsan -O0 '$tsan_targets' -DLLMPERF_TSAN=ON -DCMAKE_UNITY_BUILD=ON \
      >build-tsan/build.log 2>&1; then
      touch build-tsan/.test-build-ok
    else
      touch build-tsan/.test-build-failed; exit 1
    fi
    # With the ASan+UBSan build's compile commands (clang's).
    if python3 scripts/check_standalone.py build-sanitize $jobs \
      >build-sanitize/standalone.log 2>&1; then
      touch build-sanitize/.test-standalone-ok
    else
      touch build-sanitize/.test-standalone-failed
    fi" &
  background=$!
  trap 'kill -- -$background 2>/dev/null || true' EXIT
  trap 'exit 130' INT TERM
fi
# Waits for the background build of `dir`; shows the end of its log and stops if it failed.
wait_for_build() {
  local dir=$1
  while [ ! -f "$dir/.test-build-ok" ]; do
    if [ -f "$dir/.test-build-failed" ] || ! kill -0 "$background" 2>/dev/null; then
      [ -f "$dir/.test-build-ok" ] && break
      tail -n 60 "$dir/build.log"
      echo "== test: the build in $dir/ failed (whole log: $dir/build.log)"
      exit 1
    fi
    sleep 2
  done
}

# The tests GoogleTest skipped in a suite of `dir`, each with its reason: ctest names only its own
# tests, and in the sanitizer suites most of those are processes running many (whole unit-test
# executables, shards of the integration tests), which pass when their tests pass or skip.
show_skipped() {
  awk '/: Skipped$/ {getline reason}
       /^\[  SKIPPED \] [^ ]+ \([0-9]+ ms\)$/ {print "== test: skipped " $4 ": " reason}' \
    "$1/Testing/Temporary/LastTest.log" | sort -u
}

# QUICK=1: the suite with g++ at -O1, in build-quick/ (build/ stays the Release build). -O1
# compiles llmperf in about two thirds of the time -O3 takes; the full command still builds the
# Release code with warnings as errors (some of g++'s warnings need -O2's analyses) and runs the
# package test and the deploy recipes on it.
if [ "$quick" = "1" ]; then
  step "g++ build at -O1 (build-quick/)"
  BUILD_DIR=build-quick bash scripts/build.sh -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" \
    -DBUILD_TESTING=ON -DLLMPERF_WERROR=ON -DCMAKE_UNITY_BUILD=ON
  step "g++ suite (build-quick/)"
  (cd build-quick && ctest --output-on-failure --timeout 600 -j "$test_jobs")
  step "done"
  exit 0
fi

step "g++ Release build of llmperf and llmperf-mock (build/)"
BUILD_DIR=build bash scripts/build.sh -DBUILD_TESTING=OFF -DLLMPERF_WERROR=ON -DCMAKE_UNITY_BUILD=ON
step "Debian package from build/, installed into a fresh Debian root (tests/package/)"
# In a variable first, so that a failing package step stops the script with its own message.
deb="$(BUILD_DIR=build bash scripts/package.sh | tail -n 1)"
bash tests/package/deb_install_test.sh "$deb"

step "deploy/ recipes (Kubernetes, Slurm, MPI) run as their launchers would, then merged"
bash tests/deploy/deploy_recipes_test.sh build

step "the strict rate check in the g++ Release build (build/), alone"
# IntegrationLoad.ConstantRateIsHeldWithinTwoPercent: llmperf holds 1000 req/s within 2 %. Only
# here does that mean something: no sanitizer slows llmperf, and no test runs beside it (the clang
# builds compile at the lowest priority). The sanitizer suites skip it and check what llmperf
# controls of the same run instead. Its executable is the only test code this build compiles; the
# next run's Release build turns the tests off again.
cmake -S . -B build -DBUILD_TESTING=ON >/dev/null
cmake --build build --parallel "$jobs" --target integration_timing_tests integration_serial_tests
(cd build && ctest -R '^IntegrationLoad\.ConstantRateIsHeldWithinTwoPercent$' --no-tests=error \
  --output-on-failure --timeout 600)

step "the capacity tests in the g++ Release build (build/), one at a time"
# The tests labelled "capacity" (integration_search_test: --search rate's answer against an
# independent sweep, on llmperf-mock's scheduler and on llama.cpp's server) measure a server's
# capacity for minutes, mostly waiting on it. They run here, where the foreground waits for the
# sanitizer builds anyway and nothing but those niced compilers shares the cores; in the
# ASan+UBSan suite they ran alone (RUN_SERIAL) for 149 s, with the cores otherwise idle. They
# measure a server, and an unsanitized llmperf measures it best.
(cd build && ctest -L capacity --no-tests=error --output-on-failure --timeout 900)

step "the docs' runnable commands in the g++ Release build (build/)"
# Docs.RunnableCommandsRunAgainstTheMock (label "docs") runs every command the docs mark runnable.
# Under ASan+UBSan it took 92 CPU s, the most of any test; here a fraction of that, while the
# foreground waits for the sanitizer builds anyway. It checks the docs: the code its commands run
# is the integration tests' too, which run under the sanitizers.
(cd build && ctest -L docs --no-tests=error --output-on-failure --timeout 600)

step "clang ASan+UBSan build, fuzz smoke and the whole suite (build-sanitize/)"
wait_for_build build-sanitize
# One second per target: every seed input runs, then libFuzzer mutates them for the rest of the
# second. A smoke test that the targets build and their seeds stay clean; `scripts/fuzz.sh 600` is
# the search for new bugs.
FUZZ_BUILD_DIR=build-sanitize bash scripts/fuzz.sh "${FUZZ_SECONDS:-1}"
# The capacity and docs tests ran in build/ above; the TuneSlots tests run under ThreadSanitizer
# below (the other tune tests run build/'s llmperf here: LLMPERF_TEST_TUNE_BIN).
(cd build-sanitize && ctest -LE 'capacity|docs|tune_slots' --output-on-failure --timeout 600 \
  -j "$test_jobs")
show_skipped build-sanitize

step "clang ThreadSanitizer build and the multi-threaded tests (build-tsan/)"
wait_for_build build-tsan
# A race report makes llmperf (and so the test that ran it) fail.
(cd build-tsan && TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" \
  ctest -L threads --output-on-failure --timeout 600 -j "$test_jobs")
show_skipped build-tsan

step "every source of src/ and mock/ compiles on its own (scripts/check_standalone.py)"
# The builds above are unity builds, where a source missing an #include can lean on a neighbour's;
# the check compiles each alone (clang -fsyntax-only), in the background after the ThreadSanitizer
# build.
while [ ! -f build-sanitize/.test-standalone-ok ] &&
  [ ! -f build-sanitize/.test-standalone-failed ]; do
  kill -0 "$background" 2>/dev/null || break
  sleep 2
done
if [ ! -f build-sanitize/.test-standalone-ok ]; then
  cat build-sanitize/standalone.log 2>/dev/null || true
  echo "== test: a source does not compile on its own (build-sanitize/standalone.log)"
  exit 1
fi
tail -n 1 build-sanitize/standalone.log
step "done"
