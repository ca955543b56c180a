// Fit scenarios of the steady-map kinds: [fit] in, the fit's report out (bristle/io/fit_map_scenario.hpp).
#include "bristle/io/fit_map_scenario.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>

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
using detail::Section;

namespace {

std::string q(std::string_view s) { return json_quote(s); }

const std::vector<std::string> kGridColumns = {"slip_angle_deg", "vy_mps", "vx_mps", "spin_radps"};

struct TargetSpec {
  std::string output, column, key;
  double weight = 1.0;
};

std::vector<TargetSpec> read_targets(const Section& f, const std::vector<std::string>& outs = fit::map_outputs(),
                                     std::string_view kind = "patch_steady_map") {
  const Section targets = f.table("targets");
  if (!targets.present() || targets.keys().empty())
    throw InvalidInput("missing table [fit.targets] (map output = data column, e.g. Fy_N = \"Fy_N\")");
  std::vector<TargetSpec> out;
  for (const std::string& output : targets.keys()) {
    TargetSpec t;
    t.output = output;
    t.key = targets.key(output);
    const toml::node* n = targets.node(output);
    if (const auto s = n->value<std::string>()) {
      t.column = *s;
    } else if (n->is_table()) {
      const Section ts = targets.table(output);
      ts.check_keys({"column", "weight"});
      t.column = ts.required_string("column", "the data column compared with this output");
      t.weight = ts.number_or("weight", 1.0);
      if (!(t.weight > 0.0))
        throw InvalidInput(fmt::format("{} = {}: must be > 0", ts.key("weight"), format_value(t.weight)));
      t.key = ts.key("column");
    } else {
      targets.wrong_type(output, "a data column name, or { column = \"...\", weight = w }");
    }
    if (std::find(outs.begin(), outs.end(), t.output) == outs.end())
      throw InvalidInput(fmt::format("{}: the model does not output a column {} (outputs of {}: "
                                     "{}){}",
                                     targets.key(output), q(t.output), kind, fmt::join(outs, ", "),
                                     detail::suggestion(t.output, outs)));
    out.push_back(t);
  }
  return out;
}

/// The distinct values of `v` in increasing order.
std::vector<double> distinct(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

toml::array toml_numbers(const std::vector<double>& v) {
  toml::array a;
  for (double x : v) a.push_back(x);
  return a;
}

/// What the [fit] reader of a steady-map kind asks the kind (H: PatchMapHooks, LineSteadyHooks).
struct PatchMapHooks {
  using Experiment = fit::MapExperiment;
  static constexpr const char* kinds = "patch_steady_map";
  static bool kind_ok(const std::string& kind) { return is_map_fit_kind(kind); }
  static const std::vector<std::string>& outputs() { return fit::map_outputs(); }
  static constexpr const char* grid_doc =
      "the kinematics axis the data rows vary and its data column: slip_angle_deg, vy_mps, vx_mps or spin_radps";
  static std::vector<std::string> grid_columns(const toml::table&) { return kGridColumns; }
  static void check_grid(const toml::table& root, const std::string& grid, const std::string& grid_key) {
    if (const toml::table* kin = root["kinematics"].as_table()) {
      const std::string other = grid == "slip_angle_deg" ? "vy_mps" : grid == "vy_mps" ? "slip_angle_deg" : "";
      if (!other.empty() && kin->contains(other))
        throw InvalidInput(fmt::format("{} = {}: the scenario gives the lateral axis as kinematics.{}; use "
                                       "grid_column = {} (or write the scenario with kinematics.{})",
                                       grid_key, q(grid), other, q(other), grid));
    }
  }
  static PatchMapScenario parse(const std::string& text, const std::string& name, const ScenarioSource& source) {
    return parse_patch_steady_map_string(text, name, source);
  }
  static void finish(Experiment&) {}
};

template <class H>
GridFitScenario<typename H::Experiment> parse_grid_fit(const toml::table& root, std::string_view name,
                                                       const ScenarioSource& source) {
  const Section top(&root, "");
  const std::string kind = top.string("kind").value_or("lumped");
  if (!H::kind_ok(kind))
    throw InvalidInput(fmt::format("kind = {}: not a steady-map kind ({})", q(kind), H::kinds));
  if (top.has("sweep")) throw InvalidInput("[sweep]: a fit scenario cannot have a sweep (fit one case)");
  const Section f = top.table("fit");
  if (!f.present())
    throw InvalidInput("missing table [fit] (what to fit: data, grid_column, targets and parameters; docs/fitting.md)");
  for (const char* k : {"time_column", "window_s", "initial_state", "validation_window_s"})
    if (f.has(k))
      throw InvalidInput(fmt::format("fit.{}: does not apply to kind = {} (a steady map has no time: its data rows "
                                     "are operating points matched on fit.grid_column)",
                                     k, q(kind)));
  if (f.has("model"))
    throw InvalidInput(fmt::format("fit.model: model comparison reads kind = \"lumped\" only, not {}", q(kind)));
  f.check_keys({"data", "grid_column", "targets", "parameters", "experiment", "multi_start", "seed",
                "max_iterations"});

  GridFitScenario<typename H::Experiment> out;
  out.kind = kind;
  out.name = top.string("name").value_or(std::string(name));
  out.source = source;
  if (const auto n = f.integer("multi_start")) {
    if (*n < 1 || *n > 1000) throw InvalidInput(fmt::format("fit.multi_start = {}: must be in 1..1000", *n));
    out.options.multi_start = static_cast<int>(*n);
  }
  if (const auto n = f.integer("seed")) {
    if (*n < 0) throw InvalidInput(fmt::format("fit.seed = {}: must be >= 0", *n));
    out.options.seed = static_cast<unsigned>(*n);
  }
  if (const auto n = f.integer("max_iterations")) {
    if (*n < 1 || *n > 100000) throw InvalidInput(fmt::format("fit.max_iterations = {}: must be in 1..100000", *n));
    out.options.max_iterations = static_cast<int>(*n);
  }
  const std::vector<TargetSpec> target_specs = read_targets(f, H::outputs(), kind);
  const Section parameters = f.table("parameters");
  if (!parameters.present() || parameters.keys().empty())
    throw InvalidInput("missing table [fit.parameters] (key path = { initial, min, max[, scale] }, e.g. "
                       "\"law.mu_d\" = { initial = 0.8, min = 0.3, max = 1.1 })");
  std::vector<std::optional<double>> initial;
  detail::read_fit_parameters(root, out.parameters, initial);

  toml::table base = root;
  base.erase("fit");
  std::vector<const toml::table*> experiment_tables;
  if (const toml::node* e = f.node("experiment")) {
    const toml::array* list = e->as_array();
    if (!list || list->empty() || !list->is_array_of_tables())
      f.wrong_type("experiment", "[[fit.experiment]] tables, each with its data (and set, grid_column, label)");
    for (const toml::node& t : *list) experiment_tables.push_back(t.as_table());
  } else {
    experiment_tables.push_back(nullptr);
  }

  for (std::size_t i = 0; i < experiment_tables.size(); ++i) {
    const bool own = experiment_tables[i] != nullptr;
    const Section ex = own ? Section(experiment_tables[i], fmt::format("fit.experiment[{}]", i)) : f;
    if (own) ex.check_keys({"data", "grid_column", "set", "label"});
    const Section data_from = ex.has("data") ? ex : f;
    const std::string data = data_from.required_string("data", "the CSV file of measured data (header row)");
    const std::string data_key = data_from.key("data");
    const Section grid_from = ex.has("grid_column") ? ex : f;
    const std::string grid = grid_from.required_string("grid_column", H::grid_doc);
    const std::string grid_key = grid_from.key("grid_column");
    const std::vector<std::string> grid_columns = H::grid_columns(root);
    if (std::find(grid_columns.begin(), grid_columns.end(), grid) == grid_columns.end())
      throw InvalidInput(fmt::format("{} = {}: must be a kinematics axis: {}{}", grid_key, q(grid),
                                     fmt::join(grid_columns, ", "), detail::suggestion(grid, grid_columns)));
    H::check_grid(root, grid, grid_key);

    // The data: the grid column and the target columns, every row an operating point of the map.
    const fs::path path = fs::path(data).is_absolute() ? fs::path(data) : source.directory / data;
    const std::string where = fmt::format("{} = {}", data_key, q(data));
    const detail::CsvNumbers csv = detail::read_csv_numbers(where, path);
    const auto column = [&](const std::string& wanted, const std::string& key) {
      for (std::size_t c = 0; c < csv.header.size(); ++c)
        if (csv.header[c] == wanted) return c;
      throw InvalidInput(fmt::format("{} = {}: {}:{}: no such column{} (header: {})", key, q(wanted), path.string(),
                                     csv.header_line, detail::suggestion(wanted, csv.header),
                                     fmt::join(csv.header, ", ")));
    };
    const std::size_t grid_index = column(grid, grid_key);
    std::vector<std::size_t> target_index;
    for (const TargetSpec& t : target_specs) target_index.push_back(column(t.column, t.key));
    if (csv.rows.size() * target_specs.size() <= out.parameters.size())
      throw InvalidInput(fmt::format("{}: {} has {} data row(s); fitting {} parameter(s) needs more residuals than "
                                     "parameters",
                                     where, path.string(), csv.rows.size(), out.parameters.size()));

    // The scenario: `set` applied, the grid axis at the data's distinct values.
    toml::table sc_table = base;
    if (own && ex.has("set")) {
      const Section set = ex.table("set");
      for (auto&& [k, v] : *experiment_tables[i]->get("set")->as_table())
        detail::set_toml_path(sc_table, std::string(k.str()), v, set.key(std::string(k.str())));
    }
    std::vector<double> grid_values;
    for (const auto& row : csv.rows) grid_values.push_back(row[grid_index]);
    // Each row's operating point on its own, so that a bad one is named by its line.
    {
      toml::table probe = sc_table;
      for (std::size_t r = 0; r < csv.rows.size(); ++r) {
        detail::set_toml_path(probe, "kinematics." + grid, toml::value<double>(grid_values[r]), grid_key);
        try {
          (void)H::parse(detail::toml_text(probe), out.name, source);
        } catch (const InvalidInput& error) {
          throw InvalidInput(fmt::format("{}: {}:{}:{}: {} = {} is not an operating point of the map: {}", where,
                                         path.string(), csv.row_lines[r], grid_index + 1, grid,
                                         format_value(grid_values[r]), error.what()));
        }
      }
    }
    detail::set_toml_path(sc_table, "kinematics." + grid, toml_numbers(distinct(grid_values)), grid_key);
    typename H::Experiment e;
    try {
      e.scenario = H::parse(detail::toml_text(sc_table), out.name, source);
    } catch (const InvalidInput& error) {
      if (!own) throw;
      throw InvalidInput(fmt::format("{} (with {}.set): {}", ex.path(), ex.path(), error.what()));
    }
    e.label = own ? Section(experiment_tables[i], "").string("label").value_or(data) : data;
    e.grid = grid;
    e.grid_values = grid_values;
    H::finish(e);
    for (std::size_t k = 0; k < target_specs.size(); ++k) {
      fit::Target t;
      t.output = target_specs[k].output;
      t.data_column = target_specs[k].column;
      t.weight = target_specs[k].weight;
      for (const auto& row : csv.rows) t.values.push_back(row[target_index[k]]);
      e.targets.push_back(std::move(t));
    }
    out.experiments.push_back(std::move(e));
    out.scenario_toml.push_back(detail::toml_text(sc_table));
    out.data_files.push_back(data);
  }

  for (std::size_t j = 0; j < out.parameters.size(); ++j) {
    fit::ParameterSpec& p = out.parameters[j];
    if (initial[j]) {
      p.initial = *initial[j];
    } else {
      try {
        p.initial = get_number(out.experiments.front().scenario, p.key);
      } catch (const InvalidInput& error) {
        throw InvalidInput(fmt::format("fit.parameters.{}: {}", q(p.key), error.what()));
      }
    }
  }
  fit::validate(out.experiments, out.parameters);
  return out;
}

ScenarioSource source_of(const fs::path& path) {
  ScenarioSource source;
  source.path = path;
  std::error_code ec;
  const fs::path absolute = fs::absolute(path, ec);
  source.directory = (ec ? path : absolute).parent_path();
  return source;
}

/// A fitted value written into the TOML: "a.b" or "a.b[i]" (an element of an array).
void set_value(toml::table& root, const std::string& key, double value) {
  const std::size_t open = key.find('[');
  if (open == std::string::npos) {
    detail::set_toml_path(root, key, toml::value<double>(value), key);
    return;
  }
  const std::string path = key.substr(0, open);
  const std::size_t index = static_cast<std::size_t>(std::stoul(key.substr(open + 1)));
  toml::node* node = root.at_path(path).node();
  toml::array* array = node ? node->as_array() : nullptr;
  if (array && index < array->size()) {
    array->replace(array->begin() + static_cast<long>(index), value);
  } else if (node && node->is_number() && index == 0) {
    detail::set_toml_path(root, path, toml::value<double>(value), key);
  } else {
    throw InvalidInput(fmt::format("{}: cannot write the fitted value into the scenario", key));
  }
}

}  // namespace

std::string scenario_kind_of_text(std::string_view toml) {
  try {
    const toml::table root = detail::parse_toml(toml, "scenario");
    const toml::node* k = root.get("kind");
    if (!k) return "lumped";
    const auto s = k->value<std::string>();
    return s ? *s : std::string();
  } catch (const std::exception&) {
    return {};
  }
}

std::string scenario_kind(const fs::path& path) {
  try {
    return scenario_kind_of_text(detail::read_input_file(path, detail::kMaxScenarioBytes, "", "scenario "));
  } catch (const std::exception&) {
    return {};
  }
}

bool is_map_fit_kind(std::string_view kind) { return kind == "patch_steady_map"; }

MapFitScenario load_map_fit_scenario(const fs::path& path) {
  const std::string text = detail::read_input_file(path, detail::kMaxScenarioBytes, "", "scenario ");
  const ScenarioSource source = source_of(path);
  return parse_grid_fit<PatchMapHooks>(detail::parse_toml(text, source.display_name()), path.stem().string(), source);
}

MapFitScenario parse_map_fit_string(std::string_view toml, std::string_view name, const fs::path& directory) {
  ScenarioSource source;
  std::error_code ec;
  source.directory = directory.empty() ? fs::current_path(ec) : directory;
  return parse_grid_fit<PatchMapHooks>(detail::parse_toml(toml, source.display_name()), name, source);
}

namespace {
template <class E>
std::string grid_fitted_toml(const GridFitScenario<E>& scenario, const fit::Result& result, std::size_t index) {
  toml::table root = detail::parse_toml(scenario.scenario_toml.at(index), "fitted scenario");
  for (const fit::ParameterResult& p : result.parameters) set_value(root, p.key, p.value);
  root.insert_or_assign("name", scenario.name + "_fitted");
  const std::string head = fmt::format(
      "# {}: the scenario {} with the parameters fitted by `bristle fit` to {} ({} rows; its map is solved at the "
      "data's {} values)\n# rms_N = {}, converged = {}.\n",
      scenario.name + "_fitted", scenario.source.display_name(), scenario.data_files.at(index),
      scenario.experiments.at(index).grid_values.size(), scenario.experiments.at(index).grid,
      result.rms_N ? format_value(*result.rms_N) : "-", result.converged);
  return head + detail::toml_text(root);
}
}  // namespace

std::string map_fitted_toml(const MapFitScenario& scenario, const fit::Result& result, std::size_t index) {
  return grid_fitted_toml(scenario, result, index);
}

namespace {
/// The kind-independent part of a fit report (as fit_report's for lumped).
Json result_json(std::string_view kind, const std::string& name, const std::string& description,
                 const ScenarioSource& source, int multi_start, const fit::Result& result) {
  Json r = Json::object();
  detail::report_header(r, kind, name, description, source, result.fit_seconds);
  r["fit_seconds"] = result.fit_seconds;
  r["converged"] = result.converged;
  r["termination"] = result.termination;
  r["iterations"] = result.iterations;
  r["evaluations"] = result.evaluations;
  r["jacobian"] = std::string(fit::to_string(result.jacobian));
  r["jacobian_evaluations"] = result.jacobian_evaluations;
  r["multi_start"] = multi_start;
  r["best_start"] = result.best_start;
  const auto finite = [](double x) { return std::isfinite(x) ? Json(x) : Json(); };
  Json parameters = Json::object();
  std::vector<std::string> keys;
  for (const fit::ParameterResult& p : result.parameters) {
    Json j = Json::object();
    j["value"] = p.value;
    j["std_error"] = finite(p.std_error);
    j["ci95"] = Json(Json::Array{finite(p.ci95_low), finite(p.ci95_high)});
    j["initial"] = p.initial;
    j["min"] = p.min;
    j["max"] = p.max;
    j["scale"] = p.scale == fit::Scale::log ? "log" : "linear";
    j["at_bound"] = p.at_bound;
    parameters[p.key] = j;
    keys.push_back(p.key);
  }
  r["parameters"] = parameters;
  Json correlation = Json::object();
  correlation["keys"] = Json(keys);
  Json rows = Json::array();
  for (Eigen::Index i = 0; i < result.correlation.rows(); ++i) {
    Json row = Json::array();
    for (Eigen::Index j = 0; j < result.correlation.cols(); ++j) row.push_back(finite(result.correlation(i, j)));
    rows.push_back(row);
  }
  correlation["matrix"] = rows;
  r["correlation"] = correlation;
  r["condition_number"] = finite(result.condition_number);
  Json rms = Json::object();
  for (const fit::TargetResult& t : result.targets) rms[t.output] = t.rms;
  r["rms"] = rms;
  r["rms_N"] = result.rms_N ? Json(*result.rms_N) : Json(nullptr);
  r["cost"] = result.cost;
  r["residual_count"] = result.residual_count;
  r["residual_variance"] = result.residual_variance;
  r["aic"] = result.aic;
  r["bic"] = result.bic;
  return r;
}
}  // namespace

namespace {
template <class E>
Json grid_fit_report(const GridFitScenario<E>& scenario, const fit::Result& result) {
  Json r = result_json(scenario.kind, scenario.name, scenario.experiments.front().scenario.description,
                       scenario.source, scenario.options.multi_start, result);
  Json experiments = Json::array();
  for (std::size_t i = 0; i < scenario.experiments.size(); ++i) {
    const E& e = scenario.experiments[i];
    Json j = Json::object();
    j["label"] = e.label;
    j["data"] = scenario.data_files[i];
    j["grid_column"] = e.grid;
    j["rows"] = e.grid_values.size();
    experiments.push_back(j);
  }
  r["experiments"] = experiments;
  r["warnings"] = Json(result.warnings);
  return r;
}

template <class E>
RunResult grid_fit_run_result(const GridFitScenario<E>& scenario, const fit::Result& result) {
  RunResult run;
  run.name = scenario.name + "_fit";
  run.title = fmt::format("{}: fit", scenario.name);
  const bool several = scenario.experiments.size() > 1;
  const std::string grid = scenario.experiments.front().grid;
  std::vector<std::string> names;
  if (several) names.push_back("experiment");
  names.push_back(grid);
  const std::vector<fit::Target>& targets = scenario.experiments.front().targets;
  for (const fit::Target& t : targets)
    for (const char* suffix : {"_measured", "_fitted", "_residual"}) names.push_back(t.output + suffix);
  TimeSeries series(names);
  for (std::size_t e = 0; e < scenario.experiments.size(); ++e) {
    const E& ex = scenario.experiments[e];
    const TimeSeries& model = result.experiments[e].series;
    for (std::size_t i = 0; i < ex.grid_values.size(); ++i) {
      std::vector<double> row;
      if (several) row.push_back(static_cast<double>(e));
      row.push_back(ex.grid_values[i]);
      for (const fit::Target& t : ex.targets) {
        const double y = model.column(t.output)[i];
        row.push_back(t.values[i]);
        row.push_back(y);
        row.push_back(y - t.values[i]);
      }
      series.add_row(row);
    }
  }
  run.cases.push_back(CaseResult{std::nullopt, std::move(series), result.fit_seconds});
  run.plot_x = grid;
  run.plot_y = {targets.front().output + "_measured"};
  run.solve_seconds = result.fit_seconds;
  run.report = grid_fit_report(scenario, result);
  run.warnings = result.warnings;
  run.extra_files.push_back(ExtraFile{"ted.toml", grid_fitted_toml(scenario, result, 0)});
  const std::string target = targets.front().output;
  run.plot_script = [scenario_name = scenario.name, target, grid, data = run.cases.front().series](const fs::path& png) {
    const auto col = [&](const std::string& n) {
      for (std::size_t i = 0; i < data.names.size(); ++i)
        if (data.names[i] == n) return i + 1;
      return std::size_t{0};
    };
    std::string s;
    s += "set terminal pngcairo size 900,800 noenhanced font 'sans,10'\n";
    std::string p = png.string(), quoted;
    for (char c : p) quoted += c == '\'' ? std::string("''") : std::string(1, c);
    s += fmt::format("set output '{}'\n", quoted);
    s += "$data << EOD\n";
    // Sorted by the grid value, so that the fitted curve is a line.
    std::vector<std::size_t> order(data.rows());
    for (std::size_t r = 0; r < order.size(); ++r) order[r] = r;
    const std::size_t g = col(grid) - 1;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return data.columns[g][a] < data.columns[g][b]; });
    for (std::size_t r : order) {
      for (std::size_t k = 0; k < data.columns.size(); ++k) s += fmt::format("{}{}", k > 0 ? " " : "", data.columns[k][r]);
      s += '\n';
    }
    s += "EOD\nset grid\nset key outside right top noenhanced\n";
    s += fmt::format("set multiplot layout 2,1 title '{}: {} measured and fitted' noenhanced\n", scenario_name, target);
    const std::size_t x = col(grid), m = col(target + "_measured"), f = col(target + "_fitted"),
                      res = col(target + "_residual");
    s += fmt::format("set xlabel '{}'\nset ylabel '{}'\n", grid, target);
    s += fmt::format("plot $data using {}:{} with points pointtype 7 pointsize 0.7 title 'measured', $data using {}:{} "
                     "with lines linewidth 1.5 title 'fitted'\n",
                     x, m, x, f);
    s += fmt::format("set ylabel '{} residual (fitted - measured)'\n", target);
    s += fmt::format("plot $data using {}:{} with points pointtype 7 pointsize 0.7 title 'residual'\n", x, res);
    s += "unset multiplot\nset output\n";
    return s;
  };
  return run;
}
}  // namespace

