// Fit scenarios: [fit] in, the fit's report out (bristle/io/fit_scenario.hpp); the [fit] reader and report
// writer every kind shares (fit_internal.hpp).
#include "bristle/io/fit_scenario.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cctype>
#include <cmath>
#include <map>
#include <sstream>

#include "bristle/core/error.hpp"
#include "bristle/io/json.hpp"
#include "bristle/io/key_path.hpp"
#include "bristle/io/keys.hpp"
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

const std::vector<std::string> kSpecKeys = {"initial", "min", "max", "scale"};

void read_parameters(const toml::table& table, const std::string& path_prefix, std::vector<fit::ParameterSpec>& out,
                     std::vector<std::optional<double>>& initial, std::map<std::string, std::string>& seen) {
  for (auto&& [k, node] : table) {
    const std::string key_path = path_prefix + std::string(k.str());
    detail::require_key_path_size("fit.parameters", key_path);
    const std::string key = fmt::format("fit.parameters.{}", q(key_path));
    const toml::table* spec = node.as_table();
    if (!spec)
      throw InvalidInput(fmt::format("{} = {}: must be a table {{ initial, min, max[, scale] }}", key,
                                     detail::format_node(node)));
    bool is_spec = false;
    for (const auto& s : kSpecKeys)
      if (spec->contains(s)) is_spec = true;
    if (!is_spec && !spec->empty()) {
      read_parameters(*spec, key_path + ".", out, initial, seen);  // law.mu_d = {...} written unquoted
      continue;
    }
    if (seen.count(key_path)) throw InvalidInput(fmt::format("{}: listed twice", key));
    seen[key_path] = key;
    const Section s(spec, key);
    s.check_keys(kSpecKeys);
    fit::ParameterSpec p;
    p.key = key_path;
    p.min = s.required_number("min", "lower bound of the parameter");
    p.max = s.required_number("max", "upper bound of the parameter");
    initial.push_back(s.number("initial"));
    const std::string scale = s.string("scale").value_or("linear");
    if (scale == "log")
      p.scale = fit::Scale::log;
    else if (scale != "linear")
      throw InvalidInput(fmt::format("{} = {}: must be \"linear\" or \"log\"{}", s.key("scale"), q(scale),
                                     detail::suggestion(scale, {"linear", "log"})));
    out.push_back(p);
  }
}

/// `path` in a gnuplot single-quoted string ('' stands for a quote), without the quotes.
std::string gnuplot_quoted(const fs::path& path) {
  std::string quoted;
  for (char c : path.string()) quoted += c == '\'' ? std::string("''") : std::string(1, c);
  return quoted;
}

/// The fitted values of `result`, in the order of its parameters.
VecX fitted_values(const fit::Result& result) {
  VecX p(static_cast<Eigen::Index>(result.parameters.size()));
  for (std::size_t j = 0; j < result.parameters.size(); ++j)
    p[static_cast<Eigen::Index>(j)] = result.parameters[j].value;
  return p;
}

}  // namespace

std::string detail::read_fit_text(const fs::path& path) {
  return read_input_file(path, kMaxScenarioBytes, "", "scenario ");
}

