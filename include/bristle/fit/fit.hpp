#pragma once
// Identification of a lumped scenario's parameters from measured time series (issue 16), by bounded
// nonlinear least squares (Ceres 2.1, trust region Levenberg-Marquardt).
//
//   minimise  S(p) = sum_e sum_k sum_i (w_k (y_{e,k}(t_i; p) - d_{e,k,i}))^2     over  min_j <= p_j <= max_j
//
// e the experiments (each its own scenario and data, one parameter set p for all), k the targets (a model
// output column y_k compared with a data column d_k, weight w_k), t_i the data times of the fitted window.
// The optimiser works in scaled coordinates u_j = p_j / |p_j,initial| (linear) or u_j = ln p_j (log); the
// Jacobian is exact where the discrete sensitivities apply (integrator.method = "sdirk2", a velocity drive, keys of
// law/body1/body2, F_N/Fy_N targets: the derivative of the fixed-step solution on the data grid, src/fit/
// sensitivity.hpp); elsewhere it is formed by central differences in u (step 1e-4 in u, relative, for log) through
// the scenario's own integrator, so its noise is that of the solve: use a tight rtol.
//
// Statistics at the optimum p* (N residuals, P parameters, J = dr/dp):
//   s^2 = S(p*) / (N - P)                 residual variance
//   C = s^2 (J^T J)^-1                    covariance (formed in u, mapped to p by the delta method)
//   std_error_j = sqrt(C_jj),  ci95: u*_j -/+ t_{0.975, N-P} sqrt(C^u_jj) mapped to p (asymmetric for log)
//   correlation_ij = C_ij / sqrt(C_ii C_jj)
//   condition_number = sigma_max / sigma_min of J in u with unit-norm columns (scale-free)
//   AIC = N ln(S/N) + 2P,  BIC = N ln(S/N) + P ln N  (Gaussian errors of unknown variance)
// Warnings: a parameter within 1e-6 (relative to its range, in u) of a bound; a direction v of u with
// sigma/sigma_max < 1e-6 (non-identifiable), naming the combination of the two parameters the data determine
// (constant along v); no convergence within the iteration budget (converged = false).
//
// No file is read here: the io layer (bristle/io/fit_scenario.hpp) builds the Problem from a scenario's [fit].
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "bristle/core/time_series.hpp"
#include "bristle/core/types.hpp"
#include "bristle/io/scenario.hpp"

namespace bristle::fit {

/// The contact state at the window start: unloaded (f = 0), the force matching the first sample of the first
/// force target (F_N or Fy_N), or the steady state at the initial relative velocity.
enum class InitialState { rest, match_first_sample, steady };
std::string_view to_string(InitialState s);

enum class Scale { linear, log };

/// How the Jacobian is formed: `automatic` takes the exact discrete sensitivities where they apply
/// (sensitivities_unavailable() is empty) and central differences of whole solves elsewhere.
enum class JacobianMethod { automatic, sensitivities, finite_differences };
std::string_view to_string(JacobianMethod m);

/// One free parameter: a numeric key path of the scenario (io::set_number), its start value and bounds.
struct ParameterSpec {
  std::string key;  // e.g. "law.mu_d"
  double initial = 0.0;
  double min = 0.0, max = 0.0;  // min < max, min <= initial <= max; min > 0 for log
  Scale scale = Scale::linear;
};

/// A model output column compared with a data column at the data times.
struct Target {
  std::string output;       // a column of contact::Bench::column_names(), e.g. "F_N"
  std::string data_column;  // as named in the data file
  double weight = 1.0;      // in [kMinWeight, kMaxWeight] (require_weight)
  std::vector<double> values;  // measured, one per experiment time

  /// Beyond these the squared weighted residuals under- or overflow (a weight of 1e-200 made every cost 0).
  static constexpr double kMinWeight = 1e-100, kMaxWeight = 1e100;
};
/// Throws InvalidInput "<key> = <weight>: must be in [1e-100, 1e100]" (Target::kMinWeight, kMaxWeight).
void require_weight(std::string_view key, double weight);

/// One experiment: a scenario (its inputs are its own signals, e.g. tables read from the data) and the data
/// to fit, at strictly increasing times (the fitted window).
struct Experiment {
  std::string label;  // e.g. the data file
  io::LumpedScenario scenario;
  std::vector<double> times;  // the data times of the window (>= 2, strictly increasing)
  std::vector<Target> targets;
};

struct Options {
  InitialState initial_state = InitialState::rest;
  int max_iterations = 100;   // trust-region iterations per start
  int multi_start = 1;        // starts: the initial values, then multi_start - 1 points drawn in the bounds
  unsigned seed = 1;          // of the multi-start draws (uniform in u)
  double function_tolerance = 1e-10;  // Ceres: relative cost change
  double parameter_tolerance = 1e-10;
  double gradient_tolerance = 1e-12;
  double fd_step = 1e-4;      // central-difference step in u (relative to |u| for linear parameters)
  JacobianMethod jacobian = JacobianMethod::automatic;

