// Identification by bounded nonlinear least squares (Ceres); statistics at the optimum. See fit/fit.hpp.
#include "bristle/fit/fit.hpp"

#include <ceres/ceres.h>
#include <fmt/format.h>

#include <Eigen/SVD>
#include <algorithm>
#include <boost/math/distributions/students_t.hpp>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <random>
#include <set>

#include "bristle/contact/bench.hpp"
#include "bristle/contact/contact_model.hpp"
#include "bristle/core/error.hpp"
#include "bristle/io/json.hpp"
#include "bristle/io/key_path.hpp"
#include "driver.hpp"
#include "engine.hpp"
#include "sensitivity.hpp"

namespace bristle::fit {

using Eigen::Index;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kIdentifiable = 1e-6;  // sigma / sigma_max below which a direction is not identifiable
constexpr double kAtBound = 1e-6;       // distance to a bound, relative to the range in u

std::string q(std::string_view s) { return io::json_quote(s); }

std::string parameter_key(const ParameterSpec& p) { return fmt::format("fit.parameters.{}", q(p.key)); }

// ---- scaled coordinates u: u = p / s (linear), u = ln p (log) -------------------------------------------

double scale_of(const ParameterSpec& p) {
  if (p.initial != 0.0) return std::abs(p.initial);
  const double range = p.max - p.min;
  return range > 0.0 && std::isfinite(range) ? range : 1.0;
}
double to_u(const ParameterSpec& p, double value) {
  return p.scale == Scale::log ? std::log(value) : value / scale_of(p);
}
/// p at u, unbounded: the ends of a confidence interval, which may lie beyond the parameter's bounds.
double to_p_unbounded(const ParameterSpec& p, double u) { return p.scale == Scale::log ? std::exp(u) : u * scale_of(p); }
// A parameter's value, within [min, max]: at a bound, exp(ln min) may round below min (exp(ln 2e4) = 19999.99999999998),
// and that value, evaluated, reported and written into <name>_fitted.toml, lay outside the parameter's own bounds.
double to_p(const ParameterSpec& p, double u) {
  const double value = to_p_unbounded(p, u);
  return p.min <= p.max ? std::clamp(value, p.min, p.max) : value;
}

// ---- one model evaluation --------------------------------------------------------------------------------

int output_index(const contact::Bench& bench, const std::string& name) {
  const std::vector<std::string> names = bench.column_names();
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return static_cast<int>(i);
  return -1;
}

io::LumpedScenario with_parameters(const Experiment& e, const std::vector<ParameterSpec>& parameters,
                                   const VecX& p) {
  io::LumpedScenario sc = e.scenario;
  for (std::size_t j = 0; j < parameters.size(); ++j) io::set_number(sc, parameters[j].key, p[static_cast<Index>(j)]);
  return sc;
}

VecX initial_contact_state(const io::LumpedScenario& sc, const std::vector<Target>& targets,
                           const std::vector<double>& times, InitialState initial_state) {
  const contact::ContactModel model(sc.law, sc.body1, sc.body2);
  const contact::Bench bench(model, sc.bench);
  VecX u0 = VecX::Zero(model.state_size());
  if (initial_state == InitialState::steady) {
    io::LumpedScenario steady = sc;
    steady.initial.steady = true;
    steady.time.t_start_s = times.front();
    u0 = steady.initial_contact_state(model);
    if (!u0.allFinite())
      throw InvalidInput("fit.initial_state = \"steady\": the law has no finite steady state at the first sample's "
                         "relative velocity; give law.eps > 0 or another initial_state");
    return u0;
  }
  if (initial_state == InitialState::rest) return u0;
  // match_first_sample: the bristle force f (x or y) whose output force equals the first sample; the output is
  // affine in f for every law at fixed velocity and branch states (LuGre's sigma1 z' is linear in z), so two
  // evaluations and one secant step find it; two more steps absorb rounding.
  const Target* force = nullptr;
  for (const Target& t : targets)
    if (t.output == "F_N" || t.output == "Fy_N") {
      force = &t;
      break;
    }
  if (!force)
    throw InvalidInput("fit.initial_state = \"match_first_sample\": needs a force target (F_N or Fy_N) in "
                       "[fit.targets]");
  const int axis = force->output == "F_N" ? 0 : 1;
  const int column = output_index(bench, force->output);
  const double t0 = times.front();
  const double wanted = force->values.front();
  std::vector<double> row(contact::Bench::kOutputColumns);
  const auto output = [&](double f) {
    u0[axis] = f;
    const VecX state = bench.initial_state(u0);
    bench.outputs(t0, state.data(), row.data());
    return row[static_cast<std::size_t>(column)] - wanted;
  };
  const double load = sc.bench.normal_load(t0);
  double f_a = wanted / load, f_b = f_a + 1e-3 * (std::abs(f_a) + 1e-3);
  double g_a = output(f_a), g_b = output(f_b);
  for (int k = 0; k < 4 && g_b != 0.0 && g_b != g_a; ++k) {
    const double f_c = f_b - g_b * (f_b - f_a) / (g_b - g_a);
    f_a = f_b;
    g_a = g_b;
    f_b = f_c;
    g_b = output(f_b);
  }
  if (!std::isfinite(f_b))
    throw InvalidInput(fmt::format("fit.initial_state = \"match_first_sample\": no bristle state gives the first "
                                   "sample {} = {}",
                                   force->data_column, format_value(wanted)));
  u0[axis] = f_b;
  return u0;
}

struct Solved {
  TimeSeries series;
  VecX u0;
};

Solved solve(const Experiment& e, const io::LumpedScenario& sc, InitialState initial_state) {
  const contact::ContactModel model(sc.law, sc.body1, sc.body2);
  const contact::Bench bench(model, sc.bench);
  Solved s;
  s.u0 = initial_contact_state(sc, e.targets, e.times, initial_state);
  contact::BenchRun run = contact::run(bench, e.times, sc.integrator, s.u0);
  s.series = std::move(run.series);
  return s;
}

std::size_t residual_count(const std::vector<Experiment>& experiments) {
  std::size_t n = 0;
  for (const Experiment& e : experiments) n += e.times.size() * e.targets.size();
  return n;
}

/// Residuals at parameter values p; `solved` (optional) receives each experiment's solution.
VecX residuals_at(const std::vector<Experiment>& experiments, const std::vector<ParameterSpec>& parameters,
                  const VecX& p, InitialState initial_state, std::vector<Solved>* solved = nullptr) {
  VecX r(static_cast<Index>(residual_count(experiments)));
  Index at = 0;
  for (const Experiment& e : experiments) {
    const io::LumpedScenario sc = with_parameters(e, parameters, p);
    Solved s = solve(e, sc, initial_state);
    for (const Target& t : e.targets) {
      const std::vector<double>& y = s.series.column(t.output);
      for (std::size_t i = 0; i < e.times.size(); ++i) r[at++] = t.weight * (y[i] - t.values[i]);
    }
    if (solved) solved->push_back(std::move(s));
  }
  if (!r.allFinite()) throw SolverError("the model output is not finite");
  return r;
}

// ---- Ceres --------------------------------------------------------------------------------------------------

/// The lumped fit's residuals: the prepared sdirk2 solver with its discrete sensitivities (the exact Jacobian), or
/// the general solve of every experiment.
class ResidualCost final : public detail::ScaledCost {
 public:
  ResidualCost(const std::vector<Experiment>& experiments, const std::vector<ParameterSpec>& parameters,
               const Options& options, long& evaluations, long& jacobian_evaluations, bool sensitivities)
      : ScaledCost(residual_count(experiments), parameters, options, sensitivities, evaluations, jacobian_evaluations),
        experiments_(experiments),
        parameters_(parameters),
        options_(options),
        sensitivities_(sensitivities) {
    if (sensitivities_) sdirk2_.emplace(experiments, parameters, options.initial_state);
  }