std::optional<toml::table> detail::read_fit_root(const fs::path& path) {
  try {
    return parse_toml(read_fit_text(path), path.string());
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// ---- the [fit] reader of every kind (fit_internal.hpp) -----------------------------------------------------------

void detail::require_fitted_name(std::string_view where, std::string_view key, const std::string& name) {
  if (name.size() + kFittedSuffix.size() <= kMaxNameBytes) return;
  throw InvalidInput(fmt::format("{}{} = {}: {} bytes long; at most {} in a fit (the fitted scenario is named "
                                 "<name>{}, at most {} bytes)",
                                 where, key, q(shown_key(name)), name.size(), kMaxNameBytes - kFittedSuffix.size(),
                                 kFittedSuffix, kMaxNameBytes));
}

detail::FitTable detail::read_fit_table(const toml::table& root, std::string_view name, const FitRules& rules) {
  FitTable t;
  const Section top(&root, "");
  if (top.has("sweep")) throw InvalidInput("[sweep]: a fit scenario cannot have a sweep (fit one case)");
  t.f = top.table("fit");
  const Section& f = t.f;
  if (!f.present())
    throw InvalidInput(fmt::format("missing table [fit] (what to fit: {}; docs/fitting.md)", rules.fit_doc));
  for (const std::string& k : rules.refused)
    if (f.has(k))
      throw InvalidInput(fmt::format("fit.{}: does not apply to kind = {}{}", k, q(rules.kind), rules.refused_why));
  if (rules.kind != "lumped" && f.has("model"))
    throw InvalidInput(fmt::format("fit.model: model comparison reads kind = \"lumped\" only, not {}", q(rules.kind)));
  f.check_keys(rules.keys);
  t.name = top.string("name").value_or(std::string(name));
  require_fitted_name("", top.has("name") ? "name" : "name (the file stem)", t.name);  // the rest: the kind's reader
  if (const auto n = f.integer("multi_start")) {
    if (*n < 1 || *n > 1000) throw InvalidInput(fmt::format("fit.multi_start = {}: must be in 1..1000", *n));
    t.options.multi_start = static_cast<int>(*n);
  }
  if (const auto n = f.integer("seed")) {
    if (*n < 0) throw InvalidInput(fmt::format("fit.seed = {}: must be >= 0", *n));
    t.options.seed = static_cast<unsigned>(*n);
  }
  if (const auto n = f.integer("max_iterations")) {
    if (*n < 1 || *n > 100000) throw InvalidInput(fmt::format("fit.max_iterations = {}: must be in 1..100000", *n));
    t.options.max_iterations = static_cast<int>(*n);
  }
  // each bound alone allowed 1e8 trust-region iterations, months of simulations; the product is bounded too
  if (const long total = static_cast<long>(t.options.multi_start) * t.options.max_iterations; total > fit::Options::kMaxTotalIterations)
    throw InvalidInput(fmt::format("fit.multi_start = {} with fit.max_iterations = {}: {} iterations in all; at most {} "
                                   "(fewer starts or iterations per start)",
                                   t.options.multi_start, t.options.max_iterations, total,
                                   fit::Options::kMaxTotalIterations));

  const Section targets = f.table("targets");
  if (!targets.present() || targets.keys().empty())
    throw InvalidInput(fmt::format("missing table [fit.targets] ({})", rules.targets_doc));
  for (const std::string& output : targets.keys()) {
    FitTarget target{output, "", targets.key(output)};
    const toml::node* n = targets.node(output);
    if (const auto s = n->value<std::string>()) {
      target.column = *s;
    } else if (n->is_table()) {
      const Section ts = targets.table(output);
      ts.check_keys({"column", "weight"});
      target.column = ts.required_string("column", "the data column compared with this output");
      target.weight = ts.number_or("weight", 1.0);
      fit::require_weight(ts.key("weight"), target.weight);
      target.key = ts.key("column");
    } else {
      targets.wrong_type(output, "a data column name, or { column = \"...\", weight = w }");
    }
    const std::vector<std::string>& outs = rules.outputs;
    if (!outs.empty() && std::find(outs.begin(), outs.end(), output) == outs.end())
      throw InvalidInput(fmt::format("{}: the model does not output a column {} (outputs of {}: {}){}",
                                     targets.key(output), q(detail::shown_key(output)), rules.kind, fmt::join(outs, ", "),
                                     detail::suggestion(output, outs)));
    t.targets.push_back(target);
  }

  const Section parameters = f.table("parameters");
  if (!parameters.present() || parameters.keys().empty())
    throw InvalidInput(fmt::format("missing table [fit.parameters] (key path = {{ initial, min, max[, scale] }}{})",
                                   rules.parameters_doc));
  std::map<std::string, std::string> seen;
  read_parameters(*root["fit"]["parameters"].as_table(), "", t.parameters, t.initial, seen);
  // A key path that names a non-numeric value of the file (law.type, a signal table) is not a parameter. A list of one
  // number is its one branch, as the key path says (numeric_keys lists a single-branch body1.tau so).
  for (const fit::ParameterSpec& p : t.parameters) {
    const toml::node* node = root.at_path(p.key).node();
    if (node && !node->is_number() && !detail::one_number(*node))
      throw InvalidInput(fmt::format("fit.parameters.{}: not a numeric key: the scenario has {} = {}", q(p.key),
                                     p.key, detail::format_node(*node)));
  }

  t.base = root;
  t.base.erase("fit");
  if (const toml::node* e = f.node("experiment")) {
    const toml::array* list = e->as_array();
    if (!list || list->empty() || !list->is_array_of_tables()) f.wrong_type("experiment", rules.experiment_doc);
    for (const toml::node& table : *list) t.experiments.push_back(table.as_table());
  } else {
    t.experiments.push_back(nullptr);
  }
  return t;
}

detail::FitExperiment detail::read_fit_experiment(const FitTable& t, std::size_t i, const FitRules& rules,
                                                  const ScenarioSource& source) {
  FitExperiment e;
  e.own = t.experiments[i] != nullptr;
  e.ex = e.own ? Section(t.experiments[i], fmt::format("fit.experiment[{}]", i)) : t.f;
  if (e.own) e.ex.check_keys(rules.experiment_keys);
  const Section& data_from = e.from(t, "data");
  e.data = data_from.required_string("data", "the CSV file of measured data (header row)");
  e.data_key = data_from.key("data");
  e.path = fs::path(e.data).is_absolute() ? fs::path(e.data) : source.directory / e.data;
  e.label = e.own ? Section(t.experiments[i], "").string("label").value_or(e.data) : e.data;
  if (e.own && e.ex.has("set")) {
    (void)e.ex.table("set");  // a table, or the reader's message
    for (auto&& [k, v] : *t.experiments[i]->get("set")->as_table()) {
      // A key path nests a table per part (fit_toml): bounded as a file's nesting is (toml_reader.hpp), where the
      // key enters, so that no walk of the table recurses without bound.
      const std::size_t parts = static_cast<std::size_t>(std::count(k.str().begin(), k.str().end(), '.')) + 1;
      if (parts > kMaxTomlDepth) {
        std::size_t third = 0;  // the key shown by its first three parts
        for (int d = 0; d < 3; ++d) third = k.str().find('.', third) + 1;
        throw InvalidInput(fmt::format("{}.set: key path {} has {} parts; at most {} (the nesting limit of a scenario "
                                       "file)",
                                       e.ex.path(), q(std::string(k.str().substr(0, third)) + ".."), parts,
                                       kMaxTomlDepth));
      }
      detail::require_key_path_size(e.ex.path() + ".set", k.str());
      // A fitted key set here was overwritten by the fit's value without a word: the experiment became a copy
      // (helper-48). A table value sets each of its keys (`law.mu_d = 0.7` is the table law = { mu_d = 0.7 }).
      detail::for_each_leaf(std::string(k.str()), v, true, [&](const std::string& path, const toml::node& node) {
        for (const fit::ParameterSpec& p : t.parameters)  // the key, or the whole list of a fitted component
          if (p.key == path || (node.is_array() && p.key.rfind(path + "[", 0) == 0))
            throw InvalidInput(fmt::format("{}.set: {} is a fitted parameter (fit.parameters); the fit gives its "
                                           "value in every experiment: remove it from set or from fit.parameters",
                                           e.ex.path(), q(p.key)));
      });
      // A table of dotted keys (`set = { law.mu_d = 0.45 }`) is its keys, as if written into the file: each key path
      // is then one as if quoted ("law.mu_d" = 0.45: set by key path, written where the file writes it). It was merged
      // as a table, mu_d beside a Dahl law's mu, which the reader refused. A table written inline replaces the file's.
      detail::for_each_leaf(std::string(k.str()), v, false, [&](const std::string& path, const toml::node& node) {
        // a set of [initial] did nothing (helper-53); other kinds have no [initial]: their reader says so
        if (rules.kind == "lumped" && (path == "initial" || path.starts_with("initial.")))
          throw InvalidInput(fmt::format("{}.set: {}: {}: remove it from set", e.ex.path(), q(path),
                                         kInitialIsTheFits));
        e.set.emplace_back(path, &node);
      });
    }
  }
  return e;
}

std::string detail::blame_window(const std::string& message, const std::vector<std::pair<std::string, double>>& window,
                                 const std::string& window_key, const std::optional<std::pair<double, double>>& span,
                                 const std::string& data, std::size_t samples) {
  for (const auto& [key, value] : window)
    if (message.find(key + " = ") != std::string::npos)
      return fmt::format("{} {} = {} (the run covers the window's {} data rows): {}",
                         span ? fmt::format("{} = [{}, {}] sets", window_key, format_value(span->first),
                                            format_value(span->second))
                              : fmt::format("the times of {} (no {}) set", q(data), window_key),
                         key, format_value(value), samples, message);
  return message;
}

bool detail::owned_by_fit(std::string_view key, std::string_view owned) {
  return key == owned || (owned.back() == '.' && key.substr(0, owned.size()) == owned);
}

std::optional<std::pair<double, double>> detail::read_window(const Section& s) {
  const auto w = s.numbers("window_s");
  if (!w) return std::nullopt;
  if (w->size() != 2 || !((*w)[0] < (*w)[1]))
    throw InvalidInput(fmt::format("{} = [{}]: must be [start, end] with start < end (s)", s.key("window_s"),
                                   fmt::join(*w, ", ")));
  return std::make_pair((*w)[0], (*w)[1]);
}

detail::FitData detail::read_fit_data(const FitTable& t, const FitExperiment& e, const std::optional<std::string>& x,
                                      const std::string& x_key) {
  FitData d;
  d.where = fmt::format("{} = {}", e.data_key, q(e.data));
  // The one strict reader of every CSV table (regular files within the size limit, distinct column names,
  // no ragged rows, decimal numbers only: nan, inf, hex and overflow are errors at file:line:column).
  d.csv = read_csv_numbers(d.where, e.path);
  const auto column = [&](const std::string& name, const std::string& key) {
    for (std::size_t i = 0; i < d.csv.header.size(); ++i)
      if (d.csv.header[i] == name) return i;
    throw InvalidInput(fmt::format("{} = {}: {}:{}: no such column{} (header: {})", key, q(shown_key(name)),
                                   e.path.string(), d.csv.header_line, suggestion(name, d.csv.header),
                                   shown_header(d.csv.header)));
  };
  d.x = x ? column(*x, x_key) : 0;
  for (const FitTarget& target : t.targets) d.targets.push_back(column(target.column, target.key));
  return d;
}

detail::FitSamples detail::read_fit_samples(const FitTable& t, const FitExperiment& e) {
  const Section& time_from = e.from(t, "time_column");
  const FitData d = read_fit_data(t, e, time_from.string("time_column"), time_from.key("time_column"));
  const CsvNumbers& csv = d.csv;
  const std::string shown = e.path.string();
  const std::size_t it = d.x;
  FitSamples out;
  std::vector<double>& times = out.times;
  out.values.assign(d.targets.size(), {});
  for (std::size_t r = 0; r < csv.rows.size(); ++r) {
    const double time = csv.rows[r][it];
    if (!times.empty() && !(time > times.back()))
      throw InvalidInput(fmt::format("{}: {}:{}:{}: time {} is not greater than the previous time {} (column \"{}\"): "
                                     "times must be strictly increasing",
                                     d.where, shown, csv.row_lines[r], it + 1, format_value(time),
                                     format_value(times.back()), csv.header[it]));
    times.push_back(time);
    for (std::size_t k = 0; k < d.targets.size(); ++k) out.values[k].push_back(csv.rows[r][d.targets[k]]);
  }
  if (times.size() < 2)
    throw InvalidInput(fmt::format("{}: {} has {} data row(s); at least 2 are needed", d.where, shown, times.size()));
  return out;
}

detail::FitSamples detail::window_samples(const FitTable& t, const FitExperiment& e, const FitSamples& data,
                                          const std::optional<std::pair<double, double>>& window,
                                          const std::string& window_key, bool validation, bool show_window) {
  const std::vector<double>& times = data.times;
  const std::string shown = e.path.string();
  std::size_t first = 0, last = times.size();  // [first, last)
  if (window) {
    if (window->first < times.front() || window->second > times.back())
      throw InvalidInput(fmt::format("{} = [{}, {}]: outside the data's times [{}, {}] of {}", window_key,
                                     format_value(window->first), format_value(window->second),
                                     format_value(times.front()), format_value(times.back()), shown));
    first = static_cast<std::size_t>(std::lower_bound(times.begin(), times.end(), window->first) - times.begin());
    last = static_cast<std::size_t>(std::upper_bound(times.begin(), times.end(), window->second) - times.begin());
  }
  const std::size_t samples = last - first;
  const std::string where = !window        ? e.data_key
                            : !show_window ? window_key
                                           : fmt::format("{} = [{}, {}]", window_key, format_value(window->first),
                                                         format_value(window->second));
  if (validation && samples < 2)  // a validation window fits nothing: its own rule (helper-53)
    throw InvalidInput(fmt::format("{}: the window holds {} sample(s) of {}; a validation window needs at least 2",
                                   where, samples, shown));
  if (!validation && (samples * t.targets.size() <= t.parameters.size() || samples < 2))
    throw InvalidInput(fmt::format("{}: the window holds {} sample(s) of {}; fitting {} parameter(s) needs more "
                                   "residuals than parameters (and at least 2 samples)",
                                   where, samples, shown, t.parameters.size()));
  if (samples > kMaxOutputTimes)  // each is an output time of the model's run (it was refused as time.outputs)
    throw InvalidInput(fmt::format("{}: the window holds {} samples of {}; at most {} are fitted, one output time of "
                                   "the model's run each (Limits in docs/scenarios.md): give fit.window_s or fewer rows",
                                   window ? window_key : e.data_key, samples, shown, kMaxOutputTimes));
  const auto slice = [&](const std::vector<double>& v) {
    return std::vector<double>(v.begin() + static_cast<long>(first), v.begin() + static_cast<long>(last));
  };
  FitSamples out;
  out.times = slice(times);
  for (const std::vector<double>& v : data.values) out.values.push_back(slice(v));
  return out;
}

std::vector<fit::Target> detail::fit_targets(const FitTable& t, const std::vector<std::vector<double>>& values) {
  std::vector<fit::Target> out;
  for (std::size_t k = 0; k < t.targets.size(); ++k) {
    fit::Target target;
    target.output = t.targets[k].output;
    target.data_column = t.targets[k].column;
    target.weight = t.targets[k].weight;
    target.values = values[k];
    out.push_back(std::move(target));
  }
  return out;
}

namespace {
/// "<signal>" of a key path "<signal>.value" (a constant signal's value), else nullopt.
std::optional<std::string> signal_of_value(const std::string& key) {
  constexpr std::string_view suffix = ".value";
  if (key.size() <= suffix.size() || key.compare(key.size() - suffix.size(), suffix.size(), suffix) != 0)
    return std::nullopt;
  return key.substr(0, key.size() - suffix.size());
}

/// Entry `index` of `array` replaced by `value` (a number of the scenario's TOML).
void replace_entry(toml::array& array, std::size_t index, const toml::node& value) {
  value.visit([&](const auto& v) { array.replace(array.begin() + static_cast<long>(index), v); });
}
}  // namespace

toml::table detail::fit_toml(const FitTable& t, const FitExperiment& e, const std::function<void(toml::table&)>& edit,
                             bool numbers_too, const WholeList& whole) {
  toml::table table = t.base;
  const Section set = e.ex.table("set");
  for (const auto& [key, node] : e.set) {
    if (node->is_number() && !numbers_too) continue;
    // "path[i]" goes into the file's list of numbers (it was written as a key "x0_m[0]", refused as unknown); a list
    // the file does not write is written whole, as the experiment's scenario holds it (`whole`). Anything else is
    // written as given, and the reader names what it refuses (law.v_s[0]: an unknown key).
    if (const auto ix = node->is_number() ? indexed_key(key) : std::nullopt) {
      toml::node* at = table.at_path(ix->first).node();
      if (toml::array* array = at ? at->as_array() : nullptr;
          array && ix->second < array->size() && (*array)[ix->second].is_number()) {
        replace_entry(*array, ix->second, *node);
        continue;
      }
      if (whole)
        if (std::optional<toml::array> list = whole(ix->first)) {
          set_toml_path(table, ix->first, *list, set.key(key));
          continue;
        }
    }
    set_toml_path(table, key, *node, set.key(key));
  }
  if (edit) edit(table);
  return table;
}

void detail::set_toml_path(toml::table& root, const std::string& path, const toml::node& value,
                           const std::string& key) {
  // A constant signal's "<signal>.value" where the file writes the signal as a number, or not at all (its default): that
  // number (a `set` of it, or its fitted value; a table of the value alone would lack its type).
  if (const auto signal = value.is_number() ? signal_of_value(path) : std::nullopt)
    if (const toml::node* n = root.at_path(*signal).node(); !n || n->is_number())
      return set_toml_path(root, *signal, value, key);
  const std::vector<std::string_view> parts = detail::split_at(path, '.');
  toml::table* table = &root;
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    if (parts[i].empty()) throw InvalidInput(fmt::format("{}: {} is not a key path", key, q(path)));
    toml::node* next = table->get(parts[i]);
    if (!next) {
      table->insert(parts[i], toml::table{});
      next = table->get(parts[i]);
    }
    if (!next->is_table())
      throw InvalidInput(fmt::format("{}: {} is not a table in the scenario, so {} cannot be set", key,
                                     q(fmt::format("{}", fmt::join(parts.begin(), parts.begin() + static_cast<long>(i) + 1, "."))),
                                     q(path)));
    table = next->as_table();
  }
  if (parts.back().empty()) throw InvalidInput(fmt::format("{}: {} is not a key path", key, q(path)));
  // A table of dotted keys merges into the scenario's table, as if its keys were written into the file: `set = {
  // integrator.max_steps = 1e7 }` replaced the whole [integrator], so an experiment silently lost the file's method
  // and step. A table written inline, `"bench.input" = { type = "table", ... }`, replaces the table, as before.
  toml::node* existing = table->get(parts.back());
  if (value.is_table() && !value.as_table()->is_inline() && existing && existing->is_table())
    deep_merge(*existing->as_table(), *value.as_table(), true);
  else
    put(*table, parts.back(), value);
}

void detail::set_window_toml(toml::table& table, const std::vector<std::pair<std::string, double>>& window) {
  if (!window.empty() && window.front().first.rfind("time.", 0) == 0) table.erase("time");
  for (const auto& [key, value] : window)
    if (key == "time.outputs")
      set_toml_path(table, key, toml::value<std::int64_t>(static_cast<std::int64_t>(value)), key);
    else
      set_toml_path(table, key, toml::value<double>(value), key);
}

void detail::absolute_table_files(toml::table& table, const std::vector<TableFile>& files) {
  for (const TableFile& tf : files)
    set_toml_path(table, tf.key + ".file", toml::value<std::string>(fs::absolute(tf.path).string()), tf.key);
}

std::optional<std::pair<std::string, std::size_t>> detail::indexed_key(const std::string& key) {
  const std::size_t open = key.find('[');
  if (open == std::string::npos || key.back() != ']') return std::nullopt;
  std::size_t index = 0;
  const char* const end = key.data() + key.size() - 1;
  const auto [ptr, ec] = std::from_chars(key.data() + open + 1, end, index);
  if (ec != std::errc{} || ptr != end) return std::nullopt;
  return std::pair{key.substr(0, open), index};
}

void detail::set_toml_value(toml::table& root, const std::string& key, double value) {
  // A fitted key is a key path get_number read: "path[i]" into the file's list (or its number, for [0]), a bare key
  // of a branch list of one into that entry.
  const toml::value<double> number(value);
  const auto ix = indexed_key(key);
  toml::node* node = root.at_path(ix ? ix->first : key).node();
  if (!ix) {
    if (node && one_number(*node)) replace_entry(*node->as_array(), 0, number);
    else set_toml_path(root, key, number, key);
  } else if (toml::array* array = node ? node->as_array() : nullptr; array && ix->second < array->size()) {
    replace_entry(*array, ix->second, number);
  } else if (node && node->is_number() && ix->second == 0) {
    set_toml_path(root, ix->first, number, key);
  } else {
    throw InvalidInput(fmt::format("{}: cannot write the fitted value into the scenario", key));
  }
}

std::string detail::toml_text(const toml::table& table) {
  // A string with a newline as an escaped one-line string: toml++ writes it as a multi-line literal otherwise, which
  // does not read back when the string holds three quotes (and loses a leading newline).
  std::ostringstream out;
  out << toml::toml_formatter(table, toml::toml_formatter::default_flags & ~toml::format_flags::allow_multi_line_strings);
  out << '\n';
  return out.str();
}

void detail::for_each_leaf(const std::string& path, const toml::node& node, bool into_inline,
                           const std::function<void(const std::string&, const toml::node&)>& f) {
  if (const toml::table* sub = node.as_table(); sub && (into_inline || !sub->is_inline())) {
    for (auto&& [key, value] : *sub) for_each_leaf(path + "." + std::string(key.str()), value, into_inline, f);
    return;
  }
  f(path, node);
}

bool detail::one_number(const toml::node& node) {
  const toml::array* list = node.as_array();
  return list && list->size() == 1 && (*list)[0].is_number();
}

bool detail::written_in(const toml::table& root, const std::string& key) {
  if (const auto ix = indexed_key(key)) {
    const toml::node* n = root.at_path(ix->first).node();
    return n && ((n->is_array() && ix->second < n->as_array()->size()) || (n->is_number() && ix->second == 0));
  }
  if (const toml::node* n = root.at_path(key).node()) return n->is_number();
  const auto signal = signal_of_value(key);  // a constant signal written as a number
  const toml::node* n = signal ? root.at_path(*signal).node() : nullptr;
  return n && n->is_number();
}

std::vector<std::string> detail::numbers_written(const toml::table& root, const std::vector<std::string>& heads) {
  std::vector<std::string> out;
  const auto add = [&](std::string key) {
    if (std::find(out.begin(), out.end(), key) == out.end()) out.push_back(std::move(key));
  };
  const auto leaf = [&](const std::string& path, const toml::node& node) {
    if (node.is_number()) {
      add(path);
    } else if (const toml::array* list = node.as_array()) {
      for (std::size_t i = 0; i < list->size(); ++i)
        if ((*list)[i].is_number()) add(fmt::format("{}[{}]", path, i));
    }
  };
  std::vector<std::string> seen;
  for (const std::string& h : heads) {
    if (std::find(seen.begin(), seen.end(), h) != seen.end()) continue;
    seen.push_back(h);
    if (const toml::node* n = root.get(h)) for_each_leaf(h, *n, true, leaf);
  }
  return out;
}

toml::table detail::fitted_table(const std::string& text, const std::string& name, const fit::Result& result,
                                 const WrittenKeys& written_keys, std::size_t index) {
  toml::table root = parse_toml(text, "fitted scenario", true);  // the experiment's text, reformatted: may be larger
  for (std::size_t j = 0; j < result.parameters.size(); ++j) {
    const fit::ParameterResult& p = result.parameters[j];
    if (index == 0 && j < written_keys.size() && !written_keys[j].empty())
      for (const std::string& key : written_keys[j]) set_toml_value(root, key, p.value);
    else
      set_toml_value(root, p.key, p.value);
  }
  root.insert_or_assign("name", name + std::string(kFittedSuffix));
  return root;
}

std::string detail::fitted_window(const std::vector<double>& times) {
  return fmt::format("window {} .. {} s, {} samples", format_value(times.front()), format_value(times.back()),
                     times.size());
}

// ---- the report of every kind ------------------------------------------------------------------------------------

Json detail::fit_result_json(std::string_view kind, const std::string& name, const std::string& description,
                             const ScenarioSource& source, const fit::Options& options, const fit::Result& result,
                             StateIn state) {
  Json r = Json::object();
  report_header(r, kind, name, description, source, result.fit_seconds);
  r["fit_seconds"] = result.fit_seconds;
  r["converged"] = result.converged;
  r["termination"] = result.termination;
  r["iterations"] = result.iterations;
  r["evaluations"] = result.evaluations;
  r["jacobian"] = std::string(fit::to_string(result.jacobian));
  r["jacobian_evaluations"] = result.jacobian_evaluations;
  r["multi_start"] = options.multi_start;
  r["best_start"] = result.best_start;
  const std::string initial_state(fit::to_string(options.initial_state));
  if (state == StateIn::head) r["initial_state"] = initial_state;
  // A parameter the data do not bound (infinite or overflowing interval) has null, not a number.
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
    Json row = Json::array();  // null where a parameter is not identifiable
    for (Eigen::Index j = 0; j < result.correlation.cols(); ++j) row.push_back(finite(result.correlation(i, j)));
    rows.push_back(row);
  }
  correlation["matrix"] = rows;
  r["correlation"] = correlation;
  r["condition_number"] = finite(result.condition_number);
  Json rms = Json::object();
  for (const fit::TargetResult& target : result.targets) rms[target.output] = target.rms;
  r["rms"] = rms;
  r["rms_N"] = result.rms_N ? Json(*result.rms_N) : Json(nullptr);
  r["cost"] = result.cost;
  r["residual_count"] = result.residual_count;
  r["residual_variance"] = result.residual_variance;
  r["aic"] = result.aic;
  r["bic"] = result.bic;
  if (state == StateIn::tail) r["initial_state"] = initial_state;
  return r;
}

