#pragma once
// Identification of a structure's and its belt contact's parameters from measured time series
// (kind = "structure_stick_slip", paper 3; issue 16):
//
//   minimise  S(p) = sum_e sum_k sum_i (w_k (y_k(t_i; p) - d_{e,k,i}))^2     over  min_j <= p_j <= max_j
//
// y_k(t; p) an output column of structures::run_stick_slip (w_m, v_mps, vr_mps, F_N, f_state with a dynamic law,
// the energy columns with model.track_energy; docs/structures.md §5): the structure starts at rest and unloaded
// at t = 0 (its only initial state; a window later than 0 is fitted from a run that starts at 0), is stepped
// with run.dt_s to the last data time, and its rows are interpolated linearly to the data times (exact when the
// data lie on the step grid). The parameters are set by key path (io::set_number on the parsed
// StructureStickSlipScenario, with the reader's checks). The optimiser and statistics are fit::fit's
// (src/fit/driver.hpp).
//
// The Jacobian is exact when every parameter is a key of the contact (law, body1, body2, friction,
// contact.normal_load_N, contact.belt_speed_m_per_s) and every target one of w_m, v_mps, vr_mps, F_N, f_state:
// the discrete forward sensitivities of the run (structures::StickSlipSensitivity: the structure is linear, so
// one copy per parameter carries the response to the derivative of the force history; each step's equations
// are differentiated at their solution). Else (a key of the structure, an energy target) central differences of
// whole runs in u (step Options::fd_step): the stepping is fixed (run.dt_s), so the quotients carry no step-size
// noise, only the per-step Newton tolerance of a dynamic law (1e-11 relative) over the step. The discrete model is
// piecewise smooth: not differentiable where a step switches between stick and slip (Coulomb-Stribeck) or v_r
// crosses 0 (dynamic laws' |v_r|); the quotients are secants there. docs/fitting.md gives the measured accuracy.
//
// `bristle fit` and bristle.fit read it through io::load_structure_fit_scenario (io/fit_map_scenario.hpp).
#include <string>
#include <vector>

#include "bristle/fit/fit.hpp"
#include "bristle/io/structures_scenario.hpp"

namespace bristle::fit {

struct StructureExperiment {
  std::string label;
  io::StructureStickSlipScenario scenario;  // run.t_end_s: at least the last data time (the fit extends it)
  std::vector<double> times;                // strictly increasing, >= 0, >= 2
  std::vector<Target> targets;
};

/// Every output column a target may name (the kind's CSV columns without t_s and stick); which of them a
/// scenario outputs: structure_outputs(scenario).
std::vector<std::string> structure_outputs();
std::vector<std::string> structure_outputs(const io::StructureStickSlipScenario& scenario);

/// Problem-wide checks as fit::validate (InvalidInput naming the key): a target the scenario does not output
/// (f_state without a dynamic law, energy columns without model.track_energy), negative data times, ...
void validate(const std::vector<StructureExperiment>& experiments, const std::vector<ParameterSpec>& parameters);

/// The model at p: per experiment, every output column (and t_s) at the data times.
std::vector<TimeSeries> structure_model(const std::vector<StructureExperiment>& experiments,
                                        const std::vector<ParameterSpec>& parameters, const VecX& p);

VecX residuals(const std::vector<StructureExperiment>& experiments, const std::vector<ParameterSpec>& parameters,
               const VecX& p);

/// dr/dp by central differences of whole runs (step fd_step |p_j|, fd_step where p_j = 0).
Eigen::MatrixXd jacobian(const std::vector<StructureExperiment>& experiments,
                         const std::vector<ParameterSpec>& parameters, const VecX& p, double fd_step = 1e-4);
/// dr/dp by `method`: automatic takes the exact Jacobian where it applies (above), else central differences;
/// sensitivities throws InvalidInput saying why it does not apply.
Eigen::MatrixXd jacobian(const std::vector<StructureExperiment>& experiments,
                         const std::vector<ParameterSpec>& parameters, const VecX& p, JacobianMethod method,
                         double fd_step = 1e-4);

/// Fits (Options as fit::fit; initial_state must be rest). Result as fit::fit, jacobian = sensitivities when the
/// exact Jacobian applies (Options::jacobian automatic or sensitivities), else finite_differences.
Result fit(const std::vector<StructureExperiment>& experiments, const std::vector<ParameterSpec>& parameters,
           const Options& options = {}, const IterationCallback& progress = {});

}  // namespace bristle::fit
