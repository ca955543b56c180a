// Fit scenarios of the patch, line and structure kinds: [fit] in, the fit's report out
// (bristle/io/fit_map_scenario.hpp), with the reader and writer every kind shares (fit_internal.hpp).
#include "bristle/io/fit_map_scenario.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>

#include "bristle/core/error.hpp"
#include "bristle/io/json.hpp"
#include "bristle/io/key_path.hpp"
#include "bristle/io/line_scenario.hpp"
#include "bristle/io/patch_scenario.hpp"
#include "bristle/io/structures_scenario.hpp"
#include "csv_table.hpp"
#include "fit_internal.hpp"
#include "input_file.hpp"
#include "scenario_internal.hpp"
#include "toml_reader.hpp"

namespace bristle::io {

namespace fs = std::filesystem;
using detail::q;
using detail::Section;

namespace {

/// The one case of a line study read for a fit ([sweep] is refused before; [[case]] here).
template <class Study>
auto one_line_case(const Study& study) {
  const auto& cases = study.cases();
  if (cases.size() != 1)
    throw InvalidInput(fmt::format("[[case]]: a fit scenario has one case ({} here); fit one case", cases.size()));
  return cases.front();
}

// ---- the steady-map kinds: patch_steady_map, line_steady ----------------------------------------------------------

/// What the [fit] reader of a steady-map kind asks the kind (H: PatchMapHooks, LineSteadyHooks).
struct PatchMapHooks {
  using Experiment = fit::MapExperiment;
  static constexpr const char* kinds = "patch_steady_map";
  static bool kind_ok(const std::string& kind) { return is_map_fit_kind(kind); }
  static const std::vector<std::string>& outputs() { return fit::map_outputs(); }
  static constexpr const char* grid_doc =
      "the kinematics axis the data rows vary and its data column: slip_angle_deg, vy_mps, vx_mps or spin_radps";
  static std::vector<std::string> grid_columns(const toml::table&) {
    return {"slip_angle_deg", "vy_mps", "vx_mps", "spin_radps"};
  }
  static void check_grid(const toml::table& root, const std::string& grid, const std::string& grid_key) {
    if (const toml::table* kin = root["kinematics"].as_table()) {
      const std::string other = grid == "slip_angle_deg" ? "vy_mps" : grid == "vy_mps" ? "slip_angle_deg" : "";
      if (!other.empty() && kin->contains(other))
        throw InvalidInput(fmt::format("{} = {}: the scenario gives the lateral axis as kinematics.{}; use "
                                       "grid_column = {} (or write the scenario with kinematics.{})",
                                       grid_key, q(grid), other, q(other), grid));
    }
  }
  static PatchMapScenario parse(const toml::table& root, const std::string& name, const ScenarioSource& source) {
    return detail::parse_patch_steady_map(root, name, source);
  }
  static void finish(Experiment&) {}
};

struct LineSteadyHooks {
  using Experiment = fit::LineSteadyExperiment;
  static constexpr const char* kinds = "line_steady";
  static bool kind_ok(const std::string& kind) { return kind == "line_steady"; }
  static const std::vector<std::string>& outputs() { return fit::line_steady_outputs(); }
  static constexpr const char* grid_doc =
      "the map's velocity axis and its data column: V_mps (kinematics.mode = \"sliding\") or vx_mps (\"rolling\")";
  static std::vector<std::string> grid_columns(const toml::table& root) {
    const auto mode = root["kinematics"]["mode"].value<std::string>();
    return {mode && *mode == "rolling" ? "vx_mps" : "V_mps"};
  }
  static void check_grid(const toml::table&, const std::string&, const std::string&) {}
  static LineSteadyScenario parse(const toml::table& root, const std::string& name, const ScenarioSource& source) {
    return one_line_case(LineSteadyStudy(detail::parse_line_steady(root, name, source)));
  }
  static void finish(Experiment& e) { e.scenario.velocities = e.grid_values; }
};

/// The [fit] of a steady-map kind: its data rows are operating points, on the grid axis fit.grid_column. The
/// scenario (detail::fit_scenario) is parsed with the axis at the data's distinct values (a list: no key path sets
/// it), its numeric `set` by key path, else by the TOML; on an error, each row is tried on its own (the `set`
/// written in) so that a bad one is named by its line.
template <class H>
GridFitScenario<typename H::Experiment> parse_grid_fit(const toml::table& root, std::string_view name,
                                                       const ScenarioSource& source) {
  const std::string kind = Section(&root, "").string("kind").value_or("lumped");
  if (!H::kind_ok(kind)) throw InvalidInput(fmt::format("kind = {}: not a steady-map kind ({})", q(kind), H::kinds));
  detail::FitRules rules;
  rules.kind = kind;
  rules.keys = {"data", "grid_column", "targets", "parameters", "experiment", "multi_start", "seed", "max_iterations"};
  rules.refused = {"time_column", "window_s", "initial_state", "validation_window_s"};
  rules.refused_why = " (a steady map has no time: its data rows are operating points matched on fit.grid_column)";
  rules.experiment_keys = {"data", "grid_column", "set", "label"};
  rules.fit_doc = "data, grid_column, targets and parameters";
  rules.targets_doc = "map output = data column, e.g. Fy_N = \"Fy_N\"";
  rules.parameters_doc = ", e.g. \"law.mu_d\" = { initial = 0.8, min = 0.3, max = 1.1 }";
  rules.experiment_doc = "[[fit.experiment]] tables, each with its data (and set, grid_column, label)";
  rules.outputs = H::outputs();
  detail::FitTable t = detail::read_fit_table(root, name, rules);

  GridFitScenario<typename H::Experiment> out;
  out.kind = kind;
  out.name = t.name;
  out.source = source;
  using Sc = decltype(out.experiments.front().scenario);
  const std::function<Sc(const toml::table&)> parse = [&](const toml::table& table) {
    return H::parse(table, t.name, source);
  };
  for (std::size_t i = 0; i < t.experiments.size(); ++i) {
    const detail::FitExperiment x = detail::read_fit_experiment(t, i, rules, source);
    const Section& grid_from = x.from(t, "grid_column");
    const std::string grid = grid_from.required_string("grid_column", H::grid_doc);
    const std::string grid_key = grid_from.key("grid_column");
    const std::vector<std::string> grid_columns = H::grid_columns(root);
    if (std::find(grid_columns.begin(), grid_columns.end(), grid) == grid_columns.end())
      throw InvalidInput(fmt::format("{} = {}: must be a kinematics axis: {}{}", grid_key, q(grid),
                                     fmt::join(grid_columns, ", "), detail::suggestion(grid, grid_columns)));
    H::check_grid(root, grid, grid_key);

    // The data: the grid column and the target columns, every row an operating point of the map.
    const detail::FitData d = detail::read_fit_data(t, x, grid, grid_key);
    const detail::CsvNumbers& csv = d.csv;
    const std::string& where = d.where;
    if (csv.rows.size() * t.targets.size() <= t.parameters.size())
      throw InvalidInput(fmt::format("{}: {} has {} data row(s); fitting {} parameter(s) needs more residuals than "
                                     "parameters",
                                     where, x.path.string(), csv.rows.size(), t.parameters.size()));
    typename H::Experiment e;
    std::vector<std::vector<double>> values(t.targets.size());
    for (std::size_t r = 0; r < csv.rows.size(); ++r) {
      const std::span<const double> row = csv.rows[r];
      e.grid_values.push_back(row[d.x]);
      for (std::size_t k = 0; k < d.targets.size(); ++k) values[k].push_back(row[d.targets[k]]);
    }
    std::vector<double> axis = e.grid_values;  // the distinct grid values in increasing order
    std::sort(axis.begin(), axis.end());
    axis.erase(std::unique(axis.begin(), axis.end()), axis.end());
    const auto set_axis = [&](const std::vector<double>& v) {
      return [&, v](toml::table& table) {
        toml::array a;
        for (double g : v) a.push_back(g);
        detail::set_toml_path(table, "kinematics." + grid, a, grid_key);
      };
    };
    try {
      e.scenario = detail::fit_scenario<Sc>(t, x, nullptr, set_axis(axis), {}, "kinematics." + grid, parse);
    } catch (const InvalidInput&) {
      toml::table probe = detail::fit_toml(t, x, {});
      for (std::size_t r = 0; r < csv.rows.size(); ++r) {
        detail::set_toml_path(probe, "kinematics." + grid, toml::value<double>(e.grid_values[r]), grid_key);
        try {
          (void)parse(probe);
        } catch (const InvalidInput& error) {
          throw InvalidInput(fmt::format("{}: {}:{}:{}: {} = {} is not an operating point of the map: {}", where,
                                         x.path.string(), csv.row_lines[r], d.x + 1, grid,
                                         format_value(e.grid_values[r]), error.what()));
        }
      }
      throw;
    }
    e.label = x.label;
    e.grid = grid;
    H::finish(e);
    e.targets = detail::fit_targets(t, values);
    out.scenario_toml.push_back(
        detail::toml_text(detail::fit_toml(t, detail::experiment_set(t, i, x, e.scenario), set_axis(axis), true,
                                           detail::whole_list_of(e.scenario))));
    out.experiments.push_back(std::move(e));
    out.data_files.push_back(x.data);
  }
  detail::finish_fit(t, out, parse);
  return out;
}

template <class E>
std::string grid_fitted_toml(const GridFitScenario<E>& scenario, const fit::Result& result, std::size_t index) {
  const E& e = scenario.experiments.at(index);
  return detail::fitted_text(scenario, index, result,
                             fmt::format("{} rows; its map is solved at the data's {} values", e.grid_values.size(),
                                         e.grid));
}

template <class E>
Json grid_fit_report(const GridFitScenario<E>& scenario, const fit::Result& result) {
  return detail::fit_report(scenario.kind, scenario, result, detail::StateIn::none, [](const E& e, const auto&, Json& j) {
    j["grid_column"] = e.grid;
    j["rows"] = e.grid_values.size();
  });
}

template <class E>
RunResult grid_fit_run_result(const GridFitScenario<E>& scenario, const fit::Result& result) {
  const std::string grid = scenario.experiments.front().grid;
  RunResult run = detail::fit_run(
      scenario.name, detail::fit_series(scenario.experiments, result, grid, [](const E& e) -> auto& {
        return e.grid_values;
      }),
      result, grid_fit_report(scenario, result), grid_fitted_toml(scenario, result, 0));
  const std::string target = scenario.experiments.front().targets.front().output;
  run.plot_y = {target + "_measured"};
  run.plot_script = detail::fit_plot(scenario.name, target, run.cases.front().series, {{grid, grid}}, true, "900,800");
  return run;
}

// ---- the time-series kinds: patch_transient, structure_stick_slip, line_transient ---------------------------------

/// The [fit] keys of a time-series kind other than lumped.
detail::FitRules series_rules(std::string kind, std::vector<std::string> outputs) {
  detail::FitRules rules;
  rules.kind = std::move(kind);
  rules.keys = {"data", "time_column", "window_s", "initial_state", "targets", "parameters", "experiment",
                "multi_start", "seed", "max_iterations"};
  rules.refused = {"validation_window_s", "grid_column"};
  rules.experiment_keys = {"data", "time_column", "window_s", "set", "label"};
  rules.fit_doc = "data, targets and parameters";
  rules.targets_doc = "map output = data column, e.g. Fy_N = \"Fy_N\"";
  rules.experiment_doc = "[[fit.experiment]] tables, each with its data (and set, window_s)";
  rules.outputs = std::move(outputs);
  return rules;
}

/// fit.initial_state of a kind that starts from rest: "rest" only (`why`: "starts from the unloaded contact").
std::function<void(detail::FitTable&)> rest_only(std::string kind, std::string why) {
  return [kind, why](detail::FitTable& t) {
    if (const auto s = t.f.string("initial_state"); s && *s != "rest")
      throw InvalidInput(fmt::format("fit.initial_state = {}: kind = \"{}\" {}: only \"rest\"", q(*s), kind, why));
  };
}

/// [time] of a kind whose grid is a table (patch_transient, line_transient): the window, output every sample.
std::vector<std::pair<std::string, double>> time_window(const std::vector<double>& t) {
  return {{"time.t_start_s", t.front()},
          {"time.t_end_s", t.back()},
          {"time.output_dt_s", (t.back() - t.front()) / static_cast<double>(t.size() - 1)}};
}

TransientFitScenario parse_transient_fit(const toml::table& root, std::string_view name, const ScenarioSource& source) {
  detail::SeriesKind<PatchTransientScenario> kind;
  kind.rules = series_rules("patch_transient", fit::transient_outputs());
  kind.initial_state = rest_only("patch_transient", "starts from the unloaded contact");
  kind.window = time_window;
  kind.parse = [](const toml::table& table, const std::string& n, const ScenarioSource& src) {
    return detail::parse_patch_transient(table, n, src);
  };
  return detail::parse_series_fit<TransientFitScenario>(root, name, source, kind);
}

StructureFitScenario parse_structure_fit(const toml::table& root, std::string_view name, const ScenarioSource& source) {
  detail::SeriesKind<StructureStickSlipScenario> kind;
  kind.rules = series_rules("structure_stick_slip", fit::structure_outputs());
  kind.initial_state = rest_only("structure_stick_slip", "starts from the structure at rest and unloaded at t = 0");
  kind.window = [](const std::vector<double>& t) {
    return std::vector<std::pair<std::string, double>>{{"run.t_end_s", t.back()}};
  };
  kind.parse = [](const toml::table& table, const std::string& n, const ScenarioSource& src) {
    // Read as a scenario string of the file's directory (its messages say "<string>"), then given the file's source.
    StructureStickSlipScenario sc = detail::parse_structure_stick_slip(table, n, ScenarioSource::of_text(src.directory));
    sc.source = src;
    return sc;
  };
  kind.absolute_files = [](toml::table& table, const StructureStickSlipScenario& sc) {
    if (!sc.structure.file.empty() && !fs::path(sc.structure.file).is_absolute())
      detail::set_toml_path(table, "structure.file",
                            toml::value<std::string>(fs::absolute(sc.source.directory / sc.structure.file).string()),
                            "structure.file");
  };
  return detail::parse_series_fit<StructureFitScenario>(root, name, source, kind);
}

LineTransientFitScenario parse_line_transient_fit(const toml::table& root, std::string_view name,
                                                  const ScenarioSource& source) {
  detail::SeriesKind<LineTransientScenario> kind;
  kind.rules = series_rules("line_transient", fit::line_transient_outputs());
  kind.initial_state = rest_only("line_transient", "starts from the unloaded contact");
  kind.window = time_window;
  kind.parse = [](const toml::table& table, const std::string& n, const ScenarioSource& src) {
    return one_line_case(LineTransientStudy(detail::parse_line_transient(table, n, src)));
  };
  return detail::parse_series_fit<LineTransientFitScenario>(root, name, source, kind);
}

/// The report of a time-series kind's fit (as transient_fit_report says).
template <class Sc>
Json series_fit_report(std::string_view kind, const Sc& scenario, const fit::Result& result) {
  return detail::fit_report(kind, scenario, result, detail::StateIn::tail, [](const auto& e, const auto&, Json& j) {
    j["window_s"] = Json(std::vector<double>{e.times.front(), e.times.back()});
    j["samples"] = e.times.size();
  });
}

/// The outputs of a time-series kind's fit (as transient_fit_run_result says); `outputs_note` says what the
/// fitted scenario's grid is.
template <class Sc>
RunResult series_fit_run_result(std::string_view kind, const Sc& scenario, const fit::Result& result,
                                std::string_view outputs_note) {
  const auto& e0 = scenario.experiments.front();
  RunResult run = detail::fit_run(
      scenario.name,
      detail::fit_series(scenario.experiments, result, "t_s", [](const auto& e) -> auto& { return e.times; }), result,
      series_fit_report(kind, scenario, result),
      detail::fitted_text(scenario, 0, result, fmt::format("{}; {}", detail::fitted_window(e0.times), outputs_note)));
  const std::string target = e0.targets.front().output;
  run.plot_y = {target + "_measured", target + "_fitted", target + "_residual"};
  return run;
}

}  // namespace

// ---- the public functions of each kind ------------------------------------------------------------------------

namespace {

/// The `kind` of a parsed scenario ("lumped" when absent; empty when it is not a string).
std::string kind_of(const toml::table& root) {
  const toml::node* k = root.get("kind");
  if (!k) return "lumped";
  const auto s = k->value<std::string>();
  return s ? *s : std::string();
}

}  // namespace

std::string scenario_kind_of_text(std::string_view toml) {
  try {
    return kind_of(detail::parse_toml(toml, "scenario"));
  } catch (const std::exception&) {
    return {};
  }
}

std::string scenario_kind(const fs::path& path) {
  const std::optional<toml::table> root = detail::read_fit_root(path);
  return root ? kind_of(*root) : std::string();
}

bool is_map_fit_kind(std::string_view kind) { return kind == "patch_steady_map"; }
bool is_structure_fit_kind(std::string_view kind) { return kind == "structure_stick_slip"; }
bool is_line_fit_kind(std::string_view kind) { return kind == "line_steady" || kind == "line_transient"; }

using detail::load_with;
using detail::parse_with;

MapFitScenario load_map_fit_scenario(const fs::path& path) {
  return load_with(path, parse_grid_fit<PatchMapHooks>);
}
MapFitScenario parse_map_fit_string(std::string_view toml, std::string_view name, const fs::path& directory) {
  return parse_with(toml, name, directory, parse_grid_fit<PatchMapHooks>);
}
std::string map_fitted_toml(const MapFitScenario& scenario, const fit::Result& result, std::size_t index) {
  return grid_fitted_toml(scenario, result, index);
}
Json map_fit_report(const MapFitScenario& scenario, const fit::Result& result) {
  return grid_fit_report(scenario, result);
}
RunResult map_fit_run_result(const MapFitScenario& scenario, const fit::Result& result) {
  return grid_fit_run_result(scenario, result);
}

TransientFitScenario load_transient_fit_scenario(const fs::path& path) {
  return load_with(path, parse_transient_fit);
}
TransientFitScenario parse_transient_fit_string(std::string_view toml, std::string_view name,
                                                const fs::path& directory) {
  return parse_with(toml, name, directory, parse_transient_fit);
}
Json transient_fit_report(const TransientFitScenario& scenario, const fit::Result& result) {
  return series_fit_report("patch_transient", scenario, result);
}
RunResult transient_fit_run_result(const TransientFitScenario& scenario, const fit::Result& result) {
  return series_fit_run_result("patch_transient", scenario, result, "outputs every data interval");
}

StructureFitScenario load_structure_fit_scenario(const fs::path& path) {
  return load_with(path, parse_structure_fit);
}
StructureFitScenario parse_structure_fit_string(std::string_view toml, std::string_view name,
                                                const fs::path& directory) {
  return parse_with(toml, name, directory, parse_structure_fit);
}
Json structure_fit_report(const StructureFitScenario& scenario, const fit::Result& result) {
  return series_fit_report("structure_stick_slip", scenario, result);
}
RunResult structure_fit_run_result(const StructureFitScenario& scenario, const fit::Result& result) {
  return series_fit_run_result("structure_stick_slip", scenario, result,
                               "run.t_end_s = the window's end, from rest at t = 0");
}

LineSteadyFitScenario load_line_steady_fit_scenario(const fs::path& path) {
  return load_with(path, parse_grid_fit<LineSteadyHooks>);
}
LineSteadyFitScenario parse_line_steady_fit_string(std::string_view toml, std::string_view name,
                                                   const fs::path& directory) {
  return parse_with(toml, name, directory, parse_grid_fit<LineSteadyHooks>);
}
Json line_steady_fit_report(const LineSteadyFitScenario& scenario, const fit::Result& result) {
  return grid_fit_report(scenario, result);
}
RunResult line_steady_fit_run_result(const LineSteadyFitScenario& scenario, const fit::Result& result) {
  return grid_fit_run_result(scenario, result);
}

LineTransientFitScenario load_line_transient_fit_scenario(const fs::path& path) {
  return load_with(path, parse_line_transient_fit);
}
LineTransientFitScenario parse_line_transient_fit_string(std::string_view toml, std::string_view name,
                                                         const fs::path& directory) {
  return parse_with(toml, name, directory, parse_line_transient_fit);
}
Json line_transient_fit_report(const LineTransientFitScenario& scenario, const fit::Result& result) {
  return series_fit_report("line_transient", scenario, result);
}
RunResult line_transient_fit_run_result(const LineTransientFitScenario& scenario, const fit::Result& result) {
  return series_fit_run_result("line_transient", scenario, result, "outputs every data interval");
}

}  // namespace bristle::io
