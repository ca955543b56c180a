// Identification of transient patch scenarios (fit/patch_transient.hpp): residuals at the data times of
// patch::PatchTransient solves, central-difference Jacobian, the shared optimiser loop (driver.hpp).
#include "bristle/fit/patch_transient.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "bristle/contact/contact_model.hpp"
#include "bristle/core/error.hpp"
#include "bristle/io/json.hpp"
#include "bristle/io/key_path.hpp"
#include "bristle/patch/transient.hpp"
#include "driver.hpp"
#include "engine.hpp"

namespace bristle::fit {

using Eigen::Index;

namespace {

io::PatchTransientScenario with_parameters(const TransientExperiment& e, const std::vector<ParameterSpec>& parameters,
                                           const VecX& p) {
  io::PatchTransientScenario sc = e.scenario;
  for (std::size_t j = 0; j < parameters.size(); ++j) io::set_number(sc, parameters[j].key, p[static_cast<Index>(j)]);
  return sc;
}

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

std::size_t residual_count(const std::vector<TransientExperiment>& experiments) {
  std::size_t n = 0;
  for (const TransientExperiment& e : experiments) n += e.times.size() * e.targets.size();
  return n;
}

VecX residuals_at(const std::vector<TransientExperiment>& experiments, const std::vector<ParameterSpec>& parameters,
                  const VecX& p, std::vector<TimeSeries>* solved = nullptr) {
  VecX r(static_cast<Index>(residual_count(experiments)));
  Index at = 0;
  for (const TransientExperiment& e : experiments) {
    TimeSeries s = solve(e, with_parameters(e, parameters, p));
    for (const Target& t : e.targets) {
      const std::vector<double>& y = s.column(t.output);
      for (std::size_t i = 0; i < e.times.size(); ++i) r[at++] = t.weight * (y[i] - t.values[i]);
    }
    if (solved) solved->push_back(std::move(s));
  }
  if (!r.allFinite()) throw SolverError("the transient patch output is not finite");
  return r;
}

}  // namespace

std::vector<std::string> transient_outputs() {
  std::vector<std::string> names = io::PatchTransientScenario::column_names();
  names.erase(names.begin());  // t_s
  return names;
}

void validate(const std::vector<TransientExperiment>& experiments, const std::vector<ParameterSpec>& parameters) {
  if (experiments.empty()) throw InvalidInput("fit: no experiment to fit");
  if (parameters.empty()) throw InvalidInput("fit.parameters: must name at least one parameter");
  detail::validate_parameters(parameters);
  const std::vector<std::string> outs = transient_outputs();
  std::size_t n = 0;
  for (const TransientExperiment& e : experiments) {
    if (e.targets.empty()) throw InvalidInput("fit.targets: must name at least one target");
    if (e.times.size() < 2) throw InvalidInput(fmt::format("fit: experiment {}: fewer than 2 samples", e.label));
    for (std::size_t i = 1; i < e.times.size(); ++i)
      if (!(e.times[i] > e.times[i - 1]))
        throw InvalidInput(fmt::format("fit: experiment {}: times must be strictly increasing", e.label));
    for (const Target& t : e.targets) {
      if (std::find(outs.begin(), outs.end(), t.output) == outs.end())
        throw InvalidInput(fmt::format("fit.targets.{}: the model does not output a column {} (outputs of "
                                       "patch_transient: {})",
                                       t.output, io::json_quote(t.output), fmt::join(outs, ", ")));
      if (!(t.weight > 0.0) || !std::isfinite(t.weight))
        throw InvalidInput(fmt::format("fit.targets.{}.weight = {}: must be > 0", t.output, format_value(t.weight)));
      if (t.values.size() != e.times.size())
        throw InvalidInput(fmt::format("fit.targets.{}: {} values for {} times", t.output, t.values.size(),
                                       e.times.size()));
    }
    io::PatchTransientScenario sc = e.scenario;
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

std::vector<TimeSeries> transient_model(const std::vector<TransientExperiment>& experiments,
                                        const std::vector<ParameterSpec>& parameters, const VecX& p) {
  std::vector<TimeSeries> out;
  (void)residuals_at(experiments, parameters, p, &out);
  return out;
}

VecX residuals(const std::vector<TransientExperiment>& experiments, const std::vector<ParameterSpec>& parameters,
               const VecX& p) {
  return residuals_at(experiments, parameters, p);
}

Eigen::MatrixXd jacobian(const std::vector<TransientExperiment>& experiments,
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

Result fit(const std::vector<TransientExperiment>& experiments, const std::vector<ParameterSpec>& parameters,
           const Options& options, const IterationCallback& progress) {
  validate(experiments, parameters);
  if (options.initial_state != InitialState::rest)
    throw InvalidInput(fmt::format("fit.initial_state = \"{}\": kind = \"patch_transient\" starts from the unloaded "
                                   "contact (\"rest\") only",
                                   to_string(options.initial_state)));
  if (options.jacobian == JacobianMethod::sensitivities)
    throw InvalidInput("fit: exact Jacobian requested, but kind = \"patch_transient\" has central differences only");
  const auto start_time = std::chrono::steady_clock::now();
  Result result;
  const detail::ResidualFn residual_fn = [&](const VecX& p) { return residuals_at(experiments, parameters, p); };
  const VecX p = detail::least_squares(residual_fn, {}, false, residual_count(experiments), parameters, options,
                                       progress, result);
  std::vector<TimeSeries> solved = transient_model(experiments, parameters, p);
  std::vector<const std::vector<Target>*> targets;
  for (const TransientExperiment& e : experiments) targets.push_back(&e.targets);
  detail::target_statistics(result, targets, solved);
  for (std::size_t e = 0; e < experiments.size(); ++e)
    result.experiments.push_back(ExperimentResult{experiments[e].label, std::move(solved[e]), VecX()});
  result.fit_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_time).count();
  return result;
}

}  // namespace bristle::fit
