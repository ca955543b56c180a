// Scenario files: the kind dispatcher, sweeps and the pieces every kind shares.
#include "bristle/io/scenario.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>
#include <system_error>

#include "bristle/core/error.hpp"
#include "bristle/io/directional_scenario.hpp"
#include "bristle/io/line_scenario.hpp"
#include "bristle/io/structures_scenario.hpp"
#include "bristle/io/patch_scenario.hpp"
#include "input_file.hpp"
#include "scenario_internal.hpp"
#include "study.hpp"

#ifndef BRISTLE_VERSION
#define BRISTLE_VERSION "unknown"
#endif

namespace bristle::io {

std::string ScenarioSource::display_name() const { return path.empty() ? std::string("<string>") : path.string(); }

ScenarioSource ScenarioSource::of_file(const std::filesystem::path& path) {
  ScenarioSource source;
  source.path = path;
  std::error_code ec;
  const std::filesystem::path absolute = std::filesystem::absolute(path, ec);
  source.directory = (ec ? path : absolute).parent_path();
  return source;
}

ScenarioSource ScenarioSource::of_text(const std::filesystem::path& directory) {
  ScenarioSource source;
  std::error_code ec;
  source.directory = directory.empty() ? std::filesystem::current_path(ec) : directory;
  return source;
}

std::size_t detail::output_times_bound(const TimeGrid& g) {
  const double span = g.t_end_s - g.t_start_s;
  if (!(g.output_dt_s > 0.0) || !(span > 0.0) || !std::isfinite(span / g.output_dt_s)) return 2;
  const double ratio = span / g.output_dt_s;
  return std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil(ratio - 1e-9 * std::max(1.0, ratio)))) + 1;
}

void TimeGrid::validate() const {
  // helper-43: a grid made in Python with output_dt_s = nan (or -1, 1e-300) gave [t_start_s, t_end_s], and a lumped
  // study ran it, 2 rows, exit 0; 1e15 output times ended in std::bad_alloc.
  require_finite("time.t_start_s", t_start_s);
  require_finite("time.t_end_s", t_end_s);
  detail::require_time_span(*this);
  require_positive("time.output_dt_s", output_dt_s);
  const double count = std::floor((t_end_s - t_start_s) / output_dt_s) + 2.0;  // an upper bound (both ends)
  if (count > static_cast<double>(detail::kMaxOutputTimes) &&
      detail::output_times_bound(*this) > detail::kMaxOutputTimes)
    throw InvalidInput(fmt::format("time.output_dt_s = {}: gives {} output times; at most {} are allowed (Limits in "
                                   "docs/scenarios.md)",
                                   format_value(output_dt_s), format_value(count), detail::kMaxOutputTimes));
}

std::vector<double> TimeGrid::times() const {
  validate();
  const std::size_t intervals = detail::output_times_bound(*this) - 1;
  std::vector<double> t;
  t.reserve(intervals + 1);
  for (std::size_t i = 0; i < intervals; ++i) {
    const double ti = t_start_s + static_cast<double>(i) * output_dt_s;
    if (ti >= t_end_s) break;
    t.push_back(ti);
  }
  t.push_back(t_end_s);
  return t;
}

