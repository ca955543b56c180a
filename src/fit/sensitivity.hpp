#pragma once
// The residuals of a velocity-driven lumped fit and their exact Jacobian dr/dp, from the discrete forward
// sensitivities of the fixed-step sdirk2 scheme on the data grid (private to src/fit; see fit/fit.hpp and
// docs/fitting.md, "Exact Jacobian").
//
// The scheme is integrate's sdirk2 as `bristle run` takes it with integrator.dt_s (the same grid: steps of dt
// between consecutive data times, the last one landing on the data time), L-stable, stiffly accurate,
// gamma = 1 - 1/sqrt(2), the drive velocity v_r(t) read at the stage times t + gamma h and t + h:
//   Y1 = x + a h(Y1, v_r(t + gamma h); p),                       a = gamma h
//   Y2 = b + a h(Y2, v_r(t + h); p),   b = x + (1 - gamma)/gamma (Y1 - x),   x_{n+1} = Y2
// Each stage is solved to rounding: one Newton step with the analytic dh/du is exact for the laws whose
// source is affine in u at fixed v_r (Dahl, LuGre, FrBD, frictionless), Newton iterations for Bouc-Wen.
// Differentiating the stage equations with respect to p gives the sensitivities S = dx/dp exactly:
//   dY/dp = (I - a dh/du(Y))^-1 (db/dp + a dh/dp(Y)),   db/dp = S (stage 1), S + (1 - gamma)/gamma (S1 - S)
// and the output F = F_z(t) f_out(x, v_r(t); p) gives dF/dp = F_z (df_out/du S + df_out/dp). The pointwise
// partials dh/dp, df_out/du, df_out/dp and du0/dp (the initial state) are central differences of those smooth,
// noise-free functions (a model built at p_j -/+ 1e-6 |p_j|): their error is ~1e-9 relative, far below any
// solver noise, unlike difference quotients of a whole adaptive solve (~rtol).
#include <string>
#include <vector>

#include "bristle/fit/fit.hpp"

namespace bristle::fit::detail {

/// Empty if the discrete sensitivities apply to every experiment (integrator.method = "sdirk2", bench.drive =
/// "velocity", every parameter a key of law, body1 or body2, every target F_N or Fy_N); else why not.
std::string sensitivity_obstacle(const std::vector<Experiment>& experiments,
                                 const std::vector<ParameterSpec>& parameters);

/// The weighted residuals at p (as fit::residuals, experiment-major) by the scheme above and, if `jacobian` is
/// not null, dr/dp (N x P). SolverError if a stage solve fails or a value is not finite.
VecX sdirk2_residuals(const std::vector<Experiment>& experiments, const std::vector<ParameterSpec>& parameters,
                      const VecX& p, InitialState initial_state, Eigen::MatrixXd* jacobian);

}  // namespace bristle::fit::detail
