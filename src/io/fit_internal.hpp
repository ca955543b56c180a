#pragma once
// Private to src/io: the one [fit] reader and report writer that every kind shares (fit_scenario.cpp: lumped and
// model comparison; fit_map_scenario.cpp: the patch, line and structure kinds).
//
// An experiment's scenario (fit_scenario below) comes from one of two routes:
// - by key path (the usual one): the file without [fit] is parsed (written with only what no key path sets: a
//   `set` value that is not a number, a steady map's grid axis), then the experiment's numeric `set` and its window
//   are applied with set_number (the reader's checks) and the kind's whole-scenario checks run. A time-series kind
//   keeps the first such parse and copies it for every later experiment whose `set` is all numbers.
// - by the TOML, when the first refuses the experiment: every `set` value and the window written into the file,
//   parsed as a whole. A file valid only with its `set` (a required key given only there, a list or signal set to
//   a number) is read this way, and a bad experiment gets the reader's message about the scenario as written.
// The TOML of each experiment (`set` and window written in) is kept as the base of <name>_fitted.toml, an output.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bristle/core/error.hpp"
#include "bristle/fit/fit.hpp"
#include "bristle/io/json.hpp"
#include "bristle/io/key_path.hpp"
#include "bristle/io/scenario.hpp"
#include "bristle/rheology/rheology.hpp"
#include "csv_table.hpp"
#include "toml_reader.hpp"

