// Identification of the line contact (fit/line.hpp): the steady map at the data's velocities and the transient at
// the data times, through the kind-independent pieces of series_fit.hpp and the optimiser loop of driver.hpp.
#include "bristle/fit/line.hpp"

#include <fmt/format.h>

#include <cmath>
#include <map>
#include <optional>

#include "bristle/contact/contact_model.hpp"
#include "bristle/core/error.hpp"
#include "bristle/transport/line_contact.hpp"
#include "bristle/transport/line_steady_derivatives.hpp"
#include "series_fit.hpp"

namespace bristle::fit {

namespace {

// ---- line_steady -------------------------------------------------------------------------------------------

TimeSeries solve_steady(const LineSteadyExperiment&, const io::LineSteadyScenario& sc) {
  const contact::ContactModel model(sc.law, sc.body1, sc.body2);
  return sc.solve(model);
}

/// The residuals at p and their exact Jacobian (transport::steady_state_derivatives), or nullopt with `why`.
std::optional<Eigen::MatrixXd> steady_exact(const std::vector<LineSteadyExperiment>& experiments,
                                            const std::vector<ParameterSpec>& parameters, const VecX& p, VecX& r,
                                            std::string* why = nullptr) {
  const auto fail = [&](std::string reason) {
    if (why) *why = std::move(reason);
    return std::optional<Eigen::MatrixXd>();
  };
  if (std::string obstacle = detail::contact_key_obstacle(parameters); !obstacle.empty()) return fail(obstacle);
  const Eigen::Index np = p.size();
  r.resize(static_cast<Eigen::Index>(detail::residual_count(experiments)));
  Eigen::MatrixXd J(r.size(), np);
  Eigen::Index at = 0;
  for (const LineSteadyExperiment& e : experiments) {
    const io::LineSteadyScenario sc = detail::with_parameters(e, parameters, p);
    const contact::ContactModel model(sc.law, sc.body1, sc.body2);
    // The models at p_j -/+ 1e-6 |p_j| (the lumped sensitivities' step), from a copy with one velocity so that
    // set_number's checks of every velocity are not repeated 2 P times.
    LineSteadyExperiment light = e;
    light.scenario.velocities.resize(1);
    std::vector<contact::ContactModel> models;
    std::vector<laws::LawParams> laws;
    models.reserve(static_cast<std::size_t>(2 * np));
    std::vector<double> h;
    for (Eigen::Index j = 0; j < np; ++j) h.push_back(1e-6 * (p[j] != 0.0 ? std::abs(p[j]) : 1.0));
    for (int sign : {1, -1})
      for (Eigen::Index j = 0; j < np; ++j) {
        VecX q = p;
        q[j] += sign * h[static_cast<std::size_t>(j)];
        try {
          const io::LineSteadyScenario s2 = detail::with_parameters(light, parameters, q);
          models.emplace_back(s2.law, s2.body1, s2.body2);
          laws.push_back(s2.law);
        } catch (const InvalidInput& error) {
          return fail(fmt::format("{} = {} (a perturbed value): {}", parameters[static_cast<std::size_t>(j)].key,
                                  format_value(q[j]), error.what()));
        }
      }
    std::vector<const contact::ContactModel*> plus, minus;
    for (Eigen::Index j = 0; j < np; ++j) {
      plus.push_back(&models[static_cast<std::size_t>(j)]);
      minus.push_back(&models[static_cast<std::size_t>(np + j)]);
    }
    const bool has_mu = sc.law.kind == laws::LawKind::dahl || sc.law.kind == laws::LawKind::lugre ||
                        sc.law.kind == laws::LawKind::frbd;
    const double Fz = sc.line.normal_load_N;
    const std::size_t rows = e.grid_values.size();
    // Per output: the value and its gradient at each row.
    std::map<std::string, std::pair<std::vector<double>, std::vector<Eigen::RowVectorXd>>> out;
    for (const std::string& o : line_steady_outputs()) out[o].first.resize(rows), out[o].second.resize(rows);
    for (std::size_t i = 0; i < rows; ++i) {
      const double v = e.grid_values[i];
      const double V1 = sc.mode == io::LineMode::sliding ? 0.0 : sc.Vr_mps;
      const double V2 = sc.mode == io::LineMode::sliding ? v : sc.Vr_mps + v;
      std::optional<transport::SteadyLineDerivatives> d;
      try {
        d = transport::steady_state_derivatives(model, plus, minus, h, sc.line, V1, V2);
      } catch (const InvalidInput& error) {
        return fail(error.what());
      }
      if (!d)
        return fail(fmt::format("{} = {}: the steady solve there is not the exact (matrix-exponential) path, or a "
                                "perturbed parameter changes its structure",
                                e.grid, format_value(v)));
      const Vec2 v_r(V2 - V1, 0.0);
      const double F = d->force_N[0];
      const Eigen::RowVectorXd dF = d->dforce_N.row(0);
      const double mu = has_mu ? sc.law.M.M(v_r)(0, 0) : std::nan("");
      Eigen::RowVectorXd dmu(np);
      for (Eigen::Index j = 0; j < np; ++j)
        dmu[j] = has_mu ? (laws[static_cast<std::size_t>(j)].M.M(v_r)(0, 0) -
                           laws[static_cast<std::size_t>(np + j)].M.M(v_r)(0, 0)) /
                              (2.0 * h[static_cast<std::size_t>(j)])
                        : std::nan("");
      const double sign = F < 0.0 ? -1.0 : 1.0;
      const double norm = F / (mu * Fz);
      const Eigen::RowVectorXd dnorm = dF / (mu * Fz) - (F / (mu * mu * Fz)) * dmu;
      out["Fx_N"].first[i] = F, out["Fx_N"].second[i] = dF;
      out["Fx_abs_N"].first[i] = std::abs(F), out["Fx_abs_N"].second[i] = sign * dF;
      out["Fx_norm"].first[i] = norm, out["Fx_norm"].second[i] = dnorm;
      out["Fx_norm_abs"].first[i] = std::abs(norm), out["Fx_norm_abs"].second[i] = (norm < 0.0 ? -1.0 : 1.0) * dnorm;
      out["mu"].first[i] = mu, out["mu"].second[i] = dmu;
    }
    for (const Target& t : e.targets) {
      const auto& [y, dy] = out.at(t.output);
      for (std::size_t i = 0; i < rows; ++i) {
        r[at] = t.weight * (y[i] - t.values[i]);
        J.row(at) = t.weight * dy[i];
        ++at;
      }
    }
  }
  if (!r.allFinite() || !J.allFinite()) return fail("the model or its derivative is not finite");
  return J;
}

void check_steady(const LineSteadyExperiment& e) {
  const std::string grid = e.scenario.mode == io::LineMode::sliding ? "V_mps" : "vx_mps";
  if (e.grid != grid)
    throw InvalidInput(fmt::format("fit.grid_column = {}: kinematics.mode = \"{}\" varies {} (the map's velocity "
                                   "axis)",
                                   io::json_quote(e.grid), io::to_string(e.scenario.mode), io::json_quote(grid)));
  if (e.grid_values.empty()) throw InvalidInput(fmt::format("fit: experiment {}: no data rows", e.label));
  if (e.scenario.velocities != e.grid_values)
    throw InvalidInput(fmt::format("fit: experiment {}: the scenario's velocities must be the data rows' {} values",
                                   e.label, e.grid));
}

// ---- line_transient ----------------------------------------------------------------------------------------

/// The run at the data times from the unloaded contact, with Fx_abs_N; `sensitivities` as transport::run's (their
/// derivative series get d Fx_abs_N = sign(Fx) d Fx).
TimeSeries run_transient(const LineTransientExperiment& e, const io::LineTransientScenario& sc,
                         const contact::ContactModel& model,
                         std::vector<transport::LineSensitivity>* sensitivities = nullptr) {
  transport::LineContact contact(model, sc.line);
  contact.reset(e.times.front());
  transport::LineRun run = transport::run(contact, e.times, {}, {}, sensitivities);
  TimeSeries& s = run.series;
  std::vector<double> abs_fx;
  abs_fx.reserve(s.rows());
  for (double f : s.column("Fx_N")) abs_fx.push_back(std::abs(f));
  if (sensitivities)
    for (transport::LineSensitivity& d : *sensitivities) {
      std::vector<double> d_abs;
      d_abs.reserve(s.rows());
      const std::vector<double>& F = s.column("Fx_N");
      const std::vector<double>& dF = d.derivative.column("Fx_N");
      for (std::size_t i = 0; i < dF.size(); ++i) d_abs.push_back(F[i] < 0.0 ? -dF[i] : dF[i]);
      d.derivative.names.emplace_back("Fx_abs_N");
      d.derivative.columns.push_back(std::move(d_abs));
    }
  s.names.emplace_back("Fx_abs_N");
  s.columns.push_back(std::move(abs_fx));
  return std::move(run.series);
}

TimeSeries solve_transient(const LineTransientExperiment& e, const io::LineTransientScenario& sc) {
  const contact::ContactModel model(sc.law, sc.body1, sc.body2);
  return run_transient(e, sc, model);
}

/// One experiment's case at p, its model, and the models at p_j -/+ h_j (h_j = 1e-6 |p_j|, 1e-6 where p_j = 0: the
/// lumped sensitivities' step) for the exact Jacobian of line_transient.
struct TransientModels {
  io::LineTransientScenario scenario;
  std::optional<contact::ContactModel> model;
  std::vector<contact::ContactModel> perturbed;  // minus_0, plus_0, minus_1, plus_1, ...
  std::vector<double> h;
};

/// Empty if the exact Jacobian applies to experiment e at p (`out` then holds its models), else why not: every
/// parameter a key of law, body1, body2 or pair that leaves the transport speeds as they are (S1, S2 of eq. 34a
/// within 1e-12 relative: they set the CFL steps), and the run on the affine-source (exponential) path.
std::string transient_obstacle(const LineTransientExperiment& e, const std::vector<ParameterSpec>& parameters,
                               const VecX& p, TransientModels& out) {
  // a key of line or kinematics changes the grid, the transport or the steps
  if (std::string k = detail::contact_key_obstacle(parameters); !k.empty()) return k;
  out.scenario = detail::with_parameters(e, parameters, p);
  const io::LineTransientScenario& sc = out.scenario;
  out.model.emplace(sc.law, sc.body1, sc.body2);
  if (sc.line.source_scheme == transport::SourceScheme::sdirk2)
    return "line.source_scheme = \"sdirk2\" (the exact Jacobian covers the exact-propagator path of affine sources)";
  if (!transport::source_is_affine(*out.model))
    return fmt::format("law.type = \"{}\"{}: its source is not affine in the state, so the run takes the SDIRK2 source "
                       "step (the exact Jacobian covers the exact-propagator path of affine sources)",
                       laws::to_string(sc.law.kind), sc.law.G_inverse ? " with a user G^-1" : "");
  const Eigen::Index np = p.size();
  out.perturbed.clear();
  out.perturbed.reserve(static_cast<std::size_t>(2 * np));
  out.h.clear();
  // The perturbed models from a copy at rest (constant zero velocities), so that set_number's checks of the
  // characteristic speeds over the run (a sine sampled 4096 times) are not repeated 2 P times: the keys of law, body1,
  // body2 and pair set the same model whatever the drive.
  LineTransientExperiment light = e;
  light.scenario.line.V1 = light.scenario.line.V2 = light.scenario.line.v_y = contact::Signal{};
  for (Eigen::Index j = 0; j < np; ++j) {
    const std::string& key = parameters[static_cast<std::size_t>(j)].key;
    const double h = 1e-6 * (p[j] != 0.0 ? std::abs(p[j]) : 1.0);
    out.h.push_back(h);
    for (const int sign : {-1, 1}) {
      VecX q = p;
      q[j] += sign * h;
      try {
        const io::LineTransientScenario s2 = detail::with_parameters(light, parameters, q);
        out.perturbed.emplace_back(s2.law, s2.body1, s2.body2);
      } catch (const InvalidInput& error) {
        return fmt::format("{} = {} (a perturbed value): {}", key, format_value(q[j]), error.what());
      }
      const contact::ContactModel& m = out.perturbed.back();
      const auto same = [](const Mat2& a, const Mat2& b) { return (a - b).norm() <= 1e-12 * std::max(1.0, b.norm()); };
      if (!same(m.pair().S1(), out.model->pair().S1()) || !same(m.pair().S2(), out.model->pair().S2()))
        return fmt::format("fit.parameters.{} changes the transport speeds (S1 = {} at {} = {}, {} at {}; eq. 34a), "
                           "and so the steps: central differences",
                           io::json_quote(key), format_matrix(m.pair().S1()), key, format_value(q[j]),
                           format_matrix(out.model->pair().S1()), format_value(p[j]));
      if (m.state_size() != out.model->state_size())
        return fmt::format("fit.parameters.{}: a perturbed value changes the number of state components",
                           io::json_quote(key));
    }
  }
  return {};
}

std::string transient_obstacle(const std::vector<LineTransientExperiment>& experiments,
                               const std::vector<ParameterSpec>& parameters, const VecX& p) {
  TransientModels models;
  for (const LineTransientExperiment& e : experiments)
    if (std::string why = transient_obstacle(e, parameters, p, models); !why.empty()) return why;
  return {};
}

/// The residuals at p and their exact Jacobian (transport::LineSensitivity: one run carrying P tangents per
/// experiment), or nullopt with `why`.
std::optional<Eigen::MatrixXd> transient_exact(const std::vector<LineTransientExperiment>& experiments,
                                               const std::vector<ParameterSpec>& parameters, const VecX& p, VecX& r,
                                               std::string* why = nullptr) {
  const auto fail = [&](std::string reason) {
    if (why) *why = std::move(reason);
    return std::optional<Eigen::MatrixXd>();
  };
  const Eigen::Index np = p.size();
  r.resize(static_cast<Eigen::Index>(detail::residual_count(experiments)));
  Eigen::MatrixXd J(r.size(), np);
  Eigen::Index at = 0;
  for (const LineTransientExperiment& e : experiments) {
    TransientModels models;
    if (std::string obstacle = transient_obstacle(e, parameters, p, models); !obstacle.empty()) return fail(obstacle);
    std::vector<transport::LineSensitivity> sens(static_cast<std::size_t>(np));
    bool energies = false;
    for (const Target& t : e.targets) energies = energies || t.output == "W_J" || t.output == "P_dissipated_W";
    for (std::size_t j = 0; j < sens.size(); ++j) {
      sens[j].energies = energies;
      sens[j].step = models.h[j];
      sens[j].minus = &models.perturbed[2 * j];
      sens[j].plus = &models.perturbed[2 * j + 1];
    }
    TimeSeries y;
    try {
      y = run_transient(e, models.scenario, *models.model, &sens);
    } catch (const InvalidInput& error) {
      return fail(error.what());
    }
    for (const Target& t : e.targets) {
      const std::vector<double>& yt = y.column(t.output);
      for (std::size_t i = 0; i < t.values.size(); ++i, ++at) {
        r[at] = t.weight * (yt[i] - t.values[i]);
        for (Eigen::Index j = 0; j < np; ++j)
          J(at, j) = t.weight * sens[static_cast<std::size_t>(j)].derivative.column(t.output)[i];
      }
    }
  }
  if (!r.allFinite() || !J.allFinite()) return fail("a residual or its derivative is not finite");
  return J;
}

}  // namespace

const std::vector<std::string>& line_steady_outputs() {
  static const std::vector<std::string> outputs{"Fx_N", "Fx_abs_N", "Fx_norm", "Fx_norm_abs", "mu"};
  return outputs;
}

void validate(const std::vector<LineSteadyExperiment>& experiments, const std::vector<ParameterSpec>& parameters) {
  detail::validate_series(experiments, parameters, line_steady_outputs(), "line_steady", check_steady);
}

std::vector<TimeSeries> line_steady_model(const std::vector<LineSteadyExperiment>& experiments,
                                          const std::vector<ParameterSpec>& parameters, const VecX& p) {
  std::vector<TimeSeries> out;
  (void)detail::series_residuals(experiments, parameters, p, solve_steady, &out);
  return out;
}

VecX residuals(const std::vector<LineSteadyExperiment>& experiments, const std::vector<ParameterSpec>& parameters,
               const VecX& p) {
  return detail::series_residuals(experiments, parameters, p, solve_steady);
}

std::string sensitivities_unavailable(const std::vector<LineSteadyExperiment>& experiments,
                                      const std::vector<ParameterSpec>& parameters, const VecX& p) {
  VecX r;
  std::string why;
  return steady_exact(experiments, parameters, p, r, &why) ? std::string() : why;
}

Eigen::MatrixXd jacobian(const std::vector<LineSteadyExperiment>& experiments,
                         const std::vector<ParameterSpec>& parameters, const VecX& p, JacobianMethod method,
                         double fd_step) {
  return detail::jacobian_by(
      method, p, [&](const VecX& q, VecX& r, std::string* why) { return steady_exact(experiments, parameters, q, r, why); },
      [&] { return detail::series_jacobian(experiments, parameters, p, fd_step, solve_steady); });
}

Result fit(const std::vector<LineSteadyExperiment>& experiments, const std::vector<ParameterSpec>& parameters,
           const Options& options, const IterationCallback& progress) {
  validate(experiments, parameters);
  VecX p0(static_cast<Eigen::Index>(parameters.size()));
  for (std::size_t j = 0; j < parameters.size(); ++j) p0[static_cast<Eigen::Index>(j)] = parameters[j].initial;
  const bool exact = options.jacobian != JacobianMethod::finite_differences &&
                     detail::use_exact(options, sensitivities_unavailable(experiments, parameters, p0));
  const detail::ExactFn exact_fn = [&](const VecX& p, VecX& r) { return steady_exact(experiments, parameters, p, r); };
  return detail::fit_series(experiments, parameters, options, progress, solve_steady, exact ? exact_fn : detail::ExactFn());
}

std::vector<std::string> line_transient_outputs() {
  return {"V1_mps", "V2_mps", "vr_mps", "vr_y_mps", "Fx_N", "Fy_N", "W_J", "P_supplied_W", "E_supplied_J",
          "P_dissipated_W", "Fx_abs_N"};
}

void validate(const std::vector<LineTransientExperiment>& experiments, const std::vector<ParameterSpec>& parameters) {
  detail::validate_series(experiments, parameters, line_transient_outputs(), "line_transient",
                          detail::check_series_times<LineTransientExperiment>);
}

std::vector<TimeSeries> line_transient_model(const std::vector<LineTransientExperiment>& experiments,
                                             const std::vector<ParameterSpec>& parameters, const VecX& p) {
  std::vector<TimeSeries> out;
  (void)detail::series_residuals(experiments, parameters, p, solve_transient, &out);
  return out;
}

VecX residuals(const std::vector<LineTransientExperiment>& experiments, const std::vector<ParameterSpec>& parameters,
               const VecX& p) {
  return detail::series_residuals(experiments, parameters, p, solve_transient);
}

Eigen::MatrixXd jacobian(const std::vector<LineTransientExperiment>& experiments,
                         const std::vector<ParameterSpec>& parameters, const VecX& p, double fd_step) {
  return jacobian(experiments, parameters, p, JacobianMethod::finite_differences, fd_step);
}

std::string sensitivities_unavailable(const std::vector<LineTransientExperiment>& experiments,
                                      const std::vector<ParameterSpec>& parameters, const VecX& p) {
  return transient_obstacle(experiments, parameters, p);
}

Eigen::MatrixXd jacobian(const std::vector<LineTransientExperiment>& experiments,
                         const std::vector<ParameterSpec>& parameters, const VecX& p, JacobianMethod method,
                         double fd_step) {
  return detail::jacobian_by(
      method, p,
      [&](const VecX& q, VecX& r, std::string* why) { return transient_exact(experiments, parameters, q, r, why); },
      [&] { return detail::series_jacobian(experiments, parameters, p, fd_step, solve_transient); });
}

Result fit(const std::vector<LineTransientExperiment>& experiments, const std::vector<ParameterSpec>& parameters,
           const Options& options, const IterationCallback& progress) {
  validate(experiments, parameters);
  if (options.initial_state != InitialState::rest)
    throw InvalidInput(fmt::format("fit.initial_state = \"{}\": kind = \"line_transient\" starts from the unloaded "
                                   "contact (\"rest\") only",
                                   to_string(options.initial_state)));
  VecX p0(static_cast<Eigen::Index>(parameters.size()));
  for (std::size_t j = 0; j < parameters.size(); ++j) p0[static_cast<Eigen::Index>(j)] = parameters[j].initial;
  const bool exact = options.jacobian != JacobianMethod::finite_differences &&
                     detail::use_exact(options, transient_obstacle(experiments, parameters, p0));
  const detail::ExactFn exact_fn = [&](const VecX& p, VecX& r) {
    return transient_exact(experiments, parameters, p, r);
  };
  return detail::fit_series(experiments, parameters, options, progress, solve_transient,
                            exact ? exact_fn : detail::ExactFn());
}

}  // namespace bristle::fit
