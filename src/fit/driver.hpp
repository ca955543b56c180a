#pragma once
// Private to src/fit: the bounded minimiser every fit runs (Ceres' Levenberg-Marquardt with an active set of
// bounds, multi-start), the loop of the kinds other than lumped over a residual function r(p) and, optionally, an
// exact Jacobian, and the per-target RMS of a result.
#include <ceres/ceres.h>

#include <exception>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "bristle/fit/fit.hpp"

namespace bristle::fit::detail {

/// A residual function of the scaled coordinates u for minimise: Ceres' cost and dr/du at a point (N x P, the
/// residuals at u into r; the last point's are cached, so that asking for Ceres' last Jacobian costs no solve).
class CostInU : public ceres::CostFunction {
 public:
  virtual Eigen::MatrixXd jacobian_at(const VecX& u, VecX& r) const = 0;
  /// The model's error at the last point Ceres could not evaluate (Evaluate returned false) since clear_failure(),
  /// or null.
  std::exception_ptr last_failure() const { return last_failure_; }
  void clear_failure() const { last_failure_ = nullptr; }
  /// Ceres' cost times this is the fit's: Evaluate gives Ceres r / s (s fixed at its first point, ScaledCost).
  double cost_scale() const { return residual_scale_ > 0.0 ? residual_scale_ * residual_scale_ : 1.0; }

 protected:
  mutable std::exception_ptr last_failure_;
  mutable double residual_scale_ = 0.0;  // s; 0 until the first evaluation
};

/// The residual cost of a fit in u (p = to_p(u) per parameter), shared by every kind: the residuals r(p) of the
/// subclass, and dr/du from its exact dr/dp where it gives one (`exact`), else central differences in u of step
/// options.fd_step (one-sided where a bound is nearer). The last residual point and the last Jacobian point are
/// kept: Ceres' projected line search and its candidate evaluation ask for the same point twice, and the active set
/// and the statistics ask for Ceres' last Jacobian again. Counts model solves and Jacobians into the Result's
/// counters, and the points where the exact Jacobian did not apply (fallbacks).
class ScaledCost : public CostInU {
 public:
  ScaledCost(std::size_t n, const std::vector<ParameterSpec>& parameters, const Options& options, bool exact,
             long& evaluations, long& jacobian_evaluations);
  VecX residuals_u(const VecX& u) const;
  Eigen::MatrixXd jacobian_at(const VecX& u, VecX& r) const final;
  bool Evaluate(double const* const* parameters, double* residuals, double** jacobians) const final;
  long fallbacks() const { return fallbacks_; }

 protected:
  /// The residuals at p: one model solve.
  virtual VecX residuals_p(const VecX& p) const = 0;
  /// The residuals at p (into r) and dr/dp, or nullopt where the exact Jacobian does not apply at p; called only
  /// when the cost was built with `exact`.
  virtual std::optional<Eigen::MatrixXd> exact_p(const VecX& p, VecX& r) const = 0;

 private:
  VecX p_of(const VecX& u) const;
  Eigen::MatrixXd difference_jacobian(const VecX& u, const VecX& r0) const;

  const std::vector<ParameterSpec>& parameters_;
  const Options& options_;
  bool exact_;
  long& evaluations_;
  long& jacobian_evaluations_;
  mutable long fallbacks_ = 0;
  mutable VecX cached_u_, cached_r_;
  mutable VecX cached_ju_, cached_jr_;
  mutable Eigen::MatrixXd cached_J_;
};

/// The end of one local fit and of the multi-start over them.
struct Minimum {
  VecX u;                  // the best end point, in u
  double cost = 0.0;       // Ceres' cost there, sum r^2 / 2
  bool converged = false;  // the last phase converged and the active set was settled
  int iterations = 0;      // of the best start, all phases
  int best_start = 0;
  std::string message;     // Ceres' termination message of the best start's last phase
};

/// Multi-start bounded least squares in u (the start u_initial, then options.multi_start - 1 points drawn uniformly
/// in [lo, hi] with options.seed): Ceres' Levenberg-Marquardt, dense QR, bisection in the projected line search.
/// Bounds: Ceres projects each step onto the box; on top, a parameter that reaches a bound is held there (a phase
/// ends when a free parameter reaches a bound, and the next one holds it) and released, one at a time, when a phase
/// converges and its gradient points back into the box (Lawson-Hanson; driver.cpp, local_fit). first_radius(u): Ceres' first trust-region radius for a
/// start. SolverError when no start gives a usable solution.
Minimum minimise(CostInU& cost, const VecX& u_initial, const VecX& lo, const VecX& hi, const Options& options,
                 const IterationCallback& progress, const std::function<double(const VecX&)>& first_radius);

/// result's best_start, converged, iterations, termination, and the warning of a fit that did not converge.
void record(Result& result, const Minimum& best);

using ResidualFn = std::function<VecX(const VecX& p)>;
/// The residuals at p (into r) and dr/dp, or nullopt where the exact Jacobian does not apply at p (differences
/// are then used at that point, and a warning says how often).
using ExactFn = std::function<std::optional<Eigen::MatrixXd>(const VecX& p, VecX& r)>;

/// Empty if every parameter is a key of the contact's law and bodies (law., body1., body2., pair.) or one of `also`
/// (a whole key, or a prefix ending in '.'); else the reason, naming the first other key: the exact Jacobians of the
/// non-lumped kinds differentiate the contact's step or steady state, not the transport, grid or structure.
std::string contact_key_obstacle(const std::vector<ParameterSpec>& parameters,
                                 const std::vector<std::string>& also = {});

/// The residuals at p (into r) and their exact Jacobian, or nullopt with the reason in *why (if not null).
using ExactAt = std::function<std::optional<Eigen::MatrixXd>(const VecX& p, VecX& r, std::string* why)>;

/// dr/dp by `method`: the exact Jacobian where it applies at p (automatic; sensitivities throws InvalidInput saying
/// why it does not), else `differences()`.
Eigen::MatrixXd jacobian_by(JacobianMethod method, const VecX& p, const ExactAt& exact,
                            const std::function<Eigen::MatrixXd()>& differences);

/// Whether a fit takes the exact Jacobian: Options::jacobian is not finite_differences and `why` (the reason it
/// does not apply, empty if it does) is empty; InvalidInput when sensitivities are asked and it does not apply.
bool use_exact(const Options& options, const std::string& why);

/// Multi-start bounded Levenberg-Marquardt in u; fills result's parameters, statistics, converged, iterations,
/// termination, evaluations, jacobian(_evaluations), best_start and warnings; returns p at the optimum.
/// `exact`: use exact_fn for the Jacobians (else central differences in u, step options.fd_step). n residuals.
VecX least_squares(const ResidualFn& residuals, const ExactFn& exact_fn, bool exact, std::size_t n,
                   const std::vector<ParameterSpec>& parameters, const Options& options,
                   const IterationCallback& progress, Result& result);

/// result.targets (RMS per target over every experiment) and rms_N, from each experiment's targets and model
/// series (a column per target output, a row per value).
void target_statistics(Result& result, const std::vector<const std::vector<Target>*>& targets,
                       const std::vector<TimeSeries>& series);

}  // namespace bristle::fit::detail
