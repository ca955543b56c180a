// The optimiser loop shared by the fits of the kinds other than lumped (driver.hpp): fit::fit's Ceres set-up
// (Levenberg-Marquardt, dense QR, bounds, bisection in the projected line search) over a residual function.
#include "driver.hpp"

#include <ceres/ceres.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "bristle/core/error.hpp"
#include "bristle/io/json.hpp"
#include "engine.hpp"

namespace bristle::fit::detail {

using Eigen::Index;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// The fit of a kind other than lumped: its residual function and exact Jacobian.
class Cost final : public ScaledCost {
 public:
  Cost(const ResidualFn& residuals, const ExactFn& exact_fn, std::size_t n, const std::vector<ParameterSpec>& parameters,
       const Options& options, long& evaluations, long& jacobian_evaluations, bool exact)
      : ScaledCost(n, parameters, options, exact, evaluations, jacobian_evaluations),
        residuals_(residuals),
        exact_fn_(exact_fn) {}

 private:
  VecX residuals_p(const VecX& p) const override { return residuals_(p); }
  std::optional<Eigen::MatrixXd> exact_p(const VecX& p, VecX& r) const override { return exact_fn_(p, r); }

  const ResidualFn& residuals_;
  const ExactFn& exact_fn_;
};

/// Whether u_j is on one of its bounds (Ceres' projection puts it there exactly).
bool on_bound(const VecX& u, const VecX& lo, const VecX& hi, Index j) { return u[j] <= lo[j] || u[j] >= hi[j]; }

/// The callback of one phase of a local fit: relays progress and ends the phase when a free parameter reaches a
/// bound from inside the box (off it at the last accepted iterate; it is then held there).
class PhaseWatch final : public ceres::IterationCallback {
 public:
  PhaseWatch(const fit::IterationCallback& progress, int start, int starts, int offset, const VecX& u, const VecX& lo,
             const VecX& hi, const std::vector<bool>& held, const CostInU& cost)
      : progress_(progress), start_(start), starts_(starts), offset_(offset), u_(u), lo_(lo), hi_(hi), held_(held),
        cost_(cost) {
    for (Index j = 0; j < u.size(); ++j) at_bound_.push_back(on_bound(u, lo, hi, j));
  }
  ceres::CallbackReturnType operator()(const ceres::IterationSummary& s) override {
    if (progress_ && (offset_ == 0 || s.iteration > 0))
      progress_(Iteration{start_, starts_, offset_ + s.iteration, s.cost * cost_.cost_scale()});
    if (s.iteration == 0 || !s.step_is_successful) return ceres::SOLVER_CONTINUE;
    for (Index j = 0; j < u_.size(); ++j) {
      const auto k = static_cast<std::size_t>(j);
      const bool now = on_bound(u_, lo_, hi_, j);
      const bool arrived = now && !at_bound_[k];
      at_bound_[k] = now;
      if (!held_[k] && arrived) contact_ = true;
    }
    return contact_ ? ceres::SOLVER_TERMINATE_SUCCESSFULLY : ceres::SOLVER_CONTINUE;
  }
  bool contact() const { return contact_; }

