#!/usr/bin/python3
"""Scaling of the parallel steady sweeps with the number of threads (docs/benchmarks.md, "Python sweeps").

    PYTHONPATH=<build>/python /usr/bin/python3 bench/python_sweep_scaling.py [--repeat 7] [--threads 1 2]

Workloads (each point is one transport.steady_state call, as bristle.sweep_steady_line makes it):
  exact    10 000 points: paper 1 Table 1 sliding contact, n1 = n2 = 2 branches (10 states, matrix
           exponential), 10 values of s in [0.1, 0.9] x 1000 log-spaced speeds 0.01 .. 30 m/s;
  general  1 000 points: Bouc-Wen law (not affine: adaptive BDF integration in xi at rtol 1e-12),
           elastic pair, 10 values of beta1 x 100 speeds 0.05 .. 5 m/s.
For each thread count the best and the median wall time of --repeat runs are reported, the least
CPU time summed over all threads (equal to the one-thread time when the threads add no work), and the
speed-up of the best wall times over one thread; the results are checked to be bit-identical to the
one-thread run. On a shared machine the wall-time speed-up is bounded by the idle cores: see the load
average printed with the table. Prints a Markdown table (and the machine, date and load) on stdout.
"""

import argparse
import datetime
import os
import platform
import statistics
import subprocess
import time

import numpy as np

import bristle
from bristle import papers


def exact_workload():
    s_values = np.linspace(0.1, 0.9, 10)
    models = [papers.sliding_model(float(s), 2, n1=2) for s in s_values]
    return models, papers.line_params(papers.TABLE1), np.zeros(1000), np.geomspace(0.01, 30.0, 1000)


def general_workload():
    models = []
    for beta1 in np.linspace(1e4, 5e4, 10):
        law = bristle.LawParams(type="bouc_wen", A=1.0, beta1=float(beta1), gamma=1e4)
        models.append(bristle.ContactModel(law, bristle.elastic(240.0), bristle.elastic(240.0)))
    return models, bristle.LineContactParams(L_m=0.2, normal_load_N=10.0), np.zeros(100), np.geomspace(0.05, 5.0, 100)


def measure(workload, threads, repeat):
    models, line, V1, V2 = workload
    times, cpu, reference = {}, {}, None
    for t in threads:
        runs, cpus = [], []
        for _ in range(repeat):
            start, start_cpu = time.perf_counter(), time.process_time()
            r = bristle.sweep_steady_line(models, V1=V1, V2=V2, line=line, threads=t, progress=None)
            runs.append(time.perf_counter() - start)
            cpus.append(time.process_time() - start_cpu)
            if reference is None:
                reference = r.force_N
            elif not np.array_equal(r.force_N, reference):
                raise SystemExit(f"threads = {t}: results differ from the first run")
        times[t] = runs
        cpu[t] = cpus
    return times, cpu, len(models) * len(V2)


def cpu_model():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    args = parser.parse_args()
    load_before = os.getloadavg()
    rows = []
    for name, workload in (("exact", exact_workload()), ("general", general_workload())):
        times, cpu, points = measure(workload, args.threads, args.repeat)
        best1 = min(times[args.threads[0]])
        for t in args.threads:
            best, median = min(times[t]), statistics.median(times[t])
            rows.append(f"| {name} | {points} | {t} | {best * 1e3:.1f} | {median * 1e3:.1f} | "
                        f"{min(cpu[t]) * 1e3:.1f} | {best / points * 1e6:.1f} | {best1 / best:.2f} |")
    load_after = os.getloadavg()
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                                cwd=os.path.dirname(os.path.abspath(__file__))).stdout.strip()
    except OSError:
        commit = "?"
    print(f"Date {datetime.date.today().isoformat()}, {platform.node()}: {cpu_model()}, {os.cpu_count()} hardware "
          f"threads, Linux {platform.release()}, Python {platform.python_version()}, numpy {np.__version__}, "
          f"bristle {bristle.__version__} (commit {commit}), Release build. Load average "
          f"{load_before[0]:.2f} before, {load_after[0]:.2f} after. Best and median of {args.repeat} runs; results "
          f"bit-identical across thread counts.\n")
    print("| workload | points | threads | best wall (ms) | median wall (ms) | CPU, all threads (ms) | "
          "wall per point (us) | speed-up (best wall) |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(r)


if __name__ == "__main__":
    main()
