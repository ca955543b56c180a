#pragma once
// Scenario kinds of the line contact (paper 1, §5; transport/line_contact.hpp):
//
//   kind = "line_steady"     steady force maps F_x(V) of sliding (eq. 54) or rolling (eq. 60) contact,
//                            one transport::steady_state solve per velocity (Figs. 5, 6, 8)
//   kind = "line_transient"  a transient run of transport::LineContact from an unloaded contact, with
//                            forces, energy and fields over xi (Figs. 7, 9)
//
// Both read [law], [body1], [body2], [pair] exactly as kind = "lumped" does, plus [line] and
// [kinematics] (and [time] for the transient kind). A study is a list of cases: the [[case]] tables
// (each overriding keys of the file) times the Cartesian product of the [sweep] lists over s, n, n1,
// n2, tau1 and tau2, applied to the parsed file (key paths and the rheology's operations; a [[case]] of other keys is
// its table over the file's, parsed); no value is written into the TOML (docs/line_contact.md, "Cases and sweeps");
// every case is validated on its own. Every key, unit, default and
// range is declared once in the serialize() functions below (`bristle keys line_steady`); the tables of
// docs/scenarios.md ("Line contact") are generated from them, and the reader (src/io/line_scenario.cpp) walks
// them (tests/io/keys_test.cpp checks that it accepts exactly the declared keys).
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bristle/contact/contact_model.hpp"
#include "bristle/io/patch_scenario.hpp"  // serialize_pair
#include "bristle/io/scenario.hpp"
#include "bristle/transport/line_contact.hpp"

namespace bristle::io {

/// How the material velocities along xi are given (errata §5.2):
///   sliding  V1 = 0,   V2 = V_x                   (eq. 54; v_r = V_x)
///   rolling  V1 = V_r, V2 = V_x                   (eq. 60; v_r = v_x = V_x - V_r)
///   general  V1(t), V2(t) given directly          (transient kind only)
enum class LineMode { sliding, rolling, general };
std::string_view to_string(LineMode mode);

/// The parts common to both kinds: the contact model and the line, for one case.
struct LineCaseBase {
  std::string name;  // default: the file stem
  std::string description;
  ScenarioSource source;

  std::size_t case_index = 0;  // 0-based, in the order cases are run
  std::size_t case_count = 1;
  std::string label;  // e.g. "s = 0.4, n2 = 1" (the legend entry), "" for a single case
  /// The case parameters written as CSV columns (in this order): the key-path sweep's column (sweep.column) with
  /// a [sweep] parameter, s, n1, n2, then n, tau1, tau2 when swept and `case` (1-based [[case]] number) when the file
  /// has [[case]] tables.
  std::vector<std::pair<std::string, double>> columns;

  laws::LawParams law;
  rheology::RheologyParams body1;
  rheology::RheologyParams body2 = rheology::rigid();
  std::optional<double> pair_s;  // [pair] s, when given
  bool body2_c_eq58 = false;     // body2.c = "eq58" (c_i,2 = tau_i,2 k01 (1 - s)/s)
  double s = 0.0;                // k01/(k01 + k02) of the pair, in (0, 1)
  int n1 = 0, n2 = 0;            // branch counts