  /// multi_start x max_iterations at most this (a scenario's [fit] is refused beyond it).
  static constexpr long kMaxTotalIterations = 1'000'000;
};

/// One step of the optimiser (a Ceres iteration), for progress reports.
struct Iteration {
  int start = 0, starts = 1;
  int iteration = 0;
  double cost = 0.0;  // 1/2 S
};
using IterationCallback = std::function<void(const Iteration&)>;

struct ParameterResult {
  std::string key;
  Scale scale = Scale::linear;
  double initial = 0.0, min = 0.0, max = 0.0;
  double value = 0.0;
  double std_error = 0.0;        // infinite when the parameter is not identifiable
  double ci95_low = 0.0, ci95_high = 0.0;
  bool at_bound = false;
};

struct TargetResult {
  std::string output, data_column;
  double rms = 0.0;  // sqrt(mean (y - d)^2) over every experiment's window, unweighted
};

/// The model at the optimum, per experiment: the bench's whole series at the data times.
struct ExperimentResult {
  std::string label;
  TimeSeries series;
  VecX u0;  // the initial contact state used
};

struct Result {
  std::vector<ParameterResult> parameters;
  std::vector<TargetResult> targets;
  std::vector<ExperimentResult> experiments;
  Eigen::MatrixXd correlation;
  double condition_number = 0.0;
  std::optional<double> rms_N;  // over every target whose output column ends in "_N"
  double cost = 0.0;            // S(p*) = sum of squared weighted residuals
  std::size_t residual_count = 0;
  double residual_variance = 0.0;  // s^2
  double aic = 0.0, bic = 0.0;
  bool converged = false;
  int iterations = 0;   // of the best start
  long evaluations = 0; // model solves (residual evaluations, difference quotients included), all starts
  long jacobian_evaluations = 0;  // Jacobians formed (each one solve with sensitivities, or 2 P + 1 solves)
  JacobianMethod jacobian = JacobianMethod::finite_differences;  // the method used (never automatic)
  int best_start = 0;
  std::string termination;  // Ceres' message of the best start
  std::vector<std::string> warnings;
  double fit_seconds = 0.0;
};

/// Problem-wide checks (InvalidInput naming the key): at least one experiment and parameter, bounds and start
/// values, duplicate keys, key paths settable in every experiment, target columns the model outputs, enough
/// samples (N > P).
void validate(const std::vector<Experiment>& experiments, const std::vector<ParameterSpec>& parameters);

/// The initial contact state of an experiment for `options.initial_state` (at scenario time t_start_s).
VecX initial_state(const Experiment& experiment, InitialState initial_state);

/// The weighted residuals w (y - d) of every experiment and target (experiment-major, then target, then time)
/// at parameter values p (in the order of `parameters`). SolverError if a solve fails.
VecX residuals(const std::vector<Experiment>& experiments, const std::vector<ParameterSpec>& parameters,
               const VecX& p, InitialState initial_state);

/// Empty if the exact discrete sensitivities apply to the problem, else the reason they do not (e.g.
/// `integrator.method = "rodas4" (the exact Jacobian needs "sdirk2")`).
std::string sensitivities_unavailable(const std::vector<Experiment>& experiments,
                                      const std::vector<ParameterSpec>& parameters);

/// The Jacobian dr/dp (N x P, rows as residuals()) at p: `sensitivities` (InvalidInput if they do not apply; the
/// residuals are then those of the sdirk2 scheme, equal to residuals() to its Newton tolerance) or
/// `finite_differences` (central, step fd_step |p_j| or fd_step where p_j = 0, of the residual function the fit
/// uses: the sdirk2 scheme where the sensitivities apply, else the scenario's integrator). `automatic` as in fit().
Eigen::MatrixXd jacobian(const std::vector<Experiment>& experiments, const std::vector<ParameterSpec>& parameters,
                         const VecX& p, InitialState initial_state, JacobianMethod method = JacobianMethod::automatic,
                         double fd_step = 1e-6);

/// Fits; throws InvalidInput (validate) before any solve. A solver failure at a trial point makes that step
/// unsuccessful (Ceres shrinks its trust region); at the start point it is a SolverError.
Result fit(const std::vector<Experiment>& experiments, const std::vector<ParameterSpec>& parameters,
           const Options& options = {}, const IterationCallback& progress = {});

}  // namespace bristle::fit
