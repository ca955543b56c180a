// Identification of structure_stick_slip scenarios (fit/structure_stick_slip.hpp): residuals at the data times of
// structures::run_stick_slip runs; residuals, central-difference Jacobian, checks and fit loop shared with the
// other time-series kinds (series_fit.hpp).
#include "bristle/fit/structure_stick_slip.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <cmath>

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

/// The run from rest at t = 0 to one step past the last data time, every step recorded, interpolated linearly
/// to the data times: a series with t_s and every column of the run (stick as 0/1 interpolated).
TimeSeries solve(const StructureExperiment& e, io::StructureStickSlipScenario sc) {
  sc.run.t_end_s = e.times.back() + sc.dt_s;
  sc.run.output_every = 1;
  const structures::Structure s = sc.structure.build();
  const auto model = sc.build_model(s);
  structures::StickSlipResult out;
  if (sc.dynamic) {
    const contact::ContactModel cm(sc.law, sc.body1, sc.body2);
    out = structures::run_stick_slip(*model, sc.contact, cm, sc.run);
  } else {
    out = structures::run_stick_slip(*model, sc.contact, sc.friction, sc.run);
  }
  const TimeSeries& run = out.series;
  const std::vector<double>& t = run.column("t_s");
  TimeSeries series(run.names);
  series.reserve(e.times.size());
  std::size_t k = 0;
  std::vector<double> row(run.names.size());
  for (double ti : e.times) {
    while (k + 2 < t.size() && t[k + 1] <= ti) ++k;
    const double a = t[k + 1] > t[k] ? std::clamp((ti - t[k]) / (t[k + 1] - t[k]), 0.0, 1.0) : 0.0;
    for (std::size_t c = 0; c < run.names.size(); ++c)
      row[c] = a == 0.0 ? run.columns[c][k] : (1.0 - a) * run.columns[c][k] + a * run.columns[c][k + 1];
    row[0] = ti;
    series.add_row(row);
  }
  return series;
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
  (void)detail::series_residuals(experiments, parameters, p, solve, &out);
  return out;
}

VecX residuals(const std::vector<StructureExperiment>& experiments, const std::vector<ParameterSpec>& parameters,
               const VecX& p) {
  return detail::series_residuals(experiments, parameters, p, solve);
}

Eigen::MatrixXd jacobian(const std::vector<StructureExperiment>& experiments,
                         const std::vector<ParameterSpec>& parameters, const VecX& p, double fd_step) {
  return detail::series_jacobian(experiments, parameters, p, fd_step, solve);
}

Result fit(const std::vector<StructureExperiment>& experiments, const std::vector<ParameterSpec>& parameters,
           const Options& options, const IterationCallback& progress) {
  validate(experiments, parameters);
  if (options.initial_state != InitialState::rest)
    throw InvalidInput(fmt::format("fit.initial_state = \"{}\": kind = \"structure_stick_slip\" starts from the "
                                   "structure at rest at t = 0 (\"rest\") only",
                                   to_string(options.initial_state)));
  if (options.jacobian == JacobianMethod::sensitivities)
    throw InvalidInput("fit: exact Jacobian requested, but kind = \"structure_stick_slip\" has central differences "
                       "only");
  return detail::fit_series(experiments, parameters, options, progress, solve);
}

}  // namespace bristle::fit