 private:
  const fit::IterationCallback& progress_;
  int start_, starts_, offset_;
  const VecX& u_;  // Ceres' parameter block (update_state_every_iteration)
  const VecX &lo_, &hi_;
  const std::vector<bool>& held_;
  const CostInU& cost_;         // Ceres' cost times its cost_scale() is the fit's
  std::vector<bool> at_bound_;  // at the last accepted iterate
  bool contact_ = false;
};

struct LocalFit {
  VecX u;
  bool usable = false, converged = false;
  bool start_failed = false;  // not usable because the start itself could not be evaluated
  int iterations = 0;
  double cost = kInf;
  std::string message;
};

/// One local fit from u: phases of Ceres' projected Levenberg-Marquardt, each with the parameters of an active set
/// held at their bounds (SubsetManifold). A phase ends when Ceres converges or when a free parameter reaches a bound
/// from inside the box; every free parameter at a bound then joins the set. When a phase converges with no new
/// parameter at a bound (or every parameter is held), the held parameter whose gradient g = J^T r points furthest
/// into the box is released, as in Lawson and Hanson's active-set method, if that is by more than sqrt of the
/// function tolerance in g / (|J_j| |r|) (the square is the relative decrease a step in it alone can give; a zero
/// column, a plateau, never qualifies); the fit has converged when none does, or when the parameter released last
/// ends the next phase on its bound again (Ceres found no decrease along it). Ceres alone keeps projecting
/// Levenberg-Marquardt steps that point out of the box onto it, and the mismatch between the step and its model
/// shrinks the trust region: along a valley that ends at bounds it crawls (the tribometer fit from five starts in
/// its better basin: 40 iterations without converging, rms_N 0.20602-0.22175 N; with the active set 9-14
/// iterations to 0.2060123 N). The first phase starts from `radius`, the others from Ceres' default (an undamped step
/// in the new subspace: 9-14 against 11-21 iterations from the last phase's radius on the same starts).
LocalFit local_fit(CostInU& cost, VecX u, const VecX& lo, const VecX& hi, const Options& options,
                   const fit::IterationCallback& progress, int start, int starts, double radius) {
  const Index np = u.size();
  std::vector<bool> held(static_cast<std::size_t>(np), false);
  LocalFit out;
  const double release_threshold = std::max(1e-9, std::sqrt(options.function_tolerance));
  Index released = -1;  // the parameter released before the current phase
  // Releases the held parameter whose gradient at u points furthest into the box (Lawson-Hanson); false if none
  // does by more than release_threshold. The Jacobian at u is Ceres' last (cached).
  const auto release_one = [&]() {
    VecX r;
    const Eigen::MatrixXd J = cost.jacobian_at(u, r);
    const VecX g = J.transpose() * r;
    const double r_norm = r.norm();
    Index best_j = -1;
    double best = release_threshold;
    for (Index j = 0; j < np; ++j) {
      if (!held[static_cast<std::size_t>(j)]) continue;
      const double norm = J.col(j).norm() * r_norm;
      if (!(norm > 0.0)) continue;  // a zero column: a plateau, nothing to release towards
      const double inward = (u[j] <= lo[j] ? -g[j] : g[j]) / norm;
      if (inward > best) {
        best = inward;
        best_j = j;
      }
    }
    if (best_j >= 0) held[static_cast<std::size_t>(best_j)] = false;
    released = best_j;
    return best_j >= 0;
  };
  const int max_phases = 4 * static_cast<int>(np) + 4;  // a backstop: each phase holds or releases one or more
  for (int phase = 0;; ++phase) {
    const int remaining = std::max(0, options.max_iterations - out.iterations);
    if (phase > 0 && (remaining == 0 || phase == max_phases)) {  // the first phase runs even on a zero budget
      out.converged = false;
      out.message = remaining == 0 ? fmt::format("Maximum number of iterations reached. Number of iterations: {}.",
                                                 out.iterations)
                                   : fmt::format("The active set of bounds did not settle in {} phases.", max_phases);
      break;
    }
    std::vector<int> fixed;
    for (Index j = 0; j < np; ++j)
      if (held[static_cast<std::size_t>(j)]) fixed.push_back(static_cast<int>(j));
    if (static_cast<Index>(fixed.size()) == np) {  // every parameter held: converged unless one points inward
      bool released_one = false;
      try {
        released_one = release_one();
      } catch (const SolverError& e) {
        out.message = e.what();
        break;
      } catch (const InvalidInput& e) {
        out.message = e.what();
        break;
      }
      if (!released_one) {
        out.converged = true;
        out.message = "Every parameter is on a bound, and the gradient points out of the box at each.";
        break;
      }
      fixed.clear();
      for (Index j = 0; j < np; ++j)
        if (held[static_cast<std::size_t>(j)]) fixed.push_back(static_cast<int>(j));
    }
    ceres::Problem::Options problem_options;
    problem_options.cost_function_ownership = ceres::DO_NOT_TAKE_OWNERSHIP;
    ceres::Problem problem(problem_options);
    const VecX u_before = u;
    problem.AddResidualBlock(&cost, nullptr, u.data());
    for (Index j = 0; j < np; ++j) {
      problem.SetParameterLowerBound(u.data(), static_cast<int>(j), lo[j]);
      problem.SetParameterUpperBound(u.data(), static_cast<int>(j), hi[j]);
    }
    if (!fixed.empty()) problem.SetManifold(u.data(), new ceres::SubsetManifold(static_cast<int>(np), fixed));
    ceres::Solver::Options so;
    so.minimizer_type = ceres::TRUST_REGION;
    so.trust_region_strategy_type = ceres::LEVENBERG_MARQUARDT;
    so.linear_solver_type = ceres::DENSE_QR;
    so.max_num_iterations = remaining;
    so.function_tolerance = options.function_tolerance;
    so.parameter_tolerance = options.parameter_tolerance;
    so.gradient_tolerance = options.gradient_tolerance;
    so.logging_type = ceres::SILENT;
    so.minimizer_progress_to_stdout = false;
    so.num_threads = 1;
    // With bounds, Ceres runs a projected Armijo line search on every step; its default cubic interpolation asks
    // for the gradient (a Jacobian: 2 P + 1 solves by differences) at each trial, which made the 15 iterations
    // of the tribometer fit cost 815 solves. Bisection needs the cost only.
    so.line_search_interpolation_type = ceres::BISECTION;
    so.initial_trust_region_radius = phase == 0 ? radius : 1e4;  // Ceres' default after the first phase
    so.update_state_every_iteration = true;                       // the watch reads u
    PhaseWatch watch(progress, start, starts, out.iterations, u, lo, hi, held, cost);
    so.callbacks.push_back(&watch);
    ceres::Solver::Summary summary;
    ceres::Solve(so, &problem, &summary);
    if (!summary.IsSolutionUsable()) {
      if (phase == 0) {
        out.message = summary.message;
        out.start_failed = summary.iterations.empty();  // Ceres' iteration 0 (the start) never completed
        return out;  // not usable
      }
      u = u_before;  // keep the last phase's end
      out.converged = false;
      out.message = summary.message;
      break;
    }
    out.usable = true;
    out.iterations += static_cast<int>(summary.iterations.size()) - 1;
    out.cost = summary.final_cost * cost.cost_scale();
    out.message = summary.message;
    if (!watch.contact() && summary.termination_type != ceres::CONVERGENCE) {
      out.converged = false;  // the iteration budget (counted over every phase), or Ceres' own failure
      if (summary.termination_type == ceres::NO_CONVERGENCE && out.iterations >= options.max_iterations)
        out.message = fmt::format("Maximum number of iterations reached. Number of iterations: {}.", out.iterations);
      break;
    }
    try {
      bool changed = false;
      for (Index j = 0; j < np; ++j) {  // a free parameter on a bound is held there
        const auto k = static_cast<std::size_t>(j);
        if (!held[k] && on_bound(u, lo, hi, j)) held[k] = changed = true;
      }
      if (watch.contact()) continue;
      // Converged on the free parameters. The parameter released before this phase is back on its bound where
      // it was: Ceres found no decrease along it, so it stays held and the fit has converged.
      const bool released_stayed = released >= 0 && held[static_cast<std::size_t>(released)] &&
                                   u[released] == u_before[released];
      if (released_stayed) {
        out.converged = true;
        break;
      }
      if (!changed && !release_one()) {
        out.converged = true;
        break;
      }
      if (changed) released = -1;
    } catch (const SolverError& e) {  // the Jacobian at u is Ceres' last (cached); this guards a cache miss
      out.converged = false;
      out.message = e.what();
      break;
    } catch (const InvalidInput& e) {
      out.converged = false;
      out.message = e.what();
      break;
    }
  }
  out.u = u;
  return out;
}

}  // namespace

