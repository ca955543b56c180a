#pragma once
// Identification of the line contact's parameters (paper 1, §5; kind = "line_steady" and "line_transient"; issue 16):
//
//   minimise  S(p) = sum_e sum_k sum_i (w_k (y_k(x_i; p) - d_{e,k,i}))^2     over  min_j <= p_j <= max_j
//
// line_steady (a steady-map kind): x_i are the data rows' velocities (the map's grid variable: V_mps in sliding,
// vx_mps in rolling), y_k a column of the map (transport::steady_state at each velocity, io::LineSteadyScenario::
// solve): Fx_N, Fx_abs_N, Fx_norm, Fx_norm_abs, mu. Rows may come in any order and repeat a velocity.
// line_transient (a time-series kind): x_i are the data times, y_k a column of transport::run (Fx_N, Fy_N, W_J,
// ..., Fx_abs_N) started from the unloaded contact at the first data time and advanced to every data time, with
// the scenario's velocity signals (a table signal reading the data file feeds a measured velocity).
// The parameters are any numeric key paths of the scenario, set on the parsed case by io::set_number (the
// reader's checks; io/key_path.hpp). The optimiser, scaled coordinates and statistics are fit::fit's
// (src/fit/driver.hpp).
// Jacobian, line_steady: exact where the steady solver's exact path applies (an affine source without LuGre output
// terms, uniform or parabolic pressure) for keys of law, body1, body2 and pair: the derivative of the matrix
// exponential (transport::steady_state_derivatives: its Fréchet derivative, with the pointwise matrices differenced
// at p_j -/+ 1e-6 |p_j|), and of mu (eq. 53) for the normalised targets. Elsewhere (line.* or kinematics.* keys, the
// BDF path): central differences of whole solves in u (step Options::fd_step).
// Jacobian, line_transient: exact on the affine-source path (every law but Bouc-Wen and a user G^-1, line.source_
// scheme not "sdirk2") for keys of law, body1, body2 and pair that leave the transport speeds as they are (S1, S2 of
// eq. 34a; e.g. body1.k0 with pair.s given, not pair.s itself): the discrete forward sensitivities of the run
// (transport::LineSensitivity: the tangent of every Strang step -- the exact source propagator, the limited
// transport on the limiter's branch, the outputs and the dense-output interpolation -- with only the pointwise
// partials in p differenced between the models at p_j -/+ 1e-6 |p_j|), for every output column. Elsewhere (line.* or
// kinematics.* keys, which change the grid, the transport or the steps; a key that changes S1, S2; the SDIRK2 path):
// central differences of whole runs in u (step Options::fd_step). Both solvers are deterministic (the transient's
// steps are fixed by the CFL condition, not by these parameters), so the quotients carry no adaptive step-size
// noise; the discrete run is piecewise smooth in p (the limiters switch branches), so a difference quotient whose
// step moves a switch is a secant across it. tests/fit/fit_line_test.cpp measures the Jacobians against central
// differences and a Richardson extrapolation.
//
// `bristle fit` and bristle.fit read them through io::load_line_steady_fit_scenario /
// io::load_line_transient_fit_scenario (io/fit_map_scenario.hpp).
#include <string>
#include <vector>

#include "bristle/fit/fit.hpp"
#include "bristle/io/line_scenario.hpp"

