#pragma once
// Private to src/fit: the parts of a fit that depend on the kind only through its experiment type and its solve
// function (a case with the parameters set -> its output columns, one row per data row or time): the scenario at p
// (io::set_number of every key), the weighted residuals, the central-difference Jacobian, the problem-wide checks
// and the fit over driver.hpp's optimiser loop. Experiment E has label, scenario and targets (values one per row).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>
#include <vector>

#include "bristle/core/error.hpp"
#include "bristle/io/json.hpp"
#include "bristle/io/key_path.hpp"
#include "driver.hpp"
#include "engine.hpp"

namespace bristle::fit::detail {

template <class E>
auto with_parameters(const E& e, const std::vector<ParameterSpec>& parameters, const VecX& p) {
  auto sc = e.scenario;
  for (std::size_t j = 0; j < parameters.size(); ++j)
    io::set_number(sc, parameters[j].key, p[static_cast<Eigen::Index>(j)]);
  return sc;
}

template <class E>
std::size_t rows_of(const E& e) {
  return e.targets.empty() ? 0 : e.targets.front().values.size();
}

template <class E>
std::size_t residual_count(const std::vector<E>& experiments) {
  std::size_t n = 0;
  for (const E& e : experiments) n += rows_of(e) * e.targets.size();
  return n;
}

/// The weighted residuals w (y - d), experiment-major, then target, then row; `solved` receives each model series.
template <class E, class Solve>
VecX series_residuals(const std::vector<E>& experiments, const std::vector<ParameterSpec>& parameters, const VecX& p,
                      const Solve& solve, std::vector<TimeSeries>* solved = nullptr) {
  VecX r(static_cast<Eigen::Index>(residual_count(experiments)));
  Eigen::Index at = 0;
  for (const E& e : experiments) {
    TimeSeries s = solve(e, with_parameters(e, parameters, p));
    for (const Target& t : e.targets) {
      const std::vector<double>& y = s.column(t.output);
      for (std::size_t i = 0; i < t.values.size(); ++i) r[at++] = t.weight * (y[i] - t.values[i]);
    }
    if (solved) solved->push_back(std::move(s));
  }
  if (!r.allFinite()) throw SolverError("the model output is not finite");
  return r;
}

/// dr/dp by central differences of whole solves (step fd_step |p_j|, fd_step where p_j = 0).
template <class E, class Solve>
Eigen::MatrixXd series_jacobian(const std::vector<E>& experiments, const std::vector<ParameterSpec>& parameters,
                                const VecX& p, double fd_step, const Solve& solve) {
  return central_differences([&](const VecX& q) { return series_residuals(experiments, parameters, q, solve); }, p,
                             fd_step);
}

/// The check of a time-series experiment: at least 2 samples at strictly increasing times.
template <class E>
void check_series_times(const E& e) {
  if (e.times.size() < 2) throw InvalidInput(fmt::format("fit: experiment {}: fewer than 2 samples", e.label));
  for (std::size_t i = 1; i < e.times.size(); ++i)
    if (!(e.times[i] > e.times[i - 1]))
      throw InvalidInput(fmt::format("fit: experiment {}: times must be strictly increasing", e.label));
}

/// The checks of fit::validate that do not depend on the kind (InvalidInput naming the key): experiments and
/// parameters given, bounds and start values, targets the model outputs (`outputs` of `kind`) with a value per
/// row, every key path settable at its start value in every experiment, more residuals than parameters.
/// `check(e)` adds the kind's own checks of an experiment.
template <class E, class Check>
void validate_series(const std::vector<E>& experiments, const std::vector<ParameterSpec>& parameters,
                     const std::vector<std::string>& outputs, std::string_view kind, const Check& check) {
  if (experiments.empty()) throw InvalidInput("fit: no experiment to fit");
  if (parameters.empty()) throw InvalidInput("fit.parameters: must name at least one parameter");
  validate_parameters(parameters);
  std::size_t n = 0;
  for (const E& e : experiments) {
    if (e.targets.empty()) throw InvalidInput("fit.targets: must name at least one target");
    if (e.targets.size() != experiments.front().targets.size())
      throw InvalidInput(fmt::format("fit: experiment {} has {} targets, the first {}: every experiment fits the "
                                     "same targets",
                                     e.label, e.targets.size(), experiments.front().targets.size()));
    for (const Target& t : e.targets) {
      if (std::find(outputs.begin(), outputs.end(), t.output) == outputs.end())
        throw InvalidInput(fmt::format("fit.targets.{}: the model does not output a column {} (outputs of {}: {})",
                                       t.output, io::json_quote(t.output), kind, fmt::join(outputs, ", ")));
      if (!(t.weight > 0.0) || !std::isfinite(t.weight))
        throw InvalidInput(fmt::format("fit.targets.{}.weight = {}: must be > 0", t.output, format_value(t.weight)));
      if (t.values.size() != rows_of(e))
        throw InvalidInput(fmt::format("fit.targets.{}: {} values for {} rows", t.output, t.values.size(), rows_of(e)));
    }
    check(e);
    auto sc = e.scenario;
    for (const ParameterSpec& p : parameters) {
      try {
        (void)io::get_number(sc, p.key);
        io::set_number(sc, p.key, p.initial);
      } catch (const InvalidInput& error) {
        throw InvalidInput(fmt::format("fit.parameters.{}: {}", io::json_quote(p.key), error.what()));
      }
    }
    n += rows_of(e) * e.targets.size();
  }
  if (n <= parameters.size())
    throw InvalidInput(fmt::format("fit: {} residual(s) for {} parameters: the data need more rows than parameters",
                                   n, parameters.size()));
}

/// The fit (validate first): the optimiser loop, the RMS per target and the
/// model series of every experiment at the optimum.
/// `exact_fn`: the residuals and the exact Jacobian (nullopt where it does not apply at a point), or empty for
/// central differences throughout.
template <class E, class Solve>
Result fit_series(const std::vector<E>& experiments, const std::vector<ParameterSpec>& parameters,
                  const Options& options, const IterationCallback& progress, const Solve& solve,
                  const ExactFn& exact_fn = {}) {
  const auto start_time = std::chrono::steady_clock::now();
  Result result;
  const ResidualFn residual_fn = [&](const VecX& p) { return series_residuals(experiments, parameters, p, solve); };
  const VecX p = least_squares(residual_fn, exact_fn, static_cast<bool>(exact_fn), residual_count(experiments),
                               parameters, options, progress, result);
  std::vector<TimeSeries> solved;
  (void)series_residuals(experiments, parameters, p, solve, &solved);
  std::vector<const std::vector<Target>*> targets;
  for (const E& e : experiments) targets.push_back(&e.targets);
  target_statistics(result, targets, solved);
  for (std::size_t e = 0; e < experiments.size(); ++e)
    result.experiments.push_back(ExperimentResult{experiments[e].label, std::move(solved[e]), VecX()});
  result.fit_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_time).count();
  return result;
}

}  // namespace bristle::fit::detail