ScaledCost::ScaledCost(std::size_t n, const std::vector<ParameterSpec>& parameters, const Options& options, bool exact,
                       long& evaluations, long& jacobian_evaluations)
    : parameters_(parameters),
      options_(options),
      exact_(exact),
      evaluations_(evaluations),
      jacobian_evaluations_(jacobian_evaluations) {
  set_num_residuals(static_cast<int>(n));
  mutable_parameter_block_sizes()->push_back(static_cast<int>(parameters.size()));
}

VecX ScaledCost::p_of(const VecX& u) const {
  VecX p(u.size());
  for (Index j = 0; j < u.size(); ++j) p[j] = to_p(parameters_[static_cast<std::size_t>(j)], u[j]);
  return p;
}

VecX ScaledCost::residuals_u(const VecX& u) const {
  if (cached_u_.size() == u.size() && cached_u_ == u) return cached_r_;
  ++evaluations_;
  VecX r = residuals_p(p_of(u));
  cached_u_ = u;
  cached_r_ = r;
  return r;
}

Eigen::MatrixXd ScaledCost::jacobian_at(const VecX& u, VecX& r) const {
  if (cached_ju_.size() == u.size() && cached_ju_ == u) {
    r = cached_jr_;
    return cached_J_;
  }
  ++jacobian_evaluations_;
  std::optional<Eigen::MatrixXd> J;
  if (exact_) {
    const VecX p = p_of(u);
    ++evaluations_;
    J = exact_p(p, r);
    if (J) {
      for (Index j = 0; j < u.size(); ++j) {  // dp/du: p (log) or the scale (linear)
        const ParameterSpec& spec = parameters_[static_cast<std::size_t>(j)];
        J->col(j) *= spec.scale == Scale::log ? p[j] : scale_of(spec);
      }
      cached_u_ = u;
      cached_r_ = r;
    } else {
      ++fallbacks_;  // e.g. a trial point where the flow directions mix: differences there
    }
  }
  if (!J) {
    r = residuals_u(u);
    J = difference_jacobian(u, r);
  }
  cached_ju_ = u;
  cached_jr_ = r;
  cached_J_ = *J;
  return cached_J_;
}

