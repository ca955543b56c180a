#pragma once
// Scenario files: a TOML description of one run (or a sweep of runs) of the library's models.
//
// A file names its `kind` (default "lumped"); a dispatcher maps the kind to a parser that turns the
// TOML into a validated plain struct, and to a runner that solves it. Every key, unit, default and
// range is documented in docs/scenarios.md. Every problem with a scenario (TOML syntax, unknown or
// missing keys, wrong types, values out of range, unreadable tables) throws bristle::InvalidInput
// with a one-line message naming the dotted TOML key, e.g.
//   unknown key "law.mu_z"; did you mean "law.mu_s"?
//   missing key "time.t_end_s" (required: end time of the run, s)
//   law.mu_s = "abc": must be a number
//
// Adding a kind: write a parser + runner (a class derived from Scenario) and register it with
// register_scenario_kind(); load_scenario() then dispatches on `kind`.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bristle/contact/bench.hpp"
#include "bristle/contact/contact.hpp"
#include "bristle/core/schema.hpp"
#include "bristle/core/time_series.hpp"
#include "bristle/core/types.hpp"
#include "bristle/integrate/ode.hpp"
#include "bristle/io/json.hpp"
#include "bristle/laws/friction_law.hpp"
#include "bristle/rheology/rheology.hpp"

namespace bristle::io {

// ---------------------------------------------------------------------------------------------
// Common pieces

/// Where a scenario came from: its file (empty when parsed from a string) and the directory that
/// relative paths inside it (table CSV files) are resolved against.
struct ScenarioSource {
  std::filesystem::path path;       // absolute path of the scenario file; empty for a string
  std::filesystem::path directory;  // base directory for relative file names
  std::string display_name() const;  // the path, or "<string>"

  /// A scenario file: its path, and its (absolute) directory for relative file names.
  static ScenarioSource of_file(const std::filesystem::path& path);
  /// TOML text: no path; relative file names against `directory` (empty: the current directory).
  static ScenarioSource of_text(const std::filesystem::path& directory = {});
  /// A file the scenario names: as given when absolute, else against `directory`.
  std::filesystem::path resolve(const std::string& file) const {
    return std::filesystem::path(file).is_absolute() ? std::filesystem::path(file) : directory / file;
  }
};

/// [time]: output grid. Output times run from t_start_s to t_end_s in steps of output_dt_s; both ends
/// are included (the last interval may be shorter).
struct TimeGrid {
  double t_start_s = 0.0;
  double t_end_s = 0.0;
  double output_dt_s = 0.0;  // filled in: (t_end_s - t_start_s) / 1000 when not given
  /// The output times, t_start_s every output_dt_s to t_end_s (both ends); validate()s first.
  std::vector<double> times() const;
  /// Throws InvalidInput naming time.<key>: finite ends, t_end_s > t_start_s, output_dt_s > 0 and at most 2,000,001
  /// output times (Limits in docs/scenarios.md). The reader's grids pass; one built or changed by hand may not.
  void validate() const;
};

/// [sweep]: one case per value of a numeric key (dotted path), each case re-parsed and validated.
struct Sweep {
  std::string parameter;        // e.g. "bench.input.omega"
  std::string column;           // CSV column holding the value (default: last path component)
  std::vector<double> values;
};

/// [output]: what the plot shows.
struct OutputOptions {
  std::string plot_x = "t_s";
  std::vector<std::string> plot_y;  // filled in by drive when not given
  std::string title;                // filled in: the scenario name
};

/// [initial]: the initial contact state.
struct InitialCondition {
  Vec2 f = Vec2::Zero();  // initial normalised bristle force (branch states zero)
  bool steady = false;    // start from ContactModel::steady_state at the initial relative velocity
};

/// Where a table signal was read from (to report it), when it came from a CSV file.
struct TableFile {
  std::string key;            // e.g. "bench.input"
  std::string file;           // as written in the scenario
  std::filesystem::path path; // resolved
  std::string time_column, value_column;
};

/// How some lumped values were written, where the parsed structs cannot tell; the key-path API
/// (key_path.hpp) needs it so that a value set by key path derives what a file with that value would.
struct LumpedInputForm {
  /// body1, body2: each branch's tau as written when the branches were given by tau (a scalar; NaN for
  /// a matrix tau); empty when they were given by k (gkv) or c (gm).
  std::vector<double> body_tau[2];
  std::int64_t time_outputs = 0;   // time.outputs as given (0: not given)
  bool time_output_dt_given = false;
};

// ---------------------------------------------------------------------------------------------
// kind = "lumped": one contact point on a mechanical bench (contact::Bench).

struct LumpedScenario {
  std::string name;         // default: the file stem
  std::string description;
  ScenarioSource source;

