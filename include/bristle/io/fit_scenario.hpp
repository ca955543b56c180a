#pragma once
// Fit scenarios: a lumped scenario plus a [fit] table (issue 16), read into a fit::Problem, and the outputs of
// `bristle fit`. Keys (docs/fitting.md):
//
//   [fit]
//   data = "data/tribometer.csv"     # CSV with a header row, relative to the scenario file
//   time_column = "t_s"              # model outputs are compared at these times (default: the first column)
//   window_s = [20.0, 60.0]          # optional: the part of the data that is fitted (inside the data's times)
//   initial_state = "match_first_sample"   # or "rest" (default) / "steady": the contact state at window start
//   multi_start = 1                  # starts (the initial values, then points drawn uniformly in u)
//   seed = 1                         # of the multi-start draws
//   max_iterations = 100             # trust-region iterations per start
//   [fit.targets]                    # model output column = data column, or { column = "...", weight = w }
//   F_N = "F_N"
//   [fit.parameters]                 # any numeric key path; min and max required; initial default: the
//   "law.mu_d" = { initial = 0.4, min = 0.05, max = 1.5 }          # scenario's value; scale "linear"/"log"
//   "body1.k0" = { initial = 1e4, min = 1e2, max = 1e7, scale = "log" }
//   [[fit.experiment]]               # optional, repeated: its own data (and window_s, time_column) and
//   data = "seal_3bar.csv"           #   `set`, key paths of the scenario overridden for it (numbers or
//   set = { "bench.normal_load_N" = 3.0, "bench.input.file" = "seal_3bar.csv" }   # strings)
//
// The scenario's [time] is replaced by the window (t_start_s, t_end_s = its first and last data time); its
// inputs are its own signals (table signals reading the data file give the measured drive and load).
// Every problem is an InvalidInput naming the key, and for the data file:line(:column).
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "bristle/fit/fit.hpp"
#include "bristle/io/scenario.hpp"

namespace bristle::io {

struct FitScenario {
  std::string name;  // of the scenario; outputs are <name>_fit.* and <name>_fitted.toml
  ScenarioSource source;
  std::vector<fit::Experiment> experiments;
  std::vector<fit::ParameterSpec> parameters;
  fit::Options options;
  /// Per experiment: the scenario's TOML (without [fit]; `set` applied; [time] set to the window; table files
  /// resolved to absolute paths), the base of `<name>_fitted.toml`.
  std::vector<std::string> scenario_toml;
  std::vector<std::string> data_files;  // per experiment, as written
};

FitScenario load_fit_scenario(const std::filesystem::path& path);
FitScenario parse_fit_string(std::string_view toml, std::string_view name = "scenario",
                             const std::filesystem::path& directory = {});

/// The scenario of experiment `index` with the fitted values, its window as [time] (output every data interval),
/// and the initial state used in the fit as [initial]: runnable with `bristle run`. Table files are written
/// relative to `out_dir` when possible (else absolute).
std::string fitted_toml(const FitScenario& scenario, const fit::Result& result, std::size_t index,
                        const std::filesystem::path& out_dir);

/// The report of a fit: `<name>_fit.json` (the report), `<name>_fit.csv` (per experiment and time: measured,
/// fitted and residual of each target, then the model's x_m and v_mps), `<name>_fit.png` (data and fit against
/// time, residuals, friction against position) and `<name>_fitted.toml`, for write_outputs().
RunResult fit_run_result(const FitScenario& scenario, const fit::Result& result, const std::filesystem::path& out_dir);

/// The JSON report alone.
Json fit_report(const FitScenario& scenario, const fit::Result& result);

}  // namespace bristle::io