RunResult detail::fit_run(const std::string& name, TimeSeries series, const fit::Result& result, Json report,
                          std::string fitted) {
  RunResult run;
  run.name = name + "_fit";
  run.title = fmt::format("{}: fit", name);
  run.plot_x = series.names[series.names.front() == "experiment" ? 1 : 0];
  run.cases.push_back(CaseResult{std::nullopt, std::move(series), result.fit_seconds});
  run.solve_seconds = result.fit_seconds;
  run.report = std::move(report);
  run.warnings = result.warnings;
  // DIR/<name>_fitted.toml (name + "_fit" + "ted.toml"): the first experiment's scenario, fitted.
  run.extra_files.push_back(ExtraFile{"ted.toml", std::move(fitted)});
  return run;
}

std::function<std::string(const fs::path&)> detail::fit_plot(const std::string& name, const std::string& target,
                                                             const TimeSeries& data,
                                                             const std::vector<std::pair<std::string, std::string>>& xs,
                                                             bool points, const std::string& size) {
  const auto col = [&](const std::string& n) {
    for (std::size_t i = 0; i < data.names.size(); ++i)
      if (data.names[i] == n) return i + 1;  // gnuplot columns are 1-based
    return std::size_t{0};
  };
  std::string rows;
  std::vector<std::size_t> order(data.rows());
  for (std::size_t r = 0; r < order.size(); ++r) order[r] = r;
  const std::size_t g = col(xs.front().first) - 1;
  if (points)  // sorted by x, so that the fitted curve is a line
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return data.columns[g][a] < data.columns[g][b]; });
  const bool several = data.names.front() == "experiment";
  for (std::size_t r : order) {
    for (std::size_t k = 0; k < data.columns.size(); ++k) {
      const double v = data.columns[k][r];
      rows += fmt::format("{}{}", k > 0 ? " " : "", std::isfinite(v) ? fmt::format("{}", v) : "NaN");
    }
    rows += '\n';
    if (!points && several && r + 1 < data.rows() && data.columns[0][r + 1] != data.columns[0][r]) rows += "\n\n";
  }
  const std::string style = points ? "points pointtype 7 pointsize 0.7" : "lines linewidth 1";
  const std::size_t m = col(target + "_measured"), f = col(target + "_fitted"), res = col(target + "_residual");
  std::string plots;
  for (std::size_t k = 0; k < xs.size(); ++k) {
    const std::size_t x = col(xs[k].first);
    plots += fmt::format("set xlabel '{}'\nset ylabel '{}'\n", xs[k].second, target);
    plots += fmt::format("plot $data using {}:{} with {} title 'measured', $data using {}:{} with lines linewidth 1.5 "
                         "title 'fitted'\n",
                         x, m, style, x, f);
    if (k == 0)
      plots += fmt::format("set ylabel '{} residual (fitted - measured)'\nplot $data using {}:{} with {} title "
                           "'residual'\n",
                           target, x, res, style);
  }
  return [=](const fs::path& png) {
    return fmt::format("set terminal pngcairo size {} noenhanced font 'sans,10'\nset output '{}'\n$data << EOD\n{}EOD\n"
                       "set grid\nset key outside right top noenhanced\nset multiplot layout {},1 title '{}: {} "
                       "measured and fitted' noenhanced\n{}unset multiplot\nset output\n",
                       size, gnuplot_quoted(png), rows, xs.size() + 1, name, target, plots);
  };
}