 private:
  VecX residuals_p(const VecX& p) const override {
    return sensitivities_ ? (*sdirk2_)(p, nullptr) : residuals_at(experiments_, parameters_, p, options_.initial_state);
  }
  std::optional<Eigen::MatrixXd> exact_p(const VecX& p, VecX& r) const override {
    Eigen::MatrixXd J;
    r = (*sdirk2_)(p, &J);
    return J;
  }

  const std::vector<Experiment>& experiments_;
  const std::vector<ParameterSpec>& parameters_;
  const Options& options_;
  bool sensitivities_;
  std::optional<detail::Sdirk2Residuals> sdirk2_;  // prepared once: the grid, the stage velocities, the loads
};

/// Ceres' first trust-region radius for a start u: its default (1e4: an almost undamped first step) where the
/// Gauss-Newton step from u stays inside the bounds, else a damped kFarRadius. A Gauss-Newton step that leaves the
/// box means the linearisation at u is far from the optimum; the undamped steps are then projected onto the bounds
/// and bisected by the line search with cost-only solves (the tribometer fit: 116 solves from radius 1e4, 35 with
/// this rule), whereas near the optimum the undamped step is the right one (a damped start costs the well-posed fits
/// 1.2-2.5x more solves). The Jacobian at u is the one Ceres asks for first (ResidualCost caches it).
double first_radius(const ResidualCost& cost, const VecX& u, const VecX& lo, const VecX& hi) {
  constexpr double kFarRadius = 3.0;
  constexpr double kCeresDefault = 1e4;
  VecX r;
  try {
    const Eigen::MatrixXd J = cost.jacobian_at(u, r);
    const VecX step = J.colPivHouseholderQr().solve(-r);
    if (!step.allFinite()) return kCeresDefault;
    for (Index j = 0; j < u.size(); ++j)
      if (u[j] + step[j] < lo[j] || u[j] + step[j] > hi[j]) return kFarRadius;
  } catch (const SolverError&) {
    return kCeresDefault;  // Ceres reports the failure at the start itself
  } catch (const InvalidInput&) {
    return kCeresDefault;
  }
  return kCeresDefault;
}

bool use_sensitivities(const std::vector<Experiment>& experiments, const std::vector<ParameterSpec>& parameters,
                       JacobianMethod method) {
  if (method == JacobianMethod::finite_differences) return false;
  const std::string obstacle = detail::sensitivity_obstacle(experiments, parameters);
  if (method == JacobianMethod::sensitivities && !obstacle.empty())
    throw InvalidInput(fmt::format("fit: exact Jacobian requested, but it does not apply to {}", obstacle));
  return obstacle.empty();
}


// ---- statistics ---------------------------------------------------------------------------------------------

std::string combination(const ParameterSpec& a, const ParameterSpec& b, double ratio) {
  // u_a - ratio u_b is constant along the direction; written in the parameters themselves.
  const double sa = scale_of(a), sb = scale_of(b);
  const bool la = a.scale == Scale::log, lb = b.scale == Scale::log;
  if (la && lb) return fmt::format("{} * {}^{:.3g}", a.key, b.key, -ratio);
  if (!la && !lb) return fmt::format("{} {} {:.3g} * {}", a.key, ratio * sa / sb > 0 ? "-" : "+",
                                     std::abs(ratio * sa / sb), b.key);
  if (!la) return fmt::format("{} {} {:.3g} * ln({})", a.key, ratio > 0 ? "-" : "+", std::abs(ratio * sa), b.key);
  return fmt::format("ln({}) {} {:.3g} * {}", a.key, ratio > 0 ? "-" : "+", std::abs(ratio / sb), b.key);
}

void statistics(Result& result, const std::vector<ParameterSpec>& parameters, const VecX& u, const VecX& r,
                const Eigen::MatrixXd& J) {
  const Index np = u.size();
  const double n = static_cast<double>(r.size());
  result.cost = r.squaredNorm();
  result.residual_count = static_cast<std::size_t>(r.size());
  const double dof = n - static_cast<double>(np);
  result.residual_variance = result.cost / dof;
  const double s_over_n = std::max(result.cost / n, std::numeric_limits<double>::min());
  result.aic = n * std::log(s_over_n) + 2.0 * static_cast<double>(np);
  result.bic = n * std::log(s_over_n) + static_cast<double>(np) * std::log(n);

  // Column scaling D (unit-norm columns) makes the condition number scale-free.
  VecX d = J.colwise().norm().transpose();
  for (Index j = 0; j < np; ++j)
    if (!(d[j] > 0.0)) d[j] = 1.0;
  const Eigen::MatrixXd Js = J * d.cwiseInverse().asDiagonal();
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(Js, Eigen::ComputeThinV);
  const VecX sigma = svd.singularValues();
  const Eigen::MatrixXd V = svd.matrixV();
  const double sigma_max = sigma[0];
  const double sigma_min = sigma[np - 1];
  const bool zero_column = (J.colwise().norm().array() == 0.0).any();
  result.condition_number = zero_column || !(sigma_min > 0.0) ? kInf : sigma_max / sigma_min;

  // Covariance in u: s^2 D^-1 V Sigma^-2 V^T D^-1, over the identifiable directions only; a parameter with a
  // weight in a non-identifiable direction gets an infinite standard error.
  Eigen::MatrixXd cov = Eigen::MatrixXd::Zero(np, np);
  std::vector<bool> undetermined(static_cast<std::size_t>(np), false);
  for (Index k = 0; k < np; ++k) {
    const VecX v = V.col(k);
    // A zero column (a parameter the data cannot see) is its own direction of singular value 0: it is flagged alone,
    // and the others keep their errors (helper-48: one dead parameter nulled every error and warned of every pair).
    if (sigma[k] > kIdentifiable * sigma_max) {
      cov += v * v.transpose() / (sigma[k] * sigma[k]);
      continue;
    }
    for (Index j = 0; j < np; ++j)
      if (std::abs(v[j]) > 0.1) undetermined[static_cast<std::size_t>(j)] = true;
    // The direction in u, and the two parameters that carry most of it.
    const VecX du = v.cwiseQuotient(d);
    Index a = 0, b = -1;
    for (Index j = 1; j < np; ++j)
      if (std::abs(du[j]) > std::abs(du[a])) a = j;
    for (Index j = 0; j < np; ++j)
      if (j != a && (b < 0 || std::abs(du[j]) > std::abs(du[b]))) b = j;
    const ParameterSpec& pa = parameters[static_cast<std::size_t>(a)];
    std::string w = fmt::format("non-identifiable direction (sigma/sigma_max = {:.2g}): ",
                                sigma_max > 0.0 ? sigma[k] / sigma_max : 0.0);
    if (b >= 0 && std::abs(du[b]) > 0.05 * std::abs(du[a])) {
      const ParameterSpec& pb = parameters[static_cast<std::size_t>(b)];
      w += fmt::format("{} and {} move together without changing the fit; the data determine {}", pa.key, pb.key,
                       combination(pa, pb, du[a] / du[b]));
    } else {
      w += fmt::format("{} does not change the fit (the data do not determine it)", pa.key);
    }
    result.warnings.push_back(w);
  }
  cov = result.residual_variance * (d.cwiseInverse().asDiagonal() * cov * d.cwiseInverse().asDiagonal());

  const double t = dof >= 1.0 ? boost::math::quantile(boost::math::students_t(dof), 0.975) : kInf;
  result.correlation = Eigen::MatrixXd::Constant(np, np, std::numeric_limits<double>::quiet_NaN());
  for (Index i = 0; i < np; ++i)
    for (Index j = 0; j < np; ++j)
      if (!undetermined[static_cast<std::size_t>(i)] && !undetermined[static_cast<std::size_t>(j)])
        result.correlation(i, j) = i == j ? 1.0 : cov(i, j) / std::sqrt(cov(i, i) * cov(j, j));

  for (Index j = 0; j < np; ++j) {
    const ParameterSpec& spec = parameters[static_cast<std::size_t>(j)];
    ParameterResult& pr = result.parameters[static_cast<std::size_t>(j)];
    const double se_u = undetermined[static_cast<std::size_t>(j)] ? kInf : std::sqrt(cov(j, j));
    pr.value = to_p(spec, u[j]);
    pr.std_error = spec.scale == Scale::log ? pr.value * se_u : scale_of(spec) * se_u;
    pr.ci95_low = std::isfinite(se_u) ? to_p_unbounded(spec, u[j] - t * se_u) : -kInf;
    pr.ci95_high = std::isfinite(se_u) ? to_p_unbounded(spec, u[j] + t * se_u) : kInf;
    if (spec.scale == Scale::log && !std::isfinite(se_u)) pr.ci95_low = 0.0;
    const double lo = to_u(spec, spec.min), hi = to_u(spec, spec.max);
    const double tolerance = kAtBound * (hi - lo);
    if (u[j] - lo <= tolerance || hi - u[j] <= tolerance) {
      pr.at_bound = true;
      result.warnings.push_back(fmt::format("{} = {} is at its bound [{}, {}]: the optimum may lie beyond it, and "
                                            "its interval assumes it does not",
                                            spec.key, format_value(pr.value), format_value(spec.min),
                                            format_value(spec.max)));
    }
  }
}

}  // namespace

