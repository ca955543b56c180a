#pragma once
// Fit scenarios of the steady-map kinds (kind = "patch_steady_map"; issue 16): the scenario plus a [fit] table
// whose data rows are operating points of the map (fit/steady_map.hpp), and the outputs of `bristle fit`.
//
//   [fit]
//   data = "data/fy_alpha.csv"       # CSV with a header row, relative to the scenario file
//   grid_column = "slip_angle_deg"   # required: the kinematics axis the rows vary, and the data column giving it
//                                    #   (slip_angle_deg or vy_mps, as the scenario's [kinematics]; vx_mps;
//                                    #   spin_radps); the other axes keep the scenario's single values
//   multi_start, seed, max_iterations  # as for lumped
//   [fit.targets]                    # map output = data column: Fx_N, Fy_N, Mz_Nm, Mz_no_phi_Nm
//   Fy_N = "Fy_N"
//   [fit.parameters]                 # any numeric key path of the map (law.*, body1.*, body2.*, pair.s, patch.*,
//   "law.mu_d" = { initial = 0.8, min = 0.3, max = 1.1 }           # kinematics.Vr_mps)
//   [[fit.experiment]]               # optional, repeated: its own data (and grid_column, label, set)
//
// No time_column, window_s, initial_state or validation_window_s (a steady kind has no time): each is an error.
// Rows may come in any order and repeat a grid value. Every problem is an InvalidInput naming the key, and for the
// data file:line(:column).
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "bristle/fit/line.hpp"
#include "bristle/fit/patch_transient.hpp"
#include "bristle/fit/structure_stick_slip.hpp"
#include "bristle/fit/steady_map.hpp"
#include "bristle/io/fit_scenario.hpp"
#include "bristle/io/scenario.hpp"

