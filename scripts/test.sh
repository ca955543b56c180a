#!/usr/bin/env bash
# Installs what is missing, builds bristle and runs every test: the Release suite, the same suite
# under AddressSanitizer + UndefinedBehaviorSanitizer, the libFuzzer targets for a bounded time, the CMake
# package-consumer check, pytest, and the pip-installed Python package in a fresh virtual environment.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
bash scripts/install-deps.sh
jobs=$(nproc)
export PYTHON=/usr/bin/python3
# ccache (installed by install-deps.sh) as the compiler launcher of the Release build, with paths taken
# relative to the checkout, so that the pip stage's rebuild of the library and the module in build/pip
# (python/build_backend/bristle_build.py uses ccache when it is on PATH) hits the objects the Release build
# just made instead of compiling them a second time.
export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)

echo "== Release build and tests" >&2
cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release -DBRISTLE_WERROR=ON -DBRISTLE_UNITY_BUILD=OFF \
  "${launcher[@]}" >/dev/null
cmake --build build/release -j"$jobs"
ctest --test-dir build/release --output-on-failure -j"$jobs"

echo "== AddressSanitizer + UndefinedBehaviorSanitizer build and tests" >&2
# -O1 -g1 (line tables for the reports' stack traces) and the unity build of the library: this build is for
# memory and undefined-behaviour errors, and -O2 -g with one translation unit per source file made it the
# longest stage of CI (the Rosenbrock drivers alone took 5 min to compile); the Release build above keeps one
# translation unit per file, so a missing include still fails there. Nine long numerical studies (the fit
# recoveries over 20 seeds, the patch transient's settling and energy-order studies: 22-290 s each here) skip
# themselves in this suite (BRISTLE_SKIP_LONG_STUDY_UNDER_SANITIZERS, tests/support/test_support.hpp); the
# Release suite above runs them.
cmake -S . -B build/sanitize -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBRISTLE_SANITIZE=ON \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DBRISTLE_UNITY_BUILD=ON \
  -DBRISTLE_BUILD_BENCH=OFF -DBRISTLE_WERROR=ON "${launcher[@]}" >/dev/null
cmake --build build/sanitize -j"$jobs"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  BRISTLE_SANITIZED=1 ctest --test-dir build/sanitize --output-on-failure -j"$jobs"

# libFuzzer targets (scripts/fuzz.sh, issue 17): the clang-14 ASan + UBSan + libFuzzer build of the fuzz
# targets' libraries (-O1 -gline-tables-only; without the C API, and fit only in the fit target's) and the 13
# runs (the scenario reader of each kind, both CSV readers, the fit scenario readers) of 60 s each (the issue's
# "about a minute"), two at a time: 6.5 min of fuzzing
# plus the cold build (docs/validation.md, "Fuzzing in CI").
# Fails on any crash, leak, sanitizer report, timeout or out-of-memory.
echo "== libFuzzer targets, 60 s per corpus" >&2
FUZZ_JOBS="$jobs" FUZZ_PARALLEL="$jobs" bash scripts/fuzz.sh 60

echo "== Installed package consumed by another CMake project" >&2
rm -rf build/install build/consumer
cmake --install build/release --prefix build/install >/dev/null
cmake -S tests/consumer -B build/consumer -G Ninja -DCMAKE_PREFIX_PATH="$root/build/install" >/dev/null
cmake --build build/consumer >/dev/null
./build/consumer/bristle_consumer

# pip install --no-build-isolation . (pyproject.toml -> python/build_backend/bristle_build.py -> CMake) into
# a fresh venv that sees Debian's numpy (--system-site-packages), offline (--no-index); then `import
# bristle` from another directory runs a model. It rebuilds the library and the module in build/pip
# (tests and benchmarks off) with ccache as compiler launcher, which holds the Release build's objects of
# the same sources and flags (CCACHE_BASEDIR above), so the stage links rather than compiles; without
# ccache it compiles the library and the module, the main job's build (docs/benchmarks.md, "Main job").
# The pip call is bounded at 30 min.
echo "== pip install into a fresh virtual environment" >&2
rm -rf build/venv build/pip
/usr/bin/python3 -m venv --system-site-packages build/venv
BRISTLE_BUILD_JOBS="$jobs" timeout 1800 build/venv/bin/python -m pip install --no-index --no-build-isolation \
  --quiet "$root"
(cd "$(mktemp -d)" && "$root/build/venv/bin/python" - <<'PY'
import numpy as np
import bristle
assert "/build/venv/" in bristle.__file__, bristle.__file__
model = bristle.ContactModel(bristle.LawParams(kind="lugre", mu_s=1.2, mu_d=0.8, v_s=0.01, sigma2=0.1),
                             bristle.gkv(240.0, [100.0], [0.1]))
f = model.steady_force(np.array([-0.5, 0.1, 1.0]))
mu = 0.8 + 0.4 * np.exp(-(np.array([0.5, 0.1, 1.0]) / 0.01) ** 2)
assert np.allclose(f[:, 0], -np.sign([-0.5, 0.1, 1.0]) * mu - 0.1 * np.array([-0.5, 0.1, 1.0]), rtol=1e-12), f
print(f"installed bristle {bristle.__version__} at {bristle.__file__}: steady LuGre force {f[:, 0]}")
PY
)