Eigen::MatrixXd ScaledCost::difference_jacobian(const VecX& u, const VecX& r0) const {
  Eigen::MatrixXd J(r0.size(), u.size());
  for (Index j = 0; j < u.size(); ++j) {
    const ParameterSpec& spec = parameters_[static_cast<std::size_t>(j)];
    const double h = spec.scale == Scale::log ? options_.fd_step : options_.fd_step * std::max(1.0, std::abs(u[j]));
    const double lo = to_u(spec, spec.min), hi = to_u(spec, spec.max);
    const double hp = std::min(h, hi - u[j]), hm = std::min(h, u[j] - lo);
    VecX up = u, um = u;
    up[j] += hp;
    um[j] -= hm;
    const VecX rp = hp > 0.0 ? residuals_u(up) : r0;
    const VecX rm = hm > 0.0 ? residuals_u(um) : r0;
    J.col(j) = (rp - rm) / (hp + hm);
  }
  cached_u_ = u;  // the point itself, for the next call
  cached_r_ = r0;
  return J;
}

bool ScaledCost::Evaluate(double const* const* parameters, double* residuals, double** jacobians) const {
  try {
    const VecX u = Eigen::Map<const VecX>(parameters[0], static_cast<Index>(parameters_.size()));
    VecX r;
    Eigen::MatrixXd J;
    if (jacobians && jacobians[0]) J = jacobian_at(u, r);
    else r = residuals_u(u);
    // Ceres sees r / s and J / s, s fixed at the first point: 1, or the residuals' RMS there when it is below 1e-3.
    // Its absolute tests (the gradient tolerance, the Levenberg-Marquardt diagonal's floor of 1e-6) stopped a fit of
    // forces in micronewtons, or with a target weight of 1e-8, after 0-3 iterations far from the optimum, reported
    // converged (helper-48); data in newtons keeps s = 1, the same steps to the bit.
    if (!(residual_scale_ > 0.0)) {
      const double rms = r.size() > 0 ? r.norm() / std::sqrt(static_cast<double>(r.size())) : 0.0;
      residual_scale_ = rms > 0.0 && rms < 1e-3 ? rms : 1.0;
    }
    if (residual_scale_ != 1.0) {
      r /= residual_scale_;
      J /= residual_scale_;
    }
    if (jacobians && jacobians[0])
      Eigen::Map<Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(jacobians[0], J.rows(),
                                                                                         J.cols()) = J;
    std::copy(r.data(), r.data() + r.size(), residuals);
    return true;
  } catch (const SolverError&) {
    last_failure_ = std::current_exception();
    return false;  // Ceres treats the step as unsuccessful
  } catch (const InvalidInput&) {
    last_failure_ = std::current_exception();
    return false;  // a trial point the scenario rejects (e.g. mu_s < mu_d where the law needs the order)
  }
}