Json map_fit_report(const MapFitScenario& scenario, const fit::Result& result) {
  return grid_fit_report(scenario, result);
}
RunResult map_fit_run_result(const MapFitScenario& scenario, const fit::Result& result) {
  return grid_fit_run_result(scenario, result);
}

// ---- kind = "patch_transient" ------------------------------------------------------------------------------

namespace {

/// What a time-series kind gives the shared [fit] reader below (patch_transient, structure_stick_slip).
template <class Scenario>
struct SeriesKind {
  std::string_view kind;              // "patch_transient"
  std::string_view rest;              // why "rest" is the only initial_state, e.g. "starts from the unloaded contact"
  std::vector<std::string> outputs;   // the columns a target may name
  /// Sets the scenario's time grid in its TOML to the window (first and last data time, sample count).
  std::function<void(toml::table&, double, double, std::size_t)> set_window;
  std::function<Scenario(const std::string&, const std::string&, const ScenarioSource&)> parse;
  /// Rewrites the scenario's file references in its TOML as absolute paths (the base of <name>_fitted.toml).
  std::function<void(toml::table&, const Scenario&)> absolute_files;
};

/// The [fit] table of a time-series kind: data, time_column, window_s, initial_state = "rest", targets,
/// parameters, multi_start, seed, max_iterations, [[fit.experiment]]; Out is the kind's fit scenario.
template <class Out, class Scenario>
Out parse_series_fit(const toml::table& root, std::string_view name, const ScenarioSource& source,
                     const SeriesKind<Scenario>& kind) {
  const Section top(&root, "");
  if (top.has("sweep")) throw InvalidInput("[sweep]: a fit scenario cannot have a sweep (fit one case)");
  const Section f = top.table("fit");
  if (!f.present())
    throw InvalidInput("missing table [fit] (what to fit: data, targets and parameters; docs/fitting.md)");
  for (const char* k : {"validation_window_s", "grid_column"})
    if (f.has(k)) throw InvalidInput(fmt::format("fit.{}: does not apply to kind = \"{}\"", k, kind.kind));
  if (f.has("model"))
    throw InvalidInput(fmt::format("fit.model: model comparison reads kind = \"lumped\" only, not \"{}\"", kind.kind));
  f.check_keys({"data", "time_column", "window_s", "initial_state", "targets", "parameters", "experiment",
                "multi_start", "seed", "max_iterations"});
  if (const auto s = f.string("initial_state"); s && *s != "rest")
    throw InvalidInput(fmt::format("fit.initial_state = {}: kind = \"{}\" {}: only \"rest\"", q(*s), kind.kind,
                                   kind.rest));
  Out out;
  out.kind = std::string(kind.kind);
  out.name = top.string("name").value_or(std::string(name));
  out.source = source;
  if (const auto n = f.integer("multi_start")) {
    if (*n < 1 || *n > 1000) throw InvalidInput(fmt::format("fit.multi_start = {}: must be in 1..1000", *n));
    out.options.multi_start = static_cast<int>(*n);
  }
  if (const auto n = f.integer("seed")) {
    if (*n < 0) throw InvalidInput(fmt::format("fit.seed = {}: must be >= 0", *n));
    out.options.seed = static_cast<unsigned>(*n);
  }
  if (const auto n = f.integer("max_iterations")) {
    if (*n < 1 || *n > 100000) throw InvalidInput(fmt::format("fit.max_iterations = {}: must be in 1..100000", *n));
    out.options.max_iterations = static_cast<int>(*n);
  }
  const std::vector<TargetSpec> target_specs = read_targets(f, kind.outputs, kind.kind);
  const Section parameters = f.table("parameters");
  if (!parameters.present() || parameters.keys().empty())
    throw InvalidInput("missing table [fit.parameters] (key path = { initial, min, max[, scale] })");
  std::vector<std::optional<double>> initial;
  detail::read_fit_parameters(root, out.parameters, initial);

  toml::table base = root;
  base.erase("fit");
  std::vector<const toml::table*> experiment_tables;
  if (const toml::node* e = f.node("experiment")) {
    const toml::array* list = e->as_array();
    if (!list || list->empty() || !list->is_array_of_tables())
      f.wrong_type("experiment", "[[fit.experiment]] tables, each with its data (and set, window_s)");
    for (const toml::node& t : *list) experiment_tables.push_back(t.as_table());
  } else {
    experiment_tables.push_back(nullptr);
  }
  const auto read_window = [](const Section& s) -> std::optional<std::pair<double, double>> {
    const auto w = s.numbers("window_s");
    if (!w) return std::nullopt;
    if (w->size() != 2 || !((*w)[0] < (*w)[1]))
      throw InvalidInput(fmt::format("{} = [{}]: must be [start, end] with start < end (s)", s.key("window_s"),
                                     fmt::join(*w, ", ")));
    return std::make_pair((*w)[0], (*w)[1]);
  };
  const auto window_default = read_window(f);
  for (std::size_t i = 0; i < experiment_tables.size(); ++i) {
    const bool own = experiment_tables[i] != nullptr;
    const Section ex = own ? Section(experiment_tables[i], fmt::format("fit.experiment[{}]", i)) : f;
    if (own) ex.check_keys({"data", "time_column", "window_s", "set", "label"});
    const Section data_from = ex.has("data") ? ex : f;
    const std::string data = data_from.required_string("data", "the CSV file of measured data (header row)");
    const std::string data_key = data_from.key("data");
    const Section time_from = ex.has("time_column") ? ex : f;
    const auto time_column = time_from.string("time_column");
    const auto window = own && ex.has("window_s") ? read_window(ex) : window_default;
    const std::string window_key = own && ex.has("window_s") ? ex.key("window_s") : std::string("fit.window_s");
    const fs::path path = fs::path(data).is_absolute() ? fs::path(data) : source.directory / data;
    const std::string where = fmt::format("{} = {}", data_key, q(data));
    const detail::CsvNumbers csv = detail::read_csv_numbers(where, path);
    const auto column = [&](const std::string& wanted, const std::string& key) {
      for (std::size_t c = 0; c < csv.header.size(); ++c)
        if (csv.header[c] == wanted) return c;
      throw InvalidInput(fmt::format("{} = {}: {}:{}: no such column{} (header: {})", key, q(wanted), path.string(),
                                     csv.header_line, detail::suggestion(wanted, csv.header),
                                     fmt::join(csv.header, ", ")));
    };
    const std::size_t it = time_column ? column(*time_column, time_from.key("time_column")) : 0;
    std::vector<std::size_t> target_index;
    for (const TargetSpec& t : target_specs) target_index.push_back(column(t.column, t.key));
    std::vector<double> times;
    for (std::size_t r = 0; r < csv.rows.size(); ++r) {
      const double t = csv.rows[r][it];
      if (!times.empty() && !(t > times.back()))
        throw InvalidInput(fmt::format("{}: {}:{}:{}: time {} is not greater than the previous time {} (column "
                                       "\"{}\"): times must be strictly increasing",
                                       where, path.string(), csv.row_lines[r], it + 1, format_value(t),
                                       format_value(times.back()), csv.header[it]));
      times.push_back(t);
    }
    std::size_t first = 0, last = times.size();
    if (window) {
      if (times.empty() || window->first < times.front() || window->second > times.back())
        throw InvalidInput(fmt::format("{} = [{}, {}]: outside the data's times [{}, {}] of {}", window_key,
                                       format_value(window->first), format_value(window->second),
                                       format_value(times.empty() ? 0.0 : times.front()),
                                       format_value(times.empty() ? 0.0 : times.back()), path.string()));
      first = static_cast<std::size_t>(std::lower_bound(times.begin(), times.end(), window->first) - times.begin());
      last = static_cast<std::size_t>(std::upper_bound(times.begin(), times.end(), window->second) - times.begin());
    }
    const std::size_t samples = last - first;
    if (samples * target_specs.size() <= out.parameters.size() || samples < 2)
      throw InvalidInput(fmt::format("{}: the window holds {} sample(s) of {}; fitting {} parameter(s) needs more "
                                     "residuals than parameters (and at least 2 samples)",
                                     window ? window_key : data_key, samples, path.string(), out.parameters.size()));
    toml::table sc_table = base;
    if (own && ex.has("set")) {
      const Section set = ex.table("set");
      for (auto&& [k, v] : *experiment_tables[i]->get("set")->as_table())
        detail::set_toml_path(sc_table, std::string(k.str()), v, set.key(std::string(k.str())));
    }
    kind.set_window(sc_table, times[first], times[last - 1], samples);
    typename decltype(out.experiments)::value_type e;
    try {
      e.scenario = kind.parse(detail::toml_text(sc_table), out.name, source);
    } catch (const InvalidInput& error) {
      if (!own) throw;
      throw InvalidInput(fmt::format("{} (with {}.set): {}", ex.path(), ex.path(), error.what()));
    }
    e.label = own ? Section(experiment_tables[i], "").string("label").value_or(data) : data;
    e.times.assign(times.begin() + static_cast<long>(first), times.begin() + static_cast<long>(last));
    for (std::size_t k = 0; k < target_specs.size(); ++k) {
      fit::Target t;
      t.output = target_specs[k].output;
      t.data_column = target_specs[k].column;
      t.weight = target_specs[k].weight;
      for (std::size_t r = first; r < last; ++r) t.values.push_back(csv.rows[r][target_index[k]]);
      e.targets.push_back(std::move(t));
    }
    kind.absolute_files(sc_table, e.scenario);
    out.experiments.push_back(std::move(e));
    out.scenario_toml.push_back(detail::toml_text(sc_table));
    out.data_files.push_back(data);
  }
  for (std::size_t j = 0; j < out.parameters.size(); ++j) {
    fit::ParameterSpec& p = out.parameters[j];
    if (initial[j]) {
      p.initial = *initial[j];
    } else {
      try {
        p.initial = get_number(out.experiments.front().scenario, p.key);
      } catch (const InvalidInput& error) {
        throw InvalidInput(fmt::format("fit.parameters.{}: {}", q(p.key), error.what()));
      }
    }
  }
  fit::validate(out.experiments, out.parameters);
  return out;
}

/// The [time] of a kind whose grid is a table (patch_transient, line_transient): the window, output every sample.
void set_time_window(toml::table& sc_table, double t0, double t1, std::size_t samples) {
  toml::table time;
  time.insert("t_start_s", t0);
  time.insert("t_end_s", t1);
  time.insert("output_dt_s", (t1 - t0) / static_cast<double>(samples - 1));
  sc_table.insert_or_assign("time", std::move(time));
}

/// The signal tables' files as absolute paths (the base of <name>_fitted.toml).
void absolute_table_files(toml::table& sc_table, const std::vector<TableFile>& files) {
  for (const TableFile& tf : files)
    detail::set_toml_path(sc_table, tf.key + ".file", toml::value<std::string>(fs::absolute(tf.path).string()),
                          tf.key);
}

TransientFitScenario parse_transient_fit(const toml::table& root, std::string_view name, const ScenarioSource& source) {
  SeriesKind<PatchTransientScenario> kind;
  kind.kind = "patch_transient";
  kind.rest = "starts from the unloaded contact";
  kind.outputs = fit::transient_outputs();
  kind.set_window = set_time_window;
  kind.parse = [](const std::string& text, const std::string& n, const ScenarioSource& src) {
    return parse_patch_transient_string(text, n, src);
  };
  kind.absolute_files = [](toml::table& sc_table, const PatchTransientScenario& sc) {
    absolute_table_files(sc_table, sc.table_files);
  };
  return parse_series_fit<TransientFitScenario>(root, name, source, kind);
}

StructureFitScenario parse_structure_fit(const toml::table& root, std::string_view name, const ScenarioSource& source) {
  SeriesKind<StructureStickSlipScenario> kind;
  kind.kind = "structure_stick_slip";
  kind.rest = "starts from the structure at rest and unloaded at t = 0";
  kind.outputs = fit::structure_outputs();
  kind.set_window = [](toml::table& sc_table, double, double t1, std::size_t) {
    detail::set_toml_path(sc_table, "run.t_end_s", toml::value<double>(t1), "run.t_end_s");
  };
  kind.parse = [](const std::string& text, const std::string& n, const ScenarioSource& src) {
    StructureStickSlipScenario sc = parse_structure_stick_slip_string(text, n, src.directory);
    sc.source = src;
    return sc;
  };
  kind.absolute_files = [](toml::table& sc_table, const StructureStickSlipScenario& sc) {
    if (!sc.structure.file.empty() && !fs::path(sc.structure.file).is_absolute())
      detail::set_toml_path(sc_table, "structure.file",
                            toml::value<std::string>(fs::absolute(sc.source.directory / sc.structure.file).string()),
                            "structure.file");
  };
  return parse_series_fit<StructureFitScenario>(root, name, source, kind);
}

}  // namespace