std::string_view to_string(JacobianMethod m) {
  switch (m) {
    case JacobianMethod::automatic: return "automatic";
    case JacobianMethod::sensitivities: return "sensitivities";
    case JacobianMethod::finite_differences: return "finite_differences";
  }
  return "?";
}

std::string sensitivities_unavailable(const std::vector<Experiment>& experiments,
                                      const std::vector<ParameterSpec>& parameters) {
  return detail::sensitivity_obstacle(experiments, parameters);
}

Eigen::MatrixXd jacobian(const std::vector<Experiment>& experiments, const std::vector<ParameterSpec>& parameters,
                         const VecX& p, InitialState initial_state, JacobianMethod method, double fd_step) {
  if (use_sensitivities(experiments, parameters, method)) {
    Eigen::MatrixXd J;
    (void)detail::sdirk2_residuals(experiments, parameters, p, initial_state, &J);
    return J;
  }
  // Difference quotients of the residual function the fit uses: the sdirk2 scheme where the sensitivities apply
  // (so that the two Jacobians can be compared), the scenario's integrator elsewhere.
  const bool sdirk2 = detail::sensitivity_obstacle(experiments, parameters).empty();
  const auto residual = [&](const VecX& q) {
    return sdirk2 ? detail::sdirk2_residuals(experiments, parameters, q, initial_state, nullptr)
                  : residuals_at(experiments, parameters, q, initial_state);
  };
  return detail::central_differences(residual, p, fd_step);
}

