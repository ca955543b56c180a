"""Closed loop: a mass under PD position control with LuGre friction, with and without friction
compensation, stepped at 1 kHz with bristle.Contact.step (the C++ twin is examples/closed_loop_pd.cpp).

Problem
    m x'' = u + F(v),  v = x'                 plant: a mass m on a surface, F the LuGre friction force on it
    u = m a_ref + kp (x_ref - x) + kd (v_ref - v) + u_ff   PD with the inertial feed-forward m a_ref
    u_ff = -F_model(v_ref)                     feed-forward: a second LuGre contact (the controller's model)
                                               driven by the reference velocity cancels the expected friction
    x_ref(t) = A (1 - cos(2 pi t / T))         starts at rest; the velocity reverses every T / 2, where friction
                                               sticks the mass and the PD loop alone lags behind
Friction: textbook LuGre of Canudas de Wit et al. (1995), Table 1 (Fc = 1 N, Fs = 1.5 N, vs = 1 mm/s,
sigma0 = 1e5 N/m, sigma1 = sqrt(1e5) Ns/m, sigma2 = 0.4 Ns/m); m = 1 kg, kp = 100 N/m, kd = 20 Ns/m
(chosen for this example), A = 0.1 m, T = 2 s, 4 s simulated, initial state at rest at x = 0.
Integration: the contact by Contact.step (L-stable SDIRK2, velocity held over the 1 ms step), the mass by
semi-implicit Euler with the force of that step: v += dt (u + F) / m, x += dt v.

Run:  PYTHONPATH=build/release/python /usr/bin/python3 examples/closed_loop_pd.py --out out
writes out/closed_loop_pd.png (tracking error with and without compensation) and prints the RMS errors.
"""

import argparse
import math
import os

import numpy as np

import bristle

M_KG, KP_N_PER_M, KD_NS_PER_M = 1.0, 100.0, 20.0
A_M, PERIOD_S, T_END_S, DT_S = 0.1, 2.0, 4.0, 1e-3


def lugre():
    return bristle.Contact.lugre(Fc_N=1.0, Fs_N=1.5, vs_mps=1e-3, sigma0_N_per_m=1e5,
                                 sigma1_Ns_per_m=math.sqrt(1e5), sigma2_Ns_per_m=0.4)


def simulate(compensate):
    """Tracking error x_ref - x (m) at every 1 ms step, with or without friction compensation."""
    plant, model = lugre(), lugre()
    n = int(round(T_END_S / DT_S))
    t = DT_S * np.arange(1, n + 1)
    error = np.empty(n)
    x = v = 0.0
    w = 2.0 * math.pi / PERIOD_S
    for i in range(n):
        t0 = i * DT_S
        x_ref, v_ref = A_M * (1.0 - math.cos(w * t0)), A_M * w * math.sin(w * t0)
        a_ref = A_M * w * w * math.cos(w * t0)
        u = M_KG * a_ref + KP_N_PER_M * (x_ref - x) + KD_NS_PER_M * (v_ref - v)
        if compensate:
            u -= model.step(DT_S, v_ref)  # cancel the friction the model expects at the reference motion
        F = plant.step(DT_S, v)  # friction on the mass over this step (N), opposing v
        v += DT_S * (u + F) / M_KG
        x += DT_S * v
        error[i] = A_M * (1.0 - math.cos(w * t[i])) - x
    return t, error


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default="out", help="directory for closed_loop_pd.png")
    parser.add_argument("--no-plot", action="store_true", help="print the RMS errors only")
    args = parser.parse_args()
    t, e_pd = simulate(False)
    _, e_ff = simulate(True)
    rms_pd, rms_ff = float(np.sqrt(np.mean(e_pd ** 2))), float(np.sqrt(np.mean(e_ff ** 2)))
    print(f"rms tracking error: PD {rms_pd:.6e} m, PD + LuGre feed-forward {rms_ff:.6e} m, "
          f"ratio {rms_pd / rms_ff:.2f}")
    if not args.no_plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        os.makedirs(args.out, exist_ok=True)
        fig, ax = plt.subplots(figsize=(8, 4))
        ax.plot(t, 1e3 * e_pd, label=f"PD (rms {1e3 * rms_pd:.3f} mm)")
        ax.plot(t, 1e3 * e_ff, label=f"PD + LuGre feed-forward (rms {1e3 * rms_ff:.3f} mm)")
        ax.set_xlabel("t (s)")
        ax.set_ylabel("x_ref - x (mm)")
        ax.set_title("Mass under PD control with LuGre friction, 1 kHz (bristle.Contact.step)")
        ax.legend()
        ax.grid(True, alpha=0.3)
        fig.tight_layout()
        path = os.path.join(args.out, "closed_loop_pd.png")
        fig.savefig(path, dpi=120)
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
