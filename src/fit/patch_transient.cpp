// Identification of transient patch scenarios (fit/patch_transient.hpp): residuals at the data times of
// patch::PatchTransient solves; residuals, central-difference Jacobian, checks and fit loop shared with the other
// time-series kinds (series_fit.hpp).
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
  return detail::series_jacobian(experiments, parameters, p, fd_step, solve);
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
  return detail::fit_series(experiments, parameters, options, progress, solve);
}

}  // namespace bristle::fit
