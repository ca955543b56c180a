#pragma once
// Fit scenarios: a lumped scenario plus a [fit] table (issue 16), read into a fit::Problem, and the outputs of
// `bristle fit`. Keys (docs/fitting.md):
//
//   [fit]
//   data = "data/tribometer.csv"     # CSV with a header row, relative to the scenario file
//   time_column = "t_s"              # model outputs are compared at these times (default: the first column)
//   window_s = [20.0, 60.0]          # optional: the part of the data that is fitted (inside the data's times)
//   validation_window_s = [60.0, 80.0]   # optional: evaluated with the fitted values, not fitted (validation)
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
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bristle/fit/fit.hpp"
#include "bristle/io/scenario.hpp"

namespace bristle::io {

/// Per fitted parameter: the key paths of a fit's scenario_toml[0] its fitted value is written to in
/// `<name>_fitted.toml`: the key itself, or the keys of the same parameter that the file writes (Dahl's law.mu for
/// law.mu_d, both of mu_s and mu_d when the file writes both, bench.normal_load_N for bench.normal_load.value).
using WrittenKeys = std::vector<std::vector<std::string>>;

struct FitScenario {
  std::string name;  // of the scenario; outputs are <name>_fit.* and <name>_fitted.toml
  ScenarioSource source;
  std::vector<fit::Experiment> experiments;
  std::vector<fit::ParameterSpec> parameters;
  fit::Options options;
  /// Per experiment: the scenario's TOML (without [fit]; `set` applied; [time] set to the window; table files
  /// resolved to absolute paths), the base of `<name>_fitted.toml`.
  std::vector<std::string> scenario_toml;
  WrittenKeys written_keys;  // where each fitted value goes in <name>_fitted.toml
  std::vector<std::string> data_files;  // per experiment, as written
  /// Per experiment, the same over fit.validation_window_s (empty without it): not fitted, only evaluated.
  std::vector<fit::Experiment> validation;
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

/// True when the file is a TOML table with a [fit] table (a fit scenario, for `bristle check` / `run`). False
/// for a file that cannot be read or parsed (the scenario reader then reports why).
bool is_fit_scenario(const std::filesystem::path& path);

/// The per-target RMS (unweighted) of a fitted model over the experiments of `scenario.validation` (the fit's
/// values, its initial_state): empty without fit.validation_window_s. SolverError if a solve fails.
std::vector<fit::TargetResult> validation_rms(const FitScenario& scenario, const fit::Result& result);

// ---- Model comparison (docs/fitting.md, "Model comparison") ------------------------------------------------
//
//   [[fit.model]]                          # repeated; each replaces tables of the scenario for its fit
//   label = "dahl"                         # default: law.type; letters, digits, '_' and '-' (a file name part)
//   law = { type = "dahl", mu = 0.5 }      # replaces [law] (default: the scenario's); also body1, body2, pair
//   parameters = { "law.mu" = { initial = 0.5, min = 0.05, max = 2 }, "body1.k0" = { ... } }
//                                          # replaces [fit.parameters] (default: those that apply to the law)
//
// A bare law name (dahl, lugre, frbd, bouc_wen) given to --compare without a [[fit.model]] of that label is
// the scenario's [law] with that type and only the keys that apply to it (Dahl: mu_d, not mu_s), and the
// [fit.parameters] that apply to it.
struct FitModel {
  std::string label;
  FitScenario scenario;  // the scenario of this model (its [fit] without the models)
};
struct FitComparison {
  std::string name;  // outputs: <name>_compare.csv, .json, .png
  std::vector<FitModel> models;
};
/// `names` (from --compare): labels of [[fit.model]] or bare law names; empty: every [[fit.model]].
FitComparison load_fit_comparison(const std::filesystem::path& path, const std::vector<std::string>& names = {});
FitComparison parse_fit_comparison_string(std::string_view toml, const std::vector<std::string>& names = {},
                                          std::string_view name = "scenario",
                                          const std::filesystem::path& directory = {});
/// True when the scenario file has [[fit.model]] entries (bristle fit then compares them).
bool has_fit_models(const std::filesystem::path& path);

struct ModelFit {
  std::string label;
  fit::Result result;
  std::vector<fit::TargetResult> validation;  // per target, over fit.validation_window_s (empty without it)
  std::optional<double> validation_rms_N;     // over the force (*_N) targets
};
/// Fits every model in turn (fit::fit), then evaluates it on the validation window; `on_model(i)` before each.
std::vector<ModelFit> fit_models(const FitComparison& comparison, const fit::IterationCallback& progress = {},
                                 const std::function<void(std::size_t)>& on_model = {});
/// `<name>_compare.json` (per model: label, law, converged, rms, rms_N, validation_rms, validation_rms_N, aic,
/// bic, parameters with value/std_error/ci95, warnings), `<name>_compare.csv` (a row per model, its index in
/// the JSON's `models`), `<name>_compare.png` (data and each model's fit, fitted and validation window) and per
/// model `<name>_compare_<label>_fitted.toml` (its first experiment's scenario with the fitted values, as
/// fitted_toml; table files relative to `out_dir`).
Json compare_report(const FitComparison& comparison, const std::vector<ModelFit>& fits);
RunResult compare_run_result(const FitComparison& comparison, const std::vector<ModelFit>& fits,
                             const std::filesystem::path& out_dir = {});

}  // namespace bristle::io