std::string contact_key_obstacle(const std::vector<ParameterSpec>& parameters, const std::vector<std::string>& also) {
  std::vector<std::string> allowed = {"law.", "body1.", "body2.", "pair."};
  allowed.insert(allowed.end(), also.begin(), also.end());
  const auto admitted = [&](const std::string& key) {
    for (const std::string& a : allowed)
      if (a.back() == '.' ? key.compare(0, a.size(), a) == 0 : key == a) return true;
    return false;
  };
  for (const ParameterSpec& q : parameters) {
    if (admitted(q.key)) continue;
    std::string names;  // "law, body1, body2 and pair"
    for (std::size_t k = 0; k < allowed.size(); ++k) {
      const std::string& a = allowed[k];
      names += (k == 0 ? "" : k + 1 == allowed.size() ? " and " : ", ") + (a.back() == '.' ? a.substr(0, a.size() - 1) : a);
    }
    return fmt::format("fit.parameters.{} (the exact Jacobian takes keys of {})", io::json_quote(q.key), names);
  }
  return {};
}

Minimum minimise(CostInU& cost, const VecX& u_initial, const VecX& lo, const VecX& hi, const Options& options,
                 const IterationCallback& progress, const std::function<double(const VecX&)>& first_radius) {
  std::mt19937_64 rng(options.seed);
  const int starts = std::max(1, options.multi_start);
  Minimum best;
  best.cost = kInf;
  bool any = false;
  for (int s = 0; s < starts; ++s) {
    VecX u = u_initial;
    if (s > 0)
      for (Index j = 0; j < u.size(); ++j) u[j] = std::uniform_real_distribution<double>(lo[j], hi[j])(rng);
    cost.clear_failure();
    const LocalFit f = local_fit(cost, u, lo, hi, options, progress, s, starts, first_radius(u));
    if (!f.usable) {
      if (s == 0 && starts == 1) {
        // The model's own error at the start (bad input stays bad input, exit 2), not Ceres' "evaluation failed"
        // (helper-48); a failure after the start (a difference point across a constraint) is the solver's.
        constexpr const char* kHead = "fit: the model cannot be solved at the initial values: ";
        if (const std::exception_ptr e = f.start_failed ? cost.last_failure() : nullptr) {
          try {
            std::rethrow_exception(e);
          } catch (const InvalidInput& x) {
            throw InvalidInput(kHead + std::string(x.what()));
          } catch (const SolverError& x) {
            throw SolverError(kHead + std::string(x.what()));
          }
        }
        throw SolverError(f.start_failed ? kHead + f.message
                                         : "fit: the model could not be solved at a point the solver tried after the "
                                           "start: " + f.message);
      }
      continue;
    }
    if (!any || f.cost < best.cost) {
      any = true;
      best.u = f.u;
      best.cost = f.cost;
      best.converged = f.converged;
      best.iterations = f.iterations;
      best.best_start = s;
      best.message = f.message;
    }
  }
  if (!any) throw SolverError("fit: no start gave a usable solution");
  return best;
}

void record(Result& result, const Minimum& best) {
  result.best_start = best.best_start;
  result.converged = best.converged;
  result.iterations = best.iterations;
  result.termination = best.message;
  if (!result.converged)
    result.warnings.push_back(fmt::format("not converged ({}): the values are the best found, not an optimum",
                                          best.message));
}

