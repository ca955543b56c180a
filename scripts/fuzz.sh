#!/usr/bin/env bash
# Builds the libFuzzer targets of fuzz/ (clang-14, ASan + UBSan, build/fuzz) and runs each for a bounded
# time on a scratch copy of its committed corpus (fuzz/corpus/<corpus>/): the scenario reader once per
# kind through the `check` path, each CSV reader, and the fit scenario reader. Fails on any crash, leak, sanitizer report,
# timeout (> 30 s for one input) or out-of-memory (one allocation > 1 GiB, or RSS > 2 GiB); the
# reproducer is left in build/fuzz/artifacts/.
#
#   bash scripts/fuzz.sh [SECONDS_PER_RUN]      default 25: 13 runs, 5.4 minutes of fuzzing (2.7 on 2 cores)
#
# Environment: FUZZ_NICE (default 0) runs the fuzzers under nice -n FUZZ_NICE; FUZZ_JOBS the build jobs;
# FUZZ_PARALLEL (default: the number of cores) the runs at a time. The library is compiled at -O1
# -gline-tables-only with the fuzz targets' own subset of sources in the library's unity groups
# (fuzz/CMakeLists.txt, BRISTLE_UNITY_BUILD); ccache is used as
# the compiler launcher when installed (a fresh CI machine has no cache: it compiles everything).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
seconds=${1:-25}
jobs=${FUZZ_JOBS:-$(nproc)}
build=build/fuzz
launcher=$(command -v ccache || true)
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=clang++-14 \
  -DBRISTLE_FUZZ=ON -DBRISTLE_BUILD_TESTS=OFF -DBRISTLE_BUILD_BENCH=OFF -DBRISTLE_BUILD_PYTHON=OFF \
  -DBRISTLE_WERROR=OFF -DBRISTLE_UNITY_BUILD=ON ${launcher:+-DCMAKE_CXX_COMPILER_LAUNCHER="$launcher"} >/dev/null
cmake --build "$build" -j"$jobs" --target bristle_fuzz_scenario bristle_fuzz_signal_table bristle_fuzz_modes_table \
  bristle_fuzz_fit
mkdir -p "$build/artifacts" "$build/logs"

run() {  # run TARGET CORPUS
  local target=$1 corpus=$2 work
  work=$(mktemp -d)
  cp fuzz/corpus/"$corpus"/* "$work"/
  if ! ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
      nice -n "${FUZZ_NICE:-0}" "$build/fuzz/bristle_fuzz_$target" -max_total_time="$seconds" -timeout=30 \
      -rss_limit_mb=2048 -malloc_limit_mb=1024 -print_final_stats=1 \
      -artifact_prefix="$build/artifacts/$corpus-" "$work" >"$build/logs/$corpus.log" 2>&1; then
    echo "fuzz: $corpus FAILED (reproducer in $build/artifacts/, log $build/logs/$corpus.log):" >&2
    grep -E "ERROR|SUMMARY|Test unit written" "$build/logs/$corpus.log" | head -5 >&2
    rm -rf "$work"
    return 1
  fi
  echo "fuzz: $corpus ok: $(grep -E '^stat::number_of_executed_units' "$build/logs/$corpus.log" | awk '{print $2}') executions, $(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$build/logs/$corpus.log" | tail -1)" >&2
  rm -rf "$work"
}

# The 13 runs, FUZZ_PARALLEL (default: the number of cores) at a time: each fuzzer is one process.
runs=()
for kind in lumped line_steady line_transient patch_steady_map patch_transient directional_coefficients \
            directional_loop directional_crawler structure_kernel structure_stick_slip; do
  runs+=("scenario scenario_$kind")
done
runs+=("signal_table signal_table" "modes_table modes_table" "fit fit")
parallel=${FUZZ_PARALLEL:-$(nproc)}
status=0
active=0
for r in "${runs[@]}"; do
  if (( active >= parallel )); then
    wait -n || status=1
    active=$((active - 1))
  fi
  # shellcheck disable=SC2086
  run $r &
  active=$((active + 1))
done
while (( active > 0 )); do
  wait -n || status=1
  active=$((active - 1))
done
exit $status