  LineMode mode = LineMode::sliding;
  bool allow_reversal = false;
  /// L, F_z, pressure; for the transient kind also cells, cfl, dt_s, max_dt_s, limiter, V1, V2.
  transport::LineContactParams line;
  OutputOptions output;
  bool log_x = false;  // logarithmic velocity axis in the plot
  bool allow_reversal_given = false;  // kinematics.allow_reversal written (messages name the default otherwise)
  std::vector<std::string> swept;     // what [sweep] varies in this study's cases ("s", "tau2", ..., "law.mu_d")
  /// The keys its [[case]] table gives, as key paths ("kinematics.Vx", "body2.tau[1]"): a set on the study leaves
  /// them to the case, as the file with that value would (io::set_number).
  std::vector<std::string> case_keys;
  LumpedInputForm input_form;         // how the branches and the output grid were written (io/key_path.hpp)
};

/// kind = "line_steady": one case of a steady force map.
struct LineSteadyScenario : LineCaseBase {
  /// sliding: the speeds V_x (m/s); rolling: the rigid relative velocities v_x = V_x - V_r (m/s).
  std::vector<double> velocities;
  double Vr_mps = 0.0;  // rolling only
  /// How the velocities were written, for messages: a list (kinematics.V_mps[i]; after a key path a one-entry list
  /// is kinematics.V_mps, its key path) or { from, to, points } (.from, .to, (point i)); else one number.
  bool velocities_list = false, velocities_table = false;
  /// The CSV columns of this kind (the case columns first).
  std::vector<std::string> column_names() const;
  /// Solves every velocity: the rows of the CSV.
  TimeSeries solve(const contact::ContactModel& model) const;
};

/// kind = "line_transient": one case of a transient run.
struct LineTransientScenario : LineCaseBase {
  std::vector<TableFile> table_files;
  TimeGrid time;
  std::vector<double> field_times;  // time.field_times_s
  /// The output times: the [time] grid merged with the field times.
  std::vector<double> output_times() const;
  /// The CSV columns of this kind (the case columns first).
  std::vector<std::string> column_names() const;
};

// ---- The schema of the line kinds (core/schema.hpp). [law], [body1], [body2], [pair] are the lumped kind's
// (serialize_pair: io/patch_scenario.hpp); [line] is transport::LineContactParams'; the velocities of
// [kinematics] are stored in line.V1 / line.V2 (transient) as the mode says (errata §5.2).

template <class Archive>
void serialize_line_sweep(Archive& a) {
  using schema::Type;
  a.table({.key = "sweep", .type = Type::table, .default_value = "-",
           .doc = "the Cartesian product of its lists, the first varying slowest, or the [sweep] of every kind "
                  "(parameter, values, column); times the [[case]] tables"},
          [&](auto& b) {
            const auto list = [&](std::string_view key, schema::Range range, std::string_view doc) {
              b.declared({.key = key, .type = Type::number_list, .default_value = "-", .range = range, .doc = doc});
            };
            list("s", schema::open(0, 1), "values of pair.s");
            list("n", schema::integer_in(0, 1000), "n1 = n2 = n: the first n branches of both bodies (0: elastic)");
            list("n1", schema::integer_in(0, 1000), "the first n1 branches of body 1 (not with n)");
            list("n2", schema::integer_in(0, 1000), "the first n2 branches of body 2 (not with n)");
            list("tau1", schema::positive(), "every relaxation time of body 1, s");
            list("tau2", schema::positive(), "every relaxation time of body 2, s");
            // the [sweep] of every kind (io::Sweep), applied by key path to each parsed case; not with the lists
            b.declared({.key = "parameter", .type = Type::text, .default_value = "-",
                        .doc = "instead of the lists: the key path of a numeric key (e.g. \"law.mu_d\", "
                               "\"body2.tau[0]\"), set on each case"});
            b.declared({.key = "values", .type = Type::number_list, .unit = "the parameter's", .default_value = "-",
                        .doc = "with parameter: one case per value, times the [[case]] tables"});
            b.declared({.key = "column", .type = Type::text, .default_value = "the last path component",
                        .doc = "with parameter: the CSV column holding the value (the first column); not a column "
                               "of the kind"});
          });
  a.declared({.key = "case", .type = Type::table, .default_value = "-",
              .doc = "[[case]] tables, each overriding keys of the file (optional label; a quoted key path sets one "
                     "entry, \"body2.tau[1]\" = 0.3); not kind, name, description, case, sweep"});
}

template <class Archive, class Sc>  // Sc: LineCaseBase or const LineCaseBase
void serialize_line_output(Archive& a, Sc& sc, std::string_view plot_x, std::string_view plot_y) {
  using schema::Type;
  a.table({.key = "output", .type = Type::table, .default_value = "-", .doc = "what the plot shows"}, [&](auto& b) {
    b.text(sc.output.plot_x, {.key = "plot_x", .type = Type::text, .default_value = plot_x, .doc = "an output column"});
    b.declared({.key = "plot_y", .type = Type::text_list, .default_value = plot_y,
                .doc = "output columns, at least one; one plot panel each"});
    b.text(sc.output.title, {.key = "title", .type = Type::text, .default_value = "the scenario name",
                             .doc = "the plot title"});
    b.flag(sc.log_x, {.key = "log_x", .type = Type::flag, .default_value = "true for a log-spaced grid",
                      .doc = "logarithmic x axis"});
  });
}
template <class Archive, class Sc>
void serialize_line_contact(Archive& a, Sc& sc, std::string_view kind) {
  using schema::Type;
  a.text(sc.name, {.key = "name", .type = Type::text, .default_value = "the file stem",
                   .doc = "names the output files <name>.csv/.json/.png"});
  a.text(sc.description, {.key = "description", .type = Type::text, .default_value = "\"\"",
                          .doc = "free text, copied into the JSON"});
  a.declared({.key = "kind", .type = Type::text, .default_value = "required", .doc = kind});
  a.table({.key = "law", .type = Type::table, .default_value = "required", .doc = "the friction law (as lumped)"},
          [&](auto& b) { serialize(b, sc.law); });
  a.table({.key = "body1", .type = Type::table, .default_value = "required", .doc = "the upper body (as lumped)"},
          [&](auto& b) { serialize(b, sc.body1); });
  a.table({.key = "body2", .type = Type::table, .default_value = "rigid",
           .doc = "the lower body (as lumped; also c = \"eq58\", paper 1 eq. 58)"},
          [&](auto& b) { serialize(b, sc.body2); });
  serialize_pair(a, sc.pair_s.has_value());
}

template <class Archive, schema::Of<LineSteadyScenario> Self>
void serialize(Archive& a, Self& sc) {
  using schema::Type;
  serialize_line_contact(a, sc, "\"line_steady\"");
  a.table({.key = "line", .type = Type::table, .default_value = "required", .doc = "the line contact"},
          [&](auto& b) { serialize(b, sc.line, false); });
  a.table({.key = "kinematics", .type = Type::table, .default_value = "required",
           .doc = "the velocities of the map (errata §5.2)"},
          [&](auto& b) {
            b.choice(sc.mode, {.key = "mode", .type = Type::choice, .default_value = "required",
                               .doc = "sliding: V1 = 0, V2 = V_x; rolling: V1 = V_r, V2 = V_x",
                               .equation = "paper 1, eqs. 54, 60", .choices = "sliding, rolling"});
            const bool rolling = sc.mode == LineMode::rolling;  // the mode as read (a reader sets it just above)
            b.flag(sc.allow_reversal, {.key = "allow_reversal", .type = Type::flag, .default_value = "false",
                                       .doc = "false: a negative velocity is an error naming its key"});
            b.declared({.key = "V_mps", .type = Type::number_list, .unit = "m/s", .default_value = "required",
                        .range = schema::finite(),
                        .doc = "sliding speeds V_x: a number, a list or { from, to, points, spacing }",
                        .used_by = "sliding"},
                       !rolling);
            b.number(sc.Vr_mps, {.key = "Vr_mps", .unit = "m/s", .default_value = "required", .range = schema::finite(),
                                 .doc = "rolling speed V_r, the material velocity V1 of body 1", .used_by = "rolling"},
                     rolling);
            b.declared({.key = "vx_mps", .type = Type::number_list, .unit = "m/s", .default_value = "required",
                        .range = schema::finite(),
                        .doc = "rigid relative velocities v_x = V_x - V_r: a number, a list or { from, to, points, "
                               "spacing }",
                        .used_by = "rolling"},
                       rolling);
          });
  serialize_line_sweep(a);
  serialize_line_output(a, sc, "V_mps (sliding), vx_mps (rolling)", "[\"Fx_abs_N\", \"Fx_norm_abs\"]");
}

template <class Archive, schema::Of<LineTransientScenario> Self>
void serialize(Archive& a, Self& sc) {
  using schema::Type;
  serialize_line_contact(a, sc, "\"line_transient\"");
  a.table({.key = "line", .type = Type::table, .default_value = "required", .doc = "the line contact and its solver"},
          [&](auto& b) { serialize(b, sc.line, true); });
  a.table({.key = "kinematics", .type = Type::table, .default_value = "required",
           .doc = "the material velocities along xi (errata §5.2)"},
          [&](auto& b) {
            b.choice(sc.mode, {.key = "mode", .type = Type::choice, .default_value = "required",
                               .doc = "sliding: V1 = 0, V2 = V_x; rolling: V1 = V_r, V2 = V_x; general: V1, V2 given",
                               .equation = "paper 1, eqs. 54, 60", .choices = "sliding, rolling, general"});
            b.flag(sc.allow_reversal, {.key = "allow_reversal", .type = Type::flag,
                                       .default_value = "false; true for general",
                                       .doc = "false: a negative velocity is an error naming its key"});
            const LineMode mode = sc.mode;  // the mode as read (a reader sets it just above)
            const auto signal = [&](auto& s, std::string_view key, std::string_view doc, std::string_view used_by,
                                    bool applies) {
              b.table({.key = key, .type = Type::signal, .unit = "m/s", .default_value = "required", .doc = doc,
                       .used_by = used_by},
                      [&](auto& c) { serialize(c, s); }, applies);
            };
            signal(sc.line.V1, "Vr", "rolling speed V_r(t), the material velocity V1 of body 1", "rolling",
                   mode == LineMode::rolling);
            signal(sc.line.V2, "Vx", "V_x(t), the material velocity V2 of body 2", "sliding, rolling",
                   mode != LineMode::general);
            signal(sc.line.V1, "V1", "material velocity V1(t) of body 1", "general", mode == LineMode::general);
            signal(sc.line.V2, "V2", "material velocity V2(t) of body 2", "general", mode == LineMode::general);
          });
  a.table({.key = "time", .type = Type::table, .default_value = "required", .doc = "the output grid"}, [&](auto& b) {
    serialize(b, sc.time);
    b.declared({.key = "field_times_s", .type = Type::number_list, .unit = "s", .default_value = "[]",
                .doc = "times of the fields over xi (DIR/<name>_fields.csv), strictly increasing, in "
                       "[t_start_s, t_end_s]; they join the output grid"});
  });
  serialize_line_sweep(a);
  serialize_line_output(a, sc, "\"t_s\"", "[\"Fx_abs_N\"]");
}

/// After a key path changed a parsed case (io/key_path.hpp): re-derives s, n1, n2 and the case columns as the
/// reader does, then runs the reader's checks beyond each key's own range (the pair, the line and its pressure,
/// every velocity of the map (reversal, a negative characteristic speed) / the signals (reversal, the CFL
/// condition of a fixed step, the work limits, the field times)). InvalidInput naming the key; on error the
/// derived values are unchanged.
void rederive_and_validate(LineSteadyScenario& sc);
void rederive_and_validate(LineTransientScenario& sc);

/// Parsing: one entry per case (see above). Throw InvalidInput naming the TOML key.
std::vector<LineSteadyScenario> parse_line_steady_string(std::string_view toml, std::string_view name = "scenario",
                                                         const std::filesystem::path& directory = {});
std::vector<LineTransientScenario> parse_line_transient_string(std::string_view toml,
                                                               std::string_view name = "scenario",
                                                               const std::filesystem::path& directory = {});

/// The kinds as Scenarios (what load_scenario returns for them).
class LineSteadyStudy final : public Scenario {
 public:
  explicit LineSteadyStudy(std::vector<LineSteadyScenario> cases);
  std::string_view kind() const override { return "line_steady"; }
  const std::string& name() const override { return cases_.front().name; }
  std::size_t case_count() const override { return cases_.size(); }
  std::string summary() const override;
  RunResult run(const ProgressCallback& progress = {}) const override;
  const std::vector<LineSteadyScenario>& cases() const { return cases_; }

 private:
  std::vector<LineSteadyScenario> cases_;
};

class LineTransientStudy final : public Scenario {
 public:
  explicit LineTransientStudy(std::vector<LineTransientScenario> cases);
  std::string_view kind() const override { return "line_transient"; }
  const std::string& name() const override { return cases_.front().name; }
  std::size_t case_count() const override { return cases_.size(); }
  std::string summary() const override;
  /// Also fills RunResult::extra_files with "_fields.csv" when time.field_times_s is given.
  RunResult run(const ProgressCallback& progress = {}) const override;
  const std::vector<LineTransientScenario>& cases() const { return cases_; }

 private:
  std::vector<LineTransientScenario> cases_;
};

/// The registered parsers (ScenarioParser signature).
std::unique_ptr<Scenario> parse_line_steady_scenario(std::string_view toml, std::string_view name,
                                                     const ScenarioSource& source);
std::unique_ptr<Scenario> parse_line_transient_scenario(std::string_view toml, std::string_view name,
                                                        const ScenarioSource& source);

}  // namespace bristle::io