namespace detail {

void validate_name(const std::string& key, const std::string& name) {
  bool ok = !name.empty() && name != "." && name != "..";
  for (const char c : name)
    if (c == '/' || c == '\\' || static_cast<unsigned char>(c) < 0x20) ok = false;
  if (!ok)
    throw InvalidInput(fmt::format("{} = {}: must be usable as a file name (not empty, no '/', '\\' or control "
                                   "characters)",
                                   key, json_quote(name)));
  if (name.size() > kMaxNameBytes)
    throw InvalidInput(fmt::format("{} = {}: {} bytes long; at most {} (it names the output files)", key,
                                   json_quote(name.substr(0, 20) + "..."), name.size(), kMaxNameBytes));
}

void require_study_rows(std::string_view where, double rows, std::size_t index, std::size_t cases) {
  if (rows <= static_cast<double>(kMaxStudyRows)) return;
  throw InvalidInput(fmt::format("{}the study's output{} {} rows after case {} of {}; at most {} rows for all cases "
                                 "together, as for one (Limits in docs/scenarios.md): give fewer cases, output times or points",
                                 where, where.empty() ? ":" : " is", format_value(rows), index + 1, cases,
                                 kMaxStudyRows));
}

std::optional<SweepSpec> read_sweep(const toml::table& root) { return read_sweep(Section(&root, "")); }

std::optional<SweepSpec> read_sweep(const Section& top) {
  const Section sw = top.table("sweep");
  if (!sw.present()) return std::nullopt;
  sw.check_keys({"parameter", "values", "column"});
  SweepSpec spec;
  spec.sweep.parameter =
      sw.required_string("parameter", "the dotted key of the numeric parameter to vary, e.g. \"bench.input.omega\"");
  const auto values = sw.numbers("values");
  if (!values) sw.missing("values", "the values the parameter takes, one case each");
  if (values->empty()) throw InvalidInput("sweep.values = []: must list at least one value");
  if (values->size() > kMaxCases)
    throw InvalidInput(fmt::format("sweep.values has {} entries: at most {} cases (Limits in docs/scenarios.md)",
                                   values->size(), kMaxCases));
  spec.sweep.values = *values;
  spec.value_nodes = *sw.node("values")->as_array();

  const std::string& p = spec.sweep.parameter;
  require_key_path_size("sweep.parameter", p);
  const std::string where = fmt::format("sweep.parameter = {}", json_quote(p));
  if (p == "sweep" || p.rfind("sweep.", 0) == 0 || p.rfind("sweep[", 0) == 0)
    throw InvalidInput(where + ": a sweep cannot vary its own keys");
  std::string last = p.substr(p.rfind('.') == std::string::npos ? 0 : p.rfind('.') + 1);
  if (const auto bracket = last.find('['); bracket != std::string::npos) last.erase(bracket);
  spec.sweep.column = sw.string("column").value_or(last);
  if (!csv_column_name(spec.sweep.column))
    throw InvalidInput(fmt::format("sweep.column = {}: must be a CSV column name (not empty, no commas, quotes "
                                   "or control characters)",
                                   json_quote(spec.sweep.column)));
  return spec;
}

std::optional<Sweep> read_key_path_sweep(const Section& root, const std::vector<std::string>& columns) {
  std::optional<SweepSpec> spec = read_sweep(root);
  if (!spec) return std::nullopt;
  if (std::find(columns.begin(), columns.end(), spec->sweep.column) != columns.end())
    throw InvalidInput(fmt::format("sweep.column = {}: clashes with an output column of the same name; give "
                                   "sweep.column another name",
                                   json_quote(spec->sweep.column)));
  return std::move(spec->sweep);
}

std::string sweep_summary(const std::optional<Sweep>& sweep, std::size_t cases) {
  if (!sweep) return {};
  return fmt::format("sweep      {} = {} ({} case{}, column \"{}\")\n", sweep->parameter,
                     fmt::join(sweep->values, ", "), cases, cases == 1 ? "" : "s", sweep->column);
}

void report_sweep(Json& report, const std::optional<Sweep>& sweep, const Json* entries) {
  if (!sweep) return;
  Json sw = Json::object();
  sw["parameter"] = sweep->parameter;
  sw["column"] = sweep->column;
  sw["values"] = Json(sweep->values);
  report["sweep"] = sw;
  if (entries) report["cases"] = *entries;
}

namespace {
struct PathPart {
  std::string name;
  std::vector<std::size_t> indices;
};

std::vector<PathPart> split_path(const std::string& path) {
  const std::string where = fmt::format("sweep.parameter = {}", json_quote(path));
  std::vector<PathPart> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = path.find('.', start);
    std::string piece = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    PathPart part;
    const std::size_t bracket = piece.find('[');
    part.name = piece.substr(0, bracket);
    std::size_t pos = bracket;
    while (pos != std::string::npos && pos < piece.size()) {
      const std::size_t close = piece.find(']', pos);
      if (piece[pos] != '[' || close == std::string::npos || close == pos + 1)
        throw InvalidInput(where + ": not a dotted key (e.g. \"bench.input.omega\" or \"body1.c[0]\")");
      const std::string digits = piece.substr(pos + 1, close - pos - 1);
      if (digits.find_first_not_of("0123456789") != std::string::npos)
        throw InvalidInput(where + ": not a dotted key (e.g. \"bench.input.omega\" or \"body1.c[0]\")");
      std::size_t index = 0;  // std::stoull threw std::out_of_range past 2^64: "bristle: error: stoull", exit 1
      if (std::from_chars(digits.data(), digits.data() + digits.size(), index).ec != std::errc{})
        throw InvalidInput(fmt::format("{}: index [{}] is too large", where, digits));
      part.indices.push_back(index);
      pos = close + 1;
    }
    if (part.name.empty())
      throw InvalidInput(where + ": not a dotted key (e.g. \"bench.input.omega\" or \"body1.c[0]\")");
    parts.push_back(std::move(part));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return parts;
}

const char* type_name(const toml::node& n) {
  if (n.is_string()) return "a string";
  if (n.is_boolean()) return "a boolean";
  if (n.is_table()) return "a table";
  if (n.is_array()) return "an array";
  return "a date or time";
}
}  // namespace

void check_swept_key(const toml::table& root, const std::string& path) {
  const std::string where = fmt::format("sweep.parameter = {}", json_quote(path));
  const std::vector<PathPart> parts = split_path(path);
  const toml::table* table = &root;
  std::string prefix;
  for (std::size_t k = 0; k < parts.size(); ++k) {
    const PathPart& part = parts[k];
    const bool last = k + 1 == parts.size();
    prefix += (prefix.empty() ? "" : ".") + part.name;
    const toml::node* child = table->get(part.name);
    if (!child) return;  // absent: the reader's default (a missing table, vector or list: the key path decides)
    for (const std::size_t i : part.indices) {
      const toml::array* parent_array = child->as_array();
      if (!parent_array || i >= parent_array->size())
        throw InvalidInput(fmt::format("{}: {}[{}] does not exist", where, prefix, i));
      child = parent_array->get(i);
      prefix += fmt::format("[{}]", i);
    }
    if (last) {
      if (!child->is_number())
        throw InvalidInput(fmt::format("{}: {} is {}, not a number", where, prefix, type_name(*child)));
      if (const auto* d = child->as_floating_point(); d && !std::isfinite(d->get()))
        throw InvalidInput(fmt::format("{}: {} = {}: the swept key's base value must be a finite number", where,
                                       prefix, format_value(d->get())));
      return;
    }
    table = child->as_table();
    if (!table) return;  // e.g. a constant signal given as a number ("bench.input.value"): the key path decides
  }
}

void report_header(Json& report, std::string_view kind, const std::string& name, const std::string& description,
                   const ScenarioSource& source, double solve_seconds) {
  report["bristle_version"] = BRISTLE_VERSION;
  report["kind"] = kind;
  report["name"] = name;
  report["description"] = description;
  if (source.path.empty()) {
    report["scenario"] = nullptr;
  } else {
    std::error_code ec;
    const auto absolute = std::filesystem::absolute(source.path, ec);
    report["scenario"] = (ec ? source.path : absolute).string();
  }
  report["solve_seconds"] = solve_seconds;
}

std::string suggestion(std::string_view word, const std::vector<std::string>& valid) {
  const std::string near = nearest_word(word, valid);
  return near.empty() ? std::string() : fmt::format("; did you mean \"{}\"?", near);
}

bool csv_column_name(std::string_view name) {
  if (name.empty()) return false;
  for (const char c : name)
    if (c == ',' || c == '"' || static_cast<unsigned char>(c) < 0x20) return false;
  return true;
}

void check_plot_columns(const OutputOptions& output, const std::vector<std::string>& columns) {
  const auto check = [&](const std::string& key, const std::string& column) {
    if (std::find(columns.begin(), columns.end(), column) == columns.end())
      throw InvalidInput(fmt::format("{} = {}: unknown column{} (columns: {})", key, json_quote(column),
                                     suggestion(column, columns), fmt::join(columns, ", ")));
  };
  check("output.plot_x", output.plot_x);
  for (std::size_t i = 0; i < output.plot_y.size(); ++i) check(fmt::format("output.plot_y[{}]", i), output.plot_y[i]);
}

NumberGrid read_number_grid(const Section& k, const std::string& name, std::string_view description,
                            std::string_view item, std::int64_t max_points) {
  NumberGrid g;
  const toml::node* node = k.node(name);
  if (!node) k.missing(name, description);
  if (node->is_number()) {
    g.values = {*k.number(name)};
    g.scalar = true;
  } else if (node->is_array()) {
    g.values = *k.numbers(name);
    if (g.values.empty()) throw InvalidInput(fmt::format("{} = []: must list at least one {}", k.key(name), item));
  } else if (node->is_table()) {
    g.table = true;
    const Section t = k.table(name);
    t.check_keys({"from", "to", "points", "spacing"});
    const double from = t.required_number("from", fmt::format("first {} of the grid", item));
    const double to = t.required_number("to", fmt::format("last {} of the grid", item));
    const auto points = t.integer("points");
    if (!points) t.missing("points", fmt::format("number of {} values, >= 2", item));
    if (*points < 2) throw InvalidInput(fmt::format("{} = {}: must be >= 2", t.key("points"), *points));
    if (*points > max_points)
      throw InvalidInput(fmt::format("{} = {}: at most {} points", t.key("points"), *points, max_points));
    if (!(to > from))
      throw InvalidInput(
          fmt::format("{} = {}: must be > {} = {}", t.key("to"), format_value(to), t.key("from"), format_value(from)));
    const std::string spacing = t.string("spacing").value_or("linear");
    if (spacing != "linear" && spacing != "log")
      throw InvalidInput(fmt::format("{} = {}: unknown spacing (valid: linear, log){}", t.key("spacing"),
                                     json_quote(spacing), suggestion(spacing, {"linear", "log"})));
    g.log = spacing == "log";
    if (g.log && !(from > 0.0))
      throw InvalidInput(
          fmt::format("{} = {}: must be > 0 with {} = \"log\"", t.key("from"), format_value(from), t.key("spacing")));
    const auto n = static_cast<std::size_t>(*points);
    g.values.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      const double w = static_cast<double>(i) / static_cast<double>(n - 1);
      g.values[i] = g.log ? std::exp(std::log(from) * (1.0 - w) + std::log(to) * w) : from * (1.0 - w) + to * w;
    }
    g.values.front() = from;
    g.values.back() = to;
  } else {
    k.wrong_type(name, "a number, an array of numbers or a grid { from, to, points, spacing }");
  }
  return g;
}

}  // namespace detail

