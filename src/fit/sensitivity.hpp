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
#include <cstddef>
#include <string>
#include <vector>

#include "bristle/fit/fit.hpp"

namespace bristle::fit::detail {

/// Empty if the discrete sensitivities apply to every experiment (integrator.method = "sdirk2", bench.drive =
/// "velocity", every parameter a key of law, body1 or body2, every target F_N or Fy_N); else why not.
std::string sensitivity_obstacle(const std::vector<Experiment>& experiments,
                                 const std::vector<ParameterSpec>& parameters);

/// The weighted residuals at p (as fit::residuals, experiment-major) by the scheme above and, if `jacobian` is
/// not null, dr/dp (N x P). SolverError if a stage solve fails or a value is not finite. Builds an Sdirk2Residuals
/// for one evaluation.
VecX sdirk2_residuals(const std::vector<Experiment>& experiments, const std::vector<ParameterSpec>& parameters,
                      const VecX& p, InitialState initial_state, Eigen::MatrixXd* jacobian);

/// The same function prepared once for many evaluations (the optimiser's): everything that does not depend on p
/// is computed in the constructor -- each experiment's step grid, the drive velocity at every stage time and at
/// every data time, the normal load at every data time (read once, by Signal::at's forward cursor), and the
/// scenario with its tables frozen -- so that an evaluation is arithmetic over those arrays.
///
/// Two paths compute the same discrete model:
/// - `scalar` (the common case: an elastic pair, Dahl, LuGre or FrBD with an isotropic Stribeck mu, no user
///   G^-1, axes decoupled, the drive along x only, F_N targets): the x component alone, f' = -alpha g(|v|) f - K v
///   (alpha = Sigma0_xx for Dahl/LuGre, K0_xx for FrBD; K = K0_xx; g = |v|/mu or sqrt(mu^2 v^2 + eps)/mu^2) and
///   F = F_z (f (1 - sigma1 alpha g / K) - (sigma1 + sigma2) v), each stage solved in closed form (the law is
///   affine in f), no heap traffic and no virtual call per step; the sensitivities from analytic partials of
///   g in (mu_s, mu_d, v_s, delta_s, mu_v, eps, alpha, K, sigma1, sigma2), chained with the derivative of these
///   coefficients with respect to each parameter (central differences of the coefficients of models built at
///   p_j -/+ 1e-6 |p_j|: exact for the coefficients linear in p).
/// - `general` (every other case): the state of any size through ContactModel::source / source_jacobian, an LU
///   per stage, and pointwise partials by central differences of the source.
/// `Path::automatic` takes `scalar` where it applies at p.
class Sdirk2Residuals {
 public:
  enum class Path { automatic, general };
  Sdirk2Residuals(const std::vector<Experiment>& experiments, const std::vector<ParameterSpec>& parameters,
                  InitialState initial_state, Path path = Path::automatic);
  ~Sdirk2Residuals();
  Sdirk2Residuals(const Sdirk2Residuals&) = delete;
  Sdirk2Residuals& operator=(const Sdirk2Residuals&) = delete;

  /// The residuals at p and, if `jacobian` is not null, dr/dp (as sdirk2_residuals).
  VecX operator()(const VecX& p, Eigen::MatrixXd* jacobian) const;
  /// How many experiments the last evaluation solved on the scalar path (for tests and benchmarks).
  std::size_t scalar_solves() const { return scalar_solves_; }

 private:
  struct Prepared;
  const std::vector<ParameterSpec>& parameters_;
  InitialState initial_state_;
  Path path_;
  std::vector<Prepared> prepared_;
  std::size_t residual_count_ = 0;
  mutable std::size_t scalar_solves_ = 0;
};

}  // namespace bristle::fit::detail