  laws::LawParams law;
  rheology::RheologyParams body1;
  rheology::RheologyParams body2 = rheology::rigid();
  std::optional<double> pair_s;  // [pair] s, when given (body2.k0 was derived from it)
  /// [law.textbook], when given: law, body1 and body2 were mapped from it by contact::textbook_model
  /// under bench.normal_load_N (the same mapping as Contact::lugre / Python's Contact.lugre).
  std::optional<contact::TextbookParams> textbook;
  contact::BenchParams bench;
  std::vector<TableFile> table_files;
  TimeGrid time;
  integrate::Options integrator;
  InitialCondition initial;
  std::optional<Sweep> sweep;          // the [sweep] table, identical in every case
  std::optional<double> sweep_value;   // this case's value of sweep->parameter
  OutputOptions output;
  LumpedInputForm input_form;          // how tau and the output grid were written (for key_path.hpp)

  /// Builds the library objects (ContactModel, Bench, Options) and throws InvalidInput if any rejects
  /// the parameters. The parsers call it for every case.
  void validate() const;
  /// The initial contact state u0 for contact::run (from [initial]).
  VecX initial_contact_state(const contact::ContactModel& model) const;
};

// ---- The schema of the lumped kind (core/schema.hpp): the tables of the library structs are their own
// serialize() (laws::LawParams, rheology::RheologyParams, contact::BenchParams, integrate::Options);
// these are the scenario's own tables.

template <class Archive, schema::Of<TimeGrid> Self>
void serialize(Archive& a, Self& g) {
  using schema::Type;
  a.number(g.t_start_s, {.key = "t_start_s", .unit = "s", .default_value = "0", .range = schema::finite(),
                         .doc = "start time", .numerics = true});
  a.number(g.t_end_s, {.key = "t_end_s", .unit = "s", .default_value = "required", .range = schema::finite(),
                       .doc = "end time of the run", .numerics = true});
  a.number(g.output_dt_s, {.key = "output_dt_s", .unit = "s", .default_value = "(t_end_s - t_start_s)/1000",
                           .range = schema::positive(), .doc = "spacing of the output times",
                           .log_scale = true, .numerics = true});
  a.declared({.key = "outputs", .type = Type::integer, .default_value = "-", .range = schema::at_least(2),
              .doc = "number of output times instead of output_dt_s (not both)", .log_scale = true});
}

template <class Archive, schema::Of<InitialCondition> Self>
void serialize(Archive& a, Self& init) {
  using schema::Type;
  a.flag(init.steady, {.key = "steady", .type = Type::flag, .default_value = "false",
                       .doc = "start from the steady state at the initial relative velocity (not with f)"});
  a.vector(init.f, {.key = "f", .type = Type::vector, .default_value = "[0, 0]", .range = schema::finite(),
                    .doc = "initial normalised bristle force (branch states start at 0)",
                    .equation = "paper 1, eq. 33"},
           !init.steady);
}

template <class Archive, schema::Of<OutputOptions> Self>
void serialize(Archive& a, Self& o) {
  using schema::Type;
  a.text(o.plot_x, {.key = "plot_x", .type = Type::text, .default_value = "\"t_s\"", .doc = "an output column"});
  a.declared({.key = "plot_y", .type = Type::text_list,
              .default_value = "by drive: velocity [\"F_N\"], force [\"x_m\", \"F_N\"], spring [\"x_m\", \"v_mps\", \"F_N\"]",
              .doc = "output columns, at least one; one plot panel each"});
  a.text(o.title, {.key = "title", .type = Type::text, .default_value = "the scenario name", .doc = "the plot title"});
}

template <class Archive, schema::Of<Sweep> Self>
void serialize(Archive& a, Self& s) {
  using schema::Type;
  a.text(s.parameter, {.key = "parameter", .type = Type::text, .default_value = "required",
                       .doc = "the key path of a numeric key, e.g. \"bench.input.omega\", \"body1.c[0]\""});
  a.declared({.key = "values", .type = Type::number_list, .unit = "the parameter's", .default_value = "required",
              .doc = "at least one value; one case per value"});
  a.text(s.column, {.key = "column", .type = Type::text, .default_value = "the last path component",
                    .doc = "the CSV column holding the value; not an output column name"});
}

/// The [sweep] table of a kind that applies it by key path (io::Sweep's keys; `sweep` an std::optional<Sweep>).
template <class Archive, class OptionalSweep>
void serialize_sweep_table(Archive& a, OptionalSweep& sweep) {
  a.table({.key = "sweep", .type = schema::Type::table, .default_value = "-",
           .doc = "one case per value of a numeric key, applied by key path"},
          [&](auto& b) {
            std::remove_reference_t<decltype(*sweep)> none{};
            serialize(b, sweep ? *sweep : none);
          });
}

/// kind, name and description: the head of the kinds read by one walk (structures, directional); `kind` documents
/// the kind key (e.g. "\"structure_kernel\"").
template <class Archive, class Sc>
void serialize_scenario_head(Archive& a, Sc& sc, std::string_view kind) {
  a.declared({.key = "kind", .type = schema::Type::text, .default_value = "required", .doc = kind});
  a.text(sc.name, {.key = "name", .type = schema::Type::text, .default_value = "the file stem",
                   .doc = "names the output files <name>.csv/.json/.png"});
  a.text(sc.description, {.key = "description", .type = schema::Type::text, .default_value = "\"\"",
                          .doc = "free text, copied into the JSON"});
}

/// [output] of those kinds: plot_x (default `x`), plot_y (default `y`) and the title.
template <class Archive, class Sc>
void serialize_output_table(Archive& a, Sc& sc, std::string_view x, std::string_view y) {
  using schema::Type;
  a.table({.key = "output", .type = Type::table, .default_value = "-", .doc = "what the plot shows"}, [&](auto& b) {
    b.text(sc.output.plot_x, {.key = "plot_x", .type = Type::text, .default_value = x, .doc = "an output column"});
    b.declared({.key = "plot_y", .type = Type::text_list, .default_value = y, .doc = "output columns, at least one"});
    b.text(sc.output.title, {.key = "title", .type = Type::text, .default_value = "the scenario name",
                             .doc = "the plot title"});
  });
}

template <class Archive, schema::Of<LumpedScenario> Self>
void serialize(Archive& a, Self& sc) {
  using schema::Type;
  a.text(sc.name, {.key = "name", .type = Type::text, .default_value = "the file stem",
                   .doc = "names the output files <name>.csv/.json/.png; not empty, no /, \\ or control characters"});
  a.text(sc.description, {.key = "description", .type = Type::text, .default_value = "\"\"",
                          .doc = "free text, copied into the JSON"});
  a.declared({.key = "kind", .type = Type::text, .default_value = "\"lumped\"", .doc = "the scenario kind: \"lumped\" (these tables); line_steady, line_transient, patch_steady_map, "
                         "patch_transient, directional_coefficients, directional_loop, directional_crawler, "
                         "structure_kernel, structure_stick_slip (below)"});
  a.table({.key = "law", .type = Type::table, .default_value = "required", .doc = "the friction law"},
          [&](auto& b) {
            serialize(b, sc.law);
            // Textbook units (contact::textbook_model): instead of the law's other keys, [body1] and [body2].
            b.table({.key = "textbook", .type = Type::table, .default_value = "-",
                     .doc = "lumped kind only: textbook LuGre/Dahl parameters in N (Canudas de Wit et al. 1995) instead of the "
                            "normalised keys, [body1] and [body2] (body1 elastic k0 = sigma0_N_per_m / F_z, body2 "
                            "rigid, forces per F_z = bench.normal_load_N)",
                     .used_by = "dahl, lugre"},
                    [&](auto& t) {
                      std::remove_reference_t<decltype(*sc.textbook)> none{};
                      serialize(t, sc.textbook ? *sc.textbook : none, sc.law.kind == laws::LawKind::lugre);
                    },
                    sc.textbook.has_value());
          });
  a.table({.key = "body1", .type = Type::table, .default_value = "required", .doc = "the upper body"},
          [&](auto& b) { serialize(b, sc.body1); });
  a.table({.key = "body2", .type = Type::table, .default_value = "rigid", .doc = "the substrate"},
          [&](auto& b) { serialize(b, sc.body2); });
  a.table({.key = "pair", .type = Type::table, .default_value = "-", .doc = "the contact pair"}, [&](auto& b) {
    b.declared({.key = "s", .default_value = "required in [pair]", .range = schema::open(0, 1),
                .doc = "stiffness ratio s = k01/(k01 + k02); sets body2.k0 = body1.k0 (1 - s)/s",
                .equation = "paper 1, errata §5"},
               sc.pair_s.has_value());
  });
  a.table({.key = "bench", .type = Type::table, .default_value = "required", .doc = "the mechanical bench"},
          [&](auto& b) { serialize(b, sc.bench); });
  a.table({.key = "time", .type = Type::table, .default_value = "required", .doc = "the output grid"},
          [&](auto& b) { serialize(b, sc.time); });
  a.table({.key = "integrator", .type = Type::table, .default_value = "-", .doc = "the time integrator"},
          [&](auto& b) { serialize(b, sc.integrator); });
  a.table({.key = "initial", .type = Type::table, .default_value = "-", .doc = "the initial contact state"},
          [&](auto& b) { serialize(b, sc.initial); });
  a.table({.key = "sweep", .type = Type::table, .default_value = "-", .doc = "one case per value of a numeric key"},
          [&](auto& b) {
            std::remove_reference_t<decltype(*sc.sweep)> none{};
            serialize(b, sc.sweep ? *sc.sweep : none);
          });
  a.table({.key = "output", .type = Type::table, .default_value = "-", .doc = "what the plot shows"},
          [&](auto& b) { serialize(b, sc.output); });
}

/// Parses a lumped scenario. Without a sweep the result has one case; with one, a case per value
/// (the TOML re-parsed with the value substituted, so each case is validated on its own).
std::vector<LumpedScenario> parse_lumped_file(const std::filesystem::path& path);
std::vector<LumpedScenario> parse_lumped_string(std::string_view toml, std::string_view name = "scenario",
                                                const std::filesystem::path& directory = {});

// ---------------------------------------------------------------------------------------------
// Runs and the dispatcher

/// Progress of a run, reported at each output time.
struct Progress {
  std::size_t case_index = 0;  // 0-based
  std::size_t case_count = 1;
  double fraction = 0.0;       // of the current case, 0..1
  std::string label;           // e.g. "omega_rad_per_s = 10" for a sweep case, else ""
};
using ProgressCallback = std::function<void(const Progress&)>;

/// The solution of one case.
struct CaseResult {
  std::optional<double> sweep_value;
  TimeSeries series;
  double solve_seconds = 0.0;
};

/// An additional output file DIR/<name><suffix> (e.g. "_fields.csv"), written with the others.
struct ExtraFile {
  std::string suffix;
  std::string text;
};

/// Everything the output writers need: data, plot layout and the JSON report.
struct RunResult {
  std::string name;
  std::string title;
  std::string sweep_column;          // empty without a sweep
  std::vector<CaseResult> cases;
  std::string plot_x;
  std::vector<std::string> plot_y;
  double solve_seconds = 0.0;        // wall time of the solves only
  Json report;                       // the whole JSON document, per-case entries included
  std::vector<std::string> case_labels;  // legend entry per case (empty: from the sweep column)
  bool log_x = false;                    // logarithmic x axis in the plot
  std::vector<ExtraFile> extra_files;    // further files, written atomically with the others
  /// Columns whose NaN cells mean "not available" (written as empty CSV cells, e.g. mu for a law without a
  /// friction coefficient). A NaN anywhere else, and an infinity anywhere, is a non-finite output:
  /// write_outputs refuses it (io/output.hpp, check_finite).
  std::vector<std::string> optional_columns;
  /// Advice on the inputs that did not stop the run (e.g. a tolerance too loose to resolve sticking):
  /// printed on stderr by `bristle run`; lumped reports also list them under "warnings".
  std::vector<std::string> warnings;
  /// A gnuplot script for DIR/<name>.png (given the image path) replacing the default panels of plot_y against
  /// plot_x, when set (the fit's plot: data and fit overlaid, residuals).
  std::function<std::string(const std::filesystem::path& png)> plot_script;
};

/// A parsed and validated scenario of some kind.
class Scenario {
 public:
  virtual ~Scenario() = default;
  virtual std::string_view kind() const = 0;
  virtual const std::string& name() const = 0;
  virtual std::size_t case_count() const = 0;
  /// A human-readable multi-line summary (for `bristle check`).
  virtual std::string summary() const = 0;
  /// Solves every case. Throws SolverError if a solve fails.
  virtual RunResult run(const ProgressCallback& progress = {}) const = 0;