// ---------------------------------------------------------------------------------------------
// Dispatcher

namespace {

struct Registry {
  std::vector<std::pair<std::string, ScenarioParser>> kinds;
};

Registry& registry() {
  static Registry r = [] {
    Registry reg;
    reg.kinds.emplace_back("lumped", [](std::string_view text, std::string_view name, const ScenarioSource& source) {
      const toml::table root = detail::parse_toml(text, source.display_name());
      return std::unique_ptr<Scenario>(std::make_unique<LumpedStudy>(detail::parse_lumped(root, name, source)));
    });
    reg.kinds.emplace_back("line_steady", parse_line_steady_scenario);        // line_scenario.cpp
    reg.kinds.emplace_back("line_transient", parse_line_transient_scenario);  // line_scenario.cpp
    // directional_scenario.cpp
    reg.kinds.emplace_back("directional_coefficients", parse_directional_coefficients_scenario);
    reg.kinds.emplace_back("directional_loop", parse_directional_loop_scenario);
    reg.kinds.emplace_back("directional_crawler", parse_directional_crawler_scenario);
    reg.kinds.emplace_back("structure_kernel", parse_structure_kernel_scenario);          // structures_scenario.cpp
    reg.kinds.emplace_back("structure_stick_slip", parse_structure_stick_slip_scenario);  // structures_scenario.cpp
    reg.kinds.emplace_back("patch_steady_map", parse_patch_steady_map_scenario);  // patch_scenario.cpp
    reg.kinds.emplace_back("patch_transient", parse_patch_transient_scenario);    // patch_scenario.cpp
    return reg;
  }();
  return r;
}

std::string read_text(const std::filesystem::path& path) {
  return detail::read_input_file(path, detail::kMaxScenarioBytes, "", "scenario ");
}

/// A [fit] table makes the file a fit scenario, read by io::load_fit_scenario (`bristle fit`, Python's bristle.fit):
/// a scenario reader called it an unknown key ("did you mean \"kind\"?").
const toml::table& without_fit(const toml::table& root) {
  if (root.contains("fit"))
    throw InvalidInput("[fit]: a fit scenario is read by `bristle fit` (Python: bristle.fit), not as a scenario to "
                       "run: run the <name>_fitted.toml that it writes, or the file without its [fit] table");
  return root;
}

std::unique_ptr<Scenario> dispatch(std::string_view text, std::string_view name, const ScenarioSource& source) {
  const toml::table root = detail::parse_toml(text, source.display_name());
  (void)without_fit(root);
  const detail::Section top(&root, "");
  const std::string kind = top.string("kind").value_or("lumped");
  std::vector<std::string> names;
  for (const auto& [k, parser] : registry().kinds) {
    if (k == kind) return parser(text, name, source);
    names.push_back(k);
  }
  const std::string near = nearest_word(kind, names);
  throw InvalidInput(fmt::format("kind = {}: unknown scenario kind (valid: {}){}", json_quote(kind),
                                 fmt::join(names, ", "),
                                 near.empty() ? "" : fmt::format("; did you mean \"{}\"?", near)));
}

}  // namespace