// ---- kind = "lumped" ---------------------------------------------------------------------------------------------

namespace {

fit::InitialState initial_state_from(const Section& f) {
  const std::string s = f.string("initial_state").value_or("rest");
  if (s == "rest") return fit::InitialState::rest;
  if (s == "match_first_sample") return fit::InitialState::match_first_sample;
  if (s == "steady") return fit::InitialState::steady;
  throw InvalidInput(fmt::format("fit.initial_state = {}: must be \"rest\", \"match_first_sample\" or \"steady\"{}",
                                 q(s), detail::suggestion(s, {"rest", "match_first_sample", "steady"})));
}

/// The [time] of a lumped experiment: the window, an output at each sample.
std::vector<std::pair<std::string, double>> lumped_window(const std::vector<double>& times) {
  return {{"time.t_start_s", times.front()},
          {"time.t_end_s", times.back()},
          {"time.outputs", static_cast<double>(times.size())}};
}

FitScenario parse_fit(const toml::table& root, std::string_view name, const ScenarioSource& source) {
  if (const auto kind = Section(&root, "").string("kind"); kind && *kind != "lumped")
    throw InvalidInput(fmt::format("kind = {}: this reader takes kind = \"lumped\" (bristle fit reads \"lumped\" and "
                                   "\"patch_steady_map\" scenarios so far; model comparison is lumped only)",
                                   q(*kind)));
  detail::SeriesKind<LumpedScenario> kind;
  kind.rules.kind = "lumped";
  kind.rules.keys = {"data", "time_column", "window_s", "initial_state", "targets", "parameters", "experiment",
                     "multi_start", "seed", "max_iterations", "validation_window_s", "model"};
  kind.rules.experiment_keys = {"data", "time_column", "window_s", "set", "label"};
  kind.rules.fit_doc = "data, targets and parameters";
  kind.rules.targets_doc = "model output column = data column, e.g. F_N = \"F_N\"";
  kind.rules.parameters_doc = ", e.g. \"law.mu_d\" = { initial = 0.4, min = 0.05, max = 1.5 }";
  kind.rules.experiment_doc = "[[fit.experiment]] tables, each with its data (and set, window_s)";
  kind.initial_state = [](detail::FitTable& t) { t.options.initial_state = initial_state_from(t.f); };
  kind.show_window = true;
  kind.window = lumped_window;
  kind.parse = [](const toml::table& table, const std::string& n, const ScenarioSource& src) {
    return std::move(detail::parse_lumped(table, n, src).front());
  };
  // parse_lumped's validate() (the output columns, the sweep column, beside what set_number runs after each key:
  // key_path.cpp), once more after the whole window and `set`.
  kind.check = [](const LumpedScenario& sc) { sc.validate(); };
  FitScenario out = detail::parse_series_fit<FitScenario>(root, name, source, kind);
  if (out.options.initial_state != fit::InitialState::rest)
    for (const fit::Experiment& e : out.experiments) (void)fit::initial_state(e, out.options.initial_state);
  return out;
}

}  // namespace

