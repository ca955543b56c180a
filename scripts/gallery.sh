#!/usr/bin/env bash
# Installs what is missing, builds bristle and runs every example scenario into out/ (CSV, JSON, PNG).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
bash scripts/install-deps.sh
cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/release -j"$(nproc)"
out=${1:-out}
mkdir -p "$out"
for scenario in examples/*.toml; do
  echo "== $scenario" >&2
  ./build/release/bristle run "$scenario" --out "$out"
done
echo "Results in $out/ (one CSV, JSON and PNG per scenario)" >&2
