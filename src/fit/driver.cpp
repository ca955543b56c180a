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

class Cost final : public ceres::CostFunction {
 public:
  Cost(const ResidualFn& residuals, const ExactFn& exact_fn, std::size_t n, const std::vector<ParameterSpec>& parameters,
       const Options& options, long& evaluations, long& jacobian_evaluations, bool exact)
      : residuals_(residuals),
        exact_fn_(exact_fn),
        parameters_(parameters),
        options_(options),
        evaluations_(evaluations),
        jacobian_evaluations_(jacobian_evaluations),
        exact_(exact) {
    set_num_residuals(static_cast<int>(n));
    mutable_parameter_block_sizes()->push_back(static_cast<int>(parameters.size()));
  }

  VecX residuals_u(const VecX& u) const {
    if (cached_u_.size() == u.size() && cached_u_ == u) return cached_r_;
    VecX p(u.size());
    for (Index j = 0; j < u.size(); ++j) p[j] = detail::to_p(parameters_[static_cast<std::size_t>(j)], u[j]);
    ++evaluations_;
    VecX r = residuals_(p);
    cached_u_ = u;
    cached_r_ = r;
    return r;
  }

  /// dr/du: exact (output_derivatives, the residuals of the same solves in r0), or by central differences in u
  /// (one-sided where a bound is nearer than the step).
  Eigen::MatrixXd jacobian_u(const VecX& u, VecX& r0) const {
    ++jacobian_evaluations_;
    if (exact_) {
      VecX p(u.size());
      for (Index j = 0; j < u.size(); ++j) p[j] = detail::to_p(parameters_[static_cast<std::size_t>(j)], u[j]);
      ++evaluations_;
      std::optional<Eigen::MatrixXd> J = exact_fn_(p, r0);
      if (!J) {  // e.g. a trial point where the flow directions mix: differences there
        ++fallbacks_;
        r0 = residuals_u(u);
        return difference_jacobian(u, r0);
      }
      for (Index j = 0; j < u.size(); ++j) {
        const ParameterSpec& spec = parameters_[static_cast<std::size_t>(j)];
        J->col(j) *= spec.scale == Scale::log ? p[j] : detail::scale_of(spec);
      }
      cached_u_ = u;
      cached_r_ = r0;
      return *J;
    }
    return difference_jacobian(u, r0);
  }

  long fallbacks() const { return fallbacks_; }

