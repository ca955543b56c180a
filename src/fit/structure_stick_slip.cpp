// Identification of structure_stick_slip scenarios (fit/structure_stick_slip.hpp): residuals at the data times of
// structures::run_stick_slip runs, central-difference Jacobian, the shared optimiser loop (driver.hpp).
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
#include "driver.hpp"
#include "engine.hpp"

namespace bristle::fit {

using Eigen::Index;

namespace {

const std::vector<std::string> kAlways = {"w_m", "v_mps", "vr_mps", "F_N"};
const std::vector<std::string> kEnergy = {"E_belt_J", "D_friction_J", "D_modal_J", "dE_stored_J",
                                          "energy_residual_J"};

io::StructureStickSlipScenario with_parameters(const StructureExperiment& e,
                                               const std::vector<ParameterSpec>& parameters, const VecX& p) {
  io::StructureStickSlipScenario sc = e.scenario;
  for (std::size_t j = 0; j < parameters.size(); ++j) io::set_number(sc, parameters[j].key, p[static_cast<Index>(j)]);
  return sc;
}

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

std::size_t residual_count(const std::vector<StructureExperiment>& experiments) {
  std::size_t n = 0;
  for (const StructureExperiment& e : experiments) n += e.times.size() * e.targets.size();
  return n;
}

VecX residuals_at(const std::vector<StructureExperiment>& experiments, const std::vector<ParameterSpec>& parameters,
                  const VecX& p, std::vector<TimeSeries>* solved = nullptr) {
  VecX r(static_cast<Index>(residual_count(experiments)));
  Index at = 0;
  for (const StructureExperiment& e : experiments) {
    TimeSeries s = solve(e, with_parameters(e, parameters, p));
    for (const Target& t : e.targets) {
      const std::vector<double>& y = s.column(t.output);
      for (std::size_t i = 0; i < e.times.size(); ++i) r[at++] = t.weight * (y[i] - t.values[i]);
    }
    if (solved) solved->push_back(std::move(s));
  }
  if (!r.allFinite()) throw SolverError("the structure_stick_slip output is not finite");
  return r;
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
  if (experiments.empty()) throw InvalidInput("fit: no experiment to fit");
  if (parameters.empty()) throw InvalidInput("fit.parameters: must name at least one parameter");
  detail::validate_parameters(parameters);
  std::size_t n = 0;
  for (const StructureExperiment& e : experiments) {
    const std::vector<std::string> outs = structure_outputs(e.scenario);
    if (e.targets.empty()) throw InvalidInput("fit.targets: must name at least one target");
    if (e.times.size() < 2) throw InvalidInput(fmt::format("fit: experiment {}: fewer than 2 samples", e.label));
    if (!(e.times.front() >= 0.0))
      throw InvalidInput(fmt::format("fit: experiment {}: the first time {} is negative: the structure starts at rest "
                                     "at t = 0",
                                     e.label, format_value(e.times.front())));
    for (std::size_t i = 1; i < e.times.size(); ++i)
      if (!(e.times[i] > e.times[i - 1]))
        throw InvalidInput(fmt::format("fit: experiment {}: times must be strictly increasing", e.label));
    for (const Target& t : e.targets) {
      if (std::find(outs.begin(), outs.end(), t.output) == outs.end()) {
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
      if (!(t.weight > 0.0) || !std::isfinite(t.weight))
        throw InvalidInput(fmt::format("fit.targets.{}.weight = {}: must be > 0", t.output, format_value(t.weight)));
      if (t.values.size() != e.times.size())
        throw InvalidInput(fmt::format("fit.targets.{}: {} values for {} times", t.output, t.values.size(),
                                       e.times.size()));
    }
    io::StructureStickSlipScenario sc = e.scenario;
    for (const ParameterSpec& p : parameters) {
      try {
        (void)io::get_number(sc, p.key);
        io::set_number(sc, p.key, p.initial);
      } catch (const InvalidInput& error) {
        throw InvalidInput(fmt::format("fit.parameters.{}: {}", io::json_quote(p.key), error.what()));
      }
    }
    n += e.times.size() * e.targets.size();
  }
  if (n <= parameters.size())
    throw InvalidInput(fmt::format("fit: {} residual(s) for {} parameters: the window needs more samples than "
                                   "parameters",
                                   n, parameters.size()));
}

std::vector<TimeSeries> structure_model(const std::vector<StructureExperiment>& experiments,
                                        const std::vector<ParameterSpec>& parameters, const VecX& p) {
  std::vector<TimeSeries> out;
  (void)residuals_at(experiments, parameters, p, &out);
  return out;
}

VecX residuals(const std::vector<StructureExperiment>& experiments, const std::vector<ParameterSpec>& parameters,
               const VecX& p) {
  return residuals_at(experiments, parameters, p);
}

Eigen::MatrixXd jacobian(const std::vector<StructureExperiment>& experiments,
                         const std::vector<ParameterSpec>& parameters, const VecX& p, double fd_step) {
  const Index n = static_cast<Index>(residual_count(experiments)), np = p.size();
  Eigen::MatrixXd J(n, np);
  for (Index j = 0; j < np; ++j) {
    const double h = fd_step * (p[j] != 0.0 ? std::abs(p[j]) : 1.0);
    VecX pp = p, pm = p;
    pp[j] += h;
    pm[j] -= h;
    J.col(j) = (residuals_at(experiments, parameters, pp) - residuals_at(experiments, parameters, pm)) / (2.0 * h);
  }
  return J;
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
  const auto start_time = std::chrono::steady_clock::now();
  Result result;
  const detail::ResidualFn residual_fn = [&](const VecX& p) { return residuals_at(experiments, parameters, p); };
  const VecX p = detail::least_squares(residual_fn, {}, false, residual_count(experiments), parameters, options,
                                       progress, result);
  std::vector<TimeSeries> solved = structure_model(experiments, parameters, p);
  std::vector<const std::vector<Target>*> targets;
  for (const StructureExperiment& e : experiments) targets.push_back(&e.targets);
  detail::target_statistics(result, targets, solved);
  for (std::size_t e = 0; e < experiments.size(); ++e)
    result.experiments.push_back(ExperimentResult{experiments[e].label, std::move(solved[e]), VecX()});
  result.fit_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_time).count();
  return result;
}

}  // namespace bristle::fit