std::string_view to_string(InitialState s) {
  switch (s) {
    case InitialState::rest: return "rest";
    case InitialState::match_first_sample: return "match_first_sample";
    case InitialState::steady: return "steady";
  }
  return "?";
}

void require_weight(std::string_view key, double weight) {
  if (!(weight >= Target::kMinWeight && weight <= Target::kMaxWeight))
    throw InvalidInput(fmt::format("{} = {}: must be in [{}, {}] (beyond, the squared weighted residuals under- or "
                                   "overflow)",
                                   key, format_value(weight), format_value(Target::kMinWeight),
                                   format_value(Target::kMaxWeight)));
}

void validate(const std::vector<Experiment>& experiments, const std::vector<ParameterSpec>& parameters) {
  if (experiments.empty()) throw InvalidInput("fit: no experiment to fit");
  if (parameters.empty()) throw InvalidInput("fit.parameters: must name at least one parameter");
  detail::validate_parameters(parameters);
  std::size_t n = 0;
  for (const Experiment& e : experiments) {
    if (e.targets.empty()) throw InvalidInput("fit.targets: must name at least one target");
    if (e.targets.size() != experiments.front().targets.size())
      throw InvalidInput(fmt::format("fit: experiment {} has {} targets, the first {}: every experiment fits the "
                                     "same targets",
                                     e.label, e.targets.size(), experiments.front().targets.size()));
    for (std::size_t k = 0; k < e.targets.size(); ++k)
      if (e.targets[k].output != experiments.front().targets[k].output)
        throw InvalidInput(fmt::format("fit: experiment {}: target {} is {}, the first experiment's {}", e.label,
                                       k, q(e.targets[k].output), q(experiments.front().targets[k].output)));
    const contact::ContactModel model(e.scenario.law, e.scenario.body1, e.scenario.body2);
    const contact::Bench bench(model, e.scenario.bench);
    for (const Target& t : e.targets) {
      if (output_index(bench, t.output) < 0)
        throw InvalidInput(fmt::format("fit.targets.{}: the model does not output a column {} (outputs: {})",
                                       t.output, q(t.output), fmt::join(bench.column_names(), ", ")));
      require_weight(fmt::format("fit.targets.{}.weight", t.output), t.weight);
      if (t.values.size() != e.times.size())
        throw InvalidInput(fmt::format("fit.targets.{}: {} values for {} times", t.output, t.values.size(),
                                       e.times.size()));
    }
    if (e.times.size() < 2) throw InvalidInput(fmt::format("fit: experiment {}: fewer than 2 samples", e.label));
    // A fixed step over the data's span, within the run's step budget: the exact Jacobian's step grid is formed
    // before the first step (data times 0 .. 1e8 s at dt_s = 1 took 3.1 GB and ended in std::bad_alloc).
    const integrate::Options& o = e.scenario.integrator;
    const double span = e.times.back() - e.times.front();
    if (!integrate::is_adaptive(o.method) && o.dt_s > 0.0 && span / o.dt_s > static_cast<double>(o.max_steps))
      throw InvalidInput(fmt::format("fit: experiment {}: integrator.dt_s = {} over the data's {} s ({} .. {} s) "
                                     "takes {} steps; integrator.max_steps = {}",
                                     e.label, format_value(o.dt_s), format_value(span), format_value(e.times.front()),
                                     format_value(e.times.back()), format_value(std::ceil(span / o.dt_s)),
                                     o.max_steps));
    io::LumpedScenario sc = e.scenario;
    for (const ParameterSpec& p : parameters) {
      try {
        (void)io::get_number(sc, p.key);
        io::set_number(sc, p.key, p.initial);
      } catch (const InvalidInput& error) {
        throw InvalidInput(fmt::format("{}: {}", parameter_key(p), error.what()));
      }
    }
    n += e.times.size() * e.targets.size();
  }
  if (n <= parameters.size())
    throw InvalidInput(fmt::format("fit: {} residual(s) for {} parameters: the window needs more samples than "
                                   "parameters",
                                   n, parameters.size()));
}