namespace bristle::io::detail {

inline std::string q(std::string_view s) { return json_quote(s); }

/// The name of a fit's fitted scenario is its own plus this (<name>_fitted.toml holds name = "<name>_fitted"), so a
/// fit scenario's name, and a compared model's <name>_compare_<label>, must leave room for it within kMaxNameBytes.
inline constexpr std::string_view kFittedSuffix = "_fitted";
/// InvalidInput "<where><key> = "<name>": N bytes long; at most M in a fit (...)" when `name` + kFittedSuffix passes
/// kMaxNameBytes.
void require_fitted_name(std::string_view where, std::string_view key, const std::string& name);

/// The text of a scenario file, with the limits of every scenario file (a regular file of at most 4 MiB).
std::string read_fit_text(const std::filesystem::path& path);
/// The scenario file parsed, or nullopt when it cannot be read or parsed (for the questions asked before a reader
/// runs, which then reports why: is it a fit scenario, of which kind).
std::optional<toml::table> read_fit_root(const std::filesystem::path& path);

/// load_<kind>_fit_scenario and parse_<kind>_fit_string of a reader `parse(root, name, source)`.
template <class F>
auto load_with(const std::filesystem::path& path, F parse) {
  const ScenarioSource source = ScenarioSource::of_file(path);
  return parse(parse_toml(read_fit_text(path), source.display_name()), path.stem().string(), source);
}
template <class F>
auto parse_with(std::string_view toml, std::string_view name, const std::filesystem::path& directory, F parse) {
  const ScenarioSource source = ScenarioSource::of_text(directory);
  return parse(parse_toml(toml, source.display_name()), name, source);
}

/// What a kind's [fit] takes, and the words of its messages.
struct FitRules {
  std::string kind;                          // "lumped", "patch_steady_map", ...
  std::vector<std::string> keys;             // the [fit] keys it takes
  std::vector<std::string> refused;          // [fit] keys of other kinds, refused by name
  std::string refused_why;                   // after "fit.<key>: does not apply to kind = \"<kind>\""
  std::vector<std::string> experiment_keys;  // of a [[fit.experiment]]
  std::string fit_doc;                       // "data, targets and parameters"
  std::string targets_doc;                   // "model output column = data column, e.g. F_N = \"F_N\""
  std::string parameters_doc;                // an example after "key path = { initial, min, max[, scale] }"
  std::string experiment_doc;                // what [[fit.experiment]] tables hold
  std::vector<std::string> outputs;          // the columns a target may name (empty: not checked here)
};

struct FitTarget {
  std::string output, column, key;  // key: names the data column in messages
  double weight = 1.0;
};

/// [fit] as every kind reads it: options, targets, parameters, the experiments' tables.
struct FitTable {
  Section f;
  std::string name;
  fit::Options options;
  std::vector<FitTarget> targets;
  std::vector<fit::ParameterSpec> parameters;
  std::vector<std::optional<double>> initial;   // per parameter: its given start (nullopt: the scenario's value)
  std::vector<const toml::table*> experiments;  // [[fit.experiment]]; one nullptr: [fit] itself is the one
  toml::table base;                             // the scenario: the file without [fit]
};
FitTable read_fit_table(const toml::table& root, std::string_view name, const FitRules& rules);

/// One experiment: [[fit.experiment]] i (or [fit]), its data file, label and `set`.
struct FitExperiment {
  Section ex;  // where its own keys are (time_column, window_s, ... fall back to [fit])
  bool own = false;
  std::string data, data_key, label;
  std::filesystem::path path;  // of the data file
  std::vector<std::pair<std::string, const toml::node*>> set;  // key path, value
  const Section& from(const FitTable& t, std::string_view key) const { return ex.has(key) ? ex : t.f; }
};
FitExperiment read_fit_experiment(const FitTable& t, std::size_t i, const FitRules& rules,
                                  const ScenarioSource& source);

/// window_s of `s` as [start, end] (start < end), if given.
std::optional<std::pair<double, double>> read_window(const Section& s);

/// The data file of an experiment: the CSV, the index of column `x` (nullopt: the first; `x_key` names it) and of
/// each target's column. Messages name the key and path:line.
struct FitData {
  std::string where;  // data = "file.csv"
  CsvNumbers csv;
  std::size_t x = 0;
  std::vector<std::size_t> targets;
};
FitData read_fit_data(const FitTable& t, const FitExperiment& e, const std::optional<std::string>& x,
                      const std::string& x_key);

/// The samples of a time-series experiment: the time column and each target's column.
struct FitSamples {
  std::vector<double> times;
  std::vector<std::vector<double>> values;  // per target
};
/// The whole data of a time-series experiment (times strictly increasing, at least 2 rows): read once, then cut to
/// the fitted window and the validation window by window_samples.
FitSamples read_fit_samples(const FitTable& t, const FitExperiment& e);
/// The samples of `data` (read_fit_samples) within `window` (the whole data without one). `validation`: the window is
/// not fitted (no residual count check); `show_window`: a message names the window's values after its key (lumped).
FitSamples window_samples(const FitTable& t, const FitExperiment& e, const FitSamples& data,
                          const std::optional<std::pair<double, double>>& window, const std::string& window_key,
                          bool validation, bool show_window);
std::vector<fit::Target> fit_targets(const FitTable& t, const std::vector<std::vector<double>>& values);

/// The whole list at a key path as an experiment's scenario holds it (its entries by get_number), if it has one.
using WholeList = std::function<std::optional<toml::array>(const std::string&)>;
/// The scenario TOML of an experiment: the file without [fit], `set` written in (every value, or only those that
/// are not numbers), then `edit` (its window, its grid axis). A number set at "path[i]" goes into the file's list, or
/// (a list the file does not write) the list `whole` gives. A `set` key that cannot be written (through a value
/// that is not a table) throws set_toml_path's message.
toml::table fit_toml(const FitTable& t, const FitExperiment& e, const std::function<void(toml::table&)>& edit,
                     bool numbers_too = true, const WholeList& whole = {});
/// WholeList of the scenario `sc`: the entries path[0], path[1], ... that get_number reads (a vector, a branch list).
template <class Sc>
WholeList whole_list_of(const Sc& sc) {
  return [&sc](const std::string& path) -> std::optional<toml::array> {
    toml::array list;
    for (std::size_t k = 0; k <= rheology::kMaxBranches; ++k) {  // a vector has 2
      try {
        list.push_back(get_number(sc, fmt::format("{}[{}]", path, k)));
      } catch (const InvalidInput&) {
        break;
      }
    }
    if (list.empty()) return std::nullopt;
    return list;
  };
}
/// The window written into the TOML: a [time] window (keys "time.*") replaces the file's [time] table.
void set_window_toml(toml::table& table, const std::vector<std::pair<std::string, double>>& window);
/// Sets `path` (dotted) of `root` to `value`, creating missing tables; `key` names it in messages.
void set_toml_path(toml::table& root, const std::string& path, const toml::node& value, const std::string& key);
/// The signal tables' files as absolute paths (the base of <name>_fitted.toml).
void absolute_table_files(toml::table& table, const std::vector<TableFile>& files);
/// A fitted value written into the TOML: "a.b", "a.b[i]" (an element of an array), or "<signal>.value" of a signal the
/// file writes as a number (that number).
void set_toml_value(toml::table& root, const std::string& key, double value);
/// Why [initial] (lumped) is no key of a fit, after "<where>: ": each window starts from fit.initial_state, and the
/// fitted scenario's [initial] is written from it (a fitted initial.f[0] or a set initial.steady did nothing).
inline constexpr std::string_view kInitialIsTheFits =
    "the fit starts each window from fit.initial_state (\"rest\", \"match_first_sample\" or \"steady\"), not from "
    "[initial]";
/// f(key path, value) for each value under `node` at `path`: a table's keys joined by '.' (tables written inline too
/// when `into_inline`; an empty table has none); anything else, `node` itself.
void for_each_leaf(const std::string& path, const toml::node& node, bool into_inline,
                   const std::function<void(const std::string&, const toml::node&)>& f);
/// "path[i]" as (path, i); nullopt for any other key.
std::optional<std::pair<std::string, std::size_t>> indexed_key(const std::string& key);
std::string toml_text(const toml::table& table);
/// Whether the TOML writes `key` (a number, an element of an array, or "<signal>.value" of a signal written as a number).
bool written_in(const toml::table& root, const std::string& key);
/// Whether `node` is a list of one number (a single-branch list: body1.tau = [0.1] is body1.tau's one branch).
bool one_number(const toml::node& node);
/// The numbers `root` writes under the top-level tables `heads`, as key paths (a list's elements as "key[i]").
std::vector<std::string> numbers_written(const toml::table& root, const std::vector<std::string>& heads);
/// "law" of "law.mu_d", "bench" of "bench.x0_m[0]".
inline std::string head_of(const std::string& key) { return key.substr(0, key.find_first_of(".[")); }
/// `text` (the TOML of experiment `index`) with each fitted value written to its written_keys (out.written_keys, which
/// are of experiment 0's TOML; other experiments and an empty list: the parameter's key) and name = <name>_fitted.
toml::table fitted_table(const std::string& text, const std::string& name, const fit::Result& result,
                         const WrittenKeys& written_keys, std::size_t index);
/// The head of <name>_fitted.toml of experiment `index` of `out`: "# <name>_fitted: the scenario <file> with the
/// parameters fitted by `bristle fit` to <data> (<what>)\n# rms_N = <rms_N>, converged = <converged>.<more>\n".
template <class Out>
std::string fitted_head(const Out& out, std::size_t index, const fit::Result& result, const std::string& what,
                        std::string_view more = "") {
  return fmt::format("# {}_fitted: the scenario {} with the parameters fitted by `bristle fit` to {} ({})\n"
                     "# rms_N = {}, converged = {}.{}\n",
                     out.name, out.source.display_name(), out.data_files.at(index), what,
                     result.rms_N ? format_value(*result.rms_N) : "-", result.converged, more);
}
/// A time-series experiment's window in that head: "window <start> .. <end> s, <n> samples".
std::string fitted_window(const std::vector<double>& times);
/// <name>_fitted.toml of experiment `index` of `out` as fitted: its head (fitted_head), then its TOML with the fitted
/// values (fitted_table).
template <class Out>
std::string fitted_text(const Out& out, std::size_t index, const fit::Result& result, const std::string& what) {
  return fitted_head(out, index, result, what) +
         toml_text(fitted_table(out.scenario_toml.at(index), out.name, result, out.written_keys, index));
}

/// Sets every (key path, value) by set_number, in an order the checks pass: one refused now is tried again after
/// the others (mu_s below the old mu_d, a window past the old one); one still refused throws its message.
template <class Sc>
void set_numbers(Sc& sc, std::vector<std::pair<std::string, double>> values) {
  while (!values.empty()) {
    std::vector<std::pair<std::string, double>> refused;
    std::optional<InvalidInput> first;
    for (const auto& [key, value] : values) try {
        set_number(sc, key, value);
      } catch (const InvalidInput& error) {
        if (!first) first = error;
        refused.emplace_back(key, value);
      }
    if (refused.size() == values.size()) throw *first;
    values = std::move(refused);
  }
}

/// `message` of a scenario refused with the window written in (`window`: its key paths and values), when it names one
/// of those keys as `key = value`: then prefixed with where that value came from, which the user wrote (`window_key`
/// = `span`, or without a span the times of the data file `data`), not only `run.t_end_s = 1e8` of no file.
std::string blame_window(const std::string& message, const std::vector<std::pair<std::string, double>>& window,
                         const std::string& window_key, const std::optional<std::pair<double, double>>& span,
                         const std::string& data, std::size_t samples);

/// Whether a `set` key is one the fit sets from the data (`owned`: a key path, or a table as "time."): the window
/// or grid axis, written into the TOML after the `set`, replaces it (as on 9eae582), so the key path skips it.
bool owned_by_fit(std::string_view key, std::string_view owned);

/// The scenario of experiment `e` (the two routes of the head of this file). By key path: the file's, parsed from
/// fit_toml(t, e, edit, false) (without a `cache`, or when its `set` has a value that is not a number, or the first
/// time: that parse is kept in *cache), else a copy of *cache with `window` set; then its numeric `set` by key path
/// (but for what `owned` names: the window or grid axis replaces it, owned_by_fit) and `check` (the kind's
/// whole-scenario checks that set_number does not run). If that throws InvalidInput: parsed from
/// fit_toml(t, e, edit), whose result or message it gives. A parse error of an own experiment names it
/// ("fit.experiment[1] (with fit.experiment[1].set): ...").
template <class Sc>
Sc fit_scenario(const FitTable& t, const FitExperiment& e, std::optional<Sc>* cache,
                const std::function<void(toml::table&)>& edit,
                const std::vector<std::pair<std::string, double>>& window, std::string_view owned,
                const std::function<Sc(const toml::table&)>& parse, const std::function<void(const Sc&)>& check = {}) {
  std::vector<std::pair<std::string, double>> numbers;
  bool set_not_number = false;  // a `set` value with no key path (a table's file name): written into the TOML
  for (const std::pair<std::string, const toml::node*>& kv : e.set)
    if (owned_by_fit(kv.first, owned))
      continue;
    else if (kv.second->is_number())
      numbers.emplace_back(kv.first, *kv.second->value<double>());
    else
      set_not_number = true;
  try {
    std::optional<Sc> sc;
    if (cache && !set_not_number && *cache) {
      sc = **cache;
      numbers.insert(numbers.begin(), window.begin(), window.end());
    } else {
      sc = parse(fit_toml(t, e, edit, false));
      if (cache && !set_not_number) *cache = *sc;
    }
    set_numbers(*sc, numbers);
    if (check) check(*sc);
    return std::move(*sc);
  } catch (const InvalidInput&) {
    // By the TOML: what the key path refused may be valid as written (e.g. a list set to a number).
  }
  const toml::table table = fit_toml(t, e, edit);
  try {
    return parse(table);
  } catch (const InvalidInput& error) {
    if (!e.own) throw;
    // An error the experiment gives without its `set` too (the file's, or its window's) is not the set's: it was
    // blamed on a set the experiment did not have (helper-53).
    bool from_set = !e.set.empty();
    if (from_set) {
      FitExperiment bare = e;
      bare.set.clear();
      try {
        (void)parse(fit_toml(t, bare, edit));
      } catch (const InvalidInput& without) {
        from_set = std::string_view(without.what()) != error.what();
      }
    }
    if (!from_set) throw InvalidInput(fmt::format("{}: {}", e.ex.path(), error.what()));
    throw InvalidInput(fmt::format("{} (with {}.set): {}", e.ex.path(), e.ex.path(), error.what()));
  }
}

/// moved[i][j]: whether setting keys[i] of `sc` (to a trial value near its own that the scenario takes) moves the
/// value of keys[j]. One copy and one set per key, then every other key read; a key that cannot be read or set moves
/// nothing. Two keys that move each other are one parameter under two key paths (Dahl's law.mu and law.mu_d,
/// bench.normal_load_N and bench.normal_load.value); a derived key moves one way only (body1.k0 moves body2.k0
/// through pair.s, but body2.k0 moves pair.s, not body1.k0).
template <class Sc>
std::vector<std::vector<char>> moved_by(const Sc& sc, const std::vector<std::string>& keys) {
  const std::size_t n = keys.size();
  std::vector<std::vector<char>> moved(n, std::vector<char>(n, 0));
  std::vector<std::optional<double>> before(n);
  for (std::size_t i = 0; i < n; ++i) {
    try {
      before[i] = get_number(sc, keys[i]);
    } catch (const InvalidInput&) {
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (!before[i]) continue;
    for (const double trial : {*before[i] * 1.25 + 0.125, *before[i] * 0.75, *before[i] + 1.0}) {
      Sc copy = sc;
      try {
        set_number(copy, keys[i], trial);
      } catch (const InvalidInput&) {
        continue;  // a value the scenario refuses: try the next
      } catch (const SolverError&) {
        continue;  // a check that solves (a steady initial state) and fails there
      }
      for (std::size_t j = 0; j < n; ++j) {
        if (j == i || !before[j]) continue;
        try {
          moved[i][j] = get_number(copy, keys[j]) != *before[j];
        } catch (const InvalidInput&) {
        }
      }
      break;
    }
  }
  return moved;
}

/// Where the values of `keys` go in the TOML `file`: for each key, the key paths of the same parameter (itself and
/// every key that moves it and that it moves, moved_by) that `file` writes; the key itself when the file writes none
/// (written in as it is, or refused by the read-back). E.g. law.mu_d of a Dahl law written as `mu` goes to law.mu,
/// written as `mu_s = mu_d` to both, bench.normal_load.value to normal_load_N. `moved`: moved_by over `keys` (their
/// block, for the callers' alias checks).
template <class Sc>
std::vector<std::vector<std::string>> where_written(const Sc& sc, const toml::table& file,
                                                    const std::vector<std::string>& keys,
                                                    std::vector<std::vector<char>>& moved) {
  std::vector<std::string> all = keys;  // then the numbers the file writes in the keys' tables
  std::vector<std::string> heads;
  for (const std::string& k : keys) heads.push_back(head_of(k));
  for (const std::string& k : numbers_written(file, heads))
    if (std::find(all.begin(), all.end(), k) == all.end()) all.push_back(k);
  moved = moved_by(sc, all);
  std::vector<std::vector<std::string>> where(keys.size());
  for (std::size_t j = 0; j < keys.size(); ++j) {
    for (std::size_t i = 0; i < all.size(); ++i)
      if ((i == j || (i >= keys.size() && moved[i][j] && moved[j][i])) && written_in(file, all[i]))
        where[j].push_back(all[i]);
    if (where[j].empty()) where[j].push_back(keys[j]);
  }
  return where;
}

/// Experiment `index`'s `set` checked and written where the file writes its parameters, on its own scenario `sc` (a
/// `set` may change the law: mu_s and mu_d are one for Dahl, two for LuGre). Refused: a number under another key path
/// of a fitted parameter (the fit's value overwrote it without a word), and two key paths of one parameter given
/// different values. Each number under a dotted key goes where where_written says (its TOML, fit_toml, is the base
/// of <name>_fitted.toml and must read back); a table written inline is written as given (read_fit_experiment split a
/// table of dotted keys into its key paths).
template <class Sc>
FitExperiment experiment_set(const FitTable& t, std::size_t index, FitExperiment e, const Sc& sc) {
  if (e.set.empty()) return e;
  std::vector<std::string> keys;  // the fitted keys, then the numbers `set` gives (a table value sets each of its
  for (const fit::ParameterSpec& p : t.parameters) keys.push_back(p.key);  // keys), with their values
  const std::size_t fitted = keys.size();
  std::vector<double> given;
  for (const auto& [key, node] : e.set)
    for_each_leaf(key, *node, true, [&](const std::string& path, const toml::node& leaf) {
      if (!leaf.is_number()) return;
      keys.push_back(path);
      given.push_back(*leaf.value<double>());
    });
  if (keys.size() == fitted) return e;
  std::vector<std::vector<char>> m;
  const auto where = where_written(sc, t.base, keys, m);
  const auto alias = [&](std::size_t i, std::size_t j) { return m[i][j] && m[j][i]; };
  for (std::size_t s = fitted; s < keys.size(); ++s) {
    for (std::size_t j = 0; j < fitted; ++j)
      if (alias(s, j))
        throw InvalidInput(fmt::format("fit.experiment[{}].set: {} is the fitted parameter {} under another key path "
                                       "(setting either sets the other); the fit gives its value in every "
                                       "experiment: remove it from set or from fit.parameters",
                                       index, json_quote(keys[s]), json_quote(keys[j])));
    for (std::size_t r = fitted; r < s; ++r)  // two of one parameter may be given alike (Dahl's mu_s = mu_d)
      if (alias(r, s) && given[r - fitted] != given[s - fitted])
        throw InvalidInput(fmt::format("fit.experiment[{}].set: {} = {} and {} = {} are one parameter under two key "
                                       "paths (setting either sets the other): give one",
                                       index, json_quote(keys[r]), format_value(given[r - fitted]),
                                       json_quote(keys[s]), format_value(given[s - fitted])));
  }
  std::vector<std::pair<std::string, const toml::node*>> set;
  for (const auto& [key, node] : e.set) {
    const auto at = std::find(keys.begin() + static_cast<long>(fitted), keys.end(), key);
    if (!node->is_number() || at == keys.end()) {
      set.emplace_back(key, node);
      continue;
    }
    for (const std::string& k : where[static_cast<std::size_t>(at - keys.begin())]) set.emplace_back(k, node);
  }
  e.set = std::move(set);
  return e;
}

/// Each parameter's start: as given, else the first experiment's value; then the kind's checks (`parse`: the kind's
/// reader, which must read the fitted scenario back); then the parameters and options of `out` (whose experiments are
/// read).
template <class Out, class Sc>
void finish_fit(FitTable& t, Out& out, const std::function<Sc(const toml::table&)>& parse) {
  const auto& experiments = out.experiments;
  for (std::size_t j = 0; j < t.parameters.size(); ++j) {
    fit::ParameterSpec& p = t.parameters[j];
    if (t.initial[j]) {
      p.initial = *t.initial[j];
    } else {
      try {
        p.initial = get_number(experiments.front().scenario, p.key);
      } catch (const InvalidInput& error) {
        throw InvalidInput(fmt::format("fit.parameters.{}: {}", json_quote(p.key), error.what()));
      }
      if (!std::isfinite(p.initial))  // a ramp that never ends (t_end = inf): not a start
        throw InvalidInput(fmt::format("fit.parameters.{}: the scenario's value is {}, which is no start: give "
                                       "initial (a value in [min, max])",
                                       json_quote(p.key), format_value(p.initial)));
    }
  }
  // A parameter is a continuous number within the key's range: an integer key failed in the solver (exit 3), and
  // bounds outside the range (law.mu_s down to -2, pair.s up to 1.5) let the optimiser step where the reader refuses.
  // The scenario at the starting values: each bound is tried with the others at theirs (a bound may be valid only
  // with another parameter's start, Bouc-Wen's beta1 + gamma > 0). If the start itself is refused, fit::validate
  // says so, naming the parameter.
  auto at_start = experiments.front().scenario;
  bool start_ok = true;
  try {
    std::vector<std::pair<std::string, double>> start;
    for (const fit::ParameterSpec& p : t.parameters) start.emplace_back(p.key, p.initial);
    set_numbers(at_start, start);
  } catch (const InvalidInput&) {
    start_ok = false;
  }
  for (const fit::ParameterSpec& p : t.parameters) {
    const std::string name = fmt::format("fit.parameters.{}", json_quote(p.key));
    KeyInfo info;
    try {
      info = key_info(experiments.front().scenario, p.key);
    } catch (const InvalidInput& error) {
      throw InvalidInput(fmt::format("{}: {}", name, error.what()));
    }
    if (info.integer)
      throw InvalidInput(fmt::format("{}: {} is an integer key ({}); a fit varies its parameters continuously: set "
                                     "it in the scenario (or sweep it)",
                                     name, p.key, info.range));
    // [time] is the fit's (its data window: a fitted t_end_s changed nothing) and [integrator] the numerics (a fitted
    // dt_s went to its bound with an interval wider than itself, "converged"; helper-48): neither is the model's.
    for (const auto& [table, why] : {std::pair{"time", "the fit takes the times from the data"},
                                     std::pair{"integrator", "the integrator's settings are numerics"}})
      if (p.key.rfind(std::string(table) + ".", 0) == 0)
        throw InvalidInput(fmt::format("{}: the keys of [{}] are not model parameters ({}); set them in the scenario",
                                       name, table, why));
    // [initial] (lumped): a fitted initial.f[0] changed nothing and ended with no interval (helper-52)
    if (p.key.rfind("initial.", 0) == 0)
      throw InvalidInput(fmt::format("{}: the keys of [initial] are not model parameters: {}", name,
                                     kInitialIsTheFits));
    // likewise every other setting of the method the schema marks (a step, a Courant number, a tolerance, a run's
    // span): the kinds' own [run], [line], [transient], [patch] keys
    if (info.numerics)
      throw InvalidInput(fmt::format("{}: {} is a setting of the numerical method ({}), not a model parameter; set it "
                                     "in the scenario",
                                     name, p.key, info.doc));
    for (const auto& [bound, value] : {std::pair{".min", p.min}, std::pair{".max", p.max}}) {
      if (!std::isfinite(value)) continue;  // fit::validate says so
      info.rule.check(name + bound, value);
      // and the law's or kind's own limits beyond the schema's rule (law.eps <= 1 m^2/s^2), as the reader says them
      if (!start_ok) continue;
      auto sc = at_start;
      try {
        set_number(sc, p.key, value);
      } catch (const InvalidInput& error) {
        throw InvalidInput(fmt::format("{}{} = {}: a value the scenario refuses: {}", name, bound, format_value(value),
                                       error.what()));
      }
    }
  }
  // "listed twice" and the `set` refusal (read_fit_table, read_fit_experiment) compare key paths; these are the same
  // parameter under two (a fit of both was two parameters fighting over one value, a `set` of the other was
  // overwritten by the fit's value without a word). On each experiment's own scenario (a `set` may change the law:
  // mu_s and mu_d are one for Dahl, two for LuGre). The candidates beside the fitted keys: the numeric keys the first
  // experiment's TOML writes in the same tables, where each fitted value is then written (written_keys).
  const auto alias = [](const std::vector<std::vector<char>>& m, std::size_t i, std::size_t j) {
    return m[i][j] && m[j][i];
  };
  std::vector<std::string> keys;
  for (const fit::ParameterSpec& p : t.parameters) keys.push_back(p.key);
  const std::size_t fitted = keys.size();
  std::optional<toml::table> base;  // experiment 0's TOML, the base of <name>_fitted.toml
  if constexpr (requires { out.scenario_toml; }) base = parse_toml(out.scenario_toml.front(), "fitted scenario", true);
  {
    static const toml::table none;  // a kind without scenario_toml writes no fitted scenario
    std::vector<std::vector<char>> m;
    const auto where = where_written(start_ok ? at_start : experiments.front().scenario, base ? *base : none, keys, m);
    for (std::size_t j = 0; j < fitted; ++j)
      for (std::size_t i = 0; i < j; ++i)
        if (alias(m, i, j))
          throw InvalidInput(fmt::format("fit.parameters.{}: the same parameter as fit.parameters.{} (setting either "
                                         "sets the other); fit it once",
                                         json_quote(keys[j]), json_quote(keys[i])));
    if constexpr (requires { out.written_keys; }) out.written_keys = where;
  }
  // (each experiment's `set` was checked against these keys as it was read: experiment_set)
  // A label given names an experiment in the report and the plots: two alike made the report ambiguous. (Without one
  // the label is the data file's name, which two experiments may share with different `set`s.)
  const auto labelled = [&](std::size_t i) { return i < t.experiments.size() && t.experiments[i] &&
                                                    t.experiments[i]->contains("label"); };
  for (std::size_t j = 1; j < experiments.size(); ++j)
    for (std::size_t i = 0; i < j; ++i)
      if (experiments[j].label == experiments[i].label && (labelled(i) || labelled(j)))
        throw InvalidInput(fmt::format("fit.experiment[{}].label = {}: the label of fit.experiment[{}] (a label names an "
                                       "experiment in the report and the plots): give each experiment a label of its own",
                                       labelled(j) ? j : i, json_quote(experiments[j].label), labelled(j) ? i : j));
  // Each fitted value must have a place in <name>_fitted.toml (experiment 0's TOML, the file `bristle fit` writes),
  // and that file must read back with the values fitted. Both failed only after the whole fit: a vector component the
  // file does not write (bench.x0_m[0] with x0_m at its default; helper-48), bench.normal_load.value beside the
  // file's normal_load_N written as a table the reader refuses, law.mu_d written beside a Dahl law's mu_s = mu_d
  // (helper-50, helper-51). Checked with the starting values, each read back by get_number.
  if constexpr (requires { out.scenario_toml; out.written_keys; }) {
    const auto written = [&](std::size_t j, double value, toml::table& root) {
      const std::string& key = keys[j];
      for (const std::string& k : out.written_keys[j]) {
        try {
          set_toml_value(root, k, value);
        } catch (const InvalidInput&) {
          const std::string whole = key.substr(0, key.find('['));
          if (whole == key)
            throw InvalidInput(fmt::format("fit.parameters.{}: the fitted value has no place in the fitted scenario "
                                           "(the file writes {} in another form); fit the key the file writes",
                                           json_quote(key), key));
          if (const toml::node* n = root.at_path(whole).node(); n && n->is_number())
            throw InvalidInput(fmt::format("fit.parameters.{}: the file writes {} as one number; write it as a list "
                                           "of its components to fit one of them",
                                           json_quote(key), whole));
          throw InvalidInput(fmt::format("fit.parameters.{}: the scenario does not write {}, so the fitted value has "
                                         "no place in the fitted scenario; fit a key the file writes, or write {} in "
                                         "the file (all its components)",
                                         json_quote(key), whole, whole));
        }
      }
    };
    if (start_ok) {  // else fit::validate names the refused start (a derived key: "set body1.k")
      toml::table root = *base;
      for (std::size_t j = 0; j < fitted; ++j) written(j, t.parameters[j].initial, root);
      // `table` parses, and parameters [from, to) read back as their starting values
      const auto reads_back = [&](const toml::table& table, std::size_t from, std::size_t to) {
        const auto sc = parse(table);
        for (std::size_t j = from; j < to; ++j) {
          const double got = get_number(sc, keys[j]), want = t.parameters[j].initial;
          if (std::abs(got - want) > 1e-12 * std::max(std::abs(got), std::abs(want)))
            throw InvalidInput(fmt::format("{} reads back as {}, not {}", keys[j], format_value(got),
                                           format_value(want)));
        }
      };
      try {
        reads_back(*base, 0, 0);  // experiment 0 as the file and its `set` write it, no value changed
      } catch (const InvalidInput& error) {
        throw InvalidInput(fmt::format("{}: the scenario with it written into the file does not read back ({}): give "
                                       "the keys the file writes",
                                       t.experiments.front() ? "fit.experiment[0].set" : "fit", error.what()));
      }
      try {
        reads_back(root, 0, fitted);
      } catch (const InvalidInput& all) {
        for (std::size_t j = 0; j < fitted; ++j) {  // the one that breaks it
          toml::table one = *base;
          written(j, t.parameters[j].initial, one);
          try {
            reads_back(one, j, j + 1);
          } catch (const InvalidInput& error) {
            throw InvalidInput(fmt::format("fit.parameters.{}: the fitted scenario would not read back with its value "
                                           "written in ({}); fit the key the file writes",
                                           json_quote(keys[j]), error.what()));
          }
        }
        throw InvalidInput(fmt::format("fit.parameters: the fitted scenario would not read back with the fitted "
                                       "values written in: {}",
                                       all.what()));
      }
    }
  }
  fit::validate(experiments, t.parameters);
  out.parameters = t.parameters;
  out.options = t.options;
}

/// What a time-series kind (lumped, patch_transient, structure_stick_slip, line_transient) gives the reader below.
template <class Sc>
struct SeriesKind {
  FitRules rules;
  std::function<void(FitTable&)> initial_state;  // reads (or refuses) fit.initial_state
  bool show_window = false;                      // messages give the window's values after its key (lumped)
  /// The scenario's time grid over the window (the data's times): key path and value.
  std::function<std::vector<std::pair<std::string, double>>(const std::vector<double>&)> window;
  std::function<Sc(const toml::table&, const std::string&, const ScenarioSource&)> parse;
  /// The reader's whole-scenario checks that set_number does not run (lumped: LumpedScenario::validate()).
  std::function<void(const Sc&)> check;
  /// Rewrites the scenario's file references in its TOML as absolute paths (the base of <name>_fitted.toml); when
  /// not given, those of its signal tables (Sc::table_files, absolute_table_files).
  std::function<void(toml::table&, const Sc&)> absolute_files;
};

/// The [fit] of a time-series kind: data, time_column, window_s, (validation_window_s: when Out has `validation`),
/// initial_state, targets, parameters, multi_start, seed, max_iterations, [[fit.experiment]]. Each experiment's
/// scenario by fit_scenario: by key path a copy of the first parse of the file with its window and `set` (parsed
/// again for a `set` of a file name), else by the TOML.
template <class Out, class Sc>
Out parse_series_fit(const toml::table& root, std::string_view name, const ScenarioSource& source,
                     const SeriesKind<Sc>& kind) {
  FitTable t = read_fit_table(root, name, kind.rules);
  kind.initial_state(t);
  Out out;
  if constexpr (requires { out.kind; }) out.kind = kind.rules.kind;
  out.name = t.name;
  out.source = source;
  const auto window_default = read_window(t.f);
  std::optional<std::pair<double, double>> validation_window;
  if (t.f.has("validation_window_s")) {
    const auto w = t.f.numbers("validation_window_s");
    if (!w || w->size() != 2 || !((*w)[0] < (*w)[1]))
      throw InvalidInput(fmt::format("fit.validation_window_s = {}: must be [start, end] with start < end (s)",
                                     format_node(*t.f.node("validation_window_s"))));
    validation_window = std::make_pair((*w)[0], (*w)[1]);
  }
  const std::function<Sc(const toml::table&)> parse = [&](const toml::table& table) {
    return kind.parse(table, t.name, source);
  };
  std::optional<Sc> cached;
  // Per experiment, its tables and its whole data: read for its fit window, kept for fit.validation_window_s.
  std::vector<FitExperiment> read_experiments;
  std::vector<FitSamples> read_data;
  // Experiment i over its fit window, or (validation, after every fit window) over fit.validation_window_s.
  const auto build = [&](std::size_t i, bool validation) {
    if (!validation) read_experiments.push_back(read_fit_experiment(t, i, kind.rules, source));
    const FitExperiment& x = read_experiments[i];
    const bool own_window = !validation && x.own && x.ex.has("window_s");
    const auto span = validation ? validation_window : own_window ? read_window(x.ex) : window_default;
    if (!validation) read_data.push_back(read_fit_samples(t, x));
    const std::string window_key =
        validation ? "fit.validation_window_s" : own_window ? x.ex.key("window_s") : "fit.window_s";
    const FitSamples samples = window_samples(t, x, read_data[i], span, window_key, validation, kind.show_window);
    const auto window = kind.window(samples.times);
    const std::string owned = window.front().first.rfind("time.", 0) == 0 ? "time." : window.front().first;
    const auto edit = [&](toml::table& table) { set_window_toml(table, window); };
    typename decltype(out.experiments)::value_type e;
    try {
      e.scenario = fit_scenario<Sc>(t, x, &cached, edit, window, owned, parse, kind.check);
    } catch (const InvalidInput& error) {
      throw InvalidInput(blame_window(error.what(), window, window_key, span, x.data, samples.times.size()));
    }
    e.label = x.label;
    e.times = samples.times;
    e.targets = fit_targets(t, samples.values);
    if (!validation) {
      toml::table table = fit_toml(t, experiment_set(t, i, x, e.scenario), edit, true, whole_list_of(e.scenario));
      if (kind.absolute_files)
        kind.absolute_files(table, e.scenario);
      else if constexpr (requires { e.scenario.table_files; })
        absolute_table_files(table, e.scenario.table_files);
      out.scenario_toml.push_back(toml_text(table));
      out.data_files.push_back(x.data);
    }
    return e;
  };
  for (std::size_t i = 0; i < t.experiments.size(); ++i) out.experiments.push_back(build(i, false));
  if constexpr (requires { out.validation; })
    if (validation_window)
      for (std::size_t i = 0; i < t.experiments.size(); ++i) out.validation.push_back(build(i, true));
  finish_fit(t, out, parse);
  return out;
}

/// Where a report gives fit.initial_state: not at all (steady maps), after best_start (lumped), after bic.
enum class StateIn { none, head, tail };
/// The report's part every kind shares: header, result, parameters, correlation, rms, aic, bic.
Json fit_result_json(std::string_view kind, const std::string& name, const std::string& description,
                     const ScenarioSource& source, const fit::Options& options, const fit::Result& result,
                     StateIn state);
/// The report of a fit: fit_result_json, then "experiments" (label, data, then `fields(experiment, its result,
/// json)`) and "warnings".
template <class Out, class F>
Json fit_report(std::string_view kind, const Out& out, const fit::Result& result, StateIn state, F fields) {
  Json r = fit_result_json(kind, out.name, out.experiments.front().scenario.description, out.source, out.options,
                           result, state);
  Json experiments = Json::array();
  for (std::size_t i = 0; i < out.experiments.size(); ++i) {
    Json j = Json::object();
    j["label"] = out.experiments[i].label;
    j["data"] = out.data_files[i];
    fields(out.experiments[i], result.experiments[i], j);
    experiments.push_back(j);
  }
  r["experiments"] = experiments;
  r["warnings"] = Json(result.warnings);
  return r;
}

/// The CSV table of a fit: [experiment,] x, per target <out>_measured, _fitted, _residual, then `extra` model
/// columns; `x(e)` gives experiment e's x values.
template <class E, class X>
TimeSeries fit_series(const std::vector<E>& experiments, const fit::Result& result, const std::string& x_name, X x,
                      const std::vector<std::string>& extra = {}) {
  const bool several = experiments.size() > 1;
  std::vector<std::string> names;
  if (several) names.push_back("experiment");
  names.push_back(x_name);
  for (const fit::Target& t : experiments.front().targets)
    for (const char* suffix : {"_measured", "_fitted", "_residual"}) names.push_back(t.output + suffix);
  names.insert(names.end(), extra.begin(), extra.end());
  TimeSeries series(names);
  for (std::size_t e = 0; e < experiments.size(); ++e) {
    const std::vector<double>& xs = x(experiments[e]);
    const TimeSeries& model = result.experiments[e].series;
    // The model's columns, looked up by name once per experiment (not per row).
    std::vector<const std::vector<double>*> fitted, more;
    for (const fit::Target& t : experiments[e].targets) fitted.push_back(&model.column(t.output));
    for (const std::string& c : extra) more.push_back(&model.column(c));
    std::vector<double> row;
    for (std::size_t i = 0; i < xs.size(); ++i) {
      row.clear();
      if (several) row.push_back(static_cast<double>(e));
      row.push_back(xs[i]);
      for (std::size_t k = 0; k < fitted.size(); ++k) {
        const double measured = experiments[e].targets[k].values[i], y = (*fitted[k])[i];
        row.push_back(measured);
        row.push_back(y);
        row.push_back(y - measured);
      }
      for (const auto* c : more) row.push_back((*c)[i]);
      series.add_row(row);
    }
  }
  return series;
}

/// The plot of a fit: `data` (its CSV table), a panel of `target` measured and fitted against xs[0], one of its
/// residual, then one of measured and fitted against each further x (column, axis label). `points`: measured
/// values and residuals as points in the order of x (a map's rows), else lines (a gap between experiments).
std::function<std::string(const std::filesystem::path&)> fit_plot(
    const std::string& name, const std::string& target, const TimeSeries& data,
    const std::vector<std::pair<std::string, std::string>>& xs, bool points, const std::string& size);

/// The outputs of a fit: <name>_fit.csv (`series`), .json (`report`), <name>_fitted.toml (`fitted`).
RunResult fit_run(const std::string& name, TimeSeries series, const fit::Result& result, Json report,
                  std::string fitted);

}  // namespace bristle::io::detail