bool is_structure_fit_kind(std::string_view kind) { return kind == "structure_stick_slip"; }

StructureFitScenario load_structure_fit_scenario(const fs::path& path) {
  const std::string text = detail::read_input_file(path, detail::kMaxScenarioBytes, "", "scenario ");
  const ScenarioSource source = source_of(path);
  return parse_structure_fit(detail::parse_toml(text, source.display_name()), path.stem().string(), source);
}

StructureFitScenario parse_structure_fit_string(std::string_view toml, std::string_view name,
                                                const fs::path& directory) {
  ScenarioSource source;
  std::error_code ec;
  source.directory = directory.empty() ? fs::current_path(ec) : directory;
  return parse_structure_fit(detail::parse_toml(toml, source.display_name()), name, source);
}

TransientFitScenario load_transient_fit_scenario(const fs::path& path) {
  const std::string text = detail::read_input_file(path, detail::kMaxScenarioBytes, "", "scenario ");
  const ScenarioSource source = source_of(path);
  return parse_transient_fit(detail::parse_toml(text, source.display_name()), path.stem().string(), source);
}

TransientFitScenario parse_transient_fit_string(std::string_view toml, std::string_view name,
                                                const fs::path& directory) {
  ScenarioSource source;
  std::error_code ec;
  source.directory = directory.empty() ? fs::current_path(ec) : directory;
  return parse_transient_fit(detail::parse_toml(toml, source.display_name()), name, source);
}