FitScenario load_fit_scenario(const fs::path& path) { return detail::load_with(path, parse_fit); }

FitScenario parse_fit_string(std::string_view toml, std::string_view name, const fs::path& directory) {
  return detail::parse_with(toml, name, directory, parse_fit);
}

std::string fitted_toml(const FitScenario& scenario, const fit::Result& result, std::size_t index,
                        const fs::path& out_dir) {
  toml::table root =
      detail::fitted_table(scenario.scenario_toml.at(index), scenario.name, result, scenario.written_keys, index);
  const fit::Experiment& e = scenario.experiments.at(index);
  std::error_code ec;
  const fs::path dir = fs::absolute(out_dir.empty() ? fs::path(".") : out_dir, ec);
  for (const TableFile& tf : e.scenario.table_files) {
    const fs::path absolute = fs::absolute(tf.path, ec);
    const fs::path relative = fs::relative(absolute, dir, ec);
    detail::set_toml_path(root, tf.key + ".file",
                          toml::value<std::string>((ec || relative.empty() ? absolute : relative).string()), tf.key);
  }
  toml::table initial;
  const VecX& u0 = result.experiments.at(index).u0;
  if (scenario.options.initial_state == fit::InitialState::steady) {
    initial.insert("steady", true);
  } else if (scenario.options.initial_state == fit::InitialState::match_first_sample) {
    toml::array f;
    f.push_back(u0[0]);
    f.push_back(u0[1]);
    initial.insert("f", std::move(f));
  }
  root.erase("initial");
  if (!initial.empty()) root.insert("initial", std::move(initial));
  return detail::fitted_head(scenario, index, result, detail::fitted_window(e.times),
                             " Its outputs are on a uniform grid over the window (the data's times may be slightly "
                             "uneven).") +
         detail::toml_text(root);
}