void register_scenario_kind(std::string kind, ScenarioParser parser) {
  for (auto& [k, p] : registry().kinds)
    if (k == kind) {
      p = std::move(parser);
      return;
    }
  registry().kinds.emplace_back(std::move(kind), std::move(parser));
}

std::vector<std::string> scenario_kinds() {
  std::vector<std::string> out;
  for (const auto& [k, p] : registry().kinds) out.push_back(k);
  return out;
}

std::unique_ptr<Scenario> parse_scenario(std::string_view toml, std::string_view name, const ScenarioSource& source) {
  std::unique_ptr<Scenario> scenario = dispatch(toml, name, source);
  scenario->origin_ = std::make_shared<const Scenario::Origin>(
      Scenario::Origin{std::string(toml), std::string(name), source});
  return scenario;
}

std::unique_ptr<Scenario> load_scenario(const std::filesystem::path& path) {
  const std::string text = read_text(path);
  return parse_scenario(text, path.stem().string(), ScenarioSource::of_file(path));
}

std::unique_ptr<Scenario> parse_scenario_string(std::string_view toml, std::string_view name,
                                                const std::filesystem::path& directory) {
  return parse_scenario(toml, name, ScenarioSource::of_text(directory));
}

std::vector<LumpedScenario> parse_lumped_file(const std::filesystem::path& path) {
  const std::string text = read_text(path);
  const ScenarioSource source = ScenarioSource::of_file(path);
  return detail::parse_lumped(without_fit(detail::parse_toml(text, source.display_name())), path.stem().string(),
                              source);
}

std::vector<LumpedScenario> parse_lumped_string(std::string_view toml, std::string_view name,
                                                const std::filesystem::path& directory) {
  const ScenarioSource source = ScenarioSource::of_text(directory);
  return detail::parse_lumped(without_fit(detail::parse_toml(toml, source.display_name())), name, source);
}

}  // namespace bristle::io
