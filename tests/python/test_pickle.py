"""Pickling of the plain-data result classes (issue 18): SteadyPatch and PatchSnapshot round-trip
field by field (their state is the tuple of their fields)."""

import pickle

import numpy as np

from bristle import papers


def test_plain_data_results_pickle():
    from bristle import patch as bp
    model = papers.rolling_model(0.4, 0)
    params = bp.PatchParams(nx=12, ny=6)
    steady = bp.PatchSolver(model, params).solve(bp.rolling(V_r=16.0, v_x=0.1, slip_angle_deg=1.0))
    tr = bp.PatchTransient(model, bp.PatchTransientParams(patch=params), bp.rolling(V_r=16.0, v_x=0.1), 3000.0)
    tr.advance_to(2e-3)
    for value, fields in ((steady, ("force_N", "Mz_Nm", "Mz_no_phi_Nm", "stored_energy_J", "supplied_power_W",
                                    "dissipated_power_W", "outflow_power_W", "compression_power_W",
                                    "budget_residual_W", "sweeps", "newton_steps")),
                          (tr.snapshot(), ("t_s", "Fz_N", "scale", "scale_y", "force_N", "Mz_Nm", "Mz_no_phi_Nm",
                                           "stored_energy_J", "supplied_power_W", "dissipated_power_W",
                                           "supplied_energy_J", "outflow_power_W", "compression_power_W",
                                           "load_power_W", "dissipated_energy_J", "outflow_energy_J",
                                           "compression_energy_J", "load_energy_J", "energy_residual_J"))):
        back = pickle.loads(pickle.dumps(value))
        assert type(back) is type(value)
        for f in fields:
            assert np.array_equal(getattr(back, f), getattr(value, f)), f
        assert any(np.any(getattr(value, f) != 0) for f in fields)  # not a default-constructed copy
