#pragma once
// Identification of a transient patch's parameters from measured time series (kind = "patch_transient"; issue 16):
//
//   minimise  S(p) = sum_e sum_k sum_i (w_k (y_k(t_i; p) - d_{e,k,i}))^2     over  min_j <= p_j <= max_j
//
// y_k(t; p) an output column of patch::PatchTransient (Fx_N, Fy_N, Mz_Nm, ...; paper 1 §4, App. A) started from
// the unloaded contact at the first data time and advanced to every data time (its own stable steps between
// them), with its kinematics and load from the scenario's signals and the parameters set by key path
// (io::set_number on the parsed PatchTransientScenario). The optimiser and statistics are fit::fit's
// (src/fit/driver.hpp).
//
// The Jacobian is exact when every parameter is a key of law, body1, body2 or pair that leaves the transport alone
// (the pair's S1, S2 -- the Riemann families' velocities -- and the state's size unchanged: e.g. law.mu_d,
// body1.k0 on a rigid ground or under pair.s, body1.tau; not pair.s, nor body1.k0 against an elastic body2
// without pair.s, which move S1), the source step is the exponential one (affine sources: Dahl, LuGre, FrBD) and
// every target one of Fx_N, Fy_N, Mz_Nm, Mz_no_phi_Nm, W_J, P_supplied_W, P_dissipated_W (or Fz_N, scale,
// scale_y: derivative 0): the discrete forward (tangent-linear) sensitivities of the run,
// patch::PatchTransient::track_sensitivities -- the transport's SSP-RK3 stencils applied to du~/dp exactly (linear,
// no limiter, stencils and steps independent of these keys), each cell's exact source step differentiated (its
// state derivative the propagator e^{J dt} itself, or, with spin and the S-corrections, where v_r depends on the
// state, central differences of the cell's step map in the state; its parameter partial a central difference of
// the step map between the models at p_j -/+ 1e-6 |p_j| at the same cell state), the outputs' pointwise partials
// central differences of smooth local functions. Measured against central differences of whole runs: <= 5e-9
// relative per column (tests/fit/fit_patch_transient_test.cpp). Else central differences of whole transient solves
// in u (step Options::fd_step): a key of the patch, kinematics, load or transient (they change the transport
// velocities, the grid or the steps), pair.s, Bouc-Wen or a user G^-1 (their source step is sdirk2), an energy
// integral or budget target. The solver's steps are fixed by the transport (CFL), not by law or body parameters,
// so the quotients carry no step-size noise of an adaptive integrator.
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

/// dr/dp by `method`: automatic takes the exact Jacobian where it applies (above), else central differences;
/// sensitivities throws InvalidInput saying why it does not apply (naming the key or target).
Eigen::MatrixXd jacobian(const std::vector<TransientExperiment>& experiments,
                         const std::vector<ParameterSpec>& parameters, const VecX& p, JacobianMethod method,
                         double fd_step = 1e-4);

/// Fits (Options as fit::fit; initial_state must be rest: the transient starts unloaded). Result as fit::fit,
/// jacobian = sensitivities when the exact Jacobian applies at the start values (Options::jacobian automatic or
/// sensitivities), else finite_differences.
Result fit(const std::vector<TransientExperiment>& experiments, const std::vector<ParameterSpec>& parameters,
           const Options& options = {}, const IterationCallback& progress = {});

}  // namespace bristle::fit