namespace bristle::io {

/// A fit of a steady-map kind: E = fit::MapExperiment (patch_steady_map) or fit::LineSteadyExperiment (line_steady).
template <class E>
struct GridFitScenario {
  std::string kind;  // "patch_steady_map", "line_steady"
  std::string name;  // outputs <name>_fit.* and <name>_fitted.toml
  ScenarioSource source;
  std::vector<E> experiments;
  std::vector<fit::ParameterSpec> parameters;
  fit::Options options;
  /// Per experiment: the scenario's TOML without [fit], `set` applied, the grid axis = the data's distinct grid
  /// values in increasing order (the base of `<name>_fitted.toml`).
  std::vector<std::string> scenario_toml;
  WrittenKeys written_keys;  // where each fitted value goes in <name>_fitted.toml
  std::vector<std::string> data_files;  // per experiment, as written
};
using MapFitScenario = GridFitScenario<fit::MapExperiment>;

/// The `kind` of a scenario file or text ("lumped" when absent); empty when it cannot be read or parsed.
std::string scenario_kind(const std::filesystem::path& path);
std::string scenario_kind_of_text(std::string_view toml);

/// True for the steady-map kinds whose [fit] this reader takes (patch_steady_map).
bool is_map_fit_kind(std::string_view kind);

MapFitScenario load_map_fit_scenario(const std::filesystem::path& path);
MapFitScenario parse_map_fit_string(std::string_view toml, std::string_view name = "scenario",
                                    const std::filesystem::path& directory = {});

/// The scenario of experiment `index` with the fitted values and the grid axis at the data's grid values:
/// `bristle run` of it gives the fitted map at the data's operating points.
std::string map_fitted_toml(const MapFitScenario& scenario, const fit::Result& result, std::size_t index);

/// `<name>_fit.json` (as for lumped: per parameter value, std_error, ci95; correlation, condition_number, rms per
/// target, rms_N, aic, bic, converged, iterations, evaluations, jacobian, warnings, fit_seconds; experiments with
/// label, data, grid_column, rows), `<name>_fit.csv` (experiment first with several, the grid column, per target
/// <out>_measured, _fitted, _residual), `<name>_fit.png` (measured and fitted against the grid, residual) and
/// `<name>_fitted.toml`.
Json map_fit_report(const MapFitScenario& scenario, const fit::Result& result);
RunResult map_fit_run_result(const MapFitScenario& scenario, const fit::Result& result);

// ---- kind = "patch_transient" (fit/patch_transient.hpp) -----------------------------------------------------
//
//   [fit]
//   data = "data/fy_t.csv"           # CSV with a header row, relative to the scenario file
//   time_column = "t_s"              # default: the first column
//   window_s = [0.0, 0.012]          # optional: the part of the data that is fitted
//   initial_state = "rest"           # the only one: the transient starts from the unloaded contact
//   [fit.targets]                    # output column = data column: Fx_N, Fy_N, Mz_Nm, Fz_N, ... (the kind's CSV)
//   [fit.parameters], multi_start, seed, max_iterations, [[fit.experiment]] (data, time_column, window_s, set,
//   label) as for lumped. The scenario's [time] becomes the window; its signals (tables reading the data) drive it.
/// A fit of a time-series kind other than lumped: E = fit::TransientExperiment (patch_transient),
/// fit::LineTransientExperiment (line_transient) or fit::StructureExperiment (structure_stick_slip).
template <class E>
struct SeriesFitScenario {
  std::string kind;  // "patch_transient", "line_transient", "structure_stick_slip"
  std::string name;
  ScenarioSource source;
  std::vector<E> experiments;
  std::vector<fit::ParameterSpec> parameters;
  fit::Options options;
  std::vector<std::string> scenario_toml;  // per experiment: without [fit], `set` applied, [time] = the window
  WrittenKeys written_keys;  // where each fitted value goes in <name>_fitted.toml
  std::vector<std::string> data_files;
};
using TransientFitScenario = SeriesFitScenario<fit::TransientExperiment>;

TransientFitScenario load_transient_fit_scenario(const std::filesystem::path& path);
TransientFitScenario parse_transient_fit_string(std::string_view toml, std::string_view name = "scenario",
                                                const std::filesystem::path& directory = {});
/// The outputs of `bristle fit` as for lumped: `<name>_fit.json`, `<name>_fit.csv` (t_s, per target measured,
/// fitted, residual), `<name>_fit.png`, `<name>_fitted.toml` (the window as [time], output every data interval).
Json transient_fit_report(const TransientFitScenario& scenario, const fit::Result& result);
RunResult transient_fit_run_result(const TransientFitScenario& scenario, const fit::Result& result);

// ---- kind = "structure_stick_slip" (fit/structure_stick_slip.hpp) ------------------------------------------
//
//   [fit]
//   data = "data/stick_slip.csv"     # CSV with a header row, relative to the scenario file
//   time_column = "t_s"              # default: the first column; times >= 0 (the structure starts at rest at 0)
//   window_s = [0.5, 2.0]            # optional: the part of the data that is fitted (the run still starts at 0)
//   initial_state = "rest"           # the only one: the structure at rest and unloaded at t = 0
//   [fit.targets]                    # output column = data column: F_N, w_m, v_mps, vr_mps (f_state with a [law],
//   F_N = "F_N"                      #   the energy columns with model.track_energy)
//   [fit.parameters], multi_start, seed, max_iterations, [[fit.experiment]] (data, time_column, window_s, set,
//   label) as for patch_transient. The scenario's run.t_end_s becomes the window's end.
// (scenario_toml: per experiment without [fit], `set` applied, run.t_end_s = the window's end)
using StructureFitScenario = SeriesFitScenario<fit::StructureExperiment>;

/// True for the kinds whose [fit] load_structure_fit_scenario reads (structure_stick_slip).
bool is_structure_fit_kind(std::string_view kind);
StructureFitScenario load_structure_fit_scenario(const std::filesystem::path& path);
StructureFitScenario parse_structure_fit_string(std::string_view toml, std::string_view name = "scenario",
                                                const std::filesystem::path& directory = {});
/// As for patch_transient: `<name>_fit.json`, `<name>_fit.csv` (t_s, per target measured, fitted, residual),
/// `<name>_fit.png`, `<name>_fitted.toml` (run.t_end_s = the window's end; `bristle run` of it outputs every
/// run.output_every steps from t = 0).
Json structure_fit_report(const StructureFitScenario& scenario, const fit::Result& result);
RunResult structure_fit_run_result(const StructureFitScenario& scenario, const fit::Result& result);
// ---- kind = "line_steady" and kind = "line_transient" (fit/line.hpp) --------------------------------------------
//
// line_steady: as patch_steady_map, with fit.grid_column = "V_mps" (kinematics.mode = "sliding") or "vx_mps"
// ("rolling"): the data column of the map's velocities; targets Fx_N, Fx_abs_N, Fx_norm, Fx_norm_abs, mu. No
// time_column, window_s, initial_state, validation_window_s; no [sweep] or [[case]] (fit one case).
// line_transient: as patch_transient (time_column, window_s, initial_state = "rest" only), targets the columns of
// the kind's CSV (Fx_N, Fy_N, W_J, ..., Fx_abs_N); the scenario's [time] becomes the window.
using LineSteadyFitScenario = GridFitScenario<fit::LineSteadyExperiment>;
using LineTransientFitScenario = SeriesFitScenario<fit::LineTransientExperiment>;

/// True for "line_steady" and "line_transient".
bool is_line_fit_kind(std::string_view kind);
LineSteadyFitScenario load_line_steady_fit_scenario(const std::filesystem::path& path);
LineSteadyFitScenario parse_line_steady_fit_string(std::string_view toml, std::string_view name = "scenario",
                                                   const std::filesystem::path& directory = {});
/// The outputs as for patch_steady_map; `<name>_fitted.toml` has the velocity axis at the data's distinct values.
Json line_steady_fit_report(const LineSteadyFitScenario& scenario, const fit::Result& result);
RunResult line_steady_fit_run_result(const LineSteadyFitScenario& scenario, const fit::Result& result);
LineTransientFitScenario load_line_transient_fit_scenario(const std::filesystem::path& path);
LineTransientFitScenario parse_line_transient_fit_string(std::string_view toml, std::string_view name = "scenario",
                                                         const std::filesystem::path& directory = {});
/// The outputs as for patch_transient.
Json line_transient_fit_report(const LineTransientFitScenario& scenario, const fit::Result& result);
RunResult line_transient_fit_run_result(const LineTransientFitScenario& scenario, const fit::Result& result);

}  // namespace bristle::io
