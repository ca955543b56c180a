// Identification of transient patch scenarios (fit/patch_transient.hpp): residuals at the data times of
// patch::PatchTransient solves; residuals, central-difference Jacobian, checks and fit loop shared with the other
// time-series kinds (series_fit.hpp).
#include "bristle/fit/patch_transient.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <optional>
#include <string>

#include "bristle/contact/contact_model.hpp"
#include "bristle/core/error.hpp"
#include "bristle/io/json.hpp"
#include "bristle/io/key_path.hpp"
#include "bristle/patch/transient.hpp"
#include "bristle/transport/line_contact.hpp"
#include "series_fit.hpp"

namespace bristle::fit {

using Eigen::Index;

namespace {

TimeSeries solve(const TransientExperiment& e, const io::PatchTransientScenario& sc) {
  const contact::ContactModel model(sc.law, sc.body1, sc.body2);
  patch::PatchTransient solver(model, sc.transient, [&](double t) { return sc.kinematics(t); },
                               [&](double t) { return sc.Fz_N(t); });
  solver.reset(e.times.front());
  TimeSeries series(io::PatchTransientScenario::column_names());
  series.reserve(e.times.size());
  for (double t : e.times) {
    solver.advance_to(t);
    const patch::PatchSnapshot s = solver.snapshot();
    series.add_row({s.t_s, s.Fz_N, s.scale, s.force_N[0], s.force_N[1], s.Mz_Nm, s.Mz_no_phi_Nm, s.stored_energy_J,
                    s.supplied_power_W, s.dissipated_power_W, s.supplied_energy_J, s.outflow_power_W,
                    s.compression_power_W, s.load_power_W, s.dissipated_energy_J, s.outflow_energy_J,
                    s.compression_energy_J, s.load_energy_J, s.energy_residual_J, s.scale_y});
  }
  return series;
}

/// The output columns the exact Jacobian covers: those patch::PatchTransient::output_derivatives differentiates,
/// under their column names, and the load's (Fz_N, scale, scale_y: independent of the keys it takes, derivative 0).
const std::vector<std::string>& exact_outputs() {
  static const std::vector<std::string> names{"Fx_N",  "Fy_N",  "Mz_Nm",  "Mz_no_phi_Nm", "W_J", "P_supplied_W",
                                              "P_dissipated_W", "Fz_N", "scale", "scale_y"};
  return names;
}

/// Empty if the parameter keys and targets admit the exact Jacobian (keys of law, body1, body2, pair; targets of
/// exact_outputs()); else why not. Whether a key leaves the transport alone is prepare()'s check at a point.
std::string key_obstacle(const std::vector<TransientExperiment>& experiments,
                         const std::vector<ParameterSpec>& parameters) {
  // a key of the patch, kinematics, load or transient changes the transport velocities, the grid or the steps
  if (std::string k = detail::contact_key_obstacle(parameters); !k.empty()) return k;
  for (const TransientExperiment& e : experiments)
    for (const Target& t : e.targets)
      if (std::find(exact_outputs().begin(), exact_outputs().end(), t.output) == exact_outputs().end())
        return fmt::format("fit.targets.{} (the exact Jacobian covers {})", t.output, fmt::join(exact_outputs(), ", "));
  return {};
}

/// The tangent-linear run of one experiment at p: its scenario, model, the models at p_j -/+ h_j (h_j = 1e-6 |p_j|,
/// the lumped sensitivities' step) and the solver carrying the tangents.
struct TangentRun {
  io::PatchTransientScenario sc;
  std::unique_ptr<contact::ContactModel> model;
  std::vector<contact::ContactModel> perturbed;
  std::unique_ptr<patch::PatchTransient> solver;
};

/// Sets `run` up for experiment e at p; empty if the exact Jacobian applies, else why not (naming the key).
std::string prepare(const TransientExperiment& e, const std::vector<ParameterSpec>& parameters, const VecX& p,
                    TangentRun& run) {
  const Index np = p.size();
  run.sc = detail::with_parameters(e, parameters, p);
  run.model = std::make_unique<contact::ContactModel>(run.sc.law, run.sc.body1, run.sc.body2);
  run.perturbed.clear();
  run.perturbed.reserve(static_cast<std::size_t>(2 * np));
  // The perturbed models from a copy of the scenario with two output times, so that set_number's checks of every
  // output time (edge classification) are not repeated 2 P times (they were a quarter of the Jacobian's time);
  // only their law and bodies are used.
  TransientExperiment light = e;
  if (io::TimeGrid& g = light.scenario.time; g.t_end_s > g.t_start_s) g.output_dt_s = g.t_end_s - g.t_start_s;
  std::vector<patch::PatchTransientSensitivity> sens(static_cast<std::size_t>(np));
  for (Index j = 0; j < np; ++j) {
    const std::string& key = parameters[static_cast<std::size_t>(j)].key;
    patch::PatchTransientSensitivity& sj = sens[static_cast<std::size_t>(j)];
    sj.step = 1e-6 * (p[j] != 0.0 ? std::abs(p[j]) : 1.0);
    for (const int sign : {-1, 1}) {
      VecX q = p;
      q[j] += sign * sj.step;
      try {
        const io::PatchTransientScenario perturbed = detail::with_parameters(light, parameters, q);
        run.perturbed.emplace_back(perturbed.law, perturbed.body1, perturbed.body2);
      } catch (const InvalidInput& error) {
        return fmt::format("{} = {} (a perturbed value): {}", key, format_value(q[j]), error.what());
      }
      if (std::string why = patch::transport_change(*run.model, run.perturbed.back()); !why.empty())
        return fmt::format("fit.parameters.{}: {} (central differences)", io::json_quote(key), why);
      (sign < 0 ? sj.minus : sj.plus) = &run.perturbed.back();
    }
  }
  const io::PatchTransientScenario& sc = run.sc;
  run.solver = std::make_unique<patch::PatchTransient>(*run.model, sc.transient,
                                                       [&sc](double t) { return sc.kinematics(t); },
                                                       [&sc](double t) { return sc.Fz_N(t); });
  if (!run.solver->exponential_source())
    return fmt::format("law.type = \"{}\"{} takes the sdirk2 source step (transient.source_scheme = \"{}\"); the "
                       "exact Jacobian differentiates the exponential step of affine sources",
                       laws::to_string(run.model->law().params().kind),
                       run.model->law().params().G_inverse ? " with a user G^-1" : "",
                       transport::to_string(sc.transient.source_scheme));
  run.solver->reset(e.times.front());
  run.solver->track_sensitivities(std::move(sens));
  return {};
}

/// Empty if the exact Jacobian applies at p (keys, targets, and every perturbed model leaves the transport alone
/// with the exponential source step), else why not.
std::string exact_obstacle(const std::vector<TransientExperiment>& experiments,
                           const std::vector<ParameterSpec>& parameters, const VecX& p) {
  if (std::string k = key_obstacle(experiments, parameters); !k.empty()) return k;
  for (const TransientExperiment& e : experiments) {
    TangentRun run;
    if (std::string why = prepare(e, parameters, p, run); !why.empty()) return why;
  }
  return {};
}

/// The residuals at p and their exact Jacobian (patch::PatchTransient's tangent-linear run: one run carrying P
/// tangents), or nullopt with `why`.
std::optional<Eigen::MatrixXd> exact(const std::vector<TransientExperiment>& experiments,
                                     const std::vector<ParameterSpec>& parameters, const VecX& p, VecX& r,
                                     std::string* why = nullptr) {
  const auto fail = [&](std::string reason) {
    if (why) *why = std::move(reason);
    return std::optional<Eigen::MatrixXd>();
  };
  if (std::string k = key_obstacle(experiments, parameters); !k.empty()) return fail(k);
  const Index np = p.size();
  r.resize(static_cast<Index>(detail::residual_count(experiments)));
  Eigen::MatrixXd J(r.size(), np);
  const std::vector<std::string>& rows = patch::PatchTransient::sensitivity_outputs();
  Index at = 0;
  for (const TransientExperiment& e : experiments) {
    TangentRun run;
    if (std::string reason = prepare(e, parameters, p, run); !reason.empty()) return fail(reason);
    const std::size_t nt = e.times.size();
    std::vector<patch::PatchSnapshot> y;
    std::vector<MatX> dy;
    y.reserve(nt);
    dy.reserve(nt);
    for (double t : e.times) {
      run.solver->advance_to(t);
      y.push_back(run.solver->snapshot());
      dy.push_back(run.solver->output_derivatives());
    }
    for (const Target& t : e.targets) {
      const std::size_t k =
          static_cast<std::size_t>(std::find(exact_outputs().begin(), exact_outputs().end(), t.output) -
                                   exact_outputs().begin());
      for (std::size_t i = 0; i < t.values.size(); ++i, ++at) {
        const patch::PatchSnapshot& s = y[i];
        const double values[] = {s.force_N[0],      s.force_N[1],        s.Mz_Nm, s.Mz_no_phi_Nm, s.stored_energy_J,
                                 s.supplied_power_W, s.dissipated_power_W, s.Fz_N,  s.scale,        s.scale_y};
        r[at] = t.weight * (values[k] - t.values[i]);
        if (k < rows.size())
          J.row(at) = t.weight * dy[i].row(static_cast<Index>(k));
        else
          J.row(at).setZero();  // the load's columns: independent of law, body and pair keys
      }
    }
  }
  if (!r.allFinite() || !J.allFinite()) return fail("a residual or its derivative is not finite");
  return J;
}

}  // namespace

std::vector<std::string> transient_outputs() {
  std::vector<std::string> names = io::PatchTransientScenario::column_names();
  names.erase(names.begin());  // t_s
  return names;
}

void validate(const std::vector<TransientExperiment>& experiments, const std::vector<ParameterSpec>& parameters) {
  detail::validate_series(experiments, parameters, transient_outputs(), "patch_transient",
                          detail::check_series_times<TransientExperiment>);
}

std::vector<TimeSeries> transient_model(const std::vector<TransientExperiment>& experiments,
                                        const std::vector<ParameterSpec>& parameters, const VecX& p) {
  std::vector<TimeSeries> out;
  (void)detail::series_residuals(experiments, parameters, p, solve, &out);
  return out;
}

VecX residuals(const std::vector<TransientExperiment>& experiments, const std::vector<ParameterSpec>& parameters,
               const VecX& p) {
  return detail::series_residuals(experiments, parameters, p, solve);
}

Eigen::MatrixXd jacobian(const std::vector<TransientExperiment>& experiments,
                         const std::vector<ParameterSpec>& parameters, const VecX& p, double fd_step) {
  return jacobian(experiments, parameters, p, JacobianMethod::finite_differences, fd_step);
}

Eigen::MatrixXd jacobian(const std::vector<TransientExperiment>& experiments,
                         const std::vector<ParameterSpec>& parameters, const VecX& p, JacobianMethod method,
                         double fd_step) {
  return detail::jacobian_by(
      method, p, [&](const VecX& q, VecX& r, std::string* why) { return exact(experiments, parameters, q, r, why); },
      [&] { return detail::series_jacobian(experiments, parameters, p, fd_step, solve); });
}

Result fit(const std::vector<TransientExperiment>& experiments, const std::vector<ParameterSpec>& parameters,
           const Options& options, const IterationCallback& progress) {
  validate(experiments, parameters);
  if (options.initial_state != InitialState::rest)
    throw InvalidInput(fmt::format("fit.initial_state = \"{}\": kind = \"patch_transient\" starts from the unloaded "
                                   "contact (\"rest\") only",
                                   to_string(options.initial_state)));
  // The exact Jacobian where it applies at the start point (keys of law, body1, body2, pair that leave the
  // transport alone, the exponential source step, targets it covers), else central differences; where it stops
  // applying at a later point (a perturbed value refused) the optimiser takes differences there.
  VecX p0(static_cast<Index>(parameters.size()));
  for (std::size_t j = 0; j < parameters.size(); ++j) p0[static_cast<Index>(j)] = parameters[j].initial;
  const bool use_exact = options.jacobian != JacobianMethod::finite_differences &&
                         detail::use_exact(options, exact_obstacle(experiments, parameters, p0));
  const detail::ExactFn exact_fn = [&](const VecX& p, VecX& r) { return exact(experiments, parameters, p, r); };
  return detail::fit_series(experiments, parameters, options, progress, solve,
                            use_exact ? exact_fn : detail::ExactFn());
}

}  // namespace bristle::fit
