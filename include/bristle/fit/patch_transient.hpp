#pragma once
// Identification of a transient patch's parameters from measured time series (kind = "patch_transient"; issue 16):
//
//   minimise  S(p) = sum_e sum_k sum_i (w_k (y_k(t_i; p) - d_{e,k,i}))^2     over  min_j <= p_j <= max_j
//
// y_k(t; p) an output column of patch::PatchTransient (Fx_N, Fy_N, Mz_Nm, ...; paper 1 §4, App. A) started from
// the unloaded contact at the first data time and advanced to every data time (its own stable steps between
// them), with its kinematics and load from the scenario's signals and the parameters set by key path
// (io::set_number on the parsed PatchTransientScenario). The optimiser and statistics are fit::fit's
// (src/fit/driver.hpp). The Jacobian is central differences of whole transient solves in u (step
// Options::fd_step): NOT exact. The solver's steps are fixed by the transport (CFL), not by law or body
// parameters, so the quotients carry no step-size noise of an adaptive integrator.
//
// `bristle fit` and bristle.fit read it through io::load_transient_fit_scenario (io/fit_map_scenario.hpp).
#include <string>
#include <vector>

#include "bristle/fit/fit.hpp"
#include "bristle/io/patch_scenario.hpp"

namespace bristle::fit {

struct TransientExperiment {
  std::string label;
  io::PatchTransientScenario scenario;  // its [time] is set to the window (first and last data time) by validate()'s caller
  std::vector<double> times;            // strictly increasing, >= 2
  std::vector<Target> targets;
};

/// The output columns a target may name (PatchTransientScenario::column_names() without t_s).
std::vector<std::string> transient_outputs();

/// Problem-wide checks as fit::validate (InvalidInput naming the key).
void validate(const std::vector<TransientExperiment>& experiments, const std::vector<ParameterSpec>& parameters);

/// The model at p: per experiment, every output column at the data times.
std::vector<TimeSeries> transient_model(const std::vector<TransientExperiment>& experiments,
                                        const std::vector<ParameterSpec>& parameters, const VecX& p);

VecX residuals(const std::vector<TransientExperiment>& experiments, const std::vector<ParameterSpec>& parameters,
               const VecX& p);

/// dr/dp by central differences of whole solves (step fd_step |p_j|, fd_step where p_j = 0).
Eigen::MatrixXd jacobian(const std::vector<TransientExperiment>& experiments,
                         const std::vector<ParameterSpec>& parameters, const VecX& p, double fd_step = 1e-4);

/// Fits (Options as fit::fit; initial_state must be rest: the transient starts unloaded). Result as fit::fit,
/// jacobian = finite_differences.
Result fit(const std::vector<TransientExperiment>& experiments, const std::vector<ParameterSpec>& parameters,
           const Options& options = {}, const IterationCallback& progress = {});

}  // namespace bristle::fit
