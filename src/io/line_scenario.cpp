// kind = "line_steady" and kind = "line_transient": the line contact of paper 1, §5, as scenario files
// (docs/scenarios.md, "Line contact"; docs/line_contact.md). The [law], [body1], [body2] and [pair]
// tables are read by the lumped kind's readers (scenario_internal.hpp), so they accept exactly the same
// keys with the same messages.
//
// A study is a list of cases: the [[case]] tables of the file (each overriding keys of the file), times the
// Cartesian product of the [sweep] lists (s, n, n1, n2, tau1, tau2 in this order, the first varying slowest).
// The file is parsed once and each case is a copy of it, its numbers set by key path (a [[case]] of other keys is its
// table over the file's, parsed: for_each_line_case says when); the sweep cuts the branches and sets the relaxation
// times by the rheology and s as pair.s by key path, on the parsed case. No value is written into the TOML.
// Each is validated on its own, and an error names it: "case 3 of 12 (s = 0.4, n2 = 2): ...".
// Or the [sweep] of every kind (parameter, values, column): each parsed case times the values, set by key path
// (set_number) on the parsed case, the value the first case column: "sweep case 2 of 4 (law.mu_d = 2): ...".
#include "bristle/io/line_scenario.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <set>
#include <array>
#include <cmath>
#include <functional>
#include <limits>
#include <optional>
#include <system_error>

#include "bristle/core/error.hpp"
#include "bristle/io/key_path.hpp"
#include "bristle/rheology/contact_pair.hpp"
#include "scenario_internal.hpp"
#include "schema_json.hpp"
#include "schema_reader.hpp"
#include "study.hpp"

// The line's choices for the schema reader (found by argument-dependent lookup, schema_reader.hpp).
namespace bristle::transport {
static void choice_from_string(std::string_view key, std::string_view name, PressureKind& out) {
  out = pressure_kind_from_string(key, name);
}
static void choice_from_string(std::string_view key, std::string_view name, Limiter& out) {
  out = limiter_from_string(key, name);
}
static void choice_from_string(std::string_view key, std::string_view name, SourceScheme& out) {
  out = source_scheme_from_string(key, name);
}
}  // namespace bristle::transport