  /// The TOML text it was parsed from, with its default name and source (load_scenario, parse_scenario_string,
  /// parse_scenario), shared by the scenario's copies. Null for a scenario built otherwise (LumpedStudy(cases), ...).
  struct Origin {
    std::string toml;
    std::string name;
    ScenarioSource source;
  };
  const Origin* origin() const { return origin_.get(); }
  /// The key paths set since it was parsed (set_number(Scenario&), io/key_path.hpp), in order, a repeated set of
  /// the key just set replacing its value: parse_scenario(toml, name, source) then set_number of each makes it
  /// again (e.g. pickling).
  const std::vector<std::pair<std::string, double>>& origin_sets() const { return sets_; }

 private:
  friend std::unique_ptr<Scenario> parse_scenario(std::string_view toml, std::string_view name,
                                                  const ScenarioSource& source);
  friend void set_number(Scenario& sc, std::string_view key_path, double value);  // keeps the origin (key_path.cpp)
  std::shared_ptr<const Origin> origin_;
  std::vector<std::pair<std::string, double>> sets_;
};

/// The lumped kind as a Scenario.
class LumpedStudy final : public Scenario {
 public:
  explicit LumpedStudy(std::vector<LumpedScenario> cases);
  std::string_view kind() const override { return "lumped"; }
  const std::string& name() const override { return cases_.front().name; }
  std::size_t case_count() const override { return cases_.size(); }
  std::string summary() const override;
  RunResult run(const ProgressCallback& progress = {}) const override;
  const std::vector<LumpedScenario>& cases() const { return cases_; }

 private:
  std::vector<LumpedScenario> cases_;
};

/// A parser for one kind: receives the TOML text (already checked to be valid TOML), its default
/// name and source. It must reject every key it does not know.
using ScenarioParser = std::function<std::unique_ptr<Scenario>(std::string_view toml, std::string_view name,
                                                               const ScenarioSource& source)>;
/// Registers a kind (replacing any parser of the same name). "lumped" is built in.
void register_scenario_kind(std::string kind, ScenarioParser parser);
std::vector<std::string> scenario_kinds();

/// Reads `kind` and dispatches. The name defaults to the file stem (or `name` for a string).
std::unique_ptr<Scenario> load_scenario(const std::filesystem::path& path);
/// Parses `toml` of any kind with the given default name and source (file names resolve from its directory and
/// messages name it), keeping the text as the scenario's origin(): load_scenario and parse_scenario_string call it.
std::unique_ptr<Scenario> parse_scenario(std::string_view toml, std::string_view name, const ScenarioSource& source);
std::unique_ptr<Scenario> parse_scenario_string(std::string_view toml, std::string_view name = "scenario",
                                                const std::filesystem::path& directory = {});

}  // namespace bristle::io
