"""ns per Contact.step from Python: one textbook LuGre contact (Canudas de Wit et al. 1995 parameters)
stepped in a Python loop, and per contact in a ContactArray of 1e4 stepped with numpy arrays (goal
< 1 us per contact-step). The C++ counterpart is bench/contact_step_bench.cpp; results in
docs/benchmarks.md. Best of --repeat runs (the machine may be shared).

    PYTHONPATH=build/release/python nice /usr/bin/python3 bench/contact_step_python.py
"""

import argparse
import math
import time

import numpy as np

import bristle


def lugre():
    return bristle.Contact.lugre(Fc_N=1.0, Fs_N=1.5, vs_mps=1e-3, sigma0_N_per_m=1e5,
                                 sigma1_Ns_per_m=math.sqrt(1e5), sigma2_Ns_per_m=0.4)


def single(steps):
    c = lugre()
    v = (2e-3 * np.sin(2e-3 * math.pi * np.arange(1000))).tolist()
    step = c.step
    t0 = time.perf_counter()
    for i in range(steps):
        step(1e-3, v[i % 1000])
    return (time.perf_counter() - t0) / steps


def array(n, steps):
    a = bristle.ContactArray(lugre(), n)
    v = 2e-3 * np.sin(0.01 * np.arange(n))
    out = np.empty(n)
    t0 = time.perf_counter()
    for _ in range(steps):
        a.step(1e-3, v, out=out)
        np.negative(v, out=v)
    return (time.perf_counter() - t0) / (steps * n)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--steps", type=int, default=200000)
    p.add_argument("--n", type=int, default=10000)
    args = p.parse_args()
    one = min(single(args.steps) for _ in range(args.repeat))
    arr = min(array(args.n, 200) for _ in range(args.repeat))
    print(f"Contact.step (one LuGre contact, Python loop): {one * 1e9:.0f} ns per step")
    print(f"ContactArray({args.n}).step (numpy arrays): {arr * 1e9:.1f} ns per contact-step")


if __name__ == "__main__":
    main()