namespace bristle::fit {

/// One experiment of a steady line map: the case (its velocities = the data rows', in their order) and the rows.
struct LineSteadyExperiment {
  std::string label;
  io::LineSteadyScenario scenario;  // scenario.velocities = grid_values
  std::string grid;                 // "V_mps" (sliding) or "vx_mps" (rolling)
  std::vector<double> grid_values;  // one per data row
  std::vector<Target> targets;      // values: one per row
};

/// The map columns a target may name: Fx_N, Fx_abs_N, Fx_norm, Fx_norm_abs, mu.
const std::vector<std::string>& line_steady_outputs();

void validate(const std::vector<LineSteadyExperiment>& experiments, const std::vector<ParameterSpec>& parameters);
/// The model at p: per experiment, the columns of io::LineSteadyScenario::solve, one row per data row.
std::vector<TimeSeries> line_steady_model(const std::vector<LineSteadyExperiment>& experiments,
                                          const std::vector<ParameterSpec>& parameters, const VecX& p);
VecX residuals(const std::vector<LineSteadyExperiment>& experiments, const std::vector<ParameterSpec>& parameters,
               const VecX& p);
/// Empty if the exact Jacobian applies at p, else why not.
std::string sensitivities_unavailable(const std::vector<LineSteadyExperiment>& experiments,
                                      const std::vector<ParameterSpec>& parameters, const VecX& p);
/// dr/dp: `sensitivities` (exact; InvalidInput if it does not apply), `finite_differences` (central differences of
/// whole solves, step fd_step |p_j|, fd_step where p_j = 0), `automatic` the first where it applies.
Eigen::MatrixXd jacobian(const std::vector<LineSteadyExperiment>& experiments,
                         const std::vector<ParameterSpec>& parameters, const VecX& p,
                         JacobianMethod method = JacobianMethod::automatic, double fd_step = 1e-4);
/// Fits (Options as fit::fit; initial_state does not apply); Result as fit::fit, jacobian = sensitivities where
/// the exact Jacobian applies at the start (a trial point where it does not uses differences, with a warning).
Result fit(const std::vector<LineSteadyExperiment>& experiments, const std::vector<ParameterSpec>& parameters,
           const Options& options = {}, const IterationCallback& progress = {});

/// One experiment of a transient line contact: the case (its [time] = the window) and the data times.
struct LineTransientExperiment {
  std::string label;
  io::LineTransientScenario scenario;
  std::vector<double> times;  // strictly increasing, >= 2
  std::vector<Target> targets;
};

/// The columns a target may name (transport::run's series without t_s, and Fx_abs_N).
std::vector<std::string> line_transient_outputs();

void validate(const std::vector<LineTransientExperiment>& experiments, const std::vector<ParameterSpec>& parameters);
std::vector<TimeSeries> line_transient_model(const std::vector<LineTransientExperiment>& experiments,
                                             const std::vector<ParameterSpec>& parameters, const VecX& p);
VecX residuals(const std::vector<LineTransientExperiment>& experiments, const std::vector<ParameterSpec>& parameters,
               const VecX& p);
/// dr/dp by central differences of whole runs (step fd_step |p_j|, fd_step where p_j = 0).
Eigen::MatrixXd jacobian(const std::vector<LineTransientExperiment>& experiments,
                         const std::vector<ParameterSpec>& parameters, const VecX& p, double fd_step = 1e-4);
/// Empty if the exact Jacobian applies at p (above), else why not (naming the key).
std::string sensitivities_unavailable(const std::vector<LineTransientExperiment>& experiments,
                                      const std::vector<ParameterSpec>& parameters, const VecX& p);
/// dr/dp by `method`: automatic takes the exact Jacobian where it applies, else central differences; sensitivities
/// throws InvalidInput saying why it does not apply.
Eigen::MatrixXd jacobian(const std::vector<LineTransientExperiment>& experiments,
                         const std::vector<ParameterSpec>& parameters, const VecX& p, JacobianMethod method,
                         double fd_step = 1e-4);
/// Fits (initial_state must be rest: the transient starts unloaded); Result::jacobian = sensitivities when the exact
/// Jacobian applies at the start (Options::jacobian automatic or sensitivities; a trial point where it does not
/// uses differences), else finite_differences.
Result fit(const std::vector<LineTransientExperiment>& experiments, const std::vector<ParameterSpec>& parameters,
           const Options& options = {}, const IterationCallback& progress = {});

}  // namespace bristle::fit