Eigen::MatrixXd jacobian_by(JacobianMethod method, const VecX& p, const ExactAt& exact,
                            const std::function<Eigen::MatrixXd()>& differences) {
  if (method != JacobianMethod::finite_differences) {
    VecX r;
    std::string why;
    if (std::optional<Eigen::MatrixXd> J = exact(p, r, &why)) return *J;
    if (method == JacobianMethod::sensitivities)
      throw InvalidInput(fmt::format("fit: exact Jacobian requested, but it does not apply: {}", why));
  }
  return differences();
}

bool use_exact(const Options& options, const std::string& why) {
  if (options.jacobian == JacobianMethod::finite_differences) return false;
  if (!why.empty() && options.jacobian == JacobianMethod::sensitivities)
    throw InvalidInput(fmt::format("fit: exact Jacobian requested, but it does not apply: {}", why));
  return why.empty();
}

VecX least_squares(const ResidualFn& residuals, const ExactFn& exact_fn, bool exact, std::size_t n,
                   const std::vector<ParameterSpec>& parameters, const Options& options,
                   const IterationCallback& progress, Result& result) {
  const Index np = static_cast<Index>(parameters.size());
  for (const ParameterSpec& p : parameters)
    result.parameters.push_back(ParameterResult{p.key, p.scale, p.initial, p.min, p.max, 0, 0, 0, 0, false});
  VecX u_initial(np), lo(np), hi(np);
  for (Index j = 0; j < np; ++j) {
    const ParameterSpec& p = parameters[static_cast<std::size_t>(j)];
    u_initial[j] = to_u(p, p.initial);
    lo[j] = to_u(p, p.min);
    hi[j] = to_u(p, p.max);
  }
  // Levenberg-Marquardt with bounds (minimise). The exact Jacobian where it applies at the start point (keys of
  // law/body/pair that leave the transport alone, forward-substitution sweeps), else central differences;
  // Options::jacobian forces either.
  result.jacobian = exact ? JacobianMethod::sensitivities : JacobianMethod::finite_differences;
  Cost cost(residuals, exact_fn, n, parameters, options, result.evaluations, result.jacobian_evaluations, exact);
  const Minimum best = minimise(cost, u_initial, lo, hi, options, progress, [](const VecX&) { return 1e4; });
  const VecX& best_u = best.u;
  record(result, best);
  VecX r;
  const Eigen::MatrixXd J = cost.jacobian_at(best_u, r);
  if (cost.fallbacks() > 0)
    result.warnings.push_back(fmt::format("the exact Jacobian did not apply at {} of {} points (a parameter changed "
                                          "the transport or the flow directions mixed): central differences there",
                                          cost.fallbacks(), result.jacobian_evaluations));
  statistics(result, parameters, best_u, r, J);
  VecX p(np);
  for (Index j = 0; j < np; ++j) p[j] = result.parameters[static_cast<std::size_t>(j)].value;
  return p;
}

void target_statistics(Result& result, const std::vector<const std::vector<Target>*>& targets,
                       const std::vector<TimeSeries>& series) {
  double force_sum = 0.0;
  std::size_t force_count = 0;
  for (std::size_t k = 0; k < targets.front()->size(); ++k) {
    const Target& t0 = (*targets.front())[k];
    double sum = 0.0;
    std::size_t count = 0;
    for (std::size_t e = 0; e < targets.size(); ++e) {
      const Target& t = (*targets[e])[k];
      const std::vector<double>& y = series[e].column(t.output);
      for (std::size_t i = 0; i < t.values.size(); ++i) sum += (y[i] - t.values[i]) * (y[i] - t.values[i]);
      count += t.values.size();
    }
    result.targets.push_back(TargetResult{t0.output, t0.data_column, std::sqrt(sum / static_cast<double>(count))});
    if (t0.output.size() >= 2 && t0.output.compare(t0.output.size() - 2, 2, "_N") == 0) {
      force_sum += sum;
      force_count += count;
    }
  }
  if (force_count > 0) result.rms_N = std::sqrt(force_sum / static_cast<double>(force_count));
}

}  // namespace bristle::fit::detail
