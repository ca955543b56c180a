#pragma once
// Identification of a steady-map scenario's parameters (kind = "patch_steady_map"; issue 16): the data rows
// are operating points of the map, matched on one grid variable (a kinematics axis: slip_angle_deg, vy_mps,
// vx_mps or spin_radps), and a target compares a map output (Fx_N, Fy_N, Mz_Nm, Mz_no_phi_Nm) with a data
// column at those points:
//
//   minimise  S(p) = sum_e sum_k sum_i (w_k (y_k(g_i; p) - d_{e,k,i}))^2     over  min_j <= p_j <= max_j
//
// y_k(g; p) the steady patch solution (patch::PatchSolver, paper 1 §4, eqs. 33-51) at the operating point whose
// grid axis is g and whose other axes are the scenario's (single) values, with the parameters p set by key path
// (io::set_number on the parsed PatchMapScenario: law.*, body1.*, body2.*, pair.s, patch.*, kinematics.Vr_mps).
// Each operating point is solved from the unloaded state (no warm start), so y_k(g; p) does not depend on the
// order of the rows.
//
// The optimiser, the scaled coordinates and the statistics are those of fit::fit (fit/fit.hpp): Ceres
// Levenberg-Marquardt with bounds, u = p/|p_initial| or ln p, s^2, covariance, ci95, correlation, condition
// number, AIC/BIC and the warnings. The Jacobian is exact where it applies: the implicit-function derivative of
// the discrete steady equations (patch::PatchSolver::output_derivatives: one forward substitution per operating
// point through the sweep's own order, after the solve), for keys of law, body1, body2 and pair that leave the
// transport unchanged (the pair's S0, S1, S2; also K0bar^-1, Cbar with spin and S-corrections) on operating
// points whose sweep is forward substitution; the pointwise partials are central differences of the smooth
// source and friction at p_j -/+ 1e-6 |p_j| (as the lumped sensitivities, src/fit/sensitivity.hpp). Elsewhere
// (e.g. patch.* keys, or body keys of a viscoelastic ground under spin) the Jacobian is central differences of
// whole steady solves in u (step Options::fd_step, one-sided within a step of a bound); a trial point where the
// exact derivative does not apply uses differences and the result says so in a warning.
#include <string>
#include <vector>

#include "bristle/fit/fit.hpp"
#include "bristle/io/patch_scenario.hpp"

namespace bristle::fit {

/// One experiment of a steady map: the scenario (its grid axis replaced by the data's values) and the data rows.
struct MapExperiment {
  std::string label;                // e.g. the data file
  io::PatchMapScenario scenario;    // parsed; the grid axis is set per row
  std::string grid;                 // the kinematics axis the rows vary: "slip_angle_deg", "vy_mps", "vx_mps", "spin_radps"
  std::vector<double> grid_values;  // one per data row (any order, repeats allowed)
  std::vector<Target> targets;      // values: one per row
};

/// The map outputs a target may name.
const std::vector<std::string>& map_outputs();

/// Problem-wide checks (InvalidInput naming the key): at least one experiment and parameter, bounds, start values,
/// duplicates, key paths settable in every experiment (io::set_number with the initial value), targets the map
/// outputs, the grid a kinematics axis of the scenario with single-valued other axes, every grid value a valid
/// operating point (io::validate), and N > P.
void validate(const std::vector<MapExperiment>& experiments, const std::vector<ParameterSpec>& parameters);

/// The model at parameter values p: per experiment, one row per data row with the grid value and every map output
/// (the columns grid, Fx_N, Fy_N, Mz_Nm, Mz_no_phi_Nm). SolverError if a solve fails.
std::vector<TimeSeries> map_model(const std::vector<MapExperiment>& experiments,
                                  const std::vector<ParameterSpec>& parameters, const VecX& p);

/// The weighted residuals w (y - d) (experiment-major, then target, then row) at p.
VecX residuals(const std::vector<MapExperiment>& experiments, const std::vector<ParameterSpec>& parameters,
               const VecX& p);

/// Empty if the exact Jacobian applies at p, else why not.
std::string sensitivities_unavailable(const std::vector<MapExperiment>& experiments,
                                      const std::vector<ParameterSpec>& parameters, const VecX& p);

/// dr/dp at p: `sensitivities` (exact; InvalidInput if it does not apply), `finite_differences` (central
/// differences of whole steady solves, step fd_step |p_j|, fd_step where p_j = 0), `automatic` the first where
/// it applies.
Eigen::MatrixXd jacobian(const std::vector<MapExperiment>& experiments, const std::vector<ParameterSpec>& parameters,
                         const VecX& p, JacobianMethod method = JacobianMethod::automatic, double fd_step = 1e-4);

/// Fits (Options: max_iterations, multi_start, seed, tolerances, fd_step, jacobian; initial_state does not
/// apply); Result as fit::fit, with jacobian = sensitivities where the exact Jacobian applies at the start and,
/// per experiment, the map_model() series at
/// the optimum (u0 empty). Throws InvalidInput (validate) before any solve.
Result fit(const std::vector<MapExperiment>& experiments, const std::vector<ParameterSpec>& parameters,
           const Options& options = {}, const IterationCallback& progress = {});

}  // namespace bristle::fit
