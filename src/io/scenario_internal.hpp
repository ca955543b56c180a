#pragma once
// Private: pieces shared by the dispatcher (scenario.cpp) and the kinds (lumped.cpp).
#include <toml++/toml.h>

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bristle/contact/bench.hpp"
#include "bristle/contact/signal.hpp"
#include "bristle/core/schema.hpp"
#include "bristle/io/json.hpp"
#include "bristle/io/key_path.hpp"  // declares the scenario types of the kinds
#include "bristle/io/scenario.hpp"
#include "toml_reader.hpp"

namespace bristle::io::detail {

struct ReaderHooks;  // schema_reader.hpp

/// Most cases a scenario may give (sweep values, [[case]] tables, their product): each is parsed, validated
/// and solved on its own, and a sweep copies the whole TOML table once per case.
inline constexpr std::size_t kMaxCases = 10'000;
/// Most output times of a lumped run (time.outputs, or t_end_s / output_dt_s + 1): the run peaks at ~470
/// bytes per output row (21 columns held in memory, then the CSV text written from them: 4.3e6 rows took
/// 2.0 GB in the mutation run of 2026-12-04), so 2e6 rows stay under 1 GB.
inline constexpr std::size_t kMaxOutputTimes = contact::kMaxRunOutputs;  // what one bench run holds
/// Most output rows of a study, every case together (the rows of <name>.csv): a run holds every case's rows until
/// it writes them, so the limit of one case (kMaxOutputTimes, ~1 GB) is the study's too. A sweep of 7 cases of
/// 506,215 output times each took 2.1 GB (mutation run of 2026-12-06), and one of 10,000 cases was unbounded.
inline constexpr std::size_t kMaxStudyRows = kMaxOutputTimes;
/// The number of output times of `g` (times().size()) or one more, without forming them.
std::size_t output_times_bound(const TimeGrid& g);
/// InvalidInput "<where>: the study's output is <rows> rows after case <index + 1> of <cases>; at most ..." when
/// `rows` (of the cases up to `index`, 0-based) pass kMaxStudyRows (`where` empty: "the study's output: ...").
/// Every Study's constructor counts its rows with it before the run (count_study_rows in study.hpp; patch_steady_map
/// before its cases are built), so that `check` refuses them; run_study checks again as it solves.
void require_study_rows(std::string_view where, double rows, std::size_t index, std::size_t cases);

/// Longest scenario name, bytes: it is the stem of DIR/<name>_fields.csv, within the 255 bytes of a file name.
inline constexpr std::size_t kMaxNameBytes = 200;

/// InvalidInput "<where>: key path \"<its first 40 bytes>...\" is N bytes long; at most 200 (...)" (shown_key) for a
/// longer `key`; `where` empty: the message starts at "key path".
void require_key_path_size(std::string_view where, std::string_view key);

/// A scenario name must be usable as a file stem: not empty, no '/' or control characters, not "." or "..",
/// at most kMaxNameBytes.
void validate_name(const std::string& key, const std::string& name);

/// Parses `toml` and reads it with `parse(root, name, source)` (a kind's reader of the root Section).
template <class Parse>
auto parse_text(std::string_view toml, std::string_view name, const ScenarioSource& source, Parse&& parse) {
  const toml::table root = parse_toml(toml, source.display_name());
  return parse(Section(&root, ""), name, source);
}

/// The keys of `table` ("" = the top level) in `p`'s schema (serialize()), in its order; with `form`, only those
/// used by it (used_by empty or naming it).
template <class T>
std::vector<std::string> schema_keys(const T& p, std::string_view table = {}, std::string_view form = {}) {
  schema::KeyTable rows;
  serialize(rows, p);
  std::vector<std::string> out;
  for (const schema::KeyRow& row : rows.rows()) {
    const std::size_t dot = row.path.rfind('.');
    if (std::string_view(row.path).substr(0, dot == std::string::npos ? 0 : dot) != table) continue;
    if (!form.empty() && !row.field.used_by.empty() && row.field.used_by.find(form) == std::string_view::npos) continue;
    out.push_back(dot == std::string::npos ? row.path : row.path.substr(dot + 1));
  }
  return out;
}

/// Whether `name` can be a CSV column of the output: not empty, no comma, quote or control character (the header row
/// is written unquoted).
bool csv_column_name(std::string_view name);

/// [output] plot_x and plot_y name columns of `columns` ("output.plot_y[1] = \"x\": unknown column; did you mean ...").
void check_plot_columns(const OutputOptions& output, const std::vector<std::string>& columns);

/// The head every kind's JSON report starts with: bristle_version, kind, name, description, scenario
/// (the absolute path of the file, null for a scenario read from a string) and solve_seconds.
void report_header(Json& report, std::string_view kind, const std::string& name, const std::string& description,
                   const ScenarioSource& source, double solve_seconds);

/// "; did you mean \"<nearest>\"?" for an unknown `word`, or "" when nothing in `valid` is near.
std::string suggestion(std::string_view word, const std::vector<std::string>& valid);

/// A grid of numbers as scenarios write it: a number, an array of numbers, or
/// { from, to, points, spacing = "linear" | "log" } (both ends included; "log" needs from > 0).
struct NumberGrid {
  std::vector<double> values;
  bool scalar = false;  // written as one number
  bool table = false;   // written as { from, to, points, spacing }
  bool log = false;     // spacing = "log"
};
/// Reads `name` of `k` as a NumberGrid (missing: k.missing(name, description)). `item` names one value
/// in messages ("velocity", "value"); at most `max_points` points.
NumberGrid read_number_grid(const Section& k, const std::string& name, std::string_view description,
                            std::string_view item, std::int64_t max_points);

/// Reads the [sweep] table (if any) of `root`: parameter, values (kept as TOML nodes so that
/// integers stay integers) and column.
struct SweepSpec {
  Sweep sweep;
  toml::array value_nodes;
};
std::optional<SweepSpec> read_sweep(const toml::table& root);
std::optional<SweepSpec> read_sweep(const Section& root);
/// The [sweep] of a kind that applies it by key path (detail::sweep_cases): read_sweep, refusing a column the kind
/// already writes (`columns`).
std::optional<Sweep> read_key_path_sweep(const Section& root, const std::vector<std::string>& columns);

/// The lumped [sweep]'s checks of its parameter in the file, before the file is parsed: `path` must be a dotted key
/// whose value, where the file gives one, is a finite number (`sweep.parameter = "law.type": law.type is a string,
/// not a number`), and an index into a list the file gives must exist. Anything the file does not spell out (an
/// absent key, table or vector, a constant signal given as a number) is left to the key path (io::set_number), which
/// names the nearest valid key. Nothing is written: the cases are copies of the parsed scenario with the value set by
/// key path (lumped.cpp, parse_lumped).
void check_swept_key(const toml::table& root, const std::string& path);

// ---- Readers of the lumped kind shared with the other kinds (defined in lumped.cpp) --------------

/// A body as read from [body1] / [body2].
struct Body {
  bool present = false;
  rheology::RheologyParams params = rheology::rigid();
  std::optional<MatrixValue> k0;  // body k0 / k_inf as written
  std::vector<double> tau;        // branch tau as written, when given by tau (scalar; NaN: a matrix)
};
/// [law] of `root`.
laws::LawParams read_law(const Section& root);
/// [body1] or [body2] of `root` (`required`: a missing table is an error).
Body read_body(const Section& root, const std::string& name, bool required);
/// [pair] s: sets body2.k0 from body1.k0; checks that the bodies that need a k0 have one.
void read_pair(const Section& root, Body& body1, Body& body2, std::optional<double>& pair_s);
/// A signal (a number or a table with a type) under `parent`.`name`, which must be present.
contact::Signal read_signal(const Section& parent, const std::string& name, const ScenarioSource& source,
                            std::vector<TableFile>& files);
/// The reader hooks of signal tables (a table signal's times and values, inline or from a CSV file);
/// `signals` maps each signal's key path to its storage (the signals must outlive the walk; the map need not).
void add_signal_hooks(ReaderHooks& h, const std::map<std::string, contact::Signal*, std::less<>>& signals,
                      const ScenarioSource& source, std::vector<TableFile>& files);
/// [time] of `root`, and in `form` how its output grid was written.
TimeGrid read_time(const Section& root, LumpedInputForm& form);
/// time.t_end_s > time.t_start_s.
void require_time_span(const TimeGrid& g);
/// The part of LumpedScenario::validate() a number can break without building the model: the time grid, a sine's
/// periods over the run (kMaxSinePeriods), the integrator options. What io::set_number runs after a lumped key.
void check_run_span(const LumpedScenario& sc);
/// The output spacing of a time grid from the form the file gave (time.outputs, time.output_dt_s or neither: 1000
/// intervals), with its checks: the reader's (read_time) and a key path's (key_path.cpp).
void derive_output_dt(const LumpedInputForm& form, TimeGrid& g);
/// JSON echoes of the parameters as used.
Json law_to_json(const laws::LawParams& p, const Mat2& sigma0_used);
Json body_to_json(const rheology::RheologyParams& p);
Json signal_to_json(const contact::Signal& s, const std::string& key, const std::vector<TableFile>& files);
/// One-line description of a signal, for summaries.
std::string signal_summary(const contact::Signal& s);

/// The lumped kind's parser on an already parsed TOML table.
std::vector<LumpedScenario> parse_lumped(const toml::table& root, std::string_view name,
                                         const ScenarioSource& source);

// ---- The readers of the other kinds that bristle fit reads, on an already parsed TOML table (an experiment's
// table, fit_map_scenario.cpp); the kinds' text readers are these on the text's table ----------------------

PatchMapScenario parse_patch_steady_map(const toml::table& root, std::string_view name, const ScenarioSource& source);
PatchTransientScenario parse_patch_transient(const toml::table& root, std::string_view name,
                                             const ScenarioSource& source);
std::vector<LineSteadyScenario> parse_line_steady(const toml::table& root, std::string_view name,
                                                  const ScenarioSource& source);
std::vector<LineTransientScenario> parse_line_transient(const toml::table& root, std::string_view name,
                                                        const ScenarioSource& source);
StructureStickSlipScenario parse_structure_stick_slip(const toml::table& root, std::string_view name,
                                                      const ScenarioSource& source);

}  // namespace bristle::io::detail