namespace {

/// The report of a time-series kind's fit (as transient_fit_report says).
template <class Sc>
Json series_fit_report(std::string_view kind, const Sc& scenario, const fit::Result& result) {
  Json r = result_json(kind, scenario.name, scenario.experiments.front().scenario.description, scenario.source,
                       scenario.options.multi_start, result);
  r["initial_state"] = "rest";
  Json experiments = Json::array();
  for (std::size_t i = 0; i < scenario.experiments.size(); ++i) {
    const auto& e = scenario.experiments[i];
    Json j = Json::object();
    j["label"] = e.label;
    j["data"] = scenario.data_files[i];
    j["window_s"] = Json(std::vector<double>{e.times.front(), e.times.back()});
    j["samples"] = e.times.size();
    experiments.push_back(j);
  }
  r["experiments"] = experiments;
  r["warnings"] = Json(result.warnings);
  return r;
}

/// The outputs of a time-series kind's fit (as transient_fit_run_result says); `outputs_note` says what the
/// fitted scenario's grid is.
template <class Sc>
RunResult series_fit_run_result(std::string_view kind, const Sc& scenario, const fit::Result& result,
                                std::string_view outputs_note) {
  RunResult run;
  run.name = scenario.name + "_fit";
  run.title = fmt::format("{}: fit", scenario.name);
  const bool several = scenario.experiments.size() > 1;
  std::vector<std::string> names;
  if (several) names.push_back("experiment");
  names.push_back("t_s");
  const std::vector<fit::Target>& targets = scenario.experiments.front().targets;
  for (const fit::Target& t : targets)
    for (const char* suffix : {"_measured", "_fitted", "_residual"}) names.push_back(t.output + suffix);
  TimeSeries series(names);
  for (std::size_t e = 0; e < scenario.experiments.size(); ++e) {
    const auto& ex = scenario.experiments[e];
    const TimeSeries& model = result.experiments[e].series;
    for (std::size_t i = 0; i < ex.times.size(); ++i) {
      std::vector<double> row;
      if (several) row.push_back(static_cast<double>(e));
      row.push_back(ex.times[i]);
      for (const fit::Target& t : ex.targets) {
        const double y = model.column(t.output)[i];
        row.push_back(t.values[i]);
        row.push_back(y);
        row.push_back(y - t.values[i]);
      }
      series.add_row(row);
    }
  }
  run.cases.push_back(CaseResult{std::nullopt, std::move(series), result.fit_seconds});
  run.plot_x = "t_s";
  run.plot_y = {targets.front().output + "_measured", targets.front().output + "_fitted",
                targets.front().output + "_residual"};
  run.solve_seconds = result.fit_seconds;
  run.report = series_fit_report(kind, scenario, result);
  run.warnings = result.warnings;
  toml::table root = detail::parse_toml(scenario.scenario_toml.front(), "fitted scenario");
  for (const fit::ParameterResult& p : result.parameters) set_value(root, p.key, p.value);
  root.insert_or_assign("name", scenario.name + "_fitted");
  run.extra_files.push_back(ExtraFile{
      "ted.toml", fmt::format("# {}: the scenario {} with the parameters fitted by `bristle fit` to {} (window {} .. "
                              "{} s, {} samples; {})\n# rms_N = {}, converged = {}.\n",
                              scenario.name + "_fitted", scenario.source.display_name(), scenario.data_files.front(),
                              format_value(scenario.experiments.front().times.front()),
                              format_value(scenario.experiments.front().times.back()),
                              scenario.experiments.front().times.size(), outputs_note,
                              result.rms_N ? format_value(*result.rms_N) : "-", result.converged) +
                      detail::toml_text(root)});
  return run;
}

}  // namespace

