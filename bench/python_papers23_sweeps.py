#!/usr/bin/python3
"""Scaling of the paper 2 / paper 3 sweeps with the number of threads (docs/benchmarks.md, "Python sweeps").

    PYTHONPATH=<build>/python /usr/bin/python3 bench/python_papers23_sweeps.py [--repeat 3] [--threads 1 2]

Workloads:
  eps         bristle.sweep_sliding_force: the vertical, slanted and angular springs of
              docs/directional.md (sine surface omega_+- = +-0.5) x 9 values of eps (1e-2 .. 1e-6 m) x 2
              directions = 54 eps-system runs (CVODE BDF, 24 wiggles each);
  stick_slip  bristle.sweep_stick_slip: the damped string of examples/structures_string_stick_slip.toml
              on belts at 8 speeds 0.05 .. 0.4 m/s, reduced model, dt = 1 ms, 40 s each.
For each thread count: best and median wall time of --repeat runs, the least CPU time of the process
(all threads), the speed-up of the best wall times over one thread; results checked bit-identical to
the one-thread run. Prints a Markdown table with the date, machine and load average.
"""

import argparse
import datetime
import os
import platform
import statistics
import time

import numpy as np

import bristle
from bristle import directional as d
from bristle import structures as st


def eps_workload(threads):
    w = d.Profile(d.ProfileParams(kind="sine", amplitude=0.5 / (2 * np.pi)))
    mechs = [d.Mechanism(d.MechanismParams(kind=k), w) for k in ("vertical", "slanted", "angular")]
    eps = [1e-2, 3.16e-3, 1e-3, 3.16e-4, 1e-4, 3.16e-5, 1e-5, 3.16e-6, 1e-6]
    r = bristle.sweep_sliding_force(mechs, epsilon=eps, threads=threads, progress=None)
    return r.points, r.mean_N


def stick_slip_workload(threads):
    s = st.Structure.taut_string(damping_ratio=0.1, contact_positions_m=[0.3])
    speeds = np.linspace(0.05, 0.4, 8)
    r = bristle.sweep_stick_slip(lambda vb: (s, st.BeltParams(belt_speed_m_per_s=float(vb))), grid={"vb": speeds},
                                 dt=1e-3, friction=bristle.StribeckParams(mu_s=0.5, mu_d=0.3, v_s=0.1),
                                 options=st.StickSlipOptions(t_end_s=40.0, output_every=100), threads=threads,
                                 progress=None)
    return r.points, np.column_stack([r.period_s, r.amplitude_w_m])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    args = parser.parse_args()
    print(f"Run of {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC on {platform.node()} "
          f"({platform.processor() or platform.machine()}, {os.cpu_count()} CPUs), Python {platform.python_version()}, "
          f"bristle {bristle.__version__}; load average at start {os.getloadavg()[0]:.2f}")
    print()
    print("| workload | points | threads | best wall (s) | median wall (s) | CPU, all threads (s) | speed-up (best wall) |")
    print("|---|---|---|---|---|---|---|")
    for name, fn in (("eps", eps_workload), ("stick_slip", stick_slip_workload)):
        base_wall, base_values = None, None
        for threads in args.threads:
            walls, cpus = [], []
            for _ in range(args.repeat):
                c0, t0 = time.process_time(), time.perf_counter()
                points, values = fn(threads)
                walls.append(time.perf_counter() - t0)
                cpus.append(time.process_time() - c0)
                if base_values is None:
                    base_values = values
                elif not np.array_equal(values, base_values):
                    raise SystemExit(f"{name}: {threads} threads differ from the first run")
            best = min(walls)
            base_wall = base_wall or best
            print(f"| {name} | {points} | {threads} | {best:.3f} | {statistics.median(walls):.3f} | {min(cpus):.3f} | "
                  f"{base_wall / best:.2f} |")
    print()
    print(f"load average at end {os.getloadavg()[0]:.2f}; results bit-identical across thread counts")


if __name__ == "__main__":
    main()
