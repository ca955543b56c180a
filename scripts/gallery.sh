#!/usr/bin/env bash
# The main job: installs what is missing, builds bristle (library, CLI, Python module), regenerates the
# figure gallery (python3 -m bristle.gallery: every paper figure as PNG + DIR/gallery/index.html) and
# runs every example scenario (one CSV, JSON and PNG per scenario in DIR/).  DIR defaults to out/.
# It builds only what it runs: the library, the CLI and the Python module (targets bristle_cli and
# bristle_python), not the test suite or the benchmarks; the build tree is scripts/test.sh's (the CLI's
# and the reference program's objects are shared; the library's are not, this build being a unity build).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
bash scripts/install-deps.sh
# BRISTLE_UNITY_BUILD=ON: the library and the module compiled as 8 + 3 unity translation units, less CPU
# than one object per file (docs/benchmarks.md, "Main job"); scripts/test.sh builds this tree with OFF
# (then the library is compiled again, per file).
cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release -DPython3_EXECUTABLE=/usr/bin/python3 \
  -DBRISTLE_UNITY_BUILD=ON >/dev/null
cmake --build build/release -j"$(nproc)" --target bristle_cli bristle_python
out=${1:-out}
mkdir -p "$out"
scenarios=()
for scenario in examples/*.toml; do
  case "$scenario" in
    examples/fit_*) echo "== $scenario: a fit scenario (bristle fit, docs/fitting.md), skipped here" >&2; continue ;;
  esac
  scenarios+=("$scenario")
done
# The examples run alongside the gallery, so that both cores stay busy while the gallery draws (its
# plotting is one thread): one scenario per core at a time (each writes only its own files; xargs fails
# if any run fails).
printf '%s\0' "${scenarios[@]}" | xargs -0 -P "$(nproc)" -I{} \
  sh -c 'echo "== $1" >&2; exec ./build/release/bristle run "$1" --out "$2"' sh {} "$out" &
examples=$!
echo "== figure gallery -> $out/gallery/index.html" >&2
gallery_status=0
PYTHONPATH="$root/build/release/python" /usr/bin/python3 -m bristle.gallery --out "$out/gallery" \
  --examples "$root/examples" || gallery_status=$?
examples_status=0
wait "$examples" || examples_status=$?
if ((gallery_status != 0 || examples_status != 0)); then
  echo "gallery.sh: the gallery exited with $gallery_status, the examples with $examples_status" >&2
  exit 1
fi
echo "Results: $out/gallery/index.html (figure gallery), and one CSV, JSON and PNG per scenario in $out/" >&2