  Eigen::MatrixXd difference_jacobian(const VecX& u, const VecX& r0) const {
    Eigen::MatrixXd J(r0.size(), u.size());
    for (Index j = 0; j < u.size(); ++j) {
      const ParameterSpec& spec = parameters_[static_cast<std::size_t>(j)];
      const double h = spec.scale == Scale::log ? options_.fd_step : options_.fd_step * std::max(1.0, std::abs(u[j]));
      const double lo = detail::to_u(spec, spec.min), hi = detail::to_u(spec, spec.max);
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

  bool Evaluate(double const* const* parameters, double* residuals, double** jacobians) const override {
    try {
      const VecX u = Eigen::Map<const VecX>(parameters[0], static_cast<Index>(parameters_.size()));
      VecX r;
      if (jacobians && jacobians[0]) {
        if (!exact_) r = residuals_u(u);
        const Eigen::MatrixXd J = jacobian_u(u, r);
        Eigen::Map<Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(jacobians[0], J.rows(),
                                                                                           J.cols()) = J;
      } else {
        r = residuals_u(u);
      }
      std::copy(r.data(), r.data() + r.size(), residuals);
      return true;
    } catch (const SolverError&) {
      return false;
    } catch (const InvalidInput&) {
      return false;  // a trial point the scenario rejects (e.g. an operating point without a leading edge)
    }
  }

 private:
  const ResidualFn& residuals_;
  const ExactFn& exact_fn_;
  const std::vector<ParameterSpec>& parameters_;
  const Options& options_;
  long& evaluations_;
  long& jacobian_evaluations_;
  bool exact_;
  mutable long fallbacks_ = 0;
  mutable VecX cached_u_, cached_r_;
};

class ProgressRelay final : public ceres::IterationCallback {
 public:
  ProgressRelay(const fit::IterationCallback& progress, int start, int starts)
      : progress_(progress), start_(start), starts_(starts) {}
  ceres::CallbackReturnType operator()(const ceres::IterationSummary& s) override {
    if (progress_) progress_(Iteration{start_, starts_, s.iteration, s.cost});
    return ceres::SOLVER_CONTINUE;
  }

 private:
  const fit::IterationCallback& progress_;
  int start_, starts_;
};

}  // namespace

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
  // The loop of fit::fit (fit.cpp): Levenberg-Marquardt, dense QR, bounds, bisection in the projected line search.
  // The exact Jacobian where it applies at the start point (keys of law/body/pair that leave the transport alone,
  // forward-substitution sweeps), else central differences; Options::jacobian forces either.
  result.jacobian = exact ? JacobianMethod::sensitivities : JacobianMethod::finite_differences;
  auto* cost = new Cost(residuals, exact_fn, n, parameters, options, result.evaluations, result.jacobian_evaluations,
                        exact);
  ceres::Problem::Options problem_options;
  problem_options.cost_function_ownership = ceres::TAKE_OWNERSHIP;
  ceres::Problem problem(problem_options);
  VecX u = u_initial;
  problem.AddResidualBlock(cost, nullptr, u.data());
  for (Index j = 0; j < np; ++j) {
    problem.SetParameterLowerBound(u.data(), static_cast<int>(j), lo[j]);
    problem.SetParameterUpperBound(u.data(), static_cast<int>(j), hi[j]);
  }
  std::mt19937_64 rng(options.seed);
  const int starts = std::max(1, options.multi_start);
  double best_cost = kInf;
  VecX best_u;
  ceres::Solver::Summary best_summary;
  for (int s = 0; s < starts; ++s) {
    if (s == 0) {
      u = u_initial;
    } else {
      for (Index j = 0; j < np; ++j) u[j] = std::uniform_real_distribution<double>(lo[j], hi[j])(rng);
    }
    ceres::Solver::Options so;
    so.minimizer_type = ceres::TRUST_REGION;
    so.trust_region_strategy_type = ceres::LEVENBERG_MARQUARDT;
    so.linear_solver_type = ceres::DENSE_QR;
    so.max_num_iterations = options.max_iterations;
    so.function_tolerance = options.function_tolerance;
    so.parameter_tolerance = options.parameter_tolerance;
    so.gradient_tolerance = options.gradient_tolerance;
    so.logging_type = ceres::SILENT;
    so.minimizer_progress_to_stdout = false;
    so.num_threads = 1;
    so.line_search_interpolation_type = ceres::BISECTION;
    ProgressRelay relay(progress, s, starts);
    so.callbacks.push_back(&relay);
    ceres::Solver::Summary summary;
    ceres::Solve(so, &problem, &summary);
    if (!summary.IsSolutionUsable()) {
      if (s == 0 && starts == 1)
        throw SolverError(fmt::format("fit: the model cannot be solved at the initial values: {}", summary.message));
      continue;
    }
    if (summary.final_cost < best_cost) {
      best_cost = summary.final_cost;
      best_u = u;
      best_summary = summary;
      result.best_start = s;
    }
  }
  if (best_u.size() == 0) throw SolverError("fit: no start gave a usable solution");
  result.converged = best_summary.termination_type == ceres::CONVERGENCE;
  result.iterations = static_cast<int>(best_summary.iterations.size()) - 1;
  result.termination = best_summary.message;
  if (!result.converged)
    result.warnings.push_back(fmt::format("not converged ({}): the values are the best found, not an optimum",
                                          best_summary.message));
  VecX r = cost->residuals_u(best_u);
  const Eigen::MatrixXd J = cost->jacobian_u(best_u, r);
  if (cost->fallbacks() > 0)
    result.warnings.push_back(fmt::format("the exact Jacobian did not apply at {} of {} points (a parameter changed "
                                          "the transport or the flow directions mixed): central differences there",
                                          cost->fallbacks(), result.jacobian_evaluations));
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
