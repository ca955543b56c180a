// Identification of steady-map scenarios (kind = "patch_steady_map"): residuals over the data's operating points,
// the exact Jacobian (PatchSolver::output_derivatives) or central differences, Ceres with bounds, and fit::fit's statistics. See fit/steady_map.hpp.
#include "bristle/fit/steady_map.hpp"

#include <ceres/ceres.h>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <random>

#include "bristle/contact/contact_model.hpp"
#include "bristle/core/error.hpp"
#include "bristle/io/json.hpp"
#include "bristle/io/key_path.hpp"
#include "bristle/patch/patch.hpp"
#include "driver.hpp"
#include "engine.hpp"

namespace bristle::fit {

using Eigen::Index;

namespace {

std::string q(std::string_view s) { return io::json_quote(s); }

io::PatchAxis* grid_axis(io::PatchMapScenario& sc, const std::string& grid) {
  if (grid == "vx_mps") return &sc.vx;
  if (grid == "spin_radps") return &sc.spin;
  if (grid == sc.lateral.column) return &sc.lateral;
  return nullptr;
}

/// The scenario at parameter values p (io::set_number: the reader's checks, every operating point included).
io::PatchMapScenario with_parameters(const MapExperiment& e, const std::vector<ParameterSpec>& parameters,
                                     const VecX& p) {
  io::PatchMapScenario sc = e.scenario;
  for (std::size_t j = 0; j < parameters.size(); ++j) io::set_number(sc, parameters[j].key, p[static_cast<Index>(j)]);
  return sc;
}

std::vector<patch::PatchKinematics> operating_points(const MapExperiment& e, const io::PatchMapScenario& sc) {
  std::vector<patch::PatchKinematics> points;
  points.reserve(e.grid_values.size());
  for (double g : e.grid_values) {
    double v[3] = {sc.vx.values.front(), sc.lateral.values.front(), sc.spin.values.front()};
    const int a = e.grid == "vx_mps" ? 0 : e.grid == "spin_radps" ? 2 : 1;
    v[a] = g;
    points.push_back(sc.kinematics(v[0], v[1], v[2]));
  }
  return points;
}

std::vector<std::string> series_names(const MapExperiment& e) {
  std::vector<std::string> names{e.grid};
  for (const std::string& o : map_outputs()) names.push_back(o);
  return names;
}

TimeSeries solve(const MapExperiment& e, const io::PatchMapScenario& sc) {
  const contact::ContactModel model(sc.law, sc.body1, sc.body2);
  // chain_length 1: every point from the unloaded state, independent of the order of the rows; one worker (the
  // optimiser's evaluations are serial and the machine is shared).
  const std::vector<patch::SteadyPatch> map = patch::solve_steady_map(model, sc.patch, operating_points(e, sc), 1, 1);
  TimeSeries series(series_names(e));
  series.reserve(map.size());
  for (std::size_t i = 0; i < map.size(); ++i)
    series.add_row({e.grid_values[i], map[i].force_N[0], map[i].force_N[1], map[i].Mz_Nm, map[i].Mz_no_phi_Nm});
  return series;
}

std::size_t residual_count(const std::vector<MapExperiment>& experiments) {
  std::size_t n = 0;
  for (const MapExperiment& e : experiments) n += e.grid_values.size() * e.targets.size();
  return n;
}

VecX residuals_at(const std::vector<MapExperiment>& experiments, const std::vector<ParameterSpec>& parameters,
                  const VecX& p, std::vector<TimeSeries>* solved = nullptr) {
  VecX r(static_cast<Index>(residual_count(experiments)));
  Index at = 0;
  for (const MapExperiment& e : experiments) {
    TimeSeries s = solve(e, with_parameters(e, parameters, p));
    for (const Target& t : e.targets) {
      const std::vector<double>& y = s.column(t.output);
      for (std::size_t i = 0; i < e.grid_values.size(); ++i) r[at++] = t.weight * (y[i] - t.values[i]);
    }
    if (solved) solved->push_back(std::move(s));
  }
  if (!r.allFinite()) throw SolverError("the steady map is not finite");
  return r;
}

/// The residuals at p and, through PatchSolver::output_derivatives, their exact Jacobian dr/dp; nullopt (with
/// `why`) where the derivative does not apply (a parameter that changes the transport, a sweep that is not
/// forward substitution, a perturbed value the scenario refuses).
std::optional<Eigen::MatrixXd> exact_residuals(const std::vector<MapExperiment>& experiments,
                                               const std::vector<ParameterSpec>& parameters, const VecX& p, VecX& r,
                                               std::string* why = nullptr) {
  const auto fail = [&](std::string reason) {
    if (why) *why = std::move(reason);
    return std::optional<Eigen::MatrixXd>();
  };
  // the keys (output_derivatives decides per operating point)
  if (std::string k = detail::contact_key_obstacle(parameters); !k.empty()) return fail(k);
  const Index np = p.size();
  r.resize(static_cast<Index>(residual_count(experiments)));
  Eigen::MatrixXd J(r.size(), np);
  Index at = 0;
  for (const MapExperiment& e : experiments) {
    const io::PatchMapScenario sc = with_parameters(e, parameters, p);
    const contact::ContactModel model(sc.law, sc.body1, sc.body2);
    // The pointwise partials: models at p_j -/+ 1e-6 |p_j| (the lumped sensitivities' step, sensitivity.hpp),
    // from a copy of the scenario with one operating point, so that set_number's checks of every point (edge
    // classification) are not repeated 2 P times (they were most of the Jacobian's time).
    MapExperiment light = e;
    if (io::PatchAxis* axis = grid_axis(light.scenario, e.grid)) {
      axis->values.resize(1);
      axis->list = false;
    }
    std::vector<contact::ContactModel> models;
    models.reserve(static_cast<std::size_t>(2 * np));
    std::vector<double> dp;
    for (Index j = 0; j < np; ++j) {
      const double h = 1e-6 * (p[j] != 0.0 ? std::abs(p[j]) : 1.0);
      for (double sign : {1.0, -1.0}) {
        VecX q2 = p;
        q2[j] += sign * h;
        try {
          const io::PatchMapScenario s2 = with_parameters(light, parameters, q2);
          models.emplace_back(s2.law, s2.body1, s2.body2);
        } catch (const InvalidInput& error) {
          return fail(fmt::format("{} = {} (a perturbed value): {}", parameters[static_cast<std::size_t>(j)].key,
                                  format_value(q2[j]), error.what()));
        }
      }
      dp.push_back(h);
    }
    std::vector<std::array<const contact::ContactModel*, 2>> perturbed;
    for (Index j = 0; j < np; ++j)
      perturbed.push_back({&models[static_cast<std::size_t>(2 * j)], &models[static_cast<std::size_t>(2 * j + 1)]});
    sc.patch.validate("patch");
    patch::PatchSolver solver(model, sc.patch);
    const std::vector<patch::PatchKinematics> points = operating_points(e, sc);
    std::vector<patch::SteadyPatch> map;
    std::vector<MatX> derivatives;
    for (std::size_t i = 0; i < points.size(); ++i) {
      map.push_back(solver.solve(points[i], false));
      std::optional<MatX> D = solver.output_derivatives(perturbed, dp);
      if (!D)
        return fail(fmt::format("experiment {}, {} = {}: the parameters change the transport of the patch, or the "
                                "sweep is not forward substitution",
                                e.label, e.grid, format_value(e.grid_values[i])));
      derivatives.push_back(std::move(*D));
    }
    for (const Target& t : e.targets) {
      const auto& outs = map_outputs();
      const Index row = static_cast<Index>(std::find(outs.begin(), outs.end(), t.output) - outs.begin());
      for (std::size_t i = 0; i < points.size(); ++i) {
        const patch::SteadyPatch& st = map[i];
        const double y = row == 0 ? st.force_N[0] : row == 1 ? st.force_N[1] : row == 2 ? st.Mz_Nm : st.Mz_no_phi_Nm;
        r[at] = t.weight * (y - t.values[i]);
        J.row(at) = t.weight * derivatives[i].row(row);
        ++at;
      }
    }
  }
  if (!r.allFinite() || !J.allFinite()) throw SolverError("the steady map or its derivative is not finite");
  return J;
}

}  // namespace

const std::vector<std::string>& map_outputs() {
  static const std::vector<std::string> outputs{"Fx_N", "Fy_N", "Mz_Nm", "Mz_no_phi_Nm"};
  return outputs;
}

void validate(const std::vector<MapExperiment>& experiments, const std::vector<ParameterSpec>& parameters) {
  if (experiments.empty()) throw InvalidInput("fit: no experiment to fit");
  if (parameters.empty()) throw InvalidInput("fit.parameters: must name at least one parameter");
  detail::validate_parameters(parameters);
  std::size_t n = 0;
  for (const MapExperiment& e : experiments) {
    if (e.targets.empty()) throw InvalidInput("fit.targets: must name at least one target");
    if (e.targets.size() != experiments.front().targets.size())
      throw InvalidInput(fmt::format("fit: experiment {} has {} targets, the first {}: every experiment fits the "
                                     "same targets",
                                     e.label, e.targets.size(), experiments.front().targets.size()));
    io::PatchMapScenario sc = e.scenario;
    io::PatchAxis* axis = grid_axis(sc, e.grid);
    if (!axis)
      throw InvalidInput(fmt::format("fit.grid_column = {}: not a kinematics axis of this scenario (vx_mps, {}, "
                                     "spin_radps)",
                                     q(e.grid), sc.lateral.column));
    for (const io::PatchAxis* other : {&sc.vx, &sc.lateral, &sc.spin})
      if (other != axis && other->list)
        throw InvalidInput(fmt::format("kinematics.{}: is a list; a fit varies only fit.grid_column = {} (the data "
                                       "rows), so the other axes must be single numbers",
                                       other->column, q(e.grid)));
    for (const Target& t : e.targets) {
      const auto& outs = map_outputs();
      if (std::find(outs.begin(), outs.end(), t.output) == outs.end())
        throw InvalidInput(fmt::format("fit.targets.{}: the model does not output a column {} (outputs of "
                                       "patch_steady_map: {})",
                                       t.output, q(t.output), fmt::join(outs, ", ")));
      if (!(t.weight > 0.0) || !std::isfinite(t.weight))
        throw InvalidInput(fmt::format("fit.targets.{}.weight = {}: must be > 0", t.output, format_value(t.weight)));
      if (t.values.size() != e.grid_values.size())
        throw InvalidInput(fmt::format("fit.targets.{}: {} values for {} rows", t.output, t.values.size(),
                                       e.grid_values.size()));
    }
    if (e.grid_values.empty()) throw InvalidInput(fmt::format("fit: experiment {}: no data rows", e.label));
    // Every data row is an operating point of the map (the reader's checks: range, leading edges).
    axis->values = e.grid_values;
    axis->list = true;
    io::validate(sc);
    for (const ParameterSpec& p : parameters) {
      try {
        (void)io::get_number(sc, p.key);
        io::set_number(sc, p.key, p.initial);
      } catch (const InvalidInput& error) {
        throw InvalidInput(fmt::format("fit.parameters.{}: {}", q(p.key), error.what()));
      }
    }
    n += e.grid_values.size() * e.targets.size();
  }
  if (n <= parameters.size())
    throw InvalidInput(fmt::format("fit: {} residual(s) for {} parameters: the data need more rows than parameters",
                                   n, parameters.size()));
}

std::vector<TimeSeries> map_model(const std::vector<MapExperiment>& experiments,
                                  const std::vector<ParameterSpec>& parameters, const VecX& p) {
  std::vector<TimeSeries> out;
  (void)residuals_at(experiments, parameters, p, &out);
  return out;
}

VecX residuals(const std::vector<MapExperiment>& experiments, const std::vector<ParameterSpec>& parameters,
               const VecX& p) {
  return residuals_at(experiments, parameters, p);
}

std::string sensitivities_unavailable(const std::vector<MapExperiment>& experiments,
                                      const std::vector<ParameterSpec>& parameters, const VecX& p) {
  VecX r;
  std::string why;
  return exact_residuals(experiments, parameters, p, r, &why) ? std::string() : why;
}

Eigen::MatrixXd jacobian(const std::vector<MapExperiment>& experiments, const std::vector<ParameterSpec>& parameters,
                         const VecX& p, JacobianMethod method, double fd_step) {
  return detail::jacobian_by(
      method, p,
      [&](const VecX& q, VecX& r, std::string* why) { return exact_residuals(experiments, parameters, q, r, why); },
      [&] {
        return detail::central_differences([&](const VecX& q) { return residuals_at(experiments, parameters, q); },
                                           p, fd_step);
      });
}

Result fit(const std::vector<MapExperiment>& experiments, const std::vector<ParameterSpec>& parameters,
           const Options& options, const IterationCallback& progress) {
  validate(experiments, parameters);
  const auto start_time = std::chrono::steady_clock::now();
  const Index np = static_cast<Index>(parameters.size());
  Result result;
  // The exact Jacobian where it applies at the start point (keys of law/body/pair that leave the transport alone,
  // forward-substitution sweeps), else central differences; Options::jacobian forces either.
  VecX p_initial(np);
  for (Index j = 0; j < np; ++j) p_initial[j] = parameters[static_cast<std::size_t>(j)].initial;
  const bool exact = options.jacobian != JacobianMethod::finite_differences &&
                     detail::use_exact(options, sensitivities_unavailable(experiments, parameters, p_initial));
  const detail::ResidualFn residuals = [&](const VecX& p) { return residuals_at(experiments, parameters, p); };
  const detail::ExactFn exact_fn = [&](const VecX& p, VecX& r) { return exact_residuals(experiments, parameters, p, r); };
  const VecX p = detail::least_squares(residuals, exact_fn, exact, residual_count(experiments), parameters, options,
                                       progress, result);
  std::vector<TimeSeries> solved = map_model(experiments, parameters, p);
  std::vector<const std::vector<Target>*> targets;
  for (const MapExperiment& e : experiments) targets.push_back(&e.targets);
  detail::target_statistics(result, targets, solved);
  for (std::size_t e = 0; e < experiments.size(); ++e)
    result.experiments.push_back(ExperimentResult{experiments[e].label, std::move(solved[e]), VecX()});
  result.fit_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_time).count();
  return result;
}

}  // namespace bristle::fit