Json fit_report(const FitScenario& scenario, const fit::Result& result) {
  return detail::fit_report("lumped", scenario, result, detail::StateIn::head, [](const auto& e, const auto& r, Json& j) {
    j["window_s"] = Json(std::vector<double>{e.times.front(), e.times.back()});
    j["samples"] = e.times.size();
    j["initial_f"] = Json(std::vector<double>{r.u0[0], r.u0[1]});
  });
}

RunResult fit_run_result(const FitScenario& scenario, const fit::Result& result, const fs::path& out_dir) {
  RunResult run = detail::fit_run(
      scenario.name,
      detail::fit_series(scenario.experiments, result, "t_s", [](const fit::Experiment& e) -> auto& { return e.times; },
                         {"x_m", "v_mps", "Fz_N"}),
      result, fit_report(scenario, result), fitted_toml(scenario, result, 0, out_dir));
  const std::string target = scenario.experiments.front().targets.front().output;
  run.plot_y = {target + "_measured"};

  // The plot: measured and fitted against time, the residual, and the target against position.
  run.plot_script = detail::fit_plot(scenario.name, target, run.cases.front().series,
                                     {{"t_s", "t_s"}, {"x_m", "x_m (model)"}}, false, "1000,1020");
  return run;
}

// ---- validation window and model comparison -------------------------------------------------------------------

bool is_fit_scenario(const fs::path& path) {
  const std::optional<toml::table> root = detail::read_fit_root(path);
  return root && root->contains("fit");
}

bool has_fit_models(const fs::path& path) {
  const std::optional<toml::table> root = detail::read_fit_root(path);
  const toml::table* f = root ? (*root)["fit"].as_table() : nullptr;
  return f && f->contains("model");
}

std::vector<fit::TargetResult> validation_rms(const FitScenario& scenario, const fit::Result& result) {
  std::vector<fit::TargetResult> out;
  if (scenario.validation.empty()) return out;
  const VecX r =
      fit::residuals(scenario.validation, scenario.parameters, fitted_values(result), scenario.options.initial_state);
  const std::vector<fit::Target>& targets = scenario.validation.front().targets;
  std::vector<double> sum(targets.size(), 0.0);
  std::vector<std::size_t> count(targets.size(), 0);
  Eigen::Index i = 0;
  for (const fit::Experiment& e : scenario.validation)  // experiment-major, then target, then time
    for (std::size_t k = 0; k < e.targets.size(); ++k)
      for (std::size_t n = 0; n < e.times.size(); ++n, ++i) {
        const double d = r[i] / e.targets[k].weight;
        sum[k] += d * d;
        ++count[k];
      }
  for (std::size_t k = 0; k < targets.size(); ++k)
    out.push_back({targets[k].output, targets[k].data_column, std::sqrt(sum[k] / static_cast<double>(count[k]))});
  return out;
}

