#!/usr/bin/env bash
# Installs llmperf's dependencies from Debian 12 packages. Idempotent: packages already present
# are left alone and apt is not touched.
#   scripts/setup.sh          what building and running llmperf needs (the demo)
#   scripts/setup.sh --test   also what the test suite needs: Chromium and CJK fonts (report.html
#                             rendering test), clang, lld + libFuzzer/sanitizer runtimes (sanitizer
#                             and fuzz job), openssl (TLS tests make a self-signed certificate),
#                             help2man, dpkg-dev, file and mmdebstrap (scripts/package.sh, whose
#                             cpack runs dpkg-shlibdeps, which needs `file`, and the package test
#                             tests/package/deb_install_test.sh), libxml2-utils (xmllint checks
#                             the JUnit report), python3-yaml and openmpi-bin (the deploy/
#                             recipes' test), jq (the README's CI example, which the docs test
#                             runs), python3-optuna (the samplers of `llmperf tune --strategy
#                             tpe:N`, which the tune tests and the docs test run), postgresql
#                             and python3-psycopg2 (a study shared through PostgreSQL)
# Every tool the scripts and tests run is installed here: a fresh Debian 12 with only the
# toolchain lacks some that developers' machines happen to have (scripts/fresh_root_test.sh
# proves the test command in such a root).
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  libcurl4-openssl-dev zlib1g-dev nlohmann-json3-dev libcli11-dev libfmt-dev libspdlog-dev
  libgtest-dev libgmock-dev libboost-dev libsqlite3-dev
  python3 curl util-linux time
)
if [ "${1:-}" = "--test" ]; then
  packages+=(chromium fonts-wqy-microhei clang lld libclang-rt-14-dev openssl help2man dpkg-dev
             file mmdebstrap libxml2-utils python3-yaml openmpi-bin jq)
  # nghttpx: the real TLS and HTTP/2 front end of the TLS/HTTP/2 integration tests
  # (tests/integration/integration_tls_test.cpp; they are skipped, saying so, without it).
  packages+=(nghttp2-proxy)
  # sqlite3 reads the databases back (history, benchmark_data.db); the Pushgateway receives the
  # live figures of --push-gateway.
  packages+=(sqlite3 prometheus-pushgateway)
  # Optuna: the samplers of `llmperf tune --strategy tpe:N|cmaes:N|nsga2:N` (the TuneOptuna tests
  # are skipped, saying so, without it).
  packages+=(python3-optuna)
  # A study shared by several workers (`llmperf tune --storage`): PostgreSQL's server, which the
  # TuneShared tests start in a temporary directory (initdb, pg_ctl), and its driver for
  # SQLAlchemy (they are skipped, saying so, without them).
  packages+=(postgresql python3-psycopg2)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all dependencies present"
  exit 0
fi

echo "setup: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