VecX initial_state(const Experiment& experiment, InitialState state) {
  return initial_contact_state(experiment.scenario, experiment.targets, experiment.times, state);
}

VecX residuals(const std::vector<Experiment>& experiments, const std::vector<ParameterSpec>& parameters,
               const VecX& p, InitialState initial_state) {
  return residuals_at(experiments, parameters, p, initial_state);
}

Result fit(const std::vector<Experiment>& experiments, const std::vector<ParameterSpec>& parameters,
           const Options& options, const IterationCallback& progress) {
  validate(experiments, parameters);
  const auto start_time = std::chrono::steady_clock::now();
  const Index np = static_cast<Index>(parameters.size());
  Result result;
  for (const ParameterSpec& p : parameters)
    result.parameters.push_back(ParameterResult{p.key, p.scale, p.initial, p.min, p.max, 0, 0, 0, 0, false});

  VecX u_initial(np), lo(np), hi(np);
  for (Index j = 0; j < np; ++j) {
    const ParameterSpec& p = parameters[static_cast<std::size_t>(j)];
    u_initial[j] = to_u(p, p.initial);
    lo[j] = to_u(p, p.min);
    hi[j] = to_u(p, p.max);
  }
  const bool sensitivities = use_sensitivities(experiments, parameters, options.jacobian);
  result.jacobian = sensitivities ? JacobianMethod::sensitivities : JacobianMethod::finite_differences;
  ResidualCost cost(experiments, parameters, options, result.evaluations, result.jacobian_evaluations, sensitivities);
  const detail::Minimum best = detail::minimise(cost, u_initial, lo, hi, options, progress,
                                                [&](const VecX& u) { return first_radius(cost, u, lo, hi); });
  const VecX& best_u = best.u;
  detail::record(result, best);

  // The solution, its Jacobian and the statistics.
  VecX r;
  const Eigen::MatrixXd J = cost.jacobian_at(best_u, r);
  statistics(result, parameters, best_u, r, J);
  VecX p(np);
  for (Index j = 0; j < np; ++j) p[j] = result.parameters[static_cast<std::size_t>(j)].value;
  std::vector<Solved> solved;
  (void)residuals_at(experiments, parameters, p, options.initial_state, &solved);
  double force_sum = 0.0;
  std::size_t force_count = 0;
  for (std::size_t k = 0; k < experiments.front().targets.size(); ++k) {
    const Target& t0 = experiments.front().targets[k];
    double sum = 0.0;
    std::size_t count = 0;
    for (std::size_t e = 0; e < experiments.size(); ++e) {
      const Target& t = experiments[e].targets[k];
      const std::vector<double>& y = solved[e].series.column(t.output);
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
  for (std::size_t e = 0; e < experiments.size(); ++e)
    result.experiments.push_back(
        ExperimentResult{experiments[e].label, std::move(solved[e].series), std::move(solved[e].u0)});
  result.fit_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_time).count();
  return result;
}

// ---- shared with the fits of the other kinds (engine.hpp) -------------------------------------------------

namespace detail {

double scale_of(const ParameterSpec& p) { return fit::scale_of(p); }
double to_u(const ParameterSpec& p, double value) { return fit::to_u(p, value); }
double to_p(const ParameterSpec& p, double u) { return fit::to_p(p, u); }

Eigen::MatrixXd central_differences(const std::function<VecX(const VecX&)>& residuals, const VecX& p, double fd_step) {
  Eigen::MatrixXd J;
  for (Index j = 0; j < p.size(); ++j) {
    const double h = fd_step * (p[j] != 0.0 ? std::abs(p[j]) : 1.0);
    VecX pp = p, pm = p;
    pp[j] += h;
    pm[j] -= h;
    const VecX d = (residuals(pp) - residuals(pm)) / (2.0 * h);
    if (j == 0) J.resize(d.size(), p.size());
    J.col(j) = d;
  }
  return J;
}
void statistics(Result& result, const std::vector<ParameterSpec>& parameters, const VecX& u, const VecX& r,
                const Eigen::MatrixXd& J) {
  fit::statistics(result, parameters, u, r, J);
}

void validate_parameters(const std::vector<ParameterSpec>& parameters) {
  std::set<std::string> seen;
  for (const ParameterSpec& p : parameters) {
    const std::string key = parameter_key(p);
    if (!seen.insert(p.key).second) throw InvalidInput(fmt::format("{}: listed twice", key));
    if (!std::isfinite(p.min) || !std::isfinite(p.max))
      throw InvalidInput(fmt::format("{}.min = {}, max = {}: bounds must be finite", key, format_value(p.min),
                                     format_value(p.max)));
    if (!(p.min < p.max))
      throw InvalidInput(fmt::format("{}.min = {}: must be < max = {}", key, format_value(p.min),
                                     format_value(p.max)));
    if (!(p.initial >= p.min && p.initial <= p.max))
      throw InvalidInput(fmt::format("{}.initial = {}: must lie in [min, max] = [{}, {}]", key,
                                     format_value(p.initial), format_value(p.min), format_value(p.max)));
    if (p.scale == Scale::log && !(p.min > 0.0))
      throw InvalidInput(fmt::format("{}.min = {}: must be > 0 with scale = \"log\"", key, format_value(p.min)));
  }
}

}  // namespace detail

}  // namespace bristle::fit
