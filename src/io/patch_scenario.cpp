// kind = "patch_steady_map": steady forces and moment of a rolling contact patch over a grid of
// operating points (paper 1, §4; see include/bristle/io/patch_scenario.hpp and docs/patch.md).
#include "bristle/io/patch_scenario.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <functional>
#include <limits>
#include <numbers>
#include <optional>
#include <utility>

#include "bristle/core/error.hpp"
#include "bristle/io/key_path.hpp"
#include "scenario_internal.hpp"
#include "study.hpp"
#include "schema_json.hpp"
#include "schema_reader.hpp"

// The patch's choices for the schema reader (found by argument-dependent lookup, schema_reader.hpp).
namespace bristle::patch {
static void choice_from_string(std::string_view key, std::string_view name, PatchShape& out) {
  out = patch_shape_from_string(key, name);
}
static void choice_from_string(std::string_view key, std::string_view name, PatchPressure& out) {
  out = patch_pressure_from_string(key, name);
}
}  // namespace bristle::patch
namespace bristle::transport {
static void choice_from_string(std::string_view key, std::string_view name, SourceScheme& out) {
  out = source_scheme_from_string(key, name);
}
}  // namespace bristle::transport

namespace bristle::io {

namespace {

using detail::Section;

constexpr std::size_t kMaxPoints = 200000;
constexpr double kMaxCellSweeps = 4e9;  // operating points x cells x patch.max_sweeps (check_points)
// Largest normal load, N (a loaded tyre ~1e4 N; 1e300 made the size scaling and the step degenerate).
constexpr double kMaxLoad_N = 1e9;
// Work of a transient: cells x CFL steps (~3 us per cell update here: 4e7 ~ 2 min; the examples need
// 1e6 and 3.8e6). A spin of 2^31 rad/s passed check and ran for minutes: the step scales as 1 / max |W|,
// and the spin's |W| grows with the radius; 88,240 cells (nx = 8824) ran for minutes too.
constexpr double kMaxCellSteps = 4e7;
const std::vector<std::string> kExtraColumns{"Mz_no_phi_Nm",    "W_J",          "P_supplied_W",
                                             "P_dissipated_W",  "P_outflow_W",  "P_compression_W",
                                             "P_residual_W",    "sweeps"};

void check_load(const patch::PatchParams& p) {
  if (!(p.normal_load_N <= kMaxLoad_N))
    throw InvalidInput(fmt::format("patch.normal_load_N = {}: must be in (0, {}] N (Limits in docs/scenarios.md)",
                                   format_value(p.normal_load_N), format_value(kMaxLoad_N)));
}

/// Every operating point of a map: finite fields and a leading edge for every moving family (eqs. 48-50).
void check_points(const PatchMapScenario& sc, const contact::ContactModel& model, const patch::PatchGeometry& geometry) {
  if (sc.lateral.column == "slip_angle_deg")
    for (std::size_t i = 0; i < sc.lateral.values.size(); ++i)
      if (!(std::abs(sc.lateral.values[i]) < 89.0))
        throw InvalidInput(fmt::format("kinematics.slip_angle_deg = {}: must be in (-89, 89)",
                                       format_value(sc.lateral.values[i])));
  const std::size_t points = sc.vx.values.size() * sc.lateral.values.size() * sc.spin.values.size();
  if (points > kMaxPoints) throw InvalidInput(fmt::format("kinematics: at most {} operating points", kMaxPoints));
  // The work: a point costs at most patch.max_sweeps sweeps over the grid (~0.35 us per cell and sweep:
  // examples/patch_slip_spin_map.toml, 147 points x 1800 cells converging in 20-40 sweeps, takes 2.9 s).
  const double cell_sweeps = static_cast<double>(points) * sc.patch.nx * sc.patch.ny * sc.patch.max_sweeps;
  if (cell_sweeps > kMaxCellSweeps)
    throw InvalidInput(fmt::format(
        "patch.max_sweeps = {}: {} operating point{} x patch.nx x patch.ny = {} x {} cells x {} sweeps = {:.3g} cell "
        "sweeps at most; at most {:.3g} (Limits in docs/scenarios.md; fewer points, a coarser grid or fewer sweeps)",
        sc.patch.max_sweeps, points, points == 1 ? "" : "s", sc.patch.nx, sc.patch.ny, sc.patch.max_sweeps,
        cell_sweeps, kMaxCellSweeps));
  const patch::Riemann r = patch::riemann(model.pair());
  for (double v : sc.vx.values)
    for (double l : sc.lateral.values)
      for (double w : sc.spin.values) {
        const patch::PatchKinematics kin = sc.kinematics(v, l, w);
        const std::string where = fmt::format("kinematics (vx_mps = {}, {} = {}, spin_radps = {})", format_value(v),
                                              sc.lateral.column, format_value(l), format_value(w));
        kin.validate(where);
        patch::require_leading_edges(patch::classify_edges(geometry, r, kin), model, where);
      }
}

/// Every output time and signal breakpoint of a transient: finite fields, a positive load, a leading edge
/// for every moving family (eqs. 48-50), and the solver's own checks, so that a bad file writes nothing.
void check_times(const PatchTransientScenario& sc, const contact::ContactModel& model,
                 const patch::PatchGeometry& geometry) {
  // The run steps to every output time (PatchTransient::advance_to), so the output times alone bound its work from
  // below: checked first, as each time below costs about what a step does (a stencil build for stable_dt).
  const double cells = static_cast<double>(sc.transient.patch.nx) * sc.transient.patch.ny;
  const double outputs = static_cast<double>(detail::output_times_bound(sc.time));
  if (!((outputs - 1.0) * cells <= kMaxCellSteps))
    throw InvalidInput(fmt::format("time: the run steps to each of its {} output times ({} .. {} s) over patch.nx x "
                                   "patch.ny = {} cells, at least {} cell updates; at most {} (Limits in "
                                   "docs/scenarios.md)",
                                   format_value(outputs), format_value(sc.time.t_start_s),
                                   format_value(sc.time.t_end_s), format_value(cells),
                                   format_value((outputs - 1.0) * cells), format_value(kMaxCellSteps)));
  std::vector<double> times = sc.time.times();
  for (const contact::Signal* s : {&sc.Vr_mps, &sc.vx_mps, &sc.vy_mps, &sc.spin_radps, &sc.Fz_N})
    for (double b : s->breakpoints())
      if (b >= sc.time.t_start_s && b <= sc.time.t_end_s) times.push_back(b);
  const patch::Riemann r = patch::riemann(model.pair());
  std::optional<patch::PatchKinematics> checked;  // the last kinematics checked (constant ones are checked once)
  const auto same = [](const patch::PatchKinematics& a, const patch::PatchKinematics& b) {
    const auto body = [](const patch::BodyMotion& x, const patch::BodyMotion& y) {
      return x.V0_mps == y.V0_mps && x.omega_radps == y.omega_radps;
    };
    return body(a.body1, b.body1) && body(a.body2, b.body2) && a.s_corrections == b.s_corrections;
  };
  for (double t : times) {
    const double Fz = sc.Fz_N(t);
    if (!(std::isfinite(Fz) && Fz > 0.0))
      throw InvalidInput(fmt::format("load.Fz_N at t = {} s is {}: must be finite and > 0", format_value(t),
                                     format_value(Fz)));
    if (Fz > kMaxLoad_N)
      throw InvalidInput(fmt::format("load.Fz_N at t = {} s is {}: at most {} N (Limits in docs/scenarios.md)",
                                     format_value(t), format_value(Fz), format_value(kMaxLoad_N)));
    const patch::PatchKinematics kin = sc.kinematics(t);
    if (checked && same(kin, *checked)) continue;
    checked = kin;
    const std::string where = fmt::format("kinematics at t = {} s", format_value(t));
    kin.validate(where);
    if (!(kin.body1.V0_mps[0] <= 0.0))
      throw InvalidInput(fmt::format("kinematics.Vr_mps at t = {} s is {}: must be >= 0", format_value(t),
                                     format_value(-kin.body1.V0_mps[0])));
    patch::require_leading_edges(patch::classify_edges(geometry, r, kin), model, where);
  }
  patch::PatchTransient solver(model, sc.transient, [&](double t) { return sc.kinematics(t); },
                               [&](double t) { return sc.Fz_N(t); });
  // The work: steps between consecutive sampled times at the smaller of their CFL steps (the step the
  // solver takes: cfl h / max |W|, capped by transient.max_dt_s), times the cells.
  std::sort(times.begin(), times.end());
  double steps = 0.0, dt_min = std::numeric_limits<double>::infinity(), t_min = sc.time.t_start_s;
  // The stable step follows the kinematics and the load (stable_dt): computed again only when they change.
  const auto inputs = [&](double t) {
    const double h = patch::PatchTransient::rate_step(t);
    return std::pair(sc.kinematics(t), std::array<double, 3>{sc.Fz_N(t - h), sc.Fz_N(t), sc.Fz_N(t + h)});
  };
  const auto same_inputs = [&](const auto& a, const auto& b) { return same(a.first, b.first) && a.second == b.second; };
  auto last = inputs(times.front());
  double dt_prev = solver.stable_dt(times.front());
  for (std::size_t i = 0; i < times.size(); ++i) {
    double dt = dt_prev;
    if (i > 0) {
      auto now = inputs(times[i]);
      if (!same_inputs(now, last)) dt = solver.stable_dt(times[i]), last = std::move(now);
    }
    if (dt < dt_min) dt_min = dt, t_min = times[i];
    if (i > 0) steps += (times[i] - times[i - 1]) / std::min(dt, dt_prev);
    dt_prev = dt;
  }
  steps = std::max(steps, outputs - 1.0);  // a step at least to each output time (not to each signal breakpoint)
  if (!(steps * cells <= kMaxCellSteps))
    throw InvalidInput(fmt::format(
        "kinematics: the run takes {} CFL steps (the smallest {} s, at t = {} s: transient.cfl x cell size / the "
        "largest transport speed, from kinematics.Vr_mps, vx_mps, vy_mps and spin_radps x the patch radius) over "
        "patch.nx x patch.ny = {} cells, {} cell updates; at most {} (Limits in docs/scenarios.md)",
        format_value(steps), format_value(dt_min), format_value(t_min), format_value(cells),
        format_value(steps * cells), format_value(kMaxCellSteps)));
}

}  // namespace

void validate(const PatchMapScenario& sc) {
  const contact::ContactModel model(sc.law, sc.body1, sc.body2);  // validates the law and the bodies
  (void)patch::riemann(model.pair());
  check_load(sc.patch);
  const patch::PatchGeometry geometry(sc.patch, "patch");
  check_points(sc, model, geometry);
}

void validate(const PatchTransientScenario& sc) {
  const contact::ContactModel model(sc.law, sc.body1, sc.body2);
  (void)patch::riemann(model.pair());
  check_load(sc.transient.patch);
  const patch::PatchGeometry geometry(sc.transient.patch, "patch");
  check_times(sc, model, geometry);
}

patch::PatchKinematics PatchMapScenario::kinematics(double v_x, double lat, double w) const {
  const double v_y = lateral.column == "slip_angle_deg" ? (Vr_mps + v_x) * std::tan(lat * std::numbers::pi / 180.0)
                                                        : lat;
  return patch::rolling(Vr_mps, v_x, v_y, w, s_corrections);
}

const PatchAxis& PatchMapScenario::row_axis() const {
  for (const PatchAxis* a : {&vx, &lateral, &spin})
    if (a->list) return *a;
  return vx;
}

const PatchAxis* PatchMapScenario::case_axis() const {
  const PatchAxis* row = &row_axis();
  for (const PatchAxis* a : {&vx, &lateral, &spin})
    if (a->list && a != row) return a;
  return nullptr;
}

std::vector<std::string> PatchMapScenario::column_names() const {
  std::vector<std::string> names{row_axis().column, "Fx_N", "Fy_N", "Mz_Nm"};
  names.insert(names.end(), extra_columns.begin(), extra_columns.end());
  return names;
}

namespace {

// ---------------------------------------------------------------------------------------------
// The readers: each kind's serialize() walked by the schema reader (schema_reader.hpp), [law], [body1],
// [body2] and [pair] by the lumped kind's readers. The hooks are what the schema does not state (TOML forms
// that differ from the storage, message texts); the checks after the walk are named per table.

using detail::ReaderHooks;
using detail::SchemaReader;

/// [patch] peak_pressure_Pa: optional (it applies once given); PatchParams::validate checks it against the load.
void read_peak_pressure(const Section& t, patch::PatchParams& p) {
  if (const auto v = t.number("peak_pressure_Pa")) p.peak_pressure_Pa = *v;
}

/// A patch scenario's tables in the order of the hand-written readers: the root's own keys (kind, name,
/// description; every table name checked), then the contact tables, then the kind's tables with `h`.
template <class Sc>
contact::ContactModel read_patch_scenario(const toml::table& table, Sc& sc, std::string_view kind,
                                          std::string_view name, ReaderHooks& h) {
  const Section root(&table, "");
  detail::add_scenario_hooks(h, sc, kind);
  h.declared["kinematics.mode"] = [](const Section& k) {
    if (const auto mode = k.string("mode"); mode && *mode != "rolling")
      throw InvalidInput(fmt::format("{} = {}: unknown mode (valid: rolling)", k.key("mode"), json_quote(*mode)));
  };
  h.skip = {"law", "body1", "body2", "pair", "patch", "transient", "kinematics", "load", "time", "sweep", "output"};
  SchemaReader(root, h).read(sc);
  if (!root.has("name")) sc.name = std::string(name);
  detail::validate_name(root.has("name") ? "name" : "name (the file stem)", sc.name);
  sc.law = detail::read_law(root);
  detail::Body body1 = detail::read_body(root, "body1", true);
  detail::Body body2 = detail::read_body(root, "body2", false);
  detail::read_pair(root, body1, body2, sc.pair_s);
  sc.body1 = body1.params;
  sc.body2 = body2.params;
  sc.input_form.body_tau[0] = body1.tau;
  sc.input_form.body_tau[1] = body2.tau;
  contact::ContactModel model(sc.law, sc.body1, sc.body2);  // validates the bodies (SPD, commuting)
  (void)patch::riemann(model.pair());
  h.skip = {"law", "body1", "body2", "pair", "sweep", "time"};
  SchemaReader(root, h).read(sc);
  if (!root.table("output").has("title")) sc.output.title = sc.name;
  return model;
}

using detail::JsonWriter;

/// The "parameters" of a patch report from the kind's serialize() walk: [law], [body1], [body2] as used (the
/// lumped kind's echo), pair.s as "s", the kind's tables with `h`; the root's own keys, [time], [sweep] and
/// [output] are reported elsewhere.
template <class Sc>
Json parameters_json(const Sc& sc, const contact::ContactModel& model, JsonWriter::Hooks h) {
  for (const char* key : {"name", "description", "time", "sweep", "output"}) h[key] = [](Json&) {};
  h["law"] = [&](Json& j) { j["law"] = detail::law_to_json(sc.law, model.law().sigma0()); };
  h["body1"] = [&](Json& j) { j["body1"] = detail::body_to_json(sc.body1); };
  h["body2"] = [&](Json& j) { j["body2"] = detail::body_to_json(sc.body2); };
  h["pair"] = [&](Json& j) {
    if (sc.pair_s) j["s"] = *sc.pair_s;
  };
  h["kinematics.mode"] = [](Json& k) { k["mode"] = "rolling"; };
  return JsonWriter::write(sc, h, "");
}

}  // namespace

PatchMapScenario detail::parse_patch_steady_map(const toml::table& table, std::string_view name,
                                                const ScenarioSource& source) {
  PatchMapScenario sc;
  sc.source = source;
  sc.output.plot_y = {"Fx_N", "Fy_N", "Mz_Nm"};
  ReaderHooks h;
  h.before["patch"] = [&](const Section& t) {
    read_peak_pressure(t, sc.patch);
    if (const auto v = t.integer("threads"); v && (*v < 0 || *v > 1024))
      throw InvalidInput(fmt::format("patch.threads = {}: must be in [0, 1024] (0: every core)", *v));
  };
  // The lateral axis: slip_angle_deg when given (the walk's `applies` are taken when it enters the root table).
  if (const auto* k = table.get_as<toml::table>("kinematics"); k && k->contains("slip_angle_deg"))
    sc.lateral.column = "slip_angle_deg";
  h.before["kinematics"] = [&](const Section& k) {
    if (k.has("vy_mps") && k.has("slip_angle_deg"))
      throw InvalidInput("kinematics.vy_mps and kinematics.slip_angle_deg: give one of them, not both");
  };
  // The operating-point axes: a number, a list or a grid (detail::read_number_grid, as the line kinds).
  const std::pair<const char*, PatchAxis*> axes[] = {
      {"vx_mps", &sc.vx}, {"vy_mps", &sc.lateral}, {"slip_angle_deg", &sc.lateral}, {"spin_radps", &sc.spin}};
  for (const auto& entry : axes)
    h.declared[fmt::format("kinematics.{}", entry.first)] = [axis = entry.second, key = entry.first](const Section& k) {
      if (!k.node(key)) return;  // absent: the single value 0
      detail::NumberGrid grid = detail::read_number_grid(k, key, "", "value", static_cast<std::int64_t>(kMaxPoints));
      axis->values = std::move(grid.values);
      axis->list = !grid.scalar;
    };
  h.before["output"] = [&](const Section&) { sc.output.plot_x = sc.row_axis().column; };
  h.declared["output.columns"] = [&](const Section& o) {
    const auto cols = o.strings("columns", true);
    if (!cols) return;
    for (std::size_t i = 0; i < cols->size(); ++i)
      if (std::find(kExtraColumns.begin(), kExtraColumns.end(), (*cols)[i]) == kExtraColumns.end())
        throw InvalidInput(fmt::format("output.columns[{}] = {}: unknown column (valid: {})", i,
                                       json_quote((*cols)[i]), fmt::join(kExtraColumns, ", ")));
    sc.extra_columns = *cols;
  };
  const contact::ContactModel model = read_patch_scenario(table, sc, "patch_steady_map", name, h);
  check_load(sc.patch);
  const patch::PatchGeometry geometry(sc.patch, "patch");
  if (sc.vx.list && sc.lateral.list && sc.spin.list)
    throw InvalidInput("kinematics: at most two of vx_mps, vy_mps/slip_angle_deg and spin_radps may be lists (rows "
                       "and cases)");
  check_points(sc, model, geometry);  // every operating point (shared with validate())
  const std::vector<std::string> columns = sc.column_names();
  detail::check_plot_columns(sc.output, columns);
  // [sweep]: the lumped syntax (parameter, values, column), applied by key path (patch_steady_map_cases).
  if (auto sweep = detail::read_key_path_sweep(Section(&table, ""), columns)) {
    if (sc.case_axis())
      throw InvalidInput(fmt::format("sweep.parameter = {}: kinematics already has two lists (rows and cases); with a "
                                     "[sweep] at most one of vx_mps, vy_mps/slip_angle_deg and spin_radps may be a list",
                                     json_quote(sweep->parameter)));
    sc.sweep = std::move(sweep);
  }
  return sc;
}

PatchMapScenario parse_patch_steady_map_string(std::string_view toml, std::string_view name,
                                               const ScenarioSource& source) {
  return detail::parse_patch_steady_map(detail::parse_toml(toml, source.display_name()), name, source);
}

std::vector<PatchMapScenario> patch_steady_map_cases(const PatchMapScenario& sc) { return detail::sweep_cases(sc); }

namespace {
/// `sc`, once the study's rows (the operating points of every case: a sweep sets a number, not an axis) are within
/// the limit: counted before the cases are built, each of which checks every point (check_points, ~60 us each).
/// The study's run is its own, not detail::run_study.
const PatchMapScenario& counted(const PatchMapScenario& sc) {
  const std::size_t cases = sc.sweep ? sc.sweep->values.size() : 1;
  const double points = static_cast<double>(sc.vx.values.size() * sc.lateral.values.size() * sc.spin.values.size());
  detail::require_study_rows(detail::swept_where(cases), points * static_cast<double>(cases), cases - 1, cases);
  return sc;
}
}  // namespace

PatchSteadyMapStudy::PatchSteadyMapStudy(PatchMapScenario sc)
    : cases_(patch_steady_map_cases(counted(sc))), sc_(std::move(sc)) {}

std::size_t PatchSteadyMapStudy::case_count() const {
  if (sc_.sweep) return cases_.size();
  const PatchAxis* c = sc_.case_axis();
  return c ? c->values.size() : 1;
}

std::string PatchSteadyMapStudy::summary() const {
  std::string s;
  s += fmt::format("scenario   {} (kind = \"patch_steady_map\", {})\n", sc_.name, sc_.source.display_name());
  if (!sc_.description.empty()) s += fmt::format("description {}\n", sc_.description);
  s += fmt::format("law        {}\n", laws::to_string(sc_.law.kind));
  s += fmt::format("patch      {} {} x {} m, {} pressure, F_z = {} N, grid {} x {}\n", patch::to_string(sc_.patch.shape),
                   format_value(sc_.patch.length_m), format_value(sc_.patch.width_m),
                   patch::to_string(sc_.patch.pressure), format_value(sc_.patch.normal_load_N), sc_.patch.nx,
                   sc_.patch.ny);
  s += fmt::format("kinematics rolling, V_r = {} m/s, {} x {} x {} operating points (vx, {}, spin), S-corrections {}\n",
                   format_value(sc_.Vr_mps), sc_.vx.values.size(), sc_.lateral.values.size(), sc_.spin.values.size(),
                   sc_.lateral.column, sc_.s_corrections ? "on" : "off");
  s += detail::sweep_summary(sc_.sweep, cases_.size());
  s += fmt::format("columns    {}\n", fmt::join(sc_.column_names(), ", "));
  return s;
}

RunResult PatchSteadyMapStudy::run(const ProgressCallback& progress) const {
  const contact::ContactModel model(sc_.law, sc_.body1, sc_.body2);
  patch::PatchSolver solver(model, sc_.patch);
  const PatchAxis& row = sc_.row_axis();
  const PatchAxis* cases = sc_.case_axis();
  RunResult result;
  result.name = sc_.name;
  result.title = sc_.output.title;
  result.plot_x = sc_.output.plot_x;
  result.plot_y = sc_.output.plot_y;
  if (cases) result.sweep_column = cases->column;
  if (sc_.sweep) result.sweep_column = sc_.sweep->column;
  const std::size_t n_cases = sc_.sweep ? cases_.size() : cases ? cases->values.size() : 1;
  const std::size_t n_rows = row.values.size();
  // Every operating point, case by case: each case is one chain of patch::solve_steady_map (its rows
  // warm-started in order), the chains spread over the workers; bit-identical for any thread count.
  std::vector<patch::PatchKinematics> points;
  points.reserve(n_cases * n_rows);
  for (std::size_t c = 0; c < n_cases; ++c)
    for (std::size_t i = 0; i < n_rows; ++i) {
      double v[3] = {sc_.vx.values.front(), sc_.lateral.values.front(), sc_.spin.values.front()};
      const PatchAxis* axes[3] = {&sc_.vx, &sc_.lateral, &sc_.spin};
      for (int a = 0; a < 3; ++a) {
        if (axes[a] == &row) v[a] = row.values[i];
        if (axes[a] == cases) v[a] = cases->values[c];
      }
      points.push_back(sc_.kinematics(v[0], v[1], v[2]));
    }
  if (progress) progress(Progress{0, n_cases, 0.0, ""});
  const auto start = std::chrono::steady_clock::now();
  std::vector<patch::SteadyPatch> map;
  // Progress inside the solve: points solved over all points, as a case index and a fraction of it.
  const auto report = [&](std::size_t case_index, double fraction) {
    if (progress) progress(Progress{case_index, n_cases, std::min(fraction, 1.0), ""});
  };
  if (!sc_.sweep) {
    const double total = static_cast<double>(points.size());
    map = patch::solve_steady_map(model, sc_.patch, points, n_rows, sc_.threads, [&](std::size_t done) {
      const double overall = static_cast<double>(done) / total * static_cast<double>(n_cases);
      const std::size_t c = std::min(static_cast<std::size_t>(overall), n_cases - 1);
      report(c, overall - static_cast<double>(c));
    });
  } else {
    // A [sweep]: each case is its own scenario (the value applied by key path): one chain each.
    map.reserve(n_cases * n_rows);
    for (const PatchMapScenario& c : cases_) {
      std::vector<patch::PatchKinematics> rows;
      rows.reserve(n_rows);
      for (std::size_t i = 0; i < n_rows; ++i) {
        double v[3] = {c.vx.values.front(), c.lateral.values.front(), c.spin.values.front()};
        const PatchAxis* axes[3] = {&c.vx, &c.lateral, &c.spin};
        for (int a = 0; a < 3; ++a)
          if (axes[a]->list) v[a] = axes[a]->values[i];
        rows.push_back(c.kinematics(v[0], v[1], v[2]));
      }
      const contact::ContactModel case_model(c.law, c.body1, c.body2);
      const std::size_t case_index = map.size() / n_rows;
      const std::vector<patch::SteadyPatch> part =
          patch::solve_steady_map(case_model, c.patch, rows, n_rows, c.threads, [&](std::size_t done) {
            report(case_index, static_cast<double>(done) / static_cast<double>(n_rows));
          });
      map.insert(map.end(), part.begin(), part.end());
    }
  }
  result.solve_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (std::size_t c = 0; c < n_cases; ++c) {
    TimeSeries series(sc_.column_names());
    series.reserve(n_rows);
    for (std::size_t i = 0; i < n_rows; ++i) {
      const patch::SteadyPatch& st = map[c * n_rows + i];
      std::vector<double> r{row.values[i], st.force_N[0], st.force_N[1], st.Mz_Nm};
      for (const std::string& e : sc_.extra_columns) {
        if (e == "Mz_no_phi_Nm") r.push_back(st.Mz_no_phi_Nm);
        if (e == "W_J") r.push_back(st.stored_energy_J);
        if (e == "P_supplied_W") r.push_back(st.supplied_power_W);
        if (e == "P_dissipated_W") r.push_back(st.dissipated_power_W);
        if (e == "P_outflow_W") r.push_back(st.outflow_power_W);
        if (e == "P_compression_W") r.push_back(st.compression_power_W);
        if (e == "P_residual_W") r.push_back(st.budget_residual_W);
        if (e == "sweeps") r.push_back(st.sweeps);
      }
      series.add_row(r);
    }
    // The cases ran together: each is given its share of the wall time.
    result.cases.push_back(CaseResult{sc_.sweep ? cases_[c].sweep_value
                                      : cases ? std::optional<double>(cases->values[c])
                                              : std::nullopt,
                                      std::move(series), result.solve_seconds / static_cast<double>(n_cases)});
    if (progress) progress(Progress{c, n_cases, 1.0, ""});
  }
  // The flux terms of the energy budget need a storage separable by family: NaN (empty) otherwise.
  result.optional_columns = {"P_outflow_W", "P_compression_W", "P_residual_W"};
  Json& r = result.report;
  detail::report_header(r, "patch_steady_map", sc_.name, sc_.description, sc_.source, result.solve_seconds);
  JsonWriter::Hooks h;
  h["patch.peak_pressure_Pa"] = [&](Json& p) { p["peak_pressure_Pa"] = solver.geometry().peak_pressure(); };
  h["patch.max_sweeps"] = [](Json&) {};  // not echoed (the JSON of the examples is unchanged)
  h["patch.threads"] = [&](Json& p) {
    p["threads"] = sc_.threads;
    p["load_quadrature_error"] = solver.load_quadrature_error();
  };
  const auto axis = [&](const char* key, const PatchAxis& a) {
    h[fmt::format("kinematics.{}", key)] = [&a, key](Json& k) {
      if (a.column == key) k[key] = Json(a.values);
    };
  };
  axis("vx_mps", sc_.vx);
  axis("vy_mps", sc_.lateral);
  axis("slip_angle_deg", sc_.lateral);
  axis("spin_radps", sc_.spin);
  Json params = parameters_json(sc_, model, std::move(h));
  bool eq84 = true;  // Lemma B.1's condition at every operating point
  for (double v : sc_.vx.values)
    for (double l : sc_.lateral.values)
      for (double w : sc_.spin.values)
        eq84 = eq84 && patch::check_eq84(solver.geometry(), sc_.kinematics(v, l, w), 21).satisfied();
  params["eq84_satisfied"] = eq84;
  r["parameters"] = params;
  detail::report_sweep(r, sc_.sweep);  // absent without a [sweep] (the JSON of the existing examples is unchanged)
  // Energy budget at steady state (dW/dt = 0): P_supplied = D + Phi_out - Gamma up to the
  // discretisation error; the largest |residual| / P_supplied over the map (docs/patch.md).
  double worst = 0.0, dmin = 0.0, outmin = 0.0;
  bool finite = true;
  for (const patch::SteadyPatch& st : map) {
    finite = finite && std::isfinite(st.budget_residual_W);
    if (st.supplied_power_W > 0.0) worst = std::max(worst, std::abs(st.budget_residual_W) / st.supplied_power_W);
    dmin = std::min(dmin, st.dissipated_power_W);
    outmin = std::min(outmin, st.outflow_power_W);
  }
  Json budget = Json::object();
  budget["available"] = finite;  // false for generalised Maxwell bodies (storage not separable by family)
  budget["max_relative_residual"] = finite ? Json(worst) : Json(nullptr);
  budget["min_dissipated_power_W"] = dmin;
  budget["min_outflow_power_W"] = finite ? Json(outmin) : Json(nullptr);
  r["energy_budget"] = budget;
  r["columns"] = Json(sc_.column_names());
  return result;
}

std::unique_ptr<Scenario> parse_patch_steady_map_scenario(std::string_view toml, std::string_view name,
                                                          const ScenarioSource& source) {
  return std::make_unique<PatchSteadyMapStudy>(parse_patch_steady_map_string(toml, name, source));
}

// ---------------------------------------------------------------------------------------------
// patch_transient

patch::PatchKinematics PatchTransientScenario::kinematics(double t) const {
  return patch::rolling(Vr_mps(t), vx_mps(t), vy_mps(t), spin_radps(t), s_corrections);
}

std::vector<std::string> PatchTransientScenario::column_names() {
  return {"t_s",          "Fz_N",           "scale",          "Fx_N",           "Fy_N",
          "Mz_Nm",        "Mz_no_phi_Nm",   "W_J",            "P_supplied_W",   "P_dissipated_W",
          "E_supplied_J", "P_outflow_W",    "P_compression_W", "P_load_W",      "E_dissipated_J",
          "E_outflow_J",  "E_compression_J", "E_load_J",       "E_residual_J",  "scale_y"};
}

PatchTransientScenario detail::parse_patch_transient(const toml::table& table, std::string_view name,
                                                     const ScenarioSource& source) {
  PatchTransientScenario sc;
  sc.source = source;
  sc.output.plot_y = {"Fz_N", "Fx_N", "Fy_N", "Mz_Nm"};
  ReaderHooks h;
  h.before["patch"] = [&](const Section& t) {
    read_peak_pressure(t, sc.transient.patch);
    for (const char* k : {"tolerance", "max_sweeps"})  // the steady solver's keys
      if (t.has(k))
        throw InvalidInput(fmt::format("key \"{}\" does not apply to kind = \"patch_transient\" (used by "
                                       "patch_steady_map)",
                                       t.key(k)));
    if (const auto g = t.number("width_exponent")) {  // gamma_y; unset: = size_exponent
      require_closed_interval(t.key("width_exponent"), *g, 0.0, 1.0);
      sc.transient.width_exponent = *g;
    }
  };
  const std::map<std::string, contact::Signal*, std::less<>> signals = {
      {"kinematics.Vr_mps", &sc.Vr_mps},         {"kinematics.vx_mps", &sc.vx_mps}, {"kinematics.vy_mps", &sc.vy_mps},
      {"kinematics.spin_radps", &sc.spin_radps}, {"load.Fz_N", &sc.Fz_N}};
  detail::add_signal_hooks(h, signals, source, sc.table_files);
  h.required["kinematics.Vr_mps"] = [] {
    return std::string("the rolling speed V_r, m/s: a number or a signal table");
  };
  const contact::ContactModel model = read_patch_scenario(table, sc, "patch_transient", name, h);
  check_load(sc.transient.patch);
  // Validates the numerics and the law (an exponential source step needs an affine source) by building
  // the solver once.
  const patch::PatchGeometry geometry(sc.transient.patch, "patch");
  const Section root(&table, "");
  sc.Fz_N_given = root.table("load").has("Fz_N");
  if (!sc.Fz_N_given) sc.Fz_N = contact::Signal::constant_value(sc.transient.patch.normal_load_N);
  sc.time = detail::read_time(root, sc.input_form);
  check_times(sc, model, geometry);  // every output time and signal breakpoint (shared with validate())
  detail::check_plot_columns(sc.output, PatchTransientScenario::column_names());
  sc.sweep = detail::read_key_path_sweep(Section(&table, ""), PatchTransientScenario::column_names());
  return sc;
}

PatchTransientScenario parse_patch_transient_string(std::string_view toml, std::string_view name,
                                                    const ScenarioSource& source) {
  return detail::parse_patch_transient(detail::parse_toml(toml, source.display_name()), name, source);
}

PatchTransientStudy::PatchTransientStudy(PatchTransientScenario sc)
    : cases_(detail::sweep_cases(sc)), sc_(std::move(sc)) {
  detail::count_swept_rows(cases_, [](const PatchTransientScenario& c) { return detail::output_times_bound(c.time); });
}

std::string PatchTransientStudy::summary() const {
  const patch::PatchParams& p = sc_.transient.patch;
  std::string s;
  s += fmt::format("scenario   {} (kind = \"patch_transient\", {})\n", sc_.name, sc_.source.display_name());
  if (!sc_.description.empty()) s += fmt::format("description {}\n", sc_.description);
  s += fmt::format("law        {}, source step {}\n", laws::to_string(sc_.law.kind),
                   transport::to_string(sc_.transient.source_scheme));
  s += fmt::format("patch      {} {} x {} m at F_z0 = {} N, {} pressure, length ~ F_z^{}, width ~ F_z^{}, "
                   "grid {} x {}\n",
                   patch::to_string(p.shape), format_value(p.length_m), format_value(p.width_m),
                   format_value(p.normal_load_N), patch::to_string(p.pressure),
                   format_value(sc_.transient.size_exponent), format_value(sc_.transient.width_gamma()), p.nx,
                   p.ny);
  s += fmt::format("time       {} .. {} s, output every {} s\n", format_value(sc_.time.t_start_s),
                   format_value(sc_.time.t_end_s), format_value(sc_.time.output_dt_s));
  s += fmt::format("columns    {}\n", fmt::join(PatchTransientScenario::column_names(), ", "));
  s += detail::sweep_summary(sc_.sweep, cases_.size());
  return s;
}

RunResult PatchTransientStudy::run(const ProgressCallback& progress) const {
  const contact::ContactModel model(sc_.law, sc_.body1, sc_.body2);
  // Case i's run (the scenario itself without a [sweep]): its series, step count and final snapshot.
  struct Solved {
    TimeSeries series;
    long steps = 0;
    patch::PatchSnapshot last;
  };
  const auto solve = [&](std::size_t i, const std::function<void(double)>& on_progress) {
    const PatchTransientScenario& sc = cases_[i];
    const contact::ContactModel case_model(sc.law, sc.body1, sc.body2);
    patch::PatchTransient solver(case_model, sc.transient, [&](double t) { return sc.kinematics(t); },
                                 [&](double t) { return sc.Fz_N(t); });
    solver.reset(sc.time.t_start_s);
    TimeSeries series(PatchTransientScenario::column_names());
    const std::vector<double> times = sc.time.times();
    series.reserve(times.size());
    // The fraction of the time span (the work is spread over time, not over the output rows), reported
    // after every step too: an interval between output times may hold most of the run.
    const double span = sc.time.t_end_s - sc.time.t_start_s;
    const auto fraction = [&](double t) { return span > 0.0 ? (t - sc.time.t_start_s) / span : 1.0; };
    std::function<void(double)> on_step;
    if (on_progress) on_step = [&](double t) { on_progress(std::min(fraction(t), 1.0)); };
    for (std::size_t k = 0; k < times.size(); ++k) {
      solver.advance_to(times[k], on_step);
      const patch::PatchSnapshot s = solver.snapshot();
      series.add_row({s.t_s, s.Fz_N, s.scale, s.force_N[0], s.force_N[1], s.Mz_Nm, s.Mz_no_phi_Nm, s.stored_energy_J,
                      s.supplied_power_W, s.dissipated_power_W, s.supplied_energy_J, s.outflow_power_W,
                      s.compression_power_W, s.load_power_W, s.dissipated_energy_J, s.outflow_energy_J,
                      s.compression_energy_J, s.load_energy_J, s.energy_residual_J, s.scale_y});
      if (on_progress) on_progress(fraction(times[k]));
    }
    return Solved{std::move(series), static_cast<long>(solver.steps_taken()), solver.snapshot()};
  };
  // Each case's steps and energy budget: W(t_end) - W(t_start) against the integrated budget (docs/patch.md),
  // the discretisation error.
  Json first_steps, first_budget;  // case 0's, for the top of an unswept report
  const auto describe = [&](std::size_t i, Solved& solved, Json& entry) {
    if (sc_.sweep) {
      entry[sc_.sweep->column] = *cases_[i].sweep_value;
      entry["label"] = fmt::format("{} = {}", sc_.sweep->parameter, format_value(*cases_[i].sweep_value));
    }
    entry["steps"] = solved.steps;
    const patch::PatchSnapshot& last = solved.last;
    Json budget = Json::object();
    const bool finite = std::isfinite(last.energy_residual_J);
    budget["available"] = finite;
    budget["residual_J"] = finite ? Json(last.energy_residual_J) : Json(nullptr);
    budget["relative_residual"] = finite && last.supplied_energy_J > 0.0
                                      ? Json(std::abs(last.energy_residual_J) / last.supplied_energy_J)
                                      : Json(nullptr);
    if (i == 0) first_steps = solved.steps, first_budget = budget;
    entry["energy_budget"] = std::move(budget);
    return std::move(solved.series);
  };
  detail::StudyRun run =
      detail::run_study(kind(), sc_, detail::study_cases(sc_, cases_), solve, describe, progress);
  RunResult& result = run.result;
  // The flux terms of the energy budget need a storage separable by family: NaN (empty) otherwise.
  result.optional_columns = {"P_outflow_W", "P_compression_W", "E_outflow_J", "E_compression_J", "E_residual_J"};
  Json& r = result.report;
  if (!sc_.sweep) {  // one run: its steps and budget at the top (the JSON of the unswept scenarios is unchanged)
    r["steps"] = std::move(first_steps);
    r["energy_budget"] = std::move(first_budget);
  }
  Json params = Json::object();
  params["law"] = detail::law_to_json(sc_.law, model.law().sigma0());
  params["body1"] = detail::body_to_json(sc_.body1);
  params["body2"] = detail::body_to_json(sc_.body2);
  if (sc_.pair_s) params["s"] = *sc_.pair_s;
  Json k = Json::object();
  k["mode"] = "rolling";
  k["s_corrections"] = sc_.s_corrections;
  k["Vr_mps"] = detail::signal_to_json(sc_.Vr_mps, "kinematics.Vr_mps", sc_.table_files);
  k["vx_mps"] = detail::signal_to_json(sc_.vx_mps, "kinematics.vx_mps", sc_.table_files);
  k["vy_mps"] = detail::signal_to_json(sc_.vy_mps, "kinematics.vy_mps", sc_.table_files);
  k["spin_radps"] = detail::signal_to_json(sc_.spin_radps, "kinematics.spin_radps", sc_.table_files);
  params["kinematics"] = k;
  params["Fz_N"] = detail::signal_to_json(sc_.Fz_N, "load.Fz_N", sc_.table_files);
  Json p = Json::object();
  p["shape"] = patch::to_string(sc_.transient.patch.shape);
  p["length_m"] = sc_.transient.patch.length_m;
  p["width_m"] = sc_.transient.patch.width_m;
  p["pressure"] = patch::to_string(sc_.transient.patch.pressure);
  p["normal_load_N"] = sc_.transient.patch.normal_load_N;
  p["size_exponent"] = sc_.transient.size_exponent;
  p["width_exponent"] = sc_.transient.width_gamma();
  p["nx"] = sc_.transient.patch.nx;
  p["ny"] = sc_.transient.patch.ny;
  p["cfl"] = sc_.transient.cfl;
  p["source_scheme"] = transport::to_string(sc_.transient.source_scheme);
  params["patch"] = p;
  r["parameters"] = params;
  r["columns"] = Json(PatchTransientScenario::column_names());
  if (sc_.sweep) r["note"] = "parameters are those of the file; each case sets the swept key to its value";
  detail::report_sweep(r, sc_.sweep, &run.entries);
  return std::move(run.result);
}

std::unique_ptr<Scenario> parse_patch_transient_scenario(std::string_view toml, std::string_view name,
                                                         const ScenarioSource& source) {
  return std::make_unique<PatchTransientStudy>(parse_patch_transient_string(toml, name, source));
}

}  // namespace bristle::io
