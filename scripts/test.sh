#!/usr/bin/env bash
# Installs what is missing, builds bristle and runs every test: the Release suite, the same suite
# under AddressSanitizer + UndefinedBehaviorSanitizer, the CMake package-consumer check and pytest.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
bash scripts/install-deps.sh
jobs=$(nproc)
export PYTHON=/usr/bin/python3

echo "== Release build and tests" >&2
cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release -DBRISTLE_WERROR=ON >/dev/null
cmake --build build/release -j"$jobs"
ctest --test-dir build/release --output-on-failure -j"$jobs"

echo "== AddressSanitizer + UndefinedBehaviorSanitizer build and tests" >&2
cmake -S . -B build/sanitize -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBRISTLE_SANITIZE=ON \
  -DBRISTLE_BUILD_BENCH=OFF -DBRISTLE_WERROR=ON >/dev/null
cmake --build build/sanitize -j"$jobs"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  BRISTLE_SANITIZED=1 ctest --test-dir build/sanitize --output-on-failure -j"$jobs"

echo "== Installed package consumed by another CMake project" >&2
rm -rf build/install build/consumer
cmake --install build/release --prefix build/install >/dev/null
cmake -S tests/consumer -B build/consumer -G Ninja -DCMAKE_PREFIX_PATH="$root/build/install" >/dev/null
cmake --build build/consumer >/dev/null
./build/consumer/bristle_consumer
