#!/usr/bin/env bash
# Builds llmperf's Debian package: configures a Release build in build-pkg/ (tests off), builds the
# programs and their man pages (help2man), makes build-pkg/llmperf_<version>_<arch>.deb with cpack
# and prints its path on the last line. Needs help2man, dpkg-dev (dpkg-shlibdeps computes the
# Depends line) and file (which cpack's DEB generator needs to run dpkg-shlibdeps):
# `scripts/setup.sh --test` installs them.
#   scripts/package.sh              then: tests/package/deb_install_test.sh proves the .deb
#   BUILD_DIR=dir scripts/package.sh
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir="${BUILD_DIR:-build-pkg}"
for tool in help2man dpkg-shlibdeps file; do
  if ! command -v "$tool" >/dev/null; then
    echo "package: $tool is missing: bash scripts/setup.sh --test (or apt-get install" \
      "help2man dpkg-dev file)" >&2
    exit 1
  fi
done

generator=()
if command -v ninja >/dev/null 2>&1; then generator=(-G Ninja); fi
if [ ! -f "$build_dir/CMakeCache.txt" ]; then
  cmake -S . -B "$build_dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF \
    -DLLMPERF_MAN_PAGES=ON >/dev/null
else
  cmake -S . -B "$build_dir" >/dev/null
fi
cmake --build "$build_dir" --parallel "$(nproc)"

# The version llmperf prints must be the package's (project() in CMakeLists.txt).
version="$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build_dir/CMakeCache.txt")"
printed="$("$build_dir/llmperf" --version)"
if [ "$printed" != "llmperf $version" ]; then
  echo "package: llmperf --version prints '$printed' but CMakeLists.txt's project() says" \
    "$version: make them equal" >&2
  exit 1
fi

rm -f "$build_dir"/llmperf_*.deb
(cd "$build_dir" && cpack -G DEB >/dev/null)
deb="$(ls "$build_dir"/llmperf_*.deb)"
dpkg-deb -f "$deb" Package Version Architecture Depends Installed-Size
realpath "$deb"
