#!/usr/bin/python3
"""Byte-identity guard for refactorings of the scenario readers and writers (issue 15, "Must show").

Runs every examples/*.toml that `BASELINE check` accepts (the fit example is skipped: `bristle fit`, not
`run`) with two builds of the CLI into two temporary directories, and compares
  - every CSV byte for byte,
  - every JSON after dropping the timing keys (solve_seconds, every *_seconds, "repeat") and the
    bristle_version,
and that both runs wrote the same set of files. Prints one line per example and exits 1 on any difference.

A developer check, not part of CI (it needs two binaries). Usage, from the repository root:

    cp build/release/bristle /tmp/baseline-bristle        # before the change (e.g. from main)
    ... change, rebuild ...
    /usr/bin/python3 scripts/compare_examples.py /tmp/baseline-bristle build/release/bristle [--timeout S]
                                                   [--only NAME ...] [--keep DIR] [--examples DIR]

Each run is bounded by --timeout (default 600 s per run). The 27 runnable examples with both binaries took
15 min wall (1 min 38 s CPU) on the 2-core VM while six other engineers were building (2026-12-03);
`--only lugre_breakaway lugre_frictional_lag lugre_presliding lugre_stick_slip` runs the lumped ones.
"""
import argparse
import json
import pathlib
import subprocess
import sys
import tempfile

TIMING_KEYS = {"repeat", "bristle_version"}


def scrub(value):
    """The JSON with timing keys (and the version) dropped, recursively."""
    if isinstance(value, dict):
        return {k: scrub(v) for k, v in value.items() if k not in TIMING_KEYS and not k.endswith("_seconds")}
    if isinstance(value, list):
        return [scrub(v) for v in value]
    return value


def first_difference(a, b, path="$"):
    if type(a) is not type(b):
        return f"{path}: {a!r} != {b!r}"
    if isinstance(a, dict):
        for k in list(a) + [k for k in b if k not in a]:
            if k not in a or k not in b:
                return f"{path}.{k}: only in {'new' if k not in a else 'baseline'}"
            d = first_difference(a[k], b[k], f"{path}.{k}")
            if d:
                return d
        if list(a) != list(b):
            return f"{path}: key order {list(a)} != {list(b)}"
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{path}: length {len(a)} != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_difference(x, y, f"{path}[{i}]")
            if d:
                return d
        return None
    return None if a == b else f"{path}: {a!r} != {b!r}"


def run(binary, toml, out, timeout):
    try:
        p = subprocess.run([binary, "run", str(toml), "--out", str(out), "--no-plot", "-q"], capture_output=True,
                           text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, f"timed out after {timeout} s"
    return p.returncode, p.stderr.strip()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("baseline")
    ap.add_argument("new")
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds per run (default 600)")
    ap.add_argument("--only", nargs="*", help="example stems to run (default: all)")
    ap.add_argument("--keep", help="write the outputs under this directory instead of a temporary one")
    ap.add_argument("--examples", help="directory of the scenarios (default: examples/ of this checkout)")
    args = ap.parse_args()
    root = pathlib.Path(__file__).resolve().parent.parent
    examples = sorted(pathlib.Path(args.examples or root / "examples").glob("*.toml"))
    if args.only:
        examples = [e for e in examples if e.stem in args.only]
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        base = pathlib.Path(args.keep or tmp)
        for toml in examples:
            check = subprocess.run([args.baseline, "check", str(toml)], capture_output=True, text=True, timeout=60)
            if check.returncode != 0 or "fit" in toml.stem.split("_")[0]:
                print(f"skip      {toml.name} (not a `bristle run` scenario)", flush=True)
                continue
            outs = [base / "baseline" / toml.stem, base / "new" / toml.stem]
            results = []
            for binary, out in zip((args.baseline, args.new), outs):
                out.mkdir(parents=True, exist_ok=True)
                results.append(run(binary, toml, out, args.timeout))
            problems = []
            if results[0][0] != 0:
                problems.append(f"the baseline run failed: {results[0]}")
            if results[0] != results[1]:
                problems.append(f"exit/stderr differ: baseline {results[0]}, new {results[1]}")
            names = [sorted(p.name for p in out.iterdir()) for out in outs]
            if names[0] != names[1]:
                problems.append(f"files differ: baseline {names[0]}, new {names[1]}")
            for name in sorted(set(names[0]) & set(names[1])):
                a, b = (out / name for out in outs)
                if name.endswith(".json"):
                    d = first_difference(scrub(json.loads(a.read_text())), scrub(json.loads(b.read_text())))
                    if d:
                        problems.append(f"{name}: {d}")
                elif a.read_bytes() != b.read_bytes():
                    problems.append(f"{name}: bytes differ")
            if problems:
                failures += 1
                print(f"DIFFERENT {toml.name}", flush=True)
                for p in problems:
                    print(f"          {p}")
            else:
                print(f"same      {toml.name} ({', '.join(names[0])})", flush=True)
    print(f"{failures} example(s) differ" if failures else "all examples identical")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