namespace bristle::io {

std::string_view to_string(LineMode mode) {
  switch (mode) {
    case LineMode::sliding: return "sliding";
    case LineMode::rolling: return "rolling";
    case LineMode::general: return "general";
  }
  return "unknown";
}

/// kinematics.mode of the transient kind (the steady kind's check hook refuses "general" first: add_base_hooks).
static void choice_from_string(std::string_view key, std::string_view name, LineMode& out) {
  const std::vector<std::string> valid = {"sliding", "rolling", "general"};
  for (const LineMode m : {LineMode::sliding, LineMode::rolling, LineMode::general})
    if (name == to_string(m)) return void(out = m);
  throw InvalidInput(fmt::format("{} = {}: unknown mode (valid: {}){}", key, json_quote(name), fmt::join(valid, ", "),
                                 detail::suggestion(name, valid)));
}

namespace {

using detail::Body;
using detail::Section;
using rheology::RheologyKind;
using Keys = std::vector<std::string>;

enum class Kind { steady, transient };

constexpr std::size_t kMaxCases = 10'000;
constexpr std::int64_t kMaxPoints = 1'000'000;
constexpr std::int64_t kMaxCells = transport::LineContactParams::kMaxCells;
// Work of a transient case: cell updates = line.cells x time steps (~50 ns each here: 2e9 ~ 2 min).
constexpr double kMaxCellSteps = 2e9;
// Field snapshots x cells: rows of DIR/<name>_fields.csv (~15 columns of ~20 bytes: 1e7 rows ~ 3 GB).
using transport::kMaxFieldRows;
// Equally spaced times at which the reader also evaluates the characteristic speeds when a sine is involved.
constexpr int kSpeedSamples = 4096;

std::string q(std::string_view s) { return json_quote(s); }
std::string kind_name(Kind kind) { return kind == Kind::steady ? "line_steady" : "line_transient"; }

[[noreturn]] void cannot_combine(const std::string& key, const std::string& other, std::string_view advice) {
  throw InvalidInput(fmt::format("key \"{}\" cannot be combined with {}; {}", key, other, advice));
}

std::string number_text(double v) { return fmt::format("{}", v); }

/// The nearest valid name, as a "; did you mean" suffix.
using detail::suggestion;

// ---------------------------------------------------------------------------------------------
// Cases: [[case]] tables times the [sweep] product

const Keys kSweepKeys = {"s", "n", "n1", "n2", "tau1", "tau2"};

struct SweepDim {
  std::string key;  // "s", "n", ...
  std::vector<double> values;
  std::vector<std::string> names;  // the TOML key of each value: "sweep.s[0]" (or "sweep.s")
};

std::vector<SweepDim> read_line_sweep(const toml::table& root) {
  const Section top(&root, "");
  const Section sw = top.table("sweep");
  if (!sw.present()) return {};
  sw.check_keys(kSweepKeys);
  if (sw.has("n") && (sw.has("n1") || sw.has("n2")))
    cannot_combine(sw.key(sw.has("n1") ? "n1" : "n2"), sw.key("n"), "sweep.n sets n1 = n2 = n");
  std::vector<SweepDim> dims;
  for (const std::string& k : kSweepKeys) {
    const auto values = sw.numbers(k, true);
    if (!values) continue;
    if (values->empty()) throw InvalidInput(fmt::format("{} = []: must list at least one value", sw.key(k)));
    SweepDim dim{k, *values, {}};
    const bool scalar = sw.node(k)->is_number();
    for (std::size_t i = 0; i < values->size(); ++i) {
      const std::string name = scalar ? sw.key(k) : fmt::format("{}[{}]", sw.key(k), i);
      const double v = (*values)[i];
      if (k == "s") {
        require_open_interval(name, v, 0.0, 1.0);
      } else if (k[0] == 'n') {
        if (!(v >= 0.0 && v == std::floor(v) && v <= 1000.0))
          throw InvalidInput(fmt::format("{} = {}: must be a whole number of branches >= 0", name, format_value(v)));
      } else {
        require_positive(name, v);
      }
      dim.names.push_back(name);
    }
    dims.push_back(std::move(dim));
  }
  return dims;
}

/// The number of cases of a study within the limit (a double: for_each_line_case counts in floating point).
void check_case_count(double count) {
  if (count > static_cast<double>(kMaxCases))
    throw InvalidInput(
        fmt::format("the [[case]] tables and [sweep] give {:.0f} cases; at most {} are allowed", count, kMaxCases));
}

/// detail::count_study_rows of the cases, the message starting "the [[case]] tables and [sweep] give N cases: ".
template <class Case, class Rows>
void count_rows(const std::vector<Case>& cases, Rows&& rows_of) {
  const std::string where =
      cases.size() > 1 ? fmt::format("the [[case]] tables and [sweep] give {} cases: ", cases.size()) : "";
  detail::count_study_rows(where, cases, std::forward<Rows>(rows_of));
}

using detail::deep_merge;
using detail::put;

const toml::table* sub_table(const toml::table& t, std::string_view key) {
  const toml::node* n = t.get(key);
  return n ? n->as_table() : nullptr;
}
toml::table* sub_table(toml::table& t, std::string_view key) {
  toml::node* n = t.get(key);
  return n ? n->as_table() : nullptr;
}

std::string type_of(const toml::table* body) {
  if (!body) return "";
  const toml::node* t = body->get("type");
  return t && t->is_string() ? t->as_string()->get() : "";
}

/// A TOML number as the reader converts it (toml_reader.cpp, as_number): an integer beyond 2^53 rounds to the nearest
/// double (toml++'s value<double>() gives none for it).
std::optional<double> number_of(const toml::node* n) {
  if (const auto* i = n ? n->as_integer() : nullptr) return static_cast<double>(i->get());
  if (const auto* d = n ? n->as_floating_point() : nullptr) return d->get();
  return std::nullopt;
}

/// body2.c = "eq58": c_i,2 = tau_i,2 k01 (1 - s)/s = tau_i,2 k02 (paper 1, eq. 58). Checks the TOML form
/// (the line kinds' messages) and returns whether the rule is used; the rule itself is
/// rheology::apply_eq58 (RheologyParams::eq58_tau), applied by the shared body reader.
bool check_eq58(const toml::table& t) {
  const toml::table* body2 = sub_table(t, "body2");
  if (!body2) return false;
  const toml::node* c = body2->get("c");
  if (!c || !c->is_string()) return false;
  const std::string value = c->as_string()->get();
  if (value != "eq58")
    throw InvalidInput(
        fmt::format("body2.c = {}: must be an array of branch dampings (s/m) or \"eq58\" (c_i,2 = "
                    "tau_i,2 k01 (1 - s)/s, paper 1 eq. 58){}",
                    q(value), suggestion(value, {"eq58"})));
  const std::string where = "body2.c = \"eq58\"";
  if (type_of(body2) != "gkv")
    throw InvalidInput(fmt::format("{}: applies to body2.type = \"gkv\" (body2.type is {})", where, q(type_of(body2))));
  if (body2->get("k")) cannot_combine("body2.k", where, "eq. 58 gives the dampings from body2.tau");
  const toml::node* tau = body2->get("tau");
  if (!tau)
    throw InvalidInput(
        fmt::format("missing key \"body2.tau\" (required: branch relaxation times tau_i,2 (s), one "
                    "per branch; {} gives c from them)",
                    where));
  const auto read_tau = [&](const toml::node& n, const std::string& key) {
    const auto v = n.value<double>();
    if (!n.is_number() || !v)
      throw InvalidInput(fmt::format("{} = {}: {} needs scalar relaxation times", key, detail::format_node(n), where));
    require_positive(key, *v);
  };
  if (const auto* a = tau->as_array()) {
    for (std::size_t i = 0; i < a->size(); ++i) read_tau(*a->get(i), fmt::format("body2.tau[{}]", i));
  } else {
    read_tau(*tau, "body2.tau");
  }
  const toml::table* pair = sub_table(t, "pair");
  const toml::node* s = pair ? pair->get("s") : nullptr;
  if (s && s->is_number()) {
    const toml::table* body1 = sub_table(t, "body1");
    const toml::node* k01 = body1 ? body1->get("k0") : nullptr;
    if (!k01 || !k01->is_number())
      throw InvalidInput(fmt::format("{}: needs a scalar body1.k0 (eq. 58: c_i,2 = tau_i,2 k01 (1 - s)/s)", where));
    const double k01_value = *number_of(k01);
    require_positive("body1.k0", k01_value);
    rheology::substrate_stiffness_from_s("pair.s", *number_of(s), k01_value);
  } else if (const toml::node* k0 = body2->get("k0"); k0 && k0->is_number()) {
    require_positive("body2.k0", *number_of(k0));
  } else {
    throw InvalidInput(
        fmt::format("{}: needs pair.s (with a scalar body1.k0) or a scalar body2.k0 (eq. 58: c_i,2 = "
                    "tau_i,2 k01 (1 - s)/s = tau_i,2 k02)",
                    where));
  }
  return true;
}

/// Whether the file's [sweep] is the lumped syntax (parameter, values, column: applied by key path to the parsed
/// cases, parse_all) rather than the line kinds' own keys (s, n, n1, n2, tau1, tau2: for_each_line_case).
bool key_path_sweep(const toml::table& root) {
  const toml::table* sw = root["sweep"].as_table();
  return sw && (sw->contains("parameter") || sw->contains("values") || sw->contains("column"));
}

// ---------------------------------------------------------------------------------------------
// One case: the common part

/// The case's line with the TOML keys for the library's messages: the velocities by mode (errata §5.2: V1 is
/// kinematics.Vr rolling, kinematics.V1 general; V2 kinematics.Vx or V2), the pressure table, the characteristic
/// speeds (kinematics). A copy, so that a case built or changed in code (Python: mode, line) is named by its mode.
transport::LineContactParams keyed_line(const LineCaseBase& sc) {
  transport::LineContactParams line = sc.line;
  line.message_keys = {sc.mode == LineMode::rolling ? "kinematics.Vr" : "kinematics.V1",
                       sc.mode == LineMode::general ? "kinematics.V2" : "kinematics.Vx", "line.pressure_table",
                       "kinematics"};
  return line;
}

// The reader: the kind's serialize() walked by the schema reader (schema_reader.hpp), [law], [body1], [body2] and
// [pair] by the lumped kind's readers (parse_model); the hooks are what the schema does not state, the checks after
// the walk those of the physics and the numerics (reversal, stability, the work limits).

using detail::ReaderHooks;
using detail::SchemaReader;

/// The root's tables: a walk reads the ones it is given and skips the others ([sweep], [[case]]: for_each_line_case).
const Keys kTables = {"law", "body1", "body2", "pair", "line", "kinematics", "time", "sweep", "output"};

/// One walk of the kind's serialize() over the file with `h`: the root's own keys (checked by every walk) and the
/// tables `only`, in the schema's order.
template <class Case>
void walk(const toml::table& table, Case& sc, ReaderHooks& h, const Keys& only) {
  h.skip.clear();
  for (const auto& t : kTables)
    if (std::find(only.begin(), only.end(), t) == only.end()) h.skip.push_back(t);
  SchemaReader(Section(&table, ""), h).read(sc);
}

/// line.cells within the work limit (after the schema's >= 2: the reader's hook, a key path's range).
void check_cells_limit(std::int64_t cells) {
  if (cells > kMaxCells) throw InvalidInput(fmt::format("line.cells = {}: at most {} cells", cells, kMaxCells));
}

/// The hooks both kinds share: kind, output.plot_y, [line] (the kind's keys, the pressure table, the messages of
/// cells and cfl) and kinematics (the kind's modes, whether allow_reversal is written).
void add_base_hooks(ReaderHooks& h, LineCaseBase& sc, Kind kind) {
  detail::add_scenario_hooks(h, sc, kind == Kind::steady ? "line_steady" : "line_transient");
  h.before["line"] = [&sc, kind](const Section& l) {
    const Keys steady = {"L_m", "normal_load_N", "pressure", "pressure_table"};
    Keys transient = steady;
    for (const char* k : {"cells", "cfl", "dt_s", "max_dt_s", "limiter", "source_scheme", "interpolate_outputs"})
      transient.emplace_back(k);
    l.check_keys(kind == Kind::steady ? steady : transient, transient, fmt::format("kind = {}", q(kind_name(kind))));
    if (sc.line.pressure.kind != transport::PressureKind::table && l.has("pressure_table"))
      throw InvalidInput(fmt::format("key \"line.pressure_table\" applies only with line.pressure = \"table\" "
                                     "(line.pressure is {})",
                                     q(transport::to_string(sc.line.pressure.kind))));
  };
  h.required["line.normal_load_N"] = [] { return std::string("normal load F_z, N"); };
  h.before["line.pressure_table"] = [](const Section& pt) {
    if (!pt.present())
      throw InvalidInput("missing key \"line.pressure_table\" (required: the table [line.pressure_table] with xi_m "
                         "and values, for line.pressure = \"table\")");
  };
  h.declared["line.pressure_table.xi_m"] = [&sc](const Section& pt) {
    const auto xi = pt.numbers("xi_m");
    if (!xi) pt.missing("xi_m", "positions xi (m) of the pressure table, strictly increasing, covering [0, L_m]");
    sc.line.pressure.xi_m = *xi;
  };
  h.declared["line.pressure_table.values"] = [&sc](const Section& pt) {
    const auto values = pt.numbers("values");
    if (!values) pt.missing("values", "pressure shape at each xi_m (>= 0; scaled so that its integral is F_z)");
    sc.line.pressure.values = *values;
  };
  h.check["line.cells"] = [](const Section& l) {
    const std::int64_t cells = *l.integer("cells");
    if (cells < 2) throw InvalidInput(fmt::format("line.cells = {}: must be >= 2", cells));
    check_cells_limit(cells);
  };
  h.check["line.cfl"] = [](const Section& l) {
    if (const double cfl = *l.number("cfl"); !(cfl > 0.0 && cfl <= 1.0))
      throw InvalidInput(fmt::format("line.cfl = {}: must lie in (0, 1] (the scheme is stable for Courant numbers "
                                     "<= 1)",
                                     format_value(cfl)));
  };
  const bool steady = kind == Kind::steady;
  h.required["kinematics.mode"] = [steady] {
    return std::string(steady ? "\"sliding\" (V1 = 0, V2 = V_x) or \"rolling\" (V1 = V_r, V2 = V_x)"
                              : "\"sliding\" (V1 = 0, V2 = V_x), \"rolling\" (V1 = V_r, V2 = V_x) or \"general\" (V1 "
                                "and V2 given)");
  };
  h.check["kinematics.mode"] = [&sc, steady](const Section& k) {  // the kind's modes (general: transient only)
    const std::string mode = *k.string("mode");
    if (const Keys valid = {"sliding", "rolling"}; steady && std::find(valid.begin(), valid.end(), mode) == valid.end())
      throw InvalidInput(fmt::format("kinematics.mode = {}: unknown mode (valid: {}){}", q(mode),
                                     fmt::join(valid, ", "), suggestion(mode, valid)));
    choice_from_string(k.key("mode"), mode, sc.mode);
    sc.allow_reversal = sc.mode == LineMode::general;  // the default (kinematics.allow_reversal follows)
  };
  h.before["kinematics"] = [&sc](const Section& k) { sc.allow_reversal_given = k.has("allow_reversal"); };
}

/// The reversal rule as it reads in messages.
std::string reversal_rule(const LineCaseBase& sc, bool given) {
  return fmt::format(
      "reversals are forbidden by kinematics.allow_reversal = false{}; set kinematics.allow_reversal "
      "= true to allow them",
      given ? "" : fmt::format(" (the default for kinematics.mode = {})", q(to_string(sc.mode))));
}

/// s, n1 and n2 of a case's pair, s = k01/(k01 + k02) in (0, 1); `first` runs the checks that come before s's (the
/// reader's of the bodies' types: a key path changes no type).
struct PairValues {
  double s = 0.0;
  int n1 = 0, n2 = 0;
};
PairValues check_pair(const LineCaseBase& sc, const std::function<void()>& first = {}) {
  const contact::ContactModel model(sc.law, sc.body1, sc.body2);
  transport::characteristic_speeds(model, 0.0, 0.0);  // diagonal stiffness matrices (names body1.k0)
  if (first) first();
  const double s = model.pair().S2()(0, 0);
  if (!(s > 0.0 && s < 1.0))
    throw InvalidInput(
        fmt::format("body2.k0: the pair gives s = k01/(k01 + k02) = {}; it must lie in (0, 1)", format_value(s)));
  return {s, model.n1(), model.n2()};
}

/// The case columns s, n1, n2 (s as written: pair.s or the sweep value, else from the stiffnesses) and the case's
/// s, n1, n2 (the reader's, or after a key path changed them).
void set_pair_columns(LineCaseBase& sc, const PairValues& v) {
  sc.s = v.s;
  sc.n1 = v.n1;
  sc.n2 = v.n2;
  for (auto& [name, value] : sc.columns) {
    if (name == "s") value = sc.pair_s.value_or(sc.s);
    if (name == "n1") value = sc.n1;
    if (name == "n2") value = sc.n2;
  }
}

/// Reads the model ([law], [body1], [body2], [pair]) and checks it is a line contact with s in (0, 1): its pair.
PairValues parse_model(const Section& root, LineCaseBase& sc) {
  sc.law = detail::read_law(root);
  Body body1 = detail::read_body(root, "body1", true);
  Body body2 = detail::read_body(root, "body2", false);
  detail::read_pair(root, body1, body2, sc.pair_s);
  sc.body1 = body1.params;
  sc.body2 = body2.params;
  sc.input_form.body_tau[0] = body1.tau;
  sc.input_form.body_tau[1] = body2.tau;
  return check_pair(sc, [&] {
    if (sc.body2.kind == RheologyKind::rigid)
      root.table("pair").missing("s",
                                 "stiffness ratio s = k01/(k01 + k02) in (0, 1) of the line contact; or give "
                                 "[body2] with its k0");
    if (sc.body1.kind == RheologyKind::rigid)
      throw InvalidInput(
          "body1.type = \"rigid\": the line contact needs two deformable bodies (s = k01/(k01 + k02) in "
          "(0, 1)); give body1.type = \"elastic\" or \"gkv\" with its k0");
  });
}

/// The root's keys, the model and the tables before [kinematics] ([line], [time]) of one case (every key but [[case]]
/// and [sweep]) with `h`; `case_columns` names the columns a case adds after s, n1, n2 (n, tau1, tau2 when swept,
/// case), set per case by for_each_line_case.
template <class Case>
void read_base(const toml::table& table, const Keys& case_columns, std::string_view default_name,
               const ScenarioSource& source, Case& sc, ReaderHooks& h) {
  sc.body2_c_eq58 = check_eq58(table);
  sc.source = source;
  walk(table, sc, h, {});
  const Section root(&table, "");
  if (!root.has("name")) sc.name = std::string(default_name);
  detail::validate_name(root.has("name") ? "name" : "name (the file stem)", sc.name);
  const PairValues pair = parse_model(root, sc);
  sc.columns = {{"s", 0.0}, {"n1", 0.0}, {"n2", 0.0}};
  set_pair_columns(sc, pair);
  walk(table, sc, h, {"line", "time"});
  for (const auto& name : case_columns) {
    if (name != "s" && name != "n1" && name != "n2") sc.columns.emplace_back(name, 0.0);
    if (name != "case") sc.swept.push_back(name);
  }
}

/// [output] with its defaults (the title: the name), after the kind's checks; plot_x and plot_y name columns.
template <class Case>
void read_output(const toml::table& table, Case& sc, ReaderHooks& h, std::string plot_x, Keys plot_y) {
  sc.output.plot_x = std::move(plot_x);
  sc.output.plot_y = std::move(plot_y);
  walk(table, sc, h, {"output"});
  if (!Section(&table, "").table("output").has("title")) sc.output.title = sc.name;
  detail::check_plot_columns(sc.output, sc.column_names());
}

/// Pressure and line parameters through the library's checks, with the TOML keys.
void validate_line(const LineCaseBase& sc) {
  const transport::LineContactParams line = keyed_line(sc);
  line.validate("line");
  const transport::Pressure pressure(line.pressure, line.L_m, line.normal_load_N, line.pressure_key());
}

Keys case_column_names(const LineCaseBase& sc) {
  Keys names;
  for (const auto& c : sc.columns) names.push_back(c.first);
  return names;
}

// ---------------------------------------------------------------------------------------------
// line_steady: velocity grids

/// The TOML key that gives velocity i: kinematics.V_mps (sliding) or .vx_mps (rolling), one number, a list or
/// { from, to, points, spacing }. After a key path (`by_key_path`, rederive_and_validate) a one-entry list is named as
/// its key path is, kinematics.V_mps (the key path refuses V_mps[0]), as 9eae582 did.
std::string key_of(const LineSteadyScenario& sc, std::size_t i, bool by_key_path) {
  const std::string key = sc.mode == LineMode::sliding ? "kinematics.V_mps" : "kinematics.vx_mps";
  if (sc.velocities_table)
    return key + (i == 0 ? ".from" : i + 1 == sc.velocities.size() ? ".to" : fmt::format(" (point {})", i));
  if (sc.velocities.size() == 1 && (by_key_path || !sc.velocities_list)) return key;
  return fmt::format("{}[{}]", key, i);
}

/// The material velocities (V1, V2) of the map's velocity `v` (errata §5.2): sliding (0, V_x = v), rolling
/// (V_r, V_r + v_x).
std::pair<double, double> material_velocities(const LineSteadyScenario& sc, double v) {
  if (sc.mode == LineMode::sliding) return {0.0, v};
  return {sc.Vr_mps, sc.Vr_mps + v};
}

/// allow_reversal = false: every velocity of the map >= 0.
void check_steady_reversal(const LineSteadyScenario& sc, bool by_key_path) {
  if (sc.allow_reversal) return;
  const auto& v = sc.velocities;
  if (sc.mode == LineMode::sliding) {
    for (std::size_t i = 0; i < v.size(); ++i)
      if (v[i] < 0.0)
        throw InvalidInput(fmt::format("{} = {}: negative sliding speed; {}", key_of(sc, i, by_key_path),
                                       format_value(v[i]),
                                       reversal_rule(sc, sc.allow_reversal_given)));
    return;
  }
  if (sc.Vr_mps < 0.0)
    throw InvalidInput(fmt::format("kinematics.Vr_mps = {}: negative rolling speed; {}", format_value(sc.Vr_mps),
                                   reversal_rule(sc, sc.allow_reversal_given)));
  for (std::size_t i = 0; i < v.size(); ++i)
    if (sc.Vr_mps + v[i] < 0.0)
      throw InvalidInput(fmt::format("{} = {}: gives V_x = V_r + v_x = {} m/s < 0; {}", key_of(sc, i, by_key_path),
                                     format_value(v[i]),
                                     format_value(sc.Vr_mps + v[i]), reversal_rule(sc, sc.allow_reversal_given)));
}

/// A negative characteristic speed needs the exact (matrix-exponential) steady solver: try the first such
/// velocity now, so that a refusal names the key. The library's messages name it: the characteristic speeds as
/// "kinematics.V_mps[i] = v", the velocities' and the pressure table's keys after it ("kinematics.V_mps[i] = v:
/// kinematics.Vx = ..."); any other message of the library gets the velocity's key in front the same way.
void check_steady_speeds(const LineSteadyScenario& sc, bool by_key_path) {
  const contact::ContactModel model(sc.law, sc.body1, sc.body2);
  for (std::size_t i = 0; i < sc.velocities.size(); ++i) {
    const auto [V1, V2] = material_velocities(sc, sc.velocities[i]);
    if (transport::characteristic_speeds(model, V1, V2).minCoeff() >= 0.0) continue;
    transport::LineContactParams line = keyed_line(sc);
    transport::LineContactParams::MessageKeys& keys = line.message_keys;
    keys.speeds = fmt::format("{} = {}", key_of(sc, i, by_key_path), format_value(sc.velocities[i]));
    for (std::string* key : {&keys.V1, &keys.V2, &keys.pressure}) *key = keys.speeds + ": " + *key;
    try {
      transport::steady_state(model, line, V1, V2);
    } catch (const InvalidInput& e) {
      if (std::string_view(e.what()).starts_with(keys.speeds)) throw;
      throw InvalidInput(keys.speeds + ": " + e.what());
    }
    break;
  }
}

LineSteadyScenario parse_steady_case(const toml::table& table, const Keys& case_columns, std::string_view name,
                                     const ScenarioSource& source) {
  LineSteadyScenario sc;
  ReaderHooks h;
  add_base_hooks(h, sc, Kind::steady);
  h.required["kinematics.Vr_mps"] = [] {
    return std::string("rolling speed V_r (m/s), the material velocity V1 of body 1");
  };
  h.declared["kinematics.V_mps"] = h.declared["kinematics.vx_mps"] = [&sc](const Section& k) {
    detail::NumberGrid grid =
        sc.mode == LineMode::sliding
            ? detail::read_number_grid(k, "V_mps", "sliding speeds V_x (m/s): a list or { from, to, points, spacing }",
                                       "velocity", kMaxPoints)
            : detail::read_number_grid(k, "vx_mps",
                                       "rigid relative velocities v_x = V_x - V_r (m/s): a list or { from, to, "
                                       "points, spacing }",
                                       "velocity", kMaxPoints);
    sc.velocities = std::move(grid.values);
    sc.velocities_list = !grid.scalar && !grid.table;
    sc.velocities_table = grid.table;
    sc.log_x = grid.log;
  };
  read_base(table, case_columns, name, source, sc, h);
  walk(table, sc, h, {"kinematics"});
  check_steady_reversal(sc, false);
  validate_line(sc);
  check_steady_speeds(sc, false);
  read_output(table, sc, h, sc.mode == LineMode::sliding ? "V_mps" : "vx_mps", {"Fx_abs_N", "Fx_norm_abs"});
  return sc;
}

// ---------------------------------------------------------------------------------------------
// line_transient: signals, reversal and stability checks

/// Rejects a negative velocity in signal `key` (reversal forbidden).
void check_no_reversal(const LineCaseBase& sc, const contact::Signal& s, const std::string& key, bool scalar,
                       const TimeGrid& time, bool given) {
  const std::string rule = reversal_rule(sc, given);
  switch (s.kind) {
    case contact::SignalKind::constant:
      if (s.value < 0.0)
        throw InvalidInput(
            fmt::format("{} = {}: negative velocity; {}", scalar ? key : key + ".value", format_value(s.value), rule));
      return;
    case contact::SignalKind::step:
      if (s.before < 0.0)
        throw InvalidInput(fmt::format("{}.before = {}: negative velocity; {}", key, format_value(s.before), rule));
      if (s.after < 0.0)
        throw InvalidInput(fmt::format("{}.after = {}: negative velocity; {}", key, format_value(s.after), rule));
      return;
    case contact::SignalKind::table:
      for (std::size_t i = 0; i < s.values.size(); ++i)
        if (s.values[i] < 0.0)
          throw InvalidInput(
              fmt::format("{}.values[{}] = {}: negative velocity; {}", key, i, format_value(s.values[i]), rule));
      return;
    case contact::SignalKind::ramp:
    case contact::SignalKind::sine: {
      const contact::SignalExtremes e = contact::extremes(s, time.t_start_s, time.t_end_s);
      if (e.min < 0.0)
        throw InvalidInput(fmt::format("{} ({}) reaches {} at t = {} s: negative velocity; {}", key,
                                       contact::to_string(s.kind), format_value(e.min), format_value(e.t_min), rule));
      return;
    }
  }
}

std::vector<double> merged_times(const TimeGrid& grid, const std::vector<double>& fields) {
  // Each field time not within 1e-9 (relative) of a grid time or of a field time taken before it, merged in order
  // (inserting into the grid one by one was quadratic: 1e6 output times and 1e5 field times took 14 s in check).
  const std::vector<double> t = grid.times();
  std::set<double> extra;
  const auto near = [](auto begin, auto end, auto at, double f, double tol) {
    return (at != end && std::abs(*at - f) <= tol) || (at != begin && std::abs(*std::prev(at) - f) <= tol);
  };
  for (const double f : fields) {
    const double tol = 1e-9 * std::max(1.0, std::abs(f));
    if (near(t.begin(), t.end(), std::lower_bound(t.begin(), t.end(), f), f, tol) ||
        near(extra.begin(), extra.end(), extra.lower_bound(f), f, tol))
      continue;
    extra.insert(f);
  }
  std::vector<double> out(t.size() + extra.size());
  std::merge(t.begin(), t.end(), extra.begin(), extra.end(), out.begin());
  return out;
}

/// The output time each field time was merged into (merged_times: itself, or the grid or field time within 1e-9 of
/// it), which is the nearest: the library takes fields at output times only (transport::run).
std::vector<double> field_output_times(const std::vector<double>& outputs, const std::vector<double>& fields) {
  std::vector<double> out;
  out.reserve(fields.size());
  for (const double f : fields) {
    const auto at = std::lower_bound(outputs.begin(), outputs.end(), f);
    if (at == outputs.begin()) out.push_back(*at);
    else if (at == outputs.end() || f - *std::prev(at) < *at - f) out.push_back(*std::prev(at));
    else out.push_back(*at);
  }
  return out;
}

void check_transient_run(const LineTransientScenario& sc);

/// The signals of the mode with their keys: kinematics.Vx (sliding, V2), .Vr and .Vx (rolling) or .V1 and .V2.
std::vector<std::pair<const contact::Signal*, std::string>> mode_signals(const LineCaseBase& sc) {
  switch (sc.mode) {
    case LineMode::sliding: return {{&sc.line.V2, "kinematics.Vx"}};
    case LineMode::rolling: return {{&sc.line.V1, "kinematics.Vr"}, {&sc.line.V2, "kinematics.Vx"}};
    case LineMode::general: break;
  }
  return {{&sc.line.V1, "kinematics.V1"}, {&sc.line.V2, "kinematics.V2"}};
}

/// time.field_times_s within [t_start_s, t_end_s] and, with `increasing` (the reader: a key path sets the ends of
/// [time], not the field times), strictly increasing.
void check_field_times(const LineTransientScenario& sc, bool increasing) {
  const std::vector<double>& f = sc.field_times;
  for (std::size_t i = 0; i < f.size(); ++i) {
    const double t = f[i];
    if (t < sc.time.t_start_s || t > sc.time.t_end_s)
      throw InvalidInput(fmt::format("time.field_times_s[{}] = {}: must lie in [time.t_start_s, time.t_end_s] = [{}, {}]",
                                     i, format_value(t), format_value(sc.time.t_start_s), format_value(sc.time.t_end_s)));
    if (increasing && i > 0 && !(t > f[i - 1]))
      throw InvalidInput(fmt::format("time.field_times_s[{}] = {}: field times must be strictly increasing (previous {})",
                                     i, format_value(t), format_value(f[i - 1])));
  }
}

/// The checks of a transient case after its [kinematics], the reader's and a key path's (rederive_and_validate): the
/// mode's signals (no reversal where it is forbidden), the line, the run. `written_as_number(key, signal)`: whether a
/// negative constant is named `key` (else `key`.value): the reader asks the file, a key path the signal's kind.
using WrittenAsNumber = std::function<bool(const std::string& key, const contact::Signal& s)>;
void check_transient_case(const LineTransientScenario& sc, const WrittenAsNumber& written_as_number) {
  for (const auto& [s, key] : mode_signals(sc)) {
    s->validate(key);
    if (!sc.allow_reversal)
      check_no_reversal(sc, *s, key, written_as_number(key, *s), sc.time, sc.allow_reversal_given);
  }
  validate_line(sc);
  check_transient_run(sc);
}

LineTransientScenario parse_transient_case(const toml::table& table, const Keys& case_columns, std::string_view name,
                                           const ScenarioSource& source) {
  LineTransientScenario sc;
  ReaderHooks h;
  add_base_hooks(h, sc, Kind::transient);
  // [time]: the grid by the lumped kind's reader (its checks) on the table without field_times_s, then the field times.
  h.declared["time.field_times_s"] = [&](const Section& ts) {
    const toml::table* time = table["time"].as_table();  // absent: walked as empty (t_end_s is missing first)
    toml::table stripped{{"time", time ? *time : toml::table{}}};
    stripped["time"].as_table()->erase("field_times_s");
    sc.time = detail::read_time(Section(&stripped, ""), sc.input_form);
    const auto f = ts.numbers("field_times_s", true);
    if (!f) return;
    sc.field_times = *f;
    check_field_times(sc, true);
  };
  // [kinematics]: the signals of the mode.
  const std::map<std::string, contact::Signal*, std::less<>> signals = {{"kinematics.Vr", &sc.line.V1},
                                                                        {"kinematics.Vx", &sc.line.V2},
                                                                        {"kinematics.V1", &sc.line.V1},
                                                                        {"kinematics.V2", &sc.line.V2}};
  detail::add_signal_hooks(h, signals, source, sc.table_files);
  h.required["kinematics.Vr"] = [] {
    return std::string("rolling speed V_r(t) (m/s), the material velocity of body 1");
  };
  h.required["kinematics.Vx"] = [&sc] {
    return std::string(sc.mode == LineMode::sliding ? "sliding speed V_x(t) (m/s): a number or a signal table"
                                                    : "forward speed V_x(t) (m/s), the material velocity of body 2");
  };
  h.required["kinematics.V1"] = [] { return std::string("material velocity V1(t) of body 1 along xi (m/s)"); };
  h.required["kinematics.V2"] = [] { return std::string("material velocity V2(t) of body 2 along xi (m/s)"); };
  read_base(table, case_columns, name, source, sc, h);
  walk(table, sc, h, {"kinematics"});
  if (sc.mode == LineMode::sliding) sc.line.V1 = contact::Signal::constant_value(0.0);
  const Section k = Section(&table, "").table("kinematics");
  check_transient_case(sc, [&k](const std::string& key, const contact::Signal&) {
    return k.node(key.substr(key.find('.') + 1))->is_number();
  });
  read_output(table, sc, h, "t_s", {"Fx_abs_N"});
  return sc;
}

/// The checks of a transient case's run (after validate_line): the exponential source scheme, the CFL condition
/// of a fixed step and the work limits.
void check_transient_run(const LineTransientScenario& sc) {
  const contact::ContactModel model(sc.law, sc.body1, sc.body2);
  if (sc.line.source_scheme == transport::SourceScheme::exponential && !transport::source_is_affine(model))
    throw InvalidInput(
        fmt::format("line.source_scheme = \"exponential\": needs a source affine in the state; "
                    "law.type = {} is not (use \"sdirk2\" or \"automatic\")",
                    q(laws::to_string(sc.law.kind))));

  // A fixed step must satisfy the CFL condition over the whole run (the solver would stop there).
  if (sc.line.dt_s > 0.0) {
    const auto [fastest, at] = transport::fastest_characteristic_speed(
        model, sc.line.V1, sc.line.V2, sc.time.t_start_s, sc.time.t_end_s, kSpeedSamples);
    const double dx = sc.line.L_m / sc.line.cells;
    if (sc.line.dt_s * fastest > dx * (1.0 + 1e-12))
      throw InvalidInput(
          fmt::format("line.dt_s = {}: beyond the stability limit of the transport scheme: at t = {} s "
                      "the fastest characteristic moves at {} m/s, so the largest stable step is "
                      "dx / |c| = {} s (dx = line.L_m / line.cells = {} m); use a smaller line.dt_s, "
                      "or line.dt_s = 0 for the automatic step",
                      format_value(sc.line.dt_s), format_value(at), format_value(fastest), format_value(dx / fastest),
                      format_value(dx)));
  }
  {
    // The work the case implies, from the step the solver will take (line.dt_s, or the automatic
    // cfl dx / max |c| capped by line.max_dt_s): refused before it runs for hours.
    const double dx = sc.line.L_m / sc.line.cells;
    double dt = sc.line.dt_s;
    std::string key = "line.dt_s";
    if (!(dt > 0.0)) {
      const double fastest =
          transport::fastest_characteristic_speed(model, sc.line.V1, sc.line.V2, sc.time.t_start_s, sc.time.t_end_s,
                                                  kSpeedSamples)
              .first;
      dt = fastest > 0.0 ? sc.line.cfl * dx / fastest : std::numeric_limits<double>::infinity();
      key = "line.cfl";
      if (sc.line.max_dt_s > 0.0 && sc.line.max_dt_s < dt) {
        dt = sc.line.max_dt_s;
        key = "line.max_dt_s";
      }
    }
    const double steps = (sc.time.t_end_s - sc.time.t_start_s) / dt;
    const double value = key == "line.dt_s" ? sc.line.dt_s : key == "line.cfl" ? sc.line.cfl : sc.line.max_dt_s;
    if (std::isfinite(dt) && !(steps * sc.line.cells <= kMaxCellSteps))
      throw InvalidInput(fmt::format("{} = {}: the run takes {} steps of {} s over line.cells = {}, {} cell updates; "
                                     "at most {} (Limits in docs/scenarios.md)",
                                     key, format_value(value), format_value(steps), format_value(dt), sc.line.cells,
                                     format_value(steps * sc.line.cells), format_value(kMaxCellSteps)));
    const double rows = static_cast<double>(sc.field_times.size()) * sc.line.cells;
    if (rows > kMaxFieldRows)
      throw InvalidInput(fmt::format("time.field_times_s has {} entries: {} snapshots x line.cells = {} give {} rows "
                                     "of fields; at most {} (Limits in docs/scenarios.md)",
                                     sc.field_times.size(), sc.field_times.size(), sc.line.cells, format_value(rows),
                                     format_value(kMaxFieldRows)));
  }
}

// ---------------------------------------------------------------------------------------------
// Shared run pieces

/// The parameters of a case as used, from the kind's serialize() walk (schema_json.hpp): the contact's tables as the
/// lumped kind writes them (the law's sigma0 as used, the branches as K, C, tau), the velocities and the pressure table
/// as given, the time grid with its field times and number of outputs; the root's own keys, [sweep] and [output] are
/// reported elsewhere.
template <class Case>
Json parameters_json(const Case& sc) {
  const contact::ContactModel model(sc.law, sc.body1, sc.body2);
  detail::JsonWriter::Hooks h;
  for (const char* key : {"name", "description", "sweep", "output"}) h[key] = [](Json&) {};
  h["law"] = [&](Json& j) { j["law"] = detail::law_to_json(sc.law, model.law().sigma0()); };
  h["body1"] = [&](Json& j) { j["body1"] = detail::body_to_json(sc.body1); };
  h["body2"] = [&](Json& j) {
    j["body2"] = detail::body_to_json(sc.body2);
    if (sc.body2_c_eq58) j["body2"]["c_rule"] = "eq58: c_i,2 = tau_i,2 k01 (1 - s)/s";
  };
  h["pair"] = [&](Json& j) {
    if (sc.pair_s) j["pair"]["s"] = *sc.pair_s;
  };
  h["line.pressure_table.xi_m"] = [&](Json& t) { t["xi_m"] = Json(sc.line.pressure.xi_m); };
  h["line.pressure_table.values"] = [&](Json& t) { t["values"] = Json(sc.line.pressure.values); };
  if constexpr (std::is_same_v<Case, LineSteadyScenario>) {
    const bool rolling = sc.mode == LineMode::rolling;
    h["kinematics.V_mps"] = [&, rolling](Json& k) {
      if (!rolling) k["V_mps"] = Json(sc.velocities);
    };
    h["kinematics.vx_mps"] = [&, rolling](Json& k) {
      if (rolling) k["vx_mps"] = Json(sc.velocities);
    };
  } else {
    const auto signal = [&](const char* key, const contact::Signal& s, bool applies) {
      const std::string path = fmt::format("kinematics.{}", key);
      h[path] = [&s, &sc, key, path, applies](Json& k) {
        if (applies) k[key] = detail::signal_to_json(s, path, sc.table_files);
      };
    };
    signal("Vr", sc.line.V1, sc.mode == LineMode::rolling);
    signal("Vx", sc.line.V2, sc.mode != LineMode::general);
    signal("V1", sc.line.V1, sc.mode == LineMode::general);
    signal("V2", sc.line.V2, sc.mode == LineMode::general);
    h["time.outputs"] = [&](Json& t) {
      t["field_times_s"] = Json(sc.field_times);
      t["outputs"] = sc.output_times().size();
    };
    h["time.field_times_s"] = [](Json&) {};
  }
  return detail::JsonWriter::write(sc, h, "");
}

/// A case's entry in the report: its columns' values, then its label.
Json case_entry(const LineCaseBase& sc) {
  Json j = Json::object();
  for (const auto& [k, v] : sc.columns) j[k] = v;
  j["label"] = sc.label;
  return j;
}

/// The study's cases: one label each (the legend where there are several), no sweep column.
template <class Case>
detail::StudyCases line_study_cases(const std::vector<Case>& cases) {
  detail::StudyCases out;
  out.values.assign(cases.size(), std::nullopt);
  out.labels.clear();
  for (const Case& c : cases) out.labels.push_back(c.label);
  out.legend = cases.size() > 1;
  return out;
}

/// A case's own bodies in its entry, where the study has several cases (body1 first, or body2 first as the steady
/// kind has always written them).
template <class Case>
void case_bodies_json(const std::vector<Case>& cases, std::size_t i, Json& entry, bool body1_first) {
  if (cases.size() < 2) return;
  const Case& sc = cases[i];
  entry[body1_first ? "body1" : "body2"] = detail::body_to_json(body1_first ? sc.body1 : sc.body2);
  entry[body1_first ? "body2" : "body1"] = detail::body_to_json(body1_first ? sc.body2 : sc.body1);
}

/// The report after its header: the first case's parameters, the note, the columns.
void finish_report(Json& r, Json parameters, std::size_t cases, Json columns) {
  r["parameters"] = std::move(parameters);
  r["note"] = cases > 1 ? "parameters are those of the first case; each case lists its own values and bodies" : "";
  r["columns"] = std::move(columns);
}

/// The summary's last lines: the cases' labels (where there are several) and the plot.
template <class Case>
std::string summary_end(const std::vector<Case>& cases) {
  std::string s;
  if (cases.size() > 1) s += fmt::format("case list  {}\n", fmt::join(line_study_cases(cases).labels, "; "));
  const OutputOptions& output = cases.front().output;
  return s + fmt::format("plot       {} against {}\n", fmt::join(output.plot_y, ", "), output.plot_x);
}

std::string body_summary(const rheology::RheologyParams& b) {
  if (b.kind == RheologyKind::rigid) return "rigid";
  return fmt::format("{}, {} = {}, {} branch(es)", rheology::to_string(b.kind),
                     b.kind == RheologyKind::gm ? "k_inf" : "k0", format_matrix(b.k_elastic), b.branches.size());
}

std::string base_summary(const LineCaseBase& sc, Kind kind, std::size_t cases) {
  std::string s;
  s += fmt::format("scenario   {} (kind = \"{}\", {})\n", sc.name, kind_name(kind), sc.source.display_name());
  if (!sc.description.empty()) s += fmt::format("description {}\n", sc.description);
  s += fmt::format("law        {}\n", laws::to_string(sc.law.kind));
  s += fmt::format("body1      {}\n", body_summary(sc.body1));
  s += fmt::format("body2      {}{}\n", body_summary(sc.body2), sc.body2_c_eq58 ? " (c from eq. 58)" : "");
  s += fmt::format("pair       s = {}\n", format_value(sc.s));
  s += fmt::format("line       L = {} m, F_z = {} N, {} pressure", format_value(sc.line.L_m),
                   format_value(sc.line.normal_load_N), transport::to_string(sc.line.pressure.kind));
  if (kind == Kind::transient)
    s += fmt::format(", {} cells, cfl = {}, dt_s = {}{}, limiter {}", sc.line.cells, format_value(sc.line.cfl),
                     format_value(sc.line.dt_s), sc.line.dt_s > 0.0 ? "" : " (automatic)",
                     transport::to_string(sc.line.limiter));
  s += "\n";
  s += fmt::format("cases      {}\n", cases);
  return s;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// line_steady

std::vector<std::string> LineSteadyScenario::column_names() const {
  std::vector<std::string> names = case_column_names(*this);
  if (mode == LineMode::sliding) {
    names.emplace_back("V_mps");
  } else {
    for (const char* n : {"vx_mps", "Vr_mps", "Vx_mps"}) names.emplace_back(n);
  }
  for (const char* n : {"mu", "Fx_N", "Fx_norm", "Fx_abs_N", "Fx_norm_abs"}) names.emplace_back(n);
  return names;
}

TimeSeries LineSteadyScenario::solve(const contact::ContactModel& model) const {
  TimeSeries out(column_names());
  const bool has_mu =
      law.kind == laws::LawKind::dahl || law.kind == laws::LawKind::lugre || law.kind == laws::LawKind::frbd;
  std::vector<double> row;
  const transport::LineContactParams keyed = keyed_line(*this);
  for (const double v : velocities) {
    const auto [V1, V2] = material_velocities(*this, v);
    const transport::SteadyLine st = transport::steady_state(model, keyed, V1, V2);
    const Vec2 v_r(V2 - V1, 0.0);
    const double mu = has_mu ? law.M.M(v_r)(0, 0) : std::nan("");  // eq. 53 at |v_r|
    const double fx = st.force_N[0];
    const double norm = fx / (mu * line.normal_load_N);
    row.clear();
    for (const auto& c : columns) row.push_back(c.second);
    if (mode == LineMode::sliding) {
      row.push_back(v);
    } else {
      row.push_back(v);
      row.push_back(Vr_mps);
      row.push_back(V2);
    }
    for (const double x : {mu, fx, norm, std::abs(fx), std::abs(norm)}) row.push_back(x);
    out.add_row(row);
  }
  return out;
}

LineSteadyStudy::LineSteadyStudy(std::vector<LineSteadyScenario> cases) : cases_(std::move(cases)) {
  if (cases_.empty()) throw InvalidInput("a scenario needs at least one case");
  count_rows(cases_, [](const LineSteadyScenario& c) { return c.velocities.size(); });
}

std::string LineSteadyStudy::summary() const {
  const LineSteadyScenario& sc = cases_.front();
  std::string s = base_summary(sc, Kind::steady, cases_.size());
  const auto& v = sc.velocities;
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  if (sc.mode == LineMode::sliding)
    s += fmt::format("kinematics sliding, {} speeds V_x = {} .. {} m/s{}\n", v.size(), format_value(*lo),
                     format_value(*hi), sc.log_x ? " (log)" : "");
  else
    s += fmt::format("kinematics rolling, V_r = {} m/s, {} values v_x = {} .. {} m/s\n", format_value(sc.Vr_mps),
                     v.size(), format_value(*lo), format_value(*hi));
  return s + summary_end(cases_);
}

RunResult LineSteadyStudy::run(const ProgressCallback& progress) const {
  const LineSteadyScenario& first = cases_.front();
  const auto solve = [&](std::size_t i, const std::function<void(double)>&) {
    const LineSteadyScenario& sc = cases_[i];
    return sc.solve(contact::ContactModel(sc.law, sc.body1, sc.body2));
  };
  const auto describe = [&](std::size_t i, TimeSeries& series, Json& entry) {
    entry = case_entry(cases_[i]);
    entry["points"] = series.rows();
    return std::move(series);
  };
  detail::StudyRun run =
      detail::run_study(kind_name(Kind::steady), first, line_study_cases(cases_), solve, describe, progress,
                        [&](std::size_t i, TimeSeries&, Json& entry) { case_bodies_json(cases_, i, entry, false); });
  RunResult& result = run.result;
  result.log_x = first.log_x;
  // Laws without a friction coefficient (Bouc-Wen, frictionless) have no mu: these cells are empty.
  result.optional_columns = {"mu", "Fx_norm", "Fx_norm_abs"};
  finish_report(result.report, parameters_json(first), cases_.size(), Json(first.column_names()));
  result.report["cases"] = run.entries;
  return std::move(result);
}

// ---------------------------------------------------------------------------------------------
// line_transient

std::vector<double> LineTransientScenario::output_times() const { return merged_times(time, field_times); }

std::vector<std::string> LineTransientScenario::column_names() const {
  Keys names = case_column_names(*this);
  for (const char* n : {"t_s", "V1_mps", "V2_mps", "vr_mps", "vr_y_mps", "Fx_N", "Fy_N", "W_J", "P_supplied_W",
                        "E_supplied_J", "P_dissipated_W", "Fx_abs_N"})
    names.emplace_back(n);
  return names;
}

LineTransientStudy::LineTransientStudy(std::vector<LineTransientScenario> cases) : cases_(std::move(cases)) {
  if (cases_.empty()) throw InvalidInput("a scenario needs at least one case");
  // The fields of every case are held until <name>_fields.csv is written: the limit of one case is the study's.
  double rows = 0.0;
  for (const LineTransientScenario& sc : cases_) rows += static_cast<double>(sc.field_times.size()) * sc.line.cells;
  if (rows > kMaxFieldRows)
    throw InvalidInput(fmt::format("time.field_times_s has {} entries: over the {} cases they give {} rows of fields; "
                                   "at most {} for all cases together, as for one (Limits in docs/scenarios.md)",
                                   cases_.front().field_times.size(), cases_.size(), format_value(rows),
                                   format_value(kMaxFieldRows)));
  // The rows of <name>.csv: the output times merged with the field times.
  count_rows(cases_, [](const LineTransientScenario& c) { return c.output_times().size(); });
}

std::string LineTransientStudy::summary() const {
  const LineTransientScenario& sc = cases_.front();
  std::string s = base_summary(sc, Kind::transient, cases_.size());
  switch (sc.mode) {
    case LineMode::sliding:
      s += fmt::format("kinematics sliding, V_x: {}\n", detail::signal_summary(sc.line.V2));
      break;
    case LineMode::rolling:
      s += fmt::format("kinematics rolling, V_r: {}; V_x: {}\n", detail::signal_summary(sc.line.V1),
                       detail::signal_summary(sc.line.V2));
      break;
    case LineMode::general:
      s += fmt::format("kinematics V1: {}; V2: {}\n", detail::signal_summary(sc.line.V1),
                       detail::signal_summary(sc.line.V2));
      break;
  }
  s += fmt::format("time       {} .. {} s, {} output times{}\n", format_value(sc.time.t_start_s),
                   format_value(sc.time.t_end_s), sc.output_times().size(),
                   sc.field_times.empty() ? "" : fmt::format(", fields at {} times", sc.field_times.size()));
  return s + summary_end(cases_);
}

RunResult LineTransientStudy::run(const ProgressCallback& progress) const {
  const LineTransientScenario& first = cases_.front();
  std::vector<std::string> case_names = case_column_names(first);

  // Fields: long format over every case, the union of the field columns (a column a case does not have,
  // e.g. a branch it lacks, is left empty).
  struct FieldBlock {
    std::vector<double> case_values;
    double t = 0.0;
    TimeSeries field;
  };
  std::vector<FieldBlock> blocks;
  std::vector<std::string> field_columns;

  std::optional<contact::ContactModel> model;  // the case's, from solve to append
  const auto solve = [&](std::size_t i, const std::function<void(double)>& on_progress) {
    const LineTransientScenario& sc = cases_[i];
    model.emplace(sc.law, sc.body1, sc.body2);
    transport::LineContact contact(*model, keyed_line(sc));
    contact.reset(sc.time.t_start_s);
    const std::vector<double> outputs = sc.output_times();
    return transport::run(contact, outputs, field_output_times(outputs, sc.field_times), on_progress);
  };
  const auto describe = [&](std::size_t i, transport::LineRun& run, Json& entry) {
    const LineTransientScenario& sc = cases_[i];
    // The case columns first, |F_x| last.
    TimeSeries series(case_names);
    for (const auto& n : run.series.names) series.names.push_back(n);
    series.names.emplace_back("Fx_abs_N");
    series.columns.assign(series.names.size(), {});
    const std::size_t rows = run.series.rows();
    for (std::size_t c = 0; c < sc.columns.size(); ++c) series.columns[c].assign(rows, sc.columns[c].second);
    for (std::size_t c = 0; c < run.series.columns.size(); ++c)
      series.columns[sc.columns.size() + c] = run.series.columns[c];
    std::vector<double>& abs_fx = series.columns.back();
    for (const double f : run.series.column("Fx_N")) abs_fx.push_back(std::abs(f));

    for (std::size_t f = 0; f < run.fields.size(); ++f) {
      for (const auto& n : run.fields[f].names)
        if (std::find(field_columns.begin(), field_columns.end(), n) == field_columns.end()) field_columns.push_back(n);
      std::vector<double> values;
      for (const auto& c : sc.columns) values.push_back(c.second);
      blocks.push_back({values, run.field_times[f], std::move(run.fields[f])});
    }
    entry = case_entry(sc);
    return series;
  };
  const auto append = [&](std::size_t i, transport::LineRun& run, Json& entry) {
    const LineTransientScenario& sc = cases_[i];
    entry["steps"] = run.steps;
    case_bodies_json(cases_, i, entry, true);
    Json final_values = Json::object();
    for (std::size_t k = 0; k < run.series.names.size(); ++k)
      final_values[run.series.names[k]] = run.series.columns[k].back();
    entry["final"] = final_values;
    // The steady solver's force at the final velocities (null where it does not apply).
    const double t_end = sc.time.t_end_s;
    Json steady = Json::object();
    steady["V1_mps"] = sc.line.V1(t_end);
    steady["V2_mps"] = sc.line.V2(t_end);
    try {
      const transport::SteadyLine st = transport::steady_state(*model, sc.line, sc.line.V1(t_end), sc.line.V2(t_end));
      steady["Fx_N"] = st.force_N[0];
      steady["Fy_N"] = st.force_N[1];
      // null where the steady force is 0 (at rest): the ratio does not exist.
      steady["final_over_steady"] =
          st.force_N[0] != 0.0 ? Json(run.series.column("Fx_N").back() / st.force_N[0]) : Json(nullptr);
    } catch (const InvalidInput&) {
      steady["Fx_N"] = nullptr;
    }
    entry["steady_at_final_velocity"] = steady;
  };
  detail::StudyRun run = detail::run_study(kind_name(Kind::transient), first, line_study_cases(cases_), solve,
                                           describe, progress, append);
  RunResult& result = run.result;
  result.log_x = first.log_x;

  if (!blocks.empty()) {
    std::string text = fmt::format("{}{}t_s,{}\n", fmt::join(case_names, ","), case_names.empty() ? "" : ",",
                                   fmt::join(field_columns, ","));
    for (const FieldBlock& b : blocks) {
      std::vector<const std::vector<double>*> cols;
      for (const auto& n : field_columns) cols.push_back(b.field.has(n) ? &b.field.column(n) : nullptr);
      std::string prefix;
      for (const double v : b.case_values) prefix += number_text(v) + ",";
      prefix += number_text(b.t);
      for (std::size_t r = 0; r < b.field.rows(); ++r) {
        text += prefix;
        for (const auto* col : cols) {
          text += ',';
          if (col) text += number_text((*col)[r]);
        }
        text += '\n';
      }
    }
    result.extra_files.push_back({"_fields.csv", std::move(text)});
  }

  Json& r = result.report;
  finish_report(r, parameters_json(first), cases_.size(), Json(result.cases.front().series.names));
  if (!blocks.empty()) {
    std::vector<std::string> fc = case_names;
    fc.emplace_back("t_s");
    fc.insert(fc.end(), field_columns.begin(), field_columns.end());
    r["fields_file"] = result.name + "_fields.csv";
    r["field_columns"] = Json(fc);
  } else {
    r["fields_file"] = nullptr;
  }
  r["cases"] = run.entries;
  return std::move(result);
}

// ---------------------------------------------------------------------------------------------
// After a key path (io/key_path.hpp): the reader's derivations and checks on the parsed case

void rederive_and_validate(LineSteadyScenario& sc) {
  const PairValues pair = check_pair(sc);
  validate_line(sc);
  check_steady_reversal(sc, true);
  check_steady_speeds(sc, true);
  set_pair_columns(sc, pair);
}

void rederive_and_validate(LineTransientScenario& sc) {
  const PairValues pair = check_pair(sc);
  check_cells_limit(sc.line.cells);
  check_field_times(sc, false);
  // A constant signal is named as its key path sets it: kinematics.Vx (the reader names a signal table's
  // kinematics.Vx.value, as the file writes it).
  check_transient_case(sc, [](const std::string&, const contact::Signal& s) {
    return s.kind == contact::SignalKind::constant;
  });
  set_pair_columns(sc, pair);
}

// ---------------------------------------------------------------------------------------------
// Parsers

namespace {

/// The first `n` branches of body `i` (sweep.n, n1, n2; `where` names the value: "sweep.n2[2] = 3"), with the messages
/// of the file's form (`table`: the file has a [body<i>] table): the cut itself is the rheology's.
void keep_branches(LineCaseBase& sc, int i, int n, bool table, const std::string& where) {
  const std::string name = i == 0 ? "body1" : "body2";
  rheology::RheologyParams& body = i == 0 ? sc.body1 : sc.body2;
  std::vector<double>& taus = sc.input_form.body_tau[i];
  const bool gkv = body.kind == RheologyKind::gkv;
  if (!gkv && body.kind != RheologyKind::gm) {
    if (n == 0) return;
    if (!table)
      throw InvalidInput(fmt::format("{}: needs a [{}] table of type \"gkv\" (or \"gm\") with at least {} branch{}", where,
                                     name, n, n == 1 ? "" : "es"));
    throw InvalidInput(fmt::format("{}: {}.type = {} has no dissipative branches; give {}.type = \"gkv\" (or \"gm\") "
                                   "with at least {} entr{} in its branch lists",
                                   where, name, q(rheology::to_string(body.kind)), name, n, n == 1 ? "y" : "ies"));
  }
  const int count = body.branch_count();
  if (n > count) {
    Keys given;  // the lists the file gives, in the reader's order (eq. 58: c is the rule, tau the list)
    if (body.eq58_tau.empty()) given.push_back(name + (gkv ? ".c" : ".k"));
    given.push_back(name + (!taus.empty() ? ".tau" : gkv ? ".k" : ".c"));
    throw InvalidInput(fmt::format("{}: {} has only {} branch{} ({} entr{} in {}); the sweep asks for {}", where, name,
                                   count, count == 1 ? "" : "es", count, count == 1 ? "y" : "ies",
                                   fmt::join(given, " and "), n));
  }
  rheology::truncate_branches(body, n, name);
  if (!taus.empty()) taus.resize(static_cast<std::size_t>(n));
  if (n == 0 && i == 1) sc.body2_c_eq58 = false;
}

/// Every relaxation time of body `i` (sweep.tau1, tau2), with the messages of the file's form; the branches follow
/// by the rheology's rule (gkv keeps c, gm keeps k, eq. 58 its rule).
void set_taus(LineCaseBase& sc, int i, double tau, bool table, const std::string& where) {
  const std::string name = i == 0 ? "body1" : "body2";
  rheology::RheologyParams& body = i == 0 ? sc.body1 : sc.body2;
  std::vector<double>& taus = sc.input_form.body_tau[i];
  const bool gkv = body.kind == RheologyKind::gkv;
  if (!gkv && body.kind != RheologyKind::gm)
    throw InvalidInput(fmt::format("{}: {} has no dissipative branches ({}.type = {}); the relaxation times apply to "
                                   "type \"gkv\" or \"gm\"",
                                   where, name, name,
                                   table ? q(rheology::to_string(body.kind)) : std::string("absent")));
  if (taus.empty())
    throw InvalidInput(fmt::format("{}: {} gives no {}.tau (its branches are given by {}.{}); give {}.tau instead", where,
                                   name, name, name, gkv ? "k" : "c", name));
  rheology::set_relaxation_times(body, tau, name);
  std::fill(taus.begin(), taus.end(), tau);
}

/// A [[case]] key whose meaning depends on which other keys the file writes, so that setting the parsed value by key
/// path is not the same as writing the key: Dahl's mu, mu_s, mu_d in [law] or an axis table (mu sets mu_s = mu_d, mu
/// cannot be combined with them, mu_s must equal mu_d; the key path sets both). Every other key the key path sets is
/// the one TOML key (key_path.cpp: the reader's derivations follow, e.g. body2.k0 from pair.s, eq. 58's dampings).
bool depends_on_other_keys(const toml::table& file, const std::string& path) {
  if (path.rfind("law.", 0) != 0) return false;
  const std::string last = path.substr(path.rfind('.') + 1);
  const toml::table* law = sub_table(file, "law");
  return law && type_of(law) == "dahl" && (last == "mu" || last == "mu_s" || last == "mu_d");
}

/// Whether the number `v` replaces the number `given` of the file as a key path would: an integer anywhere, a float
/// only where the file writes a float (a key the reader reads as an integer is set through the merge).
bool same_number_kind(const toml::node& v, const toml::node& given) {
  return given.is_number() && v.is_number() && (v.is_integer() || given.is_floating_point());
}

/// The leaves of a [[case]] table as key paths, if every one is a number replacing a number the file writes
/// ("kinematics.Vx"), or a list of numbers replacing a list of numbers of the same length, entry by entry
/// ("body2.tau[1]"), on a key that maps one to one onto its key path (not depends_on_other_keys). False otherwise:
/// a key the file does not write, a table it does not give, a string, a flag, a signal table: such a case is its
/// table over the file's, parsed (for_each_line_case).
bool numeric_leaves(const toml::table& root, const toml::table& t, const toml::table* file, const std::string& prefix,
                    std::vector<std::pair<std::string, double>>& out) {
  for (auto&& [k, v] : t) {
    const std::string_view name = k.str();
    if (name.empty() || name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") !=
                            std::string_view::npos)
      return false;
    const std::string path = prefix.empty() ? std::string(name) : prefix + "." + std::string(name);
    const toml::node* given = file ? file->get(name) : nullptr;
    if (!given || depends_on_other_keys(root, path)) return false;
    if (v.is_table()) {
      if (!given->is_table() || !numeric_leaves(root, *v.as_table(), given->as_table(), path, out)) return false;
    } else if (same_number_kind(v, *given)) {
      out.emplace_back(path, *number_of(&v));
    } else if (const toml::array *a = v.as_array(), *g = given->as_array(); a && g && a->size() == g->size()) {
      for (std::size_t i = 0; i < a->size(); ++i) {
        if (!same_number_kind(*a->get(i), *g->get(i))) return false;
        out.emplace_back(fmt::format("{}[{}]", path, i), *number_of(a->get(i)));
      }
    } else {
      return false;
    }
  }
  return true;
}

/// A key of a [[case]] written as a key path ("body2.tau[1]" = 0.3): set by key path after the other keys.
bool is_key_path(std::string_view key) { return key.find_first_of(".[") != std::string_view::npos; }

/// The cases of a file: the [[case]] tables (each its keys over the file's) times the Cartesian product of the [sweep]
/// lists of the line kinds (s, n, n1, n2, tau1, tau2, the first varying slowest). An error names the case: "case 3 of
/// 12 (s = 0.4, n2 = 2): ...". No value is written into the TOML:
/// - a [[case]] is its table over the file's keys. Where every key is a number the file writes (numeric_leaves), the
///   file is parsed once and the case is a copy with the numbers set by key path (io::set_number: the reader's checks
///   and derivations); where not, or where the key path refuses a number one at a time (a value valid only with
///   another of the case's) or the file is not valid without the case, the case's table over the file's is parsed;
/// - a [[case]] key written as a key path ("body2.tau[1]" = 0.3) is set by key path after the others, its errors
///   naming the key as written: case[0]."body2.tau[1]";
/// - the sweep applies to each parsed case: the branches cut and the relaxation times set by the rheology
///   (keep_branches, set_taus), s set as pair.s by key path (body2.k0 and eq. 58's dampings follow). A file that
///   leaves pair.s to sweep.s is read with the sweep's first value.
template <typename Case, typename ParseOne>
std::vector<Case> for_each_line_case(const toml::table& root, std::string_view name, const ScenarioSource& source,
                                     const ParseOne& parse_one) {
  const Section top(&root, "");
  struct CaseSpec {
    std::string label;
    toml::table keys;  // the keys a merge or a key path applies (all but label and the key paths)
    struct Path {
      std::string key, written;  // "body2.tau[1]", case[0]."body2.tau[1]"
      double value;
    };
    std::vector<Path> paths;  // the keys written as key paths
  };
  std::vector<CaseSpec> specs;
  const bool has_cases = top.has("case");
  if (has_cases) {
    const toml::array* cases = top.node("case")->as_array();
    if (!cases || !cases->is_array_of_tables() || cases->empty())
      top.wrong_type("case", "[[case]] tables, each overriding keys of the scenario");
    for (std::size_t i = 0; i < cases->size(); ++i) {
      const Section cs(cases->get(i)->as_table(), fmt::format("case[{}]", i));
      for (const char* k : {"kind", "name", "description", "case", "sweep"})
        if (cs.has(k))
          throw InvalidInput(
              fmt::format("key \"{}\" cannot be set in a [[case]] (it applies to the whole scenario)", cs.key(k)));
      CaseSpec spec{cs.string("label").value_or(fmt::format("case {}", i + 1)), {}, {}};
      for (auto&& [k, v] : *cases->get(i)->as_table()) {
        if (k.str() == "label") continue;
        if (!is_key_path(k.str())) {
          put(spec.keys, k.str(), v);
          continue;
        }
        detail::require_key_path_size(cs.path(), k.str());
        const std::string written = fmt::format("case[{}].{}", i, q(k.str()));
        const std::optional<double> value = number_of(&v);
        if (!value)
          throw InvalidInput(
              fmt::format("{} = {}: a key path in a [[case]] takes a number", written, detail::format_node(v)));
        spec.paths.push_back({std::string(k.str()), written, *value});
      }
      specs.push_back(std::move(spec));
    }
  } else {
    specs.push_back({});
  }
  const std::vector<SweepDim> dims = key_path_sweep(root) ? std::vector<SweepDim>{} : read_line_sweep(root);
  double count = static_cast<double>(specs.size());  // counted in floating point: four lists of 2^16 overflow
  for (const auto& d : dims) count *= static_cast<double>(d.values.size());
  check_case_count(count);
  std::size_t product = 1;
  for (const auto& d : dims) product *= d.values.size();
  const std::size_t total = product * specs.size();
  Keys case_columns;
  for (const auto& d : dims) case_columns.push_back(d.key);
  if (has_cases) case_columns.emplace_back("case");

  toml::table file = root;  // the file without [[case]] and [sweep]
  file.erase("case");
  file.erase("sweep");
  for (const auto& d : dims)  // sweep.s stands for pair.s: a file that leaves it to the sweep is read with its first
    if (d.key == "s" && !(sub_table(file, "pair") && sub_table(file, "pair")->contains("s"))) {
      if (!sub_table(file, "pair")) file.insert_or_assign("pair", toml::table{});
      sub_table(file, "pair")->insert_or_assign("s", d.values.front());
    }
  std::optional<Case> parsed_file;  // the file parsed once, as written
  bool file_refused = false;         // ... or refused: each case is then its table over the file's, parsed
  // A case before the sweep: the file with its keys set by key path, or its table over the file's, parsed.
  const auto prepare = [&](const CaseSpec& spec) {
    std::vector<std::pair<std::string, double>> leaves;
    std::optional<Case> sc;
    if (numeric_leaves(file, spec.keys, &file, "", leaves)) {
      try {
        if (!parsed_file && !file_refused) {
          file_refused = true;
          parsed_file = parse_one(file, case_columns, name, source);
          file_refused = false;
        }
        if (parsed_file) {
          sc = *parsed_file;
          for (const auto& [path, value] : leaves) set_number(*sc, path, value);
        }
      } catch (const InvalidInput&) {  // one at a time refused, or the file not valid without the case: merged below
        if (spec.keys.empty()) throw;  // ... which would be the file again, refused again
        sc.reset();
      }
    }
    if (!sc) {
      toml::table t = file;
      deep_merge(t, spec.keys);
      sc = parse_one(t, case_columns, name, source);
    }
    for (const auto& p : spec.paths) {
      try {
        set_number(*sc, p.key, p.value);
      } catch (const InvalidInput& e) {  // "body2.tau[2]: ..." -> "case[0]."body2.tau[2]": ..."
        const std::string_view m = e.what();
        if (m.rfind(p.key + ":", 0) == 0 || m.rfind(p.key + " ", 0) == 0)
          throw InvalidInput(p.written + std::string(m.substr(p.key.size())));
        throw InvalidInput(fmt::format("{}: {}", p.written, m));
      }
    }
    const std::function<void(const toml::table&, const std::string&)> leaves_of = [&](const toml::table& t,
                                                                                       const std::string& prefix) {
      for (auto&& [k, v] : t) {
        const std::string path = prefix.empty() ? std::string(k.str()) : prefix + "." + std::string(k.str());
        if (const toml::table* sub = v.as_table()) leaves_of(*sub, path);
        else sc->case_keys.push_back(path);
      }
    };
    leaves_of(spec.keys, "");
    for (const auto& p : spec.paths) sc->case_keys.push_back(p.key);
    return std::move(*sc);
  };
  // The sweep on a prepared case.
  // `tables`: whether the case has a [body1] / [body2] table (the file's or its own), for the messages.
  const auto sweep = [&](const Case& prepared, const std::array<bool, 2>& tables, const std::vector<std::size_t>& at) {
    Case sc = prepared;
    bool zero[2] = {false, false}, cut = false;
    std::optional<double> s;
    for (std::size_t d = 0; d < dims.size(); ++d) {
      const std::string& key = dims[d].key;
      const double v = dims[d].values[at[d]];
      const std::string where = fmt::format("{} = {}", dims[d].names[at[d]], format_value(v));
      if (key == "s") {
        s = v;
      } else if (key[0] == 'n') {
        for (int i = 0; i < 2; ++i)
          if (key == "n" || key[1] == '1' + i) {
            keep_branches(sc, i, static_cast<int>(v), tables[i], where);
            zero[i] = v == 0.0;
          }
        cut = true;
      } else if (const int i = key == "tau1" ? 0 : 1; !zero[i]) {
        set_taus(sc, i, v, tables[i], where);
        cut = true;
      }
    }
    if (s) set_number(sc, "pair.s", *s);  // body2.k0 and eq. 58 follow; validated with the cut bodies
    else if (cut) rederive_and_validate(sc);
    return sc;
  };

  std::vector<Case> out;
  out.reserve(total);
  std::vector<std::size_t> at(dims.size());
  for (std::size_t b = 0; b < specs.size(); ++b) {
    const CaseSpec& spec = specs[b];
    const std::array<bool, 2> tables = {sub_table(file, "body1") || spec.keys.contains("body1"),
                                        sub_table(file, "body2") || spec.keys.contains("body2")};
    std::optional<Case> prepared;
    for (std::size_t p = 0; p < product; ++p) {
      const std::size_t index = b * product + p;
      // Decompose p: the first sweep key varies slowest.
      for (std::size_t d = dims.size(), rest = p; d-- > 0;) {
        at[d] = rest % dims[d].values.size();
        rest /= dims[d].values.size();
      }
      std::vector<std::string> parts;
      if (has_cases) parts.push_back(spec.label);
      for (std::size_t d = 0; d < dims.size(); ++d)
        parts.push_back(fmt::format("{} = {}", dims[d].key, number_text(dims[d].values[at[d]])));
      const std::string label = fmt::format("{}", fmt::join(parts, ", "));
      try {
        if (!prepared) prepared = prepare(spec);
        Case sc = dims.empty() ? *prepared : sweep(*prepared, tables, at);
        std::size_t column = 3;
        for (std::size_t d = 0; d < dims.size(); ++d)
          if (dims[d].key != "s" && dims[d].key != "n1" && dims[d].key != "n2")
            sc.columns[column++].second = dims[d].values[at[d]];
        if (has_cases) sc.columns[column].second = static_cast<double>(b + 1);
        sc.label = total == 1 ? "" : label;
        sc.case_index = index;
        sc.case_count = total;
        out.push_back(std::move(sc));
      } catch (const InvalidInput& e) {
        if (total == 1) throw;
        throw InvalidInput(fmt::format("case {} of {} ({}): {}", index + 1, total, label, e.what()));
      }
    }
  }
  return out;
}

template <typename Case, typename ParseOne>
std::vector<Case> parse_all(const toml::table& root, std::string_view name, const ScenarioSource& source,
                            const ParseOne& parse_one) {
  std::vector<Case> cases = for_each_line_case<Case>(root, name, source, parse_one);
  const std::optional<detail::SweepSpec> spec = key_path_sweep(root) ? detail::read_sweep(root) : std::nullopt;
  if (!spec) return cases;
  // The lumped [sweep] (parameter, values, column), as patch_steady_map: every case of the file times the values,
  // each set by key path on the parsed case (set_number: the reader's checks), the value the first case column.
  const Sweep& sw = spec->sweep;
  const std::size_t total = cases.size() * sw.values.size();
  check_case_count(static_cast<double>(total));
  const std::vector<std::string> columns = cases.front().column_names();
  if (std::find(columns.begin(), columns.end(), sw.column) != columns.end())
    throw InvalidInput(fmt::format("sweep.column = {}: clashes with a column of the same name; give sweep.column "
                                   "another name",
                                   q(sw.column)));
  std::vector<Case> swept;
  swept.reserve(total);
  for (const Case& base : cases)
    for (std::size_t i = 0; i < sw.values.size(); ++i) {
      Case c = base;
      const double v = sw.values[i];
      c.label = fmt::format("{}{}{} = {}", base.label, base.label.empty() ? "" : ", ", sw.parameter, number_text(v));
      try {
        set_number(c, sw.parameter, v);
      } catch (const InvalidInput& e) {
        throw InvalidInput(fmt::format("sweep case {} of {} ({}): {}", swept.size() + 1, total, c.label, e.what()));
      }
      c.columns.insert(c.columns.begin(), {sw.column, v});
      c.swept.push_back(sw.parameter);
      c.case_index = swept.size();
      c.case_count = total;
      swept.push_back(std::move(c));
    }
  return swept;
}

/// The cases of a scenario's TOML text.
template <typename Case>
std::vector<Case> parse_text(std::string_view toml, std::string_view name, const ScenarioSource& source) {
  const toml::table root = detail::parse_toml(toml, source.display_name());
  if constexpr (std::is_same_v<Case, LineSteadyScenario>) return detail::parse_line_steady(root, name, source);
  else return detail::parse_line_transient(root, name, source);
}

}  // namespace

std::vector<LineSteadyScenario> detail::parse_line_steady(const toml::table& root, std::string_view name,
                                                          const ScenarioSource& source) {
  return parse_all<LineSteadyScenario>(root, name, source, parse_steady_case);
}

std::vector<LineTransientScenario> detail::parse_line_transient(const toml::table& root, std::string_view name,
                                                                const ScenarioSource& source) {
  return parse_all<LineTransientScenario>(root, name, source, parse_transient_case);
}

std::vector<LineSteadyScenario> parse_line_steady_string(std::string_view toml, std::string_view name,
                                                         const std::filesystem::path& directory) {
  return parse_text<LineSteadyScenario>(toml, name, ScenarioSource::of_text(directory));
}

std::vector<LineTransientScenario> parse_line_transient_string(std::string_view toml, std::string_view name,
                                                               const std::filesystem::path& directory) {
  return parse_text<LineTransientScenario>(toml, name, ScenarioSource::of_text(directory));
}

std::unique_ptr<Scenario> parse_line_steady_scenario(std::string_view toml, std::string_view name,
                                                     const ScenarioSource& source) {
  return std::make_unique<LineSteadyStudy>(parse_text<LineSteadyScenario>(toml, name, source));
}

std::unique_ptr<Scenario> parse_line_transient_scenario(std::string_view toml, std::string_view name,
                                                        const ScenarioSource& source) {
  return std::make_unique<LineTransientStudy>(parse_text<LineTransientScenario>(toml, name, source));
}

}  // namespace bristle::io