Json transient_fit_report(const TransientFitScenario& scenario, const fit::Result& result) {
  return series_fit_report("patch_transient", scenario, result);
}

RunResult transient_fit_run_result(const TransientFitScenario& scenario, const fit::Result& result) {
  return series_fit_run_result("patch_transient", scenario, result, "outputs every data interval");
}

Json structure_fit_report(const StructureFitScenario& scenario, const fit::Result& result) {
  return series_fit_report("structure_stick_slip", scenario, result);
}

RunResult structure_fit_run_result(const StructureFitScenario& scenario, const fit::Result& result) {
  return series_fit_run_result("structure_stick_slip", scenario, result,
                               "run.t_end_s = the window's end, from rest at t = 0");
}

// ---- kind = "line_steady" and kind = "line_transient" (fit/line.hpp) ------------------------------------------

namespace {

/// The one case of a line study read for a fit ([sweep] is refused before; [[case]] here).
template <class Study>
auto one_line_case(std::unique_ptr<Scenario> parsed) {
  const auto& cases = dynamic_cast<const Study&>(*parsed).cases();
  if (cases.size() != 1)
    throw InvalidInput(fmt::format("[[case]]: a fit scenario has one case ({} here); fit one case", cases.size()));
  return cases.front();
}

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
  static LineSteadyScenario parse(const std::string& text, const std::string& name, const ScenarioSource& source) {
    return one_line_case<LineSteadyStudy>(parse_line_steady_scenario(text, name, source));
  }
  static void finish(Experiment& e) { e.scenario.velocities = e.grid_values; }
};