namespace {

const std::vector<std::string> kCompareLaws = {"dahl", "lugre", "frbd", "bouc_wen"};

/// Whether a schema row's `used_by` ("" always, "lugre, frbd", "all but frictionless") includes law `type`.
bool applies_to(std::string_view used_by, const std::string& type) {
  if (used_by.empty() || used_by == "all") return true;
  if (used_by.rfind("all but ", 0) == 0) return used_by.substr(8) != type;
  std::size_t start = 0;
  while (start <= used_by.size()) {
    std::size_t comma = used_by.find(',', start);
    if (comma == std::string_view::npos) comma = used_by.size();
    std::string_view word = used_by.substr(start, comma - start);
    while (!word.empty() && word.front() == ' ') word.remove_prefix(1);
    while (!word.empty() && word.back() == ' ') word.remove_suffix(1);
    if (word == type) return true;
    start = comma + 1;
  }
  return false;
}

bool law_key_applies(const std::string& key, const std::string& type) {
  for (const schema::KeyRow& row : key_rows("lumped", "law"))
    if (row.path == key || row.path == "law." + key)
      return applies_to(row.field.used_by, type) && !(type == "dahl" && (key == "mu_s" || key == "mu_d"));
  return false;
}

/// The scenario's [law] as law `type`: only the keys that apply to it (Dahl: mu_d sets its one coefficient).
toml::table mapped_law(const toml::table* base, const std::string& type) {
  toml::table law;
  law.insert("type", type);
  if (base)
    for (auto&& [k, v] : *base) {
      const std::string key(k.str());
      if (key != "type" && law_key_applies(key, type)) law.insert(key, v);
    }
  if (type == "dahl" && base && !law.contains("mu")) {  // Dahl's one coefficient mu: the Coulomb level mu_d
    if (const toml::node* mu = base->get("mu_d") ? base->get("mu_d") : base->get("mu_s")) law.insert("mu", *mu);
  }
  return law;
}

/// [fit.parameters] flattened to (key path, spec) pairs (`law.mu_d = {...}` may be written unquoted).
void flatten_parameters(const toml::table& table, const std::string& prefix,
                        std::vector<std::pair<std::string, toml::table>>& out) {
  for (auto&& [k, node] : table) {
    const std::string key = prefix + std::string(k.str());
    const toml::table* spec = node.as_table();
    if (!spec) {
      out.emplace_back(key, toml::table{});  // read_parameters reports the type error
      continue;
    }
    bool is_spec = spec->empty();
    for (const auto& s : kSpecKeys)
      if (spec->contains(s)) is_spec = true;
    if (is_spec)
      out.emplace_back(key, *spec);
    else
      flatten_parameters(*spec, key + ".", out);
  }
}

FitComparison parse_comparison(const toml::table& root, const std::vector<std::string>& names,
                               std::string_view name, const ScenarioSource& source) {
  const toml::table* f = root["fit"].as_table();
  if (!f) throw InvalidInput("missing table [fit] (what to fit: data, targets and parameters; docs/fitting.md)");
  std::vector<const toml::table*> entries;
  std::vector<std::string> labels;
  if (const toml::node* m = f->get("model")) {
    const toml::array* list = m->as_array();
    if (!list || list->empty() || !list->is_array_of_tables())
      throw InvalidInput(fmt::format("fit.model = {}: must be [[fit.model]] tables (label, law, parameters)",
                                     detail::format_node(*m)));
    for (std::size_t i = 0; i < list->size(); ++i) {
      const toml::table* t = (*list)[i].as_table();
      const Section s(t, fmt::format("fit.model[{}]", i));
      s.check_keys({"label", "law", "body1", "body2", "pair", "parameters"});
      std::string label;
      if (const auto l = s.string("label"))
        label = *l;
      else if (const toml::table* law = t->get("law") ? t->get("law")->as_table() : nullptr;
               law && law->get("type") && law->get("type")->value<std::string>())
        label = *law->get("type")->value<std::string>();
      else
        label = fmt::format("model{}", i + 1);
      if (label.empty() || !std::all_of(label.begin(), label.end(), [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
          }))
        throw InvalidInput(fmt::format("fit.model[{}].label = {}: must be letters, digits, '_' or '-' (it names "
                                       "the model's output file)",
                                       i, q(label)));
      if (std::find(labels.begin(), labels.end(), label) != labels.end())
        throw InvalidInput(fmt::format("fit.model[{}].label = {}: two models have this label", i, q(label)));
      entries.push_back(t);
      labels.push_back(label);
    }
  }
  std::vector<std::string> wanted = names;
  if (wanted.empty()) wanted = labels;
  if (wanted.empty())
    throw InvalidInput("nothing to compare: give --compare dahl,lugre,... or [[fit.model]] tables (docs/fitting.md)");

  FitComparison out;
  out.name = root["name"].value<std::string>().value_or(std::string(name));
  const toml::table* base_law = root["law"].as_table();
  const toml::table* base_parameters = (*f)["parameters"].as_table();
  std::vector<std::string> seen;
  for (const std::string& w : wanted) {
    if (std::find(seen.begin(), seen.end(), w) != seen.end())
      throw InvalidInput(fmt::format("--compare: model {} is listed twice", q(w)));
    seen.push_back(w);
    const auto at = std::find(labels.begin(), labels.end(), w);
    const bool entry = at != labels.end();
    if (!entry && std::find(kCompareLaws.begin(), kCompareLaws.end(), w) == kCompareLaws.end()) {
      std::vector<std::string> valid = labels;
      for (const std::string& l : kCompareLaws)
        if (std::find(valid.begin(), valid.end(), l) == valid.end()) valid.push_back(l);
      throw InvalidInput(fmt::format("--compare: unknown model {}{} (the [[fit.model]] labels and the laws: {})",
                                     q(w), detail::suggestion(w, valid), fmt::join(valid, ", ")));
    }
    const std::string where =
        entry ? fmt::format("fit.model[{}] ({})", at - labels.begin(), q(detail::shown_key(w)))
              : fmt::format("--compare {}", q(detail::shown_key(w)));
    toml::table model_root = root;
    toml::table& fit_table = *model_root["fit"].as_table();
    fit_table.erase("model");
    std::string law_type;
    if (entry) {
      const toml::table* t = entries[static_cast<std::size_t>(at - labels.begin())];
      for (const char* section : {"law", "body1", "body2", "pair"})
        if (const toml::node* n = t->get(section)) {
          if (!n->is_table())
            throw InvalidInput(fmt::format("{}.{} = {}: must be a table (it replaces [{}])", where, section,
                                           detail::format_node(*n), section));
          model_root.insert_or_assign(section, *n);
        }
      if (const toml::node* n = t->get("parameters")) {
        if (!n->is_table())
          throw InvalidInput(fmt::format("{}.parameters = {}: must be a table (it replaces [fit.parameters])", where,
                                         detail::format_node(*n)));
        fit_table.insert_or_assign("parameters", *n);
      } else if (t->get("law")) {
        law_type = model_root["law"]["type"].value<std::string>().value_or("");
      }
    } else {
      model_root.insert_or_assign("law", mapped_law(base_law, w));
      law_type = w;
    }
    if (!law_type.empty() && base_parameters) {  // keep the [fit.parameters] that apply to this law
      std::vector<std::pair<std::string, toml::table>> flat;
      flatten_parameters(*base_parameters, "", flat);
      toml::table kept;
      for (auto& [key, spec] : flat)
        if (law_type == "dahl" && key == "law.mu_d")
          kept.insert("law.mu", spec);  // Dahl's one coefficient takes the free Coulomb level
        else if (key.rfind("law.", 0) != 0 || law_key_applies(key.substr(4), law_type))
          kept.insert(key, spec);
      fit_table.insert_or_assign("parameters", std::move(kept));
    }
    try {
      out.models.push_back(FitModel{w, parse_fit(model_root, out.name, source)});
      out.models.back().scenario.name = fmt::format("{}_compare_{}", out.name, w);  // its <...>_fitted.toml
      detail::require_fitted_name("the compared model's name <name>_compare_<label>: ", "name",
                                  out.models.back().scenario.name);
    } catch (const InvalidInput& error) {
      throw InvalidInput(fmt::format("{}: {}", where, error.what()));
    }
  }
  return out;
}

}  // namespace

FitComparison load_fit_comparison(const fs::path& path, const std::vector<std::string>& names) {
  return detail::load_with(path, [&](const toml::table& root, std::string_view name, const ScenarioSource& source) {
    return parse_comparison(root, names, name, source);
  });
}

FitComparison parse_fit_comparison_string(std::string_view toml, const std::vector<std::string>& names,
                                          std::string_view name, const fs::path& directory) {
  return detail::parse_with(toml, name, directory,
                            [&](const toml::table& root, std::string_view n, const ScenarioSource& source) {
                              return parse_comparison(root, names, n, source);
                            });
}

std::vector<ModelFit> fit_models(const FitComparison& comparison, const fit::IterationCallback& progress,
                                 const std::function<void(std::size_t)>& on_model) {
  std::vector<ModelFit> out;
  for (std::size_t m = 0; m < comparison.models.size(); ++m) {
    if (on_model) on_model(m);
    const FitScenario& sc = comparison.models[m].scenario;
    ModelFit mf;
    mf.label = comparison.models[m].label;
    mf.result = fit::fit(sc.experiments, sc.parameters, sc.options, progress);
    mf.validation = validation_rms(sc, mf.result);
    double sum = 0.0;
    std::size_t n = 0;
    for (const fit::TargetResult& t : mf.validation)
      if (t.output.size() > 2 && t.output.compare(t.output.size() - 2, 2, "_N") == 0) {
        sum += t.rms * t.rms;
        ++n;
      }
    if (n > 0) mf.validation_rms_N = std::sqrt(sum / static_cast<double>(n));
    out.push_back(std::move(mf));
  }
  return out;
}

