// Identification of structure_stick_slip scenarios (fit/structure_stick_slip.hpp): residuals at the data times of
// structures::run_stick_slip runs; residuals, central-difference Jacobian, checks and fit loop shared with the
// other time-series kinds (series_fit.hpp).
#include "bristle/fit/structure_stick_slip.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <optional>

#include "bristle/contact/contact_model.hpp"
#include "bristle/core/error.hpp"
#include "bristle/io/json.hpp"
#include "bristle/io/key_path.hpp"
#include "bristle/structures/stick_slip.hpp"
#include "series_fit.hpp"

namespace bristle::fit {

using Eigen::Index;

namespace {

const std::vector<std::string> kAlways = {"w_m", "v_mps", "vr_mps", "F_N"};
const std::vector<std::string> kEnergy = {"E_belt_J", "D_friction_J", "D_modal_J", "dE_stored_J",
                                          "energy_residual_J"};

/// The run's rows (every step) interpolated linearly to the data times: a series with t_s and every column of the
/// run (stick as 0/1 interpolated).
TimeSeries at_times(const TimeSeries& run, const std::vector<double>& times) {
  const std::vector<double>& t = run.column("t_s");
  TimeSeries series(run.names);
  series.reserve(times.size());
  std::size_t k = 0;
  std::vector<double> row(run.names.size());
  for (double ti : times) {
    while (k + 2 < t.size() && t[k + 1] <= ti) ++k;
    const double a = t[k + 1] > t[k] ? std::clamp((ti - t[k]) / (t[k + 1] - t[k]), 0.0, 1.0) : 0.0;
    for (std::size_t c = 0; c < run.names.size(); ++c)
      row[c] = a == 0.0 ? run.columns[c][k] : (1.0 - a) * run.columns[c][k] + a * run.columns[c][k + 1];
    row[0] = ti;
    series.add_row(row);
  }
  return series;
}

/// The scenario of a fit's run: from rest at t = 0 to one step past the last data time, every step recorded.
io::StructureStickSlipScenario fit_run(const StructureExperiment& e, io::StructureStickSlipScenario sc) {
  sc.run.t_end_s = e.times.back() + sc.dt_s;
  sc.run.output_every = 1;
  return sc;
}

/// The run at the data times; `sensitivities` as structures::run_stick_slip's (dynamic runs: their laws set).
TimeSeries solve(const StructureExperiment& e, const io::StructureStickSlipScenario& scenario,
                 std::vector<structures::StickSlipSensitivity>* sensitivities = nullptr) {
  const io::StructureStickSlipScenario sc = fit_run(e, scenario);
  const structures::Structure s = sc.structure.build();
  const auto model = sc.build_model(s);
  structures::StickSlipResult out;
  if (sc.dynamic) {
    const contact::ContactModel cm(sc.law, sc.body1, sc.body2);
    out = structures::run_stick_slip(*model, sc.contact, cm, sc.run, {}, sensitivities);
  } else {
    out = structures::run_stick_slip(*model, sc.contact, sc.friction, sc.run, {}, sensitivities);
  }
  return at_times(out.series, e.times);
}

TimeSeries solve_plain(const StructureExperiment& e, const io::StructureStickSlipScenario& sc) { return solve(e, sc); }

/// Empty if the exact Jacobian applies: every parameter a key of the contact (law, body1, body2, friction,
/// contact.normal_load_N, contact.belt_speed_m_per_s) and every target a column it differentiates (kAlways,
/// f_state); else why not.
std::string exact_obstacle(const std::vector<StructureExperiment>& experiments,
                           const std::vector<ParameterSpec>& parameters) {
  if (std::string k = detail::contact_key_obstacle(
          parameters, {"friction.", "contact.normal_load_N", "contact.belt_speed_m_per_s"});
      !k.empty())
    return k;
  for (const StructureExperiment& e : experiments)
    for (const Target& t : e.targets)
      if (std::find(kAlways.begin(), kAlways.end(), t.output) == kAlways.end() && t.output != "f_state")
        return fmt::format("fit.targets.{} (the exact Jacobian covers {} and f_state)", t.output,
                           fmt::join(kAlways, ", "));
  return {};
}

/// The residuals at p and their exact Jacobian (structures::StickSlipSensitivity: one run carrying P tangents),
/// or nullopt with `why`.
std::optional<Eigen::MatrixXd> exact(const std::vector<StructureExperiment>& experiments,
                                     const std::vector<ParameterSpec>& parameters, const VecX& p, VecX& r,
                                     std::string* why = nullptr) {
  const auto fail = [&](std::string reason) {
    if (why) *why = std::move(reason);
    return std::optional<Eigen::MatrixXd>();
  };
  if (std::string obstacle = exact_obstacle(experiments, parameters); !obstacle.empty()) return fail(obstacle);
  const Index np = p.size();
  r.resize(static_cast<Index>(detail::residual_count(experiments)));
  Eigen::MatrixXd J(r.size(), np);
  Index at = 0;
  for (const StructureExperiment& e : experiments) {
    const io::StructureStickSlipScenario sc = fit_run(e, detail::with_parameters(e, parameters, p));
    const structures::Structure s = sc.structure.build();
    // Per parameter: the scenario at p_j -/+ h_j (h_j = 1e-6 |p_j|, the lumped sensitivities' step), its law, and a
    // copy of the structure at rest for the tangent.
    std::vector<structures::StickSlipSensitivity> sens(static_cast<std::size_t>(np));
    std::vector<std::unique_ptr<structures::ContactStepper>> copies;
    std::vector<contact::ContactModel> laws;
    laws.reserve(static_cast<std::size_t>(2 * np));
    for (Index j = 0; j < np; ++j) {
      structures::StickSlipSensitivity& sj = sens[static_cast<std::size_t>(j)];
      sj.step = 1e-6 * (p[j] != 0.0 ? std::abs(p[j]) : 1.0);
      for (const int sign : {-1, 1}) {
        VecX q = p;
        q[j] += sign * sj.step;
        io::StructureStickSlipScenario perturbed;
        try {
          perturbed = detail::with_parameters(e, parameters, q);
          if (sc.dynamic) laws.emplace_back(perturbed.law, perturbed.body1, perturbed.body2);
        } catch (const InvalidInput& error) {
          return fail(fmt::format("{} = {} (a perturbed value): {}", parameters[static_cast<std::size_t>(j)].key,
                                  format_value(q[j]), error.what()));
        }
        (sign < 0 ? sj.belt_minus : sj.belt_plus) = perturbed.contact;
        (sign < 0 ? sj.friction_minus : sj.friction_plus) = perturbed.friction;
      }
      if (sc.dynamic) sj.law_minus = &laws[laws.size() - 2], sj.law_plus = &laws.back();
      copies.push_back(sc.build_model(s));
      sj.structure = copies.back().get();
    }
    const TimeSeries y = solve(e, sc, &sens);
    std::vector<TimeSeries> dy;
    for (const structures::StickSlipSensitivity& sj : sens) dy.push_back(at_times(sj.derivative, e.times));
    for (const Target& t : e.targets) {
      const std::vector<double>& yt = y.column(t.output);
      for (std::size_t i = 0; i < t.values.size(); ++i, ++at) {
        r[at] = t.weight * (yt[i] - t.values[i]);
        for (Index j = 0; j < np; ++j) J(at, j) = t.weight * dy[static_cast<std::size_t>(j)].column(t.output)[i];
      }
    }
  }
  if (!r.allFinite() || !J.allFinite()) return fail("a residual or its derivative is not finite");
  return J;
}

}  // namespace

std::vector<std::string> structure_outputs() {
  std::vector<std::string> names = kAlways;
  names.emplace_back("f_state");
  names.insert(names.end(), kEnergy.begin(), kEnergy.end());
  return names;
}

std::vector<std::string> structure_outputs(const io::StructureStickSlipScenario& sc) {
  std::vector<std::string> names = kAlways;
  if (sc.modal && sc.track_energy) names.insert(names.end(), kEnergy.begin(), kEnergy.end());
  if (sc.dynamic) names.emplace_back("f_state");
  return names;
}

void validate(const std::vector<StructureExperiment>& experiments, const std::vector<ParameterSpec>& parameters) {
  // This kind's outputs depend on the scenario (f_state with a dynamic law, energy columns with a modal model that
  // tracks energy): a target outside them is refused first, saying why; the rest are the shared checks.
  for (const StructureExperiment& e : experiments) {
    const std::vector<std::string> outs = structure_outputs(e.scenario);
    for (const Target& t : e.targets) {
      if (std::find(outs.begin(), outs.end(), t.output) != outs.end()) continue;
      const std::vector<std::string> all = structure_outputs();
      const bool known = std::find(all.begin(), all.end(), t.output) != all.end();
      throw InvalidInput(fmt::format(
          "fit.targets.{}: the model does not output a column {} ({}outputs of this structure_stick_slip scenario: "
          "{})",
          t.output, io::json_quote(t.output),
          !known                  ? ""
          : t.output == "f_state" ? "f_state needs a dynamic [law]; "
                                  : "the energy columns need model.type = \"modal\" with track_energy = true; ",
          fmt::join(outs, ", ")));
    }
  }
  detail::validate_series(experiments, parameters, structure_outputs(), "structure_stick_slip",
                          [](const StructureExperiment& e) {
                            detail::check_series_times(e);
                            if (!(e.times.front() >= 0.0))
                              throw InvalidInput(fmt::format("fit: experiment {}: the first time {} is negative: the "
                                                             "structure starts at rest at t = 0",
                                                             e.label, format_value(e.times.front())));
                          });
}

std::vector<TimeSeries> structure_model(const std::vector<StructureExperiment>& experiments,
                                        const std::vector<ParameterSpec>& parameters, const VecX& p) {
  std::vector<TimeSeries> out;
  (void)detail::series_residuals(experiments, parameters, p, solve_plain, &out);
  return out;
}

VecX residuals(const std::vector<StructureExperiment>& experiments, const std::vector<ParameterSpec>& parameters,
               const VecX& p) {
  return detail::series_residuals(experiments, parameters, p, solve_plain);
}

Eigen::MatrixXd jacobian(const std::vector<StructureExperiment>& experiments,
                         const std::vector<ParameterSpec>& parameters, const VecX& p, double fd_step) {
  return jacobian(experiments, parameters, p, JacobianMethod::finite_differences, fd_step);
}

Eigen::MatrixXd jacobian(const std::vector<StructureExperiment>& experiments,
                         const std::vector<ParameterSpec>& parameters, const VecX& p, JacobianMethod method,
                         double fd_step) {
  return detail::jacobian_by(
      method, p, [&](const VecX& q, VecX& r, std::string* why) { return exact(experiments, parameters, q, r, why); },
      [&] { return detail::series_jacobian(experiments, parameters, p, fd_step, solve_plain); });
}

Result fit(const std::vector<StructureExperiment>& experiments, const std::vector<ParameterSpec>& parameters,
           const Options& options, const IterationCallback& progress) {
  validate(experiments, parameters);
  if (options.initial_state != InitialState::rest)
    throw InvalidInput(fmt::format("fit.initial_state = \"{}\": kind = \"structure_stick_slip\" starts from the "
                                   "structure at rest at t = 0 (\"rest\") only",
                                   to_string(options.initial_state)));
  const bool use_exact = detail::use_exact(options, exact_obstacle(experiments, parameters));
  const detail::ExactFn exact_fn = [&](const VecX& p, VecX& r) { return exact(experiments, parameters, p, r); };
  return detail::fit_series(experiments, parameters, options, progress, solve_plain,
                            use_exact ? exact_fn : detail::ExactFn());
}

}  // namespace bristle::fit