LineTransientFitScenario parse_line_transient_fit(const toml::table& root, std::string_view name,
                                                  const ScenarioSource& source) {
  SeriesKind<LineTransientScenario> kind;
  kind.kind = "line_transient";
  kind.rest = "starts from the unloaded contact";
  kind.outputs = fit::line_transient_outputs();
  kind.set_window = set_time_window;
  kind.parse = [](const std::string& text, const std::string& n, const ScenarioSource& src) {
    return one_line_case<LineTransientStudy>(parse_line_transient_scenario(text, n, src));
  };
  kind.absolute_files = [](toml::table& sc_table, const LineTransientScenario& sc) {
    absolute_table_files(sc_table, sc.table_files);
  };
  return parse_series_fit<LineTransientFitScenario>(root, name, source, kind);
}

ScenarioSource text_source(const fs::path& directory) {
  ScenarioSource source;
  std::error_code ec;
  source.directory = directory.empty() ? fs::current_path(ec) : directory;
  return source;
}

}  // namespace

bool is_line_fit_kind(std::string_view kind) { return kind == "line_steady" || kind == "line_transient"; }

LineSteadyFitScenario load_line_steady_fit_scenario(const fs::path& path) {
  const std::string text = detail::read_input_file(path, detail::kMaxScenarioBytes, "", "scenario ");
  const ScenarioSource source = source_of(path);
  return parse_grid_fit<LineSteadyHooks>(detail::parse_toml(text, source.display_name()), path.stem().string(),
                                         source);
}