Json compare_report(const FitComparison& comparison, const std::vector<ModelFit>& fits) {
  Json r = Json::object();
  const FitScenario& first = comparison.models.front().scenario;
  double seconds = 0.0;
  for (const ModelFit& f : fits) seconds += f.result.fit_seconds;
  detail::report_header(r, "lumped", comparison.name, first.experiments.front().scenario.description, first.source,
                        seconds);
  r["fit_seconds"] = seconds;
  r["window_s"] = Json(std::vector<double>{first.experiments.front().times.front(),
                                           first.experiments.front().times.back()});
  r["validation_window_s"] = first.validation.empty()
                                 ? Json(nullptr)
                                 : Json(std::vector<double>{first.validation.front().times.front(),
                                                            first.validation.front().times.back()});
  Json models = Json::array();
  for (std::size_t m = 0; m < fits.size(); ++m) {
    const ModelFit& f = fits[m];
    const FitScenario& sc = comparison.models[m].scenario;
    const Json full = fit_report(sc, f.result);
    Json j = Json::object();
    j["label"] = f.label;
    j["law"] = std::string(laws::to_string(sc.experiments.front().scenario.law.kind));
    for (const char* key : {"converged", "termination", "iterations", "evaluations", "fit_seconds", "rms", "rms_N",
                            "aic", "bic", "cost", "residual_count", "condition_number", "warnings"})
      if (const Json* v = full.find(key)) j[key] = *v;
    Json vrms = Json::object();
    for (const fit::TargetResult& t : f.validation) vrms[t.output] = t.rms;
    j["validation_rms"] = f.validation.empty() ? Json(nullptr) : vrms;
    j["validation_rms_N"] = f.validation_rms_N ? Json(*f.validation_rms_N) : Json(nullptr);
    Json parameters = Json::object();
    for (const fit::ParameterResult& p : f.result.parameters) {
      Json pj = Json::object();
      pj["value"] = p.value;
      pj["std_error"] = p.std_error;
      pj["ci95"] = Json(std::vector<double>{p.ci95_low, p.ci95_high});
      pj["at_bound"] = p.at_bound;
      parameters[p.key] = pj;
    }
    j["parameters"] = parameters;
    models.push_back(j);
  }
  r["models"] = models;
  return r;
}

RunResult compare_run_result(const FitComparison& comparison, const std::vector<ModelFit>& fits,
                             const fs::path& out_dir) {
  RunResult run;
  run.name = comparison.name + "_compare";
  run.title = fmt::format("{}: model comparison", comparison.name);
  std::vector<std::string> keys;  // the union of the models' parameters, in order of appearance
  for (const ModelFit& f : fits)
    for (const fit::ParameterResult& p : f.result.parameters)
      if (std::find(keys.begin(), keys.end(), p.key) == keys.end()) keys.push_back(p.key);
  std::vector<std::string> names = {"model", "converged", "rms_N", "validation_rms_N", "aic", "bic", "iterations"};
  names.insert(names.end(), keys.begin(), keys.end());
  TimeSeries table(names);
  const double nan = std::nan("");
  for (std::size_t m = 0; m < fits.size(); ++m) {
    const fit::Result& r = fits[m].result;
    std::vector<double> row = {static_cast<double>(m), r.converged ? 1.0 : 0.0, r.rms_N.value_or(nan),
                               fits[m].validation_rms_N.value_or(nan), r.aic, r.bic,
                               static_cast<double>(r.iterations)};
    for (const std::string& k : keys) {
      double v = nan;
      for (const fit::ParameterResult& p : r.parameters)
        if (p.key == k) v = p.value;
      row.push_back(v);
    }
    table.add_row(row);
  }
  run.optional_columns = {"rms_N", "validation_rms_N"};
  run.optional_columns.insert(run.optional_columns.end(), keys.begin(), keys.end());
  double seconds = 0.0;
  for (const ModelFit& f : fits) seconds += f.result.fit_seconds;
  run.cases.push_back(CaseResult{std::nullopt, std::move(table), seconds});
  run.solve_seconds = seconds;
  run.report = compare_report(comparison, fits);
  run.plot_x = "model";
  run.plot_y = {"rms_N"};
  for (std::size_t m = 0; m < fits.size(); ++m)  // DIR/<name>_compare_<label>_fitted.toml
    run.extra_files.push_back(ExtraFile{fmt::format("_{}_fitted.toml", fits[m].label),
                                        fitted_toml(comparison.models[m].scenario, fits[m].result, 0, out_dir)});

  // The plot: the first experiment's first target, measured and each model's fit over the fitted window and
  // (when given) the validation window. Validation values: measured + residual / weight.
  const FitScenario& first = comparison.models.front().scenario;
  const fit::Experiment& e0 = first.experiments.front();
  const std::string target = e0.targets.front().output;
  struct Panel {
    std::string title;
    std::vector<double> t, measured;
    std::vector<std::vector<double>> fitted;  // per model
  };
  std::vector<Panel> panels(1);
  panels[0].title = "fitted window";
  panels[0].t = e0.times;
  panels[0].measured = e0.targets.front().values;
  for (const ModelFit& f : fits) panels[0].fitted.push_back(f.result.experiments.front().series.column(target));
  if (!first.validation.empty()) {
    Panel v;
    v.title = "validation window";
    const fit::Experiment& ve = first.validation.front();
    v.t = ve.times;
    v.measured = ve.targets.front().values;
    for (std::size_t m = 0; m < fits.size(); ++m) {
      const FitScenario& sc = comparison.models[m].scenario;
      std::vector<fit::Experiment> one = {sc.validation.front()};
      one.front().targets.resize(1);
      const VecX r = fit::residuals(one, sc.parameters, fitted_values(fits[m].result), sc.options.initial_state);
      std::vector<double> y(v.t.size());
      for (std::size_t i = 0; i < y.size(); ++i)
        y[i] = v.measured[i] + r[static_cast<Eigen::Index>(i)] / one.front().targets.front().weight;
      v.fitted.push_back(std::move(y));
    }
    panels.push_back(std::move(v));
  }
  std::vector<std::string> labels;
  for (const ModelFit& f : fits) labels.push_back(f.label);
  run.plot_script = [name = comparison.name, target, labels, panels](const fs::path& png) {
    std::string s;
    s += fmt::format("set terminal pngcairo size 1000,{} noenhanced font 'sans,10'\n", 360 * panels.size() + 60);
    s += fmt::format("set output '{}'\n", gnuplot_quoted(png));
    for (std::size_t k = 0; k < panels.size(); ++k) {
      s += fmt::format("$panel{} << EOD\n", k);
      for (std::size_t i = 0; i < panels[k].t.size(); ++i) {
        s += fmt::format("{} {}", panels[k].t[i], panels[k].measured[i]);
        for (const auto& y : panels[k].fitted) s += std::isfinite(y[i]) ? fmt::format(" {}", y[i]) : " NaN";
        s += '\n';
      }
      s += "EOD\n";
    }
    s += "set grid\nset key outside right top noenhanced\n";
    s += fmt::format("set multiplot layout {},1 title '{}: {} measured and each model fitted' noenhanced\n",
                     panels.size(), name, target);
    for (std::size_t k = 0; k < panels.size(); ++k) {
      s += fmt::format("set title '{}'\nset xlabel 't_s'\nset ylabel '{}'\n", panels[k].title, target);
      s += fmt::format("plot $panel{} using 1:2 with lines linewidth 2 linecolor 'gray' title 'measured'", k);
      for (std::size_t m = 0; m < labels.size(); ++m)
        s += fmt::format(", $panel{} using 1:{} with lines linewidth 1.2 title '{}'", k, m + 3, labels[m]);
      s += '\n';
    }
    s += "unset multiplot\nset output\n";
    return s;
  };
  return run;
}

}  // namespace bristle::io