LineSteadyFitScenario parse_line_steady_fit_string(std::string_view toml, std::string_view name,
                                                   const fs::path& directory) {
  const ScenarioSource source = text_source(directory);
  return parse_grid_fit<LineSteadyHooks>(detail::parse_toml(toml, source.display_name()), name, source);
}

Json line_steady_fit_report(const LineSteadyFitScenario& scenario, const fit::Result& result) {
  return grid_fit_report(scenario, result);
}
RunResult line_steady_fit_run_result(const LineSteadyFitScenario& scenario, const fit::Result& result) {
  return grid_fit_run_result(scenario, result);
}

LineTransientFitScenario load_line_transient_fit_scenario(const fs::path& path) {
  const std::string text = detail::read_input_file(path, detail::kMaxScenarioBytes, "", "scenario ");
  const ScenarioSource source = source_of(path);
  return parse_line_transient_fit(detail::parse_toml(text, source.display_name()), path.stem().string(), source);
}

LineTransientFitScenario parse_line_transient_fit_string(std::string_view toml, std::string_view name,
                                                         const fs::path& directory) {
  const ScenarioSource source = text_source(directory);
  return parse_line_transient_fit(detail::parse_toml(toml, source.display_name()), name, source);
}

Json line_transient_fit_report(const LineTransientFitScenario& scenario, const fit::Result& result) {
  return series_fit_report("line_transient", scenario, result);
}
RunResult line_transient_fit_run_result(const LineTransientFitScenario& scenario, const fit::Result& result) {
  return series_fit_run_result("line_transient", scenario, result, "outputs every data interval");
}

}  // namespace bristle::io
