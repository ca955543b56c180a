// kind = "directional_coefficients", "directional_loop", "directional_crawler": directional friction from
// bristles on wiggly surfaces (paper 2) as scenario files. Keys and units: docs/directional.md,
// "Scenario files". Every case is validated at parse time (surface, mechanism, every eps against the
// mechanism's geometry), so a bad file fails before anything is solved or written.
#include "bristle/io/directional_scenario.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numbers>
#include <system_error>

#include "bristle/core/error.hpp"
#include "bristle/directional/nap.hpp"
#include "csv_table.hpp"
#include "scenario_internal.hpp"
#include "study.hpp"
#include "schema_json.hpp"
#include "schema_reader.hpp"

// The directional choices for the schema reader (found by argument-dependent lookup, schema_reader.hpp).
namespace bristle::directional {
static void choice_from_string(std::string_view key, std::string_view name, ProfileKind& out) {
  out = profile_kind_from_string(key, name);
}
static void choice_from_string(std::string_view key, std::string_view name, MechanismKind& out) {
  out = mechanism_kind_from_string(key, name);
}
}  // namespace bristle::directional

namespace bristle::io {

namespace {

using detail::Section;
using Keys = std::vector<std::string>;
namespace dir = bristle::directional;

// Cycles of a loop's triangle drive (two vertices each, every vertex a kink the solver stops at).
constexpr double kMaxLoopCycles = 10'000;

// ---------------------------------------------------------------------------------------------
// The readers: each kind's serialize() walked by the schema reader (schema_reader.hpp). The hooks are what the
// schema does not state (list and file forms, message texts); the library's validate() checks each table after
// the walk, with the profile and the mechanism (their messages name the paper's equations).

using detail::ReaderHooks;
using detail::JsonWriter;

/// The kind's walk (detail::read_scenario) with `h` and the hooks of [profile]; validates the profile.
template <class Sc>
void read_directional(const Section& root, Sc& sc, std::string_view kind, std::string_view name,
                      const ScenarioSource& source, ReaderHooks& h) {
  // A table profile: inline x and w, or a CSV file with x_column and w_column.
  h.before["profile"] = [&sc](const Section& p) {
    if (sc.profile.kind != dir::ProfileKind::table) return;
    if (p.has("file"))
      p.check_keys({"kind", "file", "x_column", "w_column"}, detail::schema_keys(sc.profile), "profile.file (a CSV table)");
    else
      p.check_keys({"kind", "x", "w"}, detail::schema_keys(sc.profile), "profile.kind = \"table\" (or give profile.file)");
  };
  h.declared["profile.cos"] = [&sc](const Section& p) {
    sc.profile.cos_coefficients = p.numbers("cos", true).value_or(std::vector<double>{});
  };
  h.declared["profile.sin"] = [&sc](const Section& p) {
    sc.profile.sin_coefficients = p.numbers("sin", true).value_or(std::vector<double>{});
  };
  h.declared["profile.file"] = [&sc](const Section& p) {
    if (!p.has("file")) return;
    sc.profile_file = *p.string("file");
    const auto table = detail::read_csv_table("profile", sc.profile_file, sc.source.resolve(sc.profile_file),
                                              p.string("x_column"), p.string("w_column"));
    sc.profile.x = table.times;
    sc.profile.w = table.values;
  };
  h.declared["profile.x"] = [&sc](const Section& p) {
    if (p.has("file")) return;
    if (!p.has("x")) p.missing("x", "the abscissae of one period, 0 = x_0 < ... < x_n = 1");
    sc.profile.x = *p.numbers("x");
  };
  h.declared["profile.w"] = [&sc](const Section& p) {
    if (p.has("file")) return;
    if (!p.has("w")) p.missing("w", "the heights w(x_i), w_n = w_0");
    sc.profile.w = *p.numbers("w");
  };
  detail::read_scenario(root, sc, kind, name, source, h);
  sc.profile.validate("profile");
}

/// [epsilon] values_m: a number or a list (e.scalar: written as a number, for the key in messages).
void add_epsilon_hook(ReaderHooks& h, EpsilonList& e) {
  h.declared["epsilon.values_m"] = [&e](const Section& s) {
    if (const auto v = s.numbers("values_m", true)) e.values_m = *v;
    e.scalar = s.has("values_m") && s.node("values_m")->is_number();
  };
}

/// [epsilon]: gamma > 0, each eps against the mechanism's geometry, and the work of the eps-systems: each
/// resolves every wiggle of period eps that its contacts pass over, `path_m` / eps of them (the path
/// described by `path_text`), at ~0.6 ms of CPU per wiggle on the reference machine (the loop and crawler
/// examples at eps = 1e-4: 48,000 wiggles in 29 s, 24,000 in 16 s).
void check_epsilon(const EpsilonList& e, const dir::Mechanism& mechanism, double path_m, std::string_view path_text) {
  const bool scalar = e.scalar;
  dir::EpsilonParams{1.0, e.gamma}.validate("epsilon");  // gamma > 0 (eq. 2.7)
  if (e.values_m.empty() && !e.limit)
    throw InvalidInput("epsilon.values_m = []: must list at least one eps (or set epsilon.limit = true)");
  double wiggles = 0.0;
  for (std::size_t i = 0; i < e.values_m.size(); ++i) {
    const std::string key = scalar ? "epsilon.values_m" : fmt::format("epsilon.values_m[{}]", i);
    dir::WigglyPotential(mechanism, e.values_m[i], key);  // eps > 0 and the geometry at this eps
    wiggles += path_m / e.values_m[i];
  }
  if (wiggles > dir::kMaxWiggles)
    throw InvalidInput(fmt::format(
        "epsilon.values_m = [{}]: the eps-systems would resolve {:.3g} wiggles ({} = {:.6g} m, over each eps, "
        "summed): at most {} (Limits in docs/scenarios.md; a larger eps or fewer cycles)",
        fmt::join(e.values_m, ", "), wiggles, path_text, path_m, format_value(dir::kMaxWiggles)));
}

// ---- The JSON echo of the parameters as used, from the same walk (schema_json.hpp)

Json profile_json(const DirectionalBase& sc, const dir::Profile& w) {
  const dir::ProfileParams& p = sc.profile;
  const bool table = p.kind == dir::ProfileKind::table, fourier = p.kind == dir::ProfileKind::fourier;
  JsonWriter::Hooks h;
  h["cos"] = [&](Json& j) { if (fourier) j["cos"] = Json(p.cos_coefficients); };
  h["sin"] = [&](Json& j) { if (fourier) j["sin"] = Json(p.sin_coefficients); };
  h["file"] = [&](Json& j) { if (table && !sc.profile_file.empty()) j["file"] = sc.profile_file; };
  h["x_column"] = h["w_column"] = [](Json&) {};
  h["x"] = [&](Json& j) { if (table) j["x"] = Json(p.x); };
  h["w"] = [&](Json& j) { if (table) j["w"] = Json(p.w); };
  Json j = JsonWriter::write(p, h, "profile");
  j["omega_plus"] = w.omega_plus();
  j["omega_minus"] = w.omega_minus();
  j["w_max"] = w.w_max();
  j["w_min"] = w.w_min();
  return j;
}

Json mechanism_json(const dir::Mechanism& m) {
  const auto& p = m.params();
  JsonWriter::Hooks h;
  h["theta_rest_rad"] = [&](Json& j) {
    if (p.kind != dir::MechanismKind::angular) return;
    j["theta_rest_rad"] = p.theta_rest_rad;
    j["theta_lim_rad"] = m.theta_lim();
  };
  Json j = JsonWriter::write(p, h, "mechanism");
  j["gap_m"] = m.gap();
  const auto& l = m.limit();
  j["alpha_N"] = l.alpha;
  j["a"] = l.a;
  j["mu_plus"] = l.mu_plus;
  j["mu_minus"] = l.mu_minus;
  j["rho_plus_N"] = l.rho_plus;
  j["rho_minus_N"] = l.rho_minus;
  j["epsilon_max_m"] = m.epsilon_max();
  if (p.kind == dir::MechanismKind::angular) {
    const auto nap = dir::geometric_nap_effect(m);
    Json n = Json::object();
    n["rho_with_N"] = nap.rho_with_N;
    n["rho_against_N"] = nap.rho_against_N;
    n["tension_with_N"] = nap.tension_with_N;
    n["tension_against_N"] = nap.tension_against_N;
    n["warnings"] = Json(nap.warnings);
    j["nap"] = n;
  }
  return j;
}

/// The "parameters" of a report: the kind's walk with [profile] (and, with `m`, [mechanism]) as used; the
/// root's own keys and [output] are reported elsewhere.
template <class Sc>
Json parameters_json(const Sc& sc, const dir::Profile& w, const dir::Mechanism* m, JsonWriter::Hooks h = {}) {
  for (const char* key : {"name", "description", "sweep", "output"}) h[key] = [](Json&) {};
  h["profile"] = [&](Json& j) { j["profile"] = profile_json(sc, w); };
  if (m) h["mechanism"] = [m](Json& j) { j["mechanism"] = mechanism_json(*m); };
  if constexpr (requires { sc.epsilon; })
    h["epsilon.values_m"] = [&](Json& e) { e["values_m"] = Json(sc.epsilon.values_m); };
  return JsonWriter::write(sc, h, "");
}


std::string base_summary(const DirectionalBase& sc, std::string_view kind, const dir::Profile& w) {
  std::string s;
  s += fmt::format("scenario   {} (kind = \"{}\", {})\n", sc.name, kind, sc.source.display_name());
  if (!sc.description.empty()) s += fmt::format("description {}\n", sc.description);
  s += fmt::format("profile    {}: omega_+ = {}, omega_- = {}\n", w.description(), format_value(w.omega_plus()),
                   format_value(w.omega_minus()));
  return s;
}

std::string mechanism_summary(const dir::Mechanism& m) {
  const auto& l = m.limit();
  return fmt::format("mechanism  {}: alpha = {} N, mu_+ = {}, mu_- = {}, rho_+ = {} N, rho_- = {} N\n",
                     dir::to_string(m.params().kind), format_value(l.alpha), format_value(l.mu_plus),
                     format_value(l.mu_minus), format_value(l.rho_plus), format_value(l.rho_minus));
}

/// A key path without its index ("crawler.feet[0]" -> "crawler.feet").
std::string_view split_key(std::string_view key) { return key.substr(0, key.find('[')); }

std::string case_label(double eps) { return eps == 0.0 ? "limit" : fmt::format("eps = {} m", format_value(eps)); }

/// The cases of the loop and crawler kinds: one per eps (epsilon_m; 0 for the limit), each labelled.
detail::StudyCases epsilon_cases(const EpsilonList& e) {
  detail::StudyCases cases{.column = "epsilon_m", .values = {}, .labels = {}, .legend = true};
  std::vector<double> eps = e.values_m;
  if (e.limit) eps.push_back(0.0);
  for (const double x : eps) {
    cases.values.emplace_back(x);
    cases.labels.push_back(case_label(x));
  }
  return cases;
}

// ---------------------------------------------------------------------------------------------
// directional_coefficients

DirectionalCoefficientsScenario parse_coefficients(const Section& root, std::string_view name,
                                                   const ScenarioSource& source) {
  DirectionalCoefficientsScenario sc;
  sc.output.plot_y = {"mu_plus", "mu_minus"};
  ReaderHooks h;
  h.before["mechanism"] = [&sc](const Section& m) {
    m.check_keys({"kind"}, detail::schema_keys(sc.mechanism),
                 "kind = \"directional_coefficients\" (mu_+- depend only on the slant and the surface)");
  };
  h.before["output"] = [&sc](const Section&) { sc.output.plot_x = sc.angle_column(); };
  read_directional(root, sc, "directional_coefficients", name, source, h);
  const Section r = root.table("range");
  sc.from_included = r.has("from_rad");
  sc.to_included = r.has("to_rad");
  validate(sc);
  sc.sweep = detail::read_key_path_sweep(root, {sc.angle_column(), "mu_plus", "mu_minus"});
  return sc;
}

/// The cases of a loop or crawler study: every eps case (epsilon_cases) of every [sweep] case, in that order (case
/// i is sweep case i / n_eps, eps case i % n_eps); under a [sweep] the sweep column and its value, each labelled
/// "<parameter> = <value>, <eps label>", else the eps cases themselves.
template <class Sc>
detail::StudyCases swept_epsilon_cases(const Sc& sc, const std::vector<Sc>& cases) {
  detail::StudyCases eps = epsilon_cases(sc.epsilon);
  if (!sc.sweep) return eps;
  detail::StudyCases out{.column = sc.sweep->column, .values = {}, .labels = {}, .legend = true};
  for (const Sc& c : cases)
    for (std::size_t e = 0; e < eps.values.size(); ++e) {
      out.values.push_back(c.sweep_value);
      out.labels.push_back(
          fmt::format("{} = {}, {}", sc.sweep->parameter, format_value(*c.sweep_value), eps.labels[e]));
    }
  return out;
}

/// A loop's or crawler's [sweep]: its cases times the eps cases at most detail::kMaxCases.
void check_swept_epsilon(const std::optional<Sweep>& sweep, const EpsilonList& e) {
  if (!sweep) return;
  const std::size_t n_eps = e.cases();
  if (sweep->values.size() * n_eps > detail::kMaxCases)
    throw InvalidInput(fmt::format("sweep.values has {} entries, each run at the {} eps cases of [epsilon]: {} cases, "
                                   "at most {} (Limits in docs/scenarios.md)",
                                   sweep->values.size(), n_eps, sweep->values.size() * n_eps, detail::kMaxCases));
}

/// Under a [sweep], the eps of each row as a column before the series' own (the sweep column comes first).
TimeSeries with_epsilon_column(TimeSeries series, bool swept, double eps) {
  if (!swept) return series;
  series.columns.insert(series.columns.begin(), std::vector<double>(series.rows(), eps));
  series.names.insert(series.names.begin(), "epsilon_m");
  return series;
}

}  // namespace

std::string DirectionalCoefficientsScenario::angle_column() const {
  return mechanism.kind == dir::MechanismKind::slanted ? "theta_rad" : "theta_lim_rad";
}

void validate(DirectionalCoefficientsScenario& sc) {
  sc.profile.validate("profile");
  if (sc.mechanism.kind == dir::MechanismKind::vertical)
    throw InvalidInput("mechanism.kind = \"vertical\": the coefficients are swept over the slant, so the mechanism "
                       "must be \"slanted\" (theta, eq. 3.14) or \"angular\" (theta_lim, eq. 3.24); the vertical "
                       "spring has mu_+- = omega_+-");
  const auto [lo, hi] = sc.admissible();
  if (!(lo < hi))
    throw InvalidInput(fmt::format("profile: omega_+ = {}, omega_- = {}: no angle satisfies eq. 3.17 (it needs "
                                   "-omega_+ omega_- < 1)",
                                   format_value(dir::Profile(sc.profile).omega_plus()),
                                   format_value(dir::Profile(sc.profile).omega_minus())));
  if (!sc.from_included) sc.from_rad = lo;
  if (!sc.to_included) sc.to_rad = hi;
  const std::string rule = sc.mechanism.kind == dir::MechanismKind::slanted
                               ? "the admissible range of theta, 0 < theta < arccot(omega_+) (eq. 3.9)"
                               : "the admissible range of theta_lim, arctan(-omega_-) < theta_lim < "
                                 "arccot(omega_+) (eq. 3.17)";
  for (const auto& [key, value, given] : {std::tuple{"range.from_rad", sc.from_rad, sc.from_included},
                                          std::tuple{"range.to_rad", sc.to_rad, sc.to_included}})
    if (given && !(value > lo && value < hi))
      throw InvalidInput(fmt::format("{} = {}: must lie in ({}, {}), {}", key, format_value(value), format_value(lo),
                                     format_value(hi), rule));
  if (!(sc.from_rad < sc.to_rad))
    throw InvalidInput(fmt::format("range.to_rad = {}: must be > range.from_rad = {}", format_value(sc.to_rad),
                                   format_value(sc.from_rad)));
  detail::check_plot_columns(sc.output, {sc.angle_column(), "mu_plus", "mu_minus"});
}

std::pair<double, double> DirectionalCoefficientsScenario::admissible() const {
  const dir::Profile w(profile);
  return dir::admissible_angles(mechanism.kind, w.omega_plus(), w.omega_minus());
}

TimeSeries DirectionalCoefficientsScenario::solve() const {
  const dir::Profile w(profile);
  TimeSeries out({angle_column(), "mu_plus", "mu_minus"});
  for (int i = 0; i < points; ++i) {
    // Equally spaced; a given end is sampled, a defaulted end (the admissible bound) is not.
    const int gaps = points - 1 + (from_included ? 0 : 1) + (to_included ? 0 : 1);
    const double f = (i + (from_included ? 0.0 : 1.0)) / gaps;
    const double angle = from_rad + (to_rad - from_rad) * f;
    // Lemma 3 with a = -tan(theta) (slanted, eq. 3.14) or a = cot(theta_lim) (angular, eq. 3.24).
    const double a = mechanism.kind == dir::MechanismKind::slanted ? -std::tan(angle) : 1.0 / std::tan(angle);
    const auto [mu_plus, mu_minus] = dir::lemma3(w.omega_plus(), w.omega_minus(), a, angle_column());
    out.add_row({angle, mu_plus, mu_minus});
  }
  return out;
}

DirectionalCoefficientsStudy::DirectionalCoefficientsStudy(DirectionalCoefficientsScenario scenario)
    : cases_(detail::sweep_cases(scenario)), sc_(std::move(scenario)) {
  detail::count_swept_rows(cases_, [](const DirectionalCoefficientsScenario& c) { return c.points; });
}

std::string DirectionalCoefficientsStudy::summary() const {
  const dir::Profile w(sc_.profile);
  std::string s = base_summary(sc_, kind(), w);
  const auto [lo, hi] = sc_.admissible();
  s += fmt::format("mechanism  {}: mu_+- of Lemma 3 against {}\n", dir::to_string(sc_.mechanism.kind),
                   sc_.angle_column());
  s += fmt::format("range      {} points in {}{}, {}{} (admissible ({}, {}))\n", sc_.points,
                   sc_.from_included ? "[" : "(", format_value(sc_.from_rad), format_value(sc_.to_rad),
                   sc_.to_included ? "]" : ")", format_value(lo), format_value(hi));
  s += detail::sweep_summary(sc_.sweep, cases_.size());
  s += fmt::format("plot       {} against {}\n", fmt::join(sc_.output.plot_y, ", "), sc_.output.plot_x);
  return s;
}

RunResult DirectionalCoefficientsStudy::run(const ProgressCallback& progress) const {
  const auto describe = [&](std::size_t i, TimeSeries& series, Json& entry) {
    if (sc_.sweep) {  // each case's value, label and sampled interval (a defaulted end follows the case's profile)
      const DirectionalCoefficientsScenario& c = cases_[i];
      entry[sc_.sweep->column] = *c.sweep_value;
      entry["label"] = fmt::format("{} = {}", sc_.sweep->parameter, format_value(*c.sweep_value));
      entry["from_rad"] = c.from_rad;
      entry["to_rad"] = c.to_rad;
    }
    return std::move(series);
  };
  detail::StudyRun run = detail::run_study(
      kind(), sc_, detail::study_cases(sc_, cases_), [&](std::size_t i, const auto&) { return cases_[i].solve(); },
      describe, progress);
  const dir::Profile w(sc_.profile);
  Json& r = run.result.report;
  JsonWriter::Hooks h;
  h["range.to_rad"] = [&](Json& range) {
    const auto [lo, hi] = sc_.admissible();
    range["to_rad"] = sc_.to_rad;
    range["from_included"] = sc_.from_included;
    range["to_included"] = sc_.to_included;
    range["admissible_rad"] = Json(std::vector<double>{lo, hi});
  };
  r["parameters"] = parameters_json(sc_, w, nullptr, std::move(h));
  r["formula"] = sc_.mechanism.kind == dir::MechanismKind::slanted
                     ? "mu_+- = omega_+- / (1 - omega_+- tan(theta)) (paper 2, eq. 3.14)"
                     : "mu_+- = omega_+- / (1 + omega_+- cot(theta_lim)) (paper 2, eq. 3.24)";
  Keys columns = run.result.cases.front().series.names;  // the CSV's, as the loop and crawler list them
  if (sc_.sweep) columns.insert(columns.begin(), sc_.sweep->column);
  r["columns"] = Json(columns);
  detail::report_swept(r, sc_.sweep, run.entries);
  return std::move(run.result);
}

namespace {

// ---------------------------------------------------------------------------------------------
// directional_loop

const Keys kLoopColumns = {"t_s", "q_m", "u_m", "p_m", "angle_rad", "F_N", "D_J"};

/// The surface a loop's contact passes over: the triangle drive's path, 4 amplitudes per cycle.
double loop_path_m(const DirectionalLoopScenario& sc) { return 4.0 * sc.amplitude_m * sc.cycles; }

integrate::Options options_for(const integrate::Options& base, double atol_z_per_epsilon, double eps,
                               double path_m) {
  integrate::Options o = dir::WigglySystem::default_options(eps);
  o.rtol = base.rtol;
  o.max_steps = base.max_steps;
  o.max_steps_key = base.max_steps_key;
  dir::WigglySystem::apply_step_budget(o, path_m, eps);
  o.atol_per_component[0] = atol_z_per_epsilon * eps;
  return o;
}

DirectionalLoopScenario parse_loop(const Section& root, std::string_view name, const ScenarioSource& source) {
  DirectionalLoopScenario sc;
  sc.output.plot_x = "q_m";
  sc.output.plot_y = {"F_N"};
  ReaderHooks h;
  h.declared["integrator.method"] = [](const Section& s) {
    const auto name = s.string("method");
    if (!name) return;
    // Any method's name is recognised (an unknown one gets the nearest suggested), but the eps-solves run
    // cvode_bdf (WigglySystem::default_options), so only that and auto apply here.
    const integrate::Method m = integrate::method_from_string(s.key("method"), *name);
    if (m != integrate::Method::auto_ && m != integrate::Method::cvode_bdf)
      throw InvalidInput(fmt::format("{} = \"{}\": does not apply to kind = \"directional_loop\" (its epsilon-systems "
                                     "are integrated by cvode_bdf; valid here: auto, cvode_bdf)",
                                     s.key("method"), *name));
  };
  add_epsilon_hook(h, sc.epsilon);
  read_directional(root, sc, "directional_loop", name, source, h);
  validate(sc);
  Keys columns{"epsilon_m"};
  columns.insert(columns.end(), kLoopColumns.begin(), kLoopColumns.end());
  sc.sweep = detail::read_key_path_sweep(root, columns);
  check_swept_epsilon(sc.sweep, sc.epsilon);
  return sc;
}

}  // namespace

void validate(const DirectionalLoopScenario& sc) {
  sc.profile.validate("profile");
  const dir::Mechanism mechanism(sc.mechanism, dir::Profile(sc.profile), "mechanism");
  sc.drive.validate("drive");
  if (sc.cycles > kMaxLoopCycles)  // the triangle has 2 vertices per cycle, each solved through
    throw InvalidInput(fmt::format("drive.cycles = {}: at most {} cycles (Limits in docs/scenarios.md)",
                                   format_value(sc.cycles), format_value(kMaxLoopCycles)));
  sc.driver();  // validates start, amplitude, period and cycles with the drive.* keys
  check_epsilon(sc.epsilon, mechanism, loop_path_m(sc), "the drive's path 4 drive.amplitude_m drive.cycles");
  sc.integrator.validate("integrator");
  detail::check_plot_columns(sc.output, kLoopColumns);
}

DirectionalLoopStudy::DirectionalLoopStudy(DirectionalLoopScenario scenario)
    : cases_(detail::sweep_cases(scenario)), sc_(std::move(scenario)) {
  detail::count_swept_rows(cases_, [](const DirectionalLoopScenario& c) {  // each eps case's loop at every output time
    return c.epsilon.cases() * static_cast<std::size_t>(c.outputs);
  });
}

dir::Loading DirectionalLoopScenario::driver() const {
  return dir::Loading::triangle(start_m, amplitude_m, period_s, cycles, "drive");
}

std::vector<double> DirectionalLoopScenario::times() const {
  std::vector<double> t;
  const double t_end = cycles * period_s;
  for (int i = 0; i < outputs; ++i) t.push_back(t_end * i / (outputs - 1));
  return t;
}

std::string DirectionalLoopStudy::summary() const {
  const dir::Profile w(sc_.profile);
  const dir::Mechanism m(sc_.mechanism, w, "mechanism");
  std::string s = base_summary(sc_, kind(), w);
  s += mechanism_summary(m);
  s += fmt::format("drive      k_h = {} N/m, q(t): triangle {} +- {} m, period {} s, {} cycles\n",
                   format_value(sc_.drive.k_h_N_per_m), format_value(sc_.start_m), format_value(sc_.amplitude_m),
                   format_value(sc_.period_s), format_value(sc_.cycles));
  s += fmt::format("cases      {}{} (gamma = {})\n", fmt::join(sc_.epsilon.values_m, ", "),
                   sc_.epsilon.limit ? " m and the limit" : " m", format_value(sc_.epsilon.gamma));
  s += fmt::format("time       {} outputs over [0, {}] s\n", sc_.outputs, format_value(sc_.cycles * sc_.period_s));
  s += detail::sweep_summary(sc_.sweep, cases_.size());
  s += fmt::format("plot       {} against {}\n", fmt::join(sc_.output.plot_y, ", "), sc_.output.plot_x);
  return s;
}

RunResult DirectionalLoopStudy::run(const ProgressCallback& progress) const {
  const dir::Profile w(sc_.profile);
  const dir::Mechanism m(sc_.mechanism, w, "mechanism");
  const detail::StudyCases eps_cases = epsilon_cases(sc_.epsilon);
  const std::size_t n_eps = eps_cases.values.size();
  const detail::StudyCases cases = swept_epsilon_cases(sc_, cases_);
  const bool swept = sc_.sweep.has_value();
  // What the eps cases of one [sweep] case share: its mechanism, drive, output times and limit loop (the
  // reference for the per-case differences), built when its first eps case runs.
  struct Setup {
    dir::Mechanism m;
    dir::Loading q;
    std::vector<double> times;
    dir::Loop limit;
  };
  std::optional<Setup> setup;
  std::size_t setup_of = 0;
  const auto setup_for = [&](std::size_t k) -> const Setup& {
    if (!setup || setup_of != k) {
      const DirectionalLoopScenario& c = cases_[k];
      const dir::Mechanism mk(c.mechanism, dir::Profile(c.profile), "mechanism");
      const auto q = c.driver();
      const auto times = c.times();
      auto limit = dir::limit_loop(mk, c.drive, q, times);
      setup.reset();
      setup.emplace(Setup{mk, q, times, std::move(limit)});
      setup_of = k;
    }
    return *setup;
  };
  const auto solve = [&](std::size_t i, const std::function<void(double)>& on_progress) {
    const DirectionalLoopScenario& c = cases_[i / n_eps];
    const Setup& su = setup_for(i / n_eps);
    const double eps = *eps_cases.values[i % n_eps];
    if (eps == 0.0) return su.limit;
    return dir::epsilon_loop(su.m, {eps, c.epsilon.gamma}, c.drive, su.q, su.times,
                             options_for(c.integrator, c.atol_z_per_epsilon, eps, loop_path_m(c)), on_progress);
  };
  const auto describe = [&](std::size_t i, dir::Loop& loop, Json& entry) {
    const DirectionalLoopScenario& c = cases_[i / n_eps];
    const dir::Loop& limit = setup_for(i / n_eps).limit;
    const double eps = *eps_cases.values[i % n_eps];
    if (swept) entry[sc_.sweep->column] = *c.sweep_value;
    entry["epsilon_m"] = eps;
    entry["label"] = cases.labels[i];
    double du = 0.0, dF = 0.0;
    for (std::size_t k = 0; k < loop.series.rows(); ++k) {
      du = std::max(du, std::abs(loop.series.column("u_m")[k] - limit.series.column("u_m")[k]));
      dF = std::max(dF, std::abs(loop.series.column("F_N")[k] - limit.series.column("F_N")[k]));
    }
    entry["dissipated_J"] = loop.series.column("D_J").back();
    entry["max_abs_u_minus_limit_m"] = du;
    entry["max_abs_F_minus_limit_N"] = dF;
    entry["max_F_N"] = *std::max_element(loop.series.column("F_N").begin(), loop.series.column("F_N").end());
    entry["min_F_N"] = *std::min_element(loop.series.column("F_N").begin(), loop.series.column("F_N").end());
    if (eps > 0.0) {
      entry["gamma"] = c.epsilon.gamma;
      entry["steps"] = loop.stats.steps;
      entry["rhs_evaluations"] = loop.stats.rhs_evaluations;
      entry["error_test_failures"] = loop.stats.error_test_failures;
    }
    return with_epsilon_column(std::move(loop.series), swept, eps);
  };
  detail::StudyRun run = detail::run_study(kind(), sc_, cases, solve, describe, progress);
  Json& r = run.result.report;
  JsonWriter::Hooks h;
  h["integrator.method"] = [](Json& i) {
    i["method"] = "cvode_bdf";
    i["method_used"] = "cvode_bdf";  // the eps-solves always run it (integrator.method = "auto" too)
  };
  h["time"] = [&](Json& j) { j["outputs"] = sc_.outputs; };
  r["parameters"] = parameters_json(sc_, w, &m, std::move(h));
  Keys columns{"epsilon_m", "t_s", "q_m", "u_m", "p_m", "angle_rad", "F_N", "D_J"};
  if (swept) columns.insert(columns.begin(), sc_.sweep->column);
  r["columns"] = Json(columns);
  detail::report_swept(r, sc_.sweep, run.entries);
  if (!swept) r["cases"] = std::move(run.entries);
  return std::move(run.result);
}

namespace {

// ---------------------------------------------------------------------------------------------
// directional_crawler


Keys crawler_columns(int feet) {
  Keys c{"t_s"};
  for (int i = 1; i <= feet; ++i) c.push_back(fmt::format("x{}_m", i));
  c.emplace_back("center_m");
  c.emplace_back("D_J");
  return c;
}

DirectionalCrawlerScenario parse_crawler(const Section& root, std::string_view name, const ScenarioSource& source) {
  DirectionalCrawlerScenario sc;
  sc.output.plot_x = "t_s";
  sc.output.plot_y = {"center_m"};
  ReaderHooks h;
  add_epsilon_hook(h, sc.epsilon);
  read_directional(root, sc, "directional_crawler", name, source, h);
  validate(sc);
  Keys columns{"epsilon_m"};
  for (const auto& column : crawler_columns(sc.crawler.feet)) columns.push_back(column);
  sc.sweep = detail::read_key_path_sweep(root, columns);
  if (sc.sweep && split_key(sc.sweep->parameter) == "crawler.feet")
    throw InvalidInput(fmt::format("sweep.parameter = {}: the number of feet sets the CSV's columns (x1_m ... xn_m), "
                                   "which every case of a sweep shares; run one file per number of feet",
                                   json_quote(sc.sweep->parameter)));
  check_swept_epsilon(sc.sweep, sc.epsilon);
  return sc;
}

}  // namespace

void validate(const DirectionalCrawlerScenario& sc) {
  sc.profile.validate("profile");
  const dir::Mechanism mechanism(sc.mechanism, dir::Profile(sc.profile), "mechanism");
  sc.crawler.validate("crawler");
  check_epsilon(sc.epsilon, mechanism, 2.0 * sc.crawler.feet * sc.crawler.stroke_m * sc.cycles,
                "the feet's path 2 crawler.feet crawler.stroke_m run.cycles");
  // The limit run's steps are held in memory (dir::crawl_limit refused them only after the eps work, naming its own
  // argument, helper-45).
  if (const double steps = static_cast<double>(sc.cycles) * sc.limit_steps_per_cycle;
      sc.epsilon.limit && steps > dir::kMaxCrawlRows)
    throw InvalidInput(fmt::format("run.limit_steps_per_cycle = {}: run.cycles x run.limit_steps_per_cycle = {} steps "
                                   "of the limit, held in memory; at most {}",
                                   sc.limit_steps_per_cycle, format_value(steps), format_value(dir::kMaxCrawlRows)));
  detail::check_plot_columns(sc.output, crawler_columns(sc.crawler.feet));
}

DirectionalCrawlerStudy::DirectionalCrawlerStudy(DirectionalCrawlerScenario scenario)
    : cases_(detail::sweep_cases(scenario)), sc_(std::move(scenario)) {
  // t = 0 and samples_per_cycle a cycle; the limit case every step if the samples do not divide them (run())
  detail::count_swept_rows(cases_, [](const DirectionalCrawlerScenario& c) {
    const double samples = static_cast<double>(c.cycles) * c.samples_per_cycle + 1.0;
    const double limit = c.limit_steps_per_cycle % c.samples_per_cycle == 0
                             ? samples
                             : static_cast<double>(c.cycles) * c.limit_steps_per_cycle + 1.0;
    return static_cast<double>(c.epsilon.values_m.size()) * samples + (c.epsilon.limit ? limit : 0.0);
  });
}

std::string DirectionalCrawlerStudy::summary() const {
  const dir::Profile w(sc_.profile);
  const dir::Mechanism m(sc_.mechanism, w, "mechanism");
  std::string s = base_summary(sc_, kind(), w);
  s += mechanism_summary(m);
  const auto& c = sc_.crawler;
  s += fmt::format("crawler    {} feet, k_a = {} N/m, L0 = {} m, stroke {} m, period {} s, phase lag {}\n", c.feet,
                   format_value(c.k_a_N_per_m), format_value(c.rest_length_m), format_value(c.stroke_m),
                   format_value(c.period_s), format_value(c.phase_lag));
  s += fmt::format("cases      {}{} (gamma = {}), {} cycles\n", fmt::join(sc_.epsilon.values_m, ", "),
                   sc_.epsilon.limit ? " m and the limit" : " m", format_value(sc_.epsilon.gamma), sc_.cycles);
  s += detail::sweep_summary(sc_.sweep, cases_.size());
  s += fmt::format("plot       {} against {}\n", fmt::join(sc_.output.plot_y, ", "), sc_.output.plot_x);
  return s;
}

RunResult DirectionalCrawlerStudy::run(const ProgressCallback& progress) const {
  const dir::Profile w(sc_.profile);
  const dir::Mechanism m(sc_.mechanism, w, "mechanism");
  const detail::StudyCases eps_cases = epsilon_cases(sc_.epsilon);
  const std::size_t n_eps = eps_cases.values.size();
  const detail::StudyCases cases = swept_epsilon_cases(sc_, cases_);
  const bool swept = sc_.sweep.has_value();
  // The mechanism of the [sweep] case at hand (the file's without a sweep), built when its first eps case runs.
  std::optional<dir::Mechanism> mechanism;
  std::size_t mechanism_of = 0;
  const auto mechanism_for = [&](std::size_t k) -> const dir::Mechanism& {
    if (!mechanism || mechanism_of != k) {
      mechanism.reset();
      mechanism.emplace(cases_[k].mechanism, dir::Profile(cases_[k].profile), "mechanism");
      mechanism_of = k;
    }
    return *mechanism;
  };
  const auto solve = [&](std::size_t i, const std::function<void(double)>& on_progress) {
    const DirectionalCrawlerScenario& c = cases_[i / n_eps];
    const dir::Mechanism& mc = mechanism_for(i / n_eps);
    const double eps = *eps_cases.values[i % n_eps];
    dir::CrawlerRun run;
    if (eps == 0.0) {
      run = dir::crawl_limit(mc, c.crawler, c.cycles, c.limit_steps_per_cycle);
      // Resample the limit onto the eps-systems' output grid (every steps/samples-th step).
      if (c.limit_steps_per_cycle % c.samples_per_cycle == 0) {
        const std::size_t stride = static_cast<std::size_t>(c.limit_steps_per_cycle / c.samples_per_cycle);
        TimeSeries thinned(run.series.names);
        for (std::size_t k = 0; k < run.series.rows(); k += stride) {
          std::vector<double> row;
          for (const auto& col : run.series.columns) row.push_back(col[k]);
          thinned.add_row(row);
        }
        run.series = std::move(thinned);
      }
    } else {
      run = dir::crawl_epsilon(mc, c.crawler, {eps, c.epsilon.gamma}, c.cycles, c.samples_per_cycle, on_progress);
    }
    return run;
  };
  const auto describe = [&](std::size_t i, dir::CrawlerRun& run, Json& entry) {
    const DirectionalCrawlerScenario& c = cases_[i / n_eps];
    const double eps = *eps_cases.values[i % n_eps];
    if (swept) entry[sc_.sweep->column] = *c.sweep_value;
    entry["epsilon_m"] = eps;
    entry["label"] = cases.labels[i];
    entry["advance_per_cycle_m"] = run.advance_per_cycle_m;
    entry["dissipated_J"] = run.series.column("D_J").back();
    if (eps > 0.0) {
      entry["gamma"] = c.epsilon.gamma;
      entry["steps"] = run.stats.steps;
      entry["rhs_evaluations"] = run.stats.rhs_evaluations;
    } else {
      entry["steps_per_cycle"] = c.limit_steps_per_cycle;
    }
    if (swept && c.crawler.feet == 2) {
      const auto& l = mechanism_for(i / n_eps).limit();
      entry["advance_per_cycle_closed_form_m"] =
          dir::two_foot_advance(l.rho_plus, l.rho_minus, c.crawler.k_a_N_per_m, c.crawler.stroke_m);
    }
    return with_epsilon_column(std::move(run.series), swept, eps);
  };
  detail::StudyRun run = detail::run_study(kind(), sc_, cases, solve, describe, progress);
  Json& r = run.result.report;
  const auto& cr = sc_.crawler;
  r["parameters"] = parameters_json(sc_, w, &m);
  if (cr.feet == 2)
    r["advance_per_cycle_closed_form_m"] =
        dir::two_foot_advance(m.limit().rho_plus, m.limit().rho_minus, cr.k_a_N_per_m, cr.stroke_m);
  Keys columns{"epsilon_m"};
  for (const auto& name : crawler_columns(cr.feet)) columns.push_back(name);
  if (swept) columns.insert(columns.begin(), sc_.sweep->column);
  r["columns"] = Json(columns);
  detail::report_swept(r, sc_.sweep, run.entries);
  if (!swept) r["cases"] = std::move(run.entries);
  return std::move(run.result);
}

// ---------------------------------------------------------------------------------------------
// Entry points

DirectionalCoefficientsScenario parse_directional_coefficients_string(std::string_view toml, std::string_view name,
                                                                      const std::filesystem::path& directory) {
  return detail::parse_text(toml, name, ScenarioSource::of_text(directory), parse_coefficients);
}

DirectionalLoopScenario parse_directional_loop_string(std::string_view toml, std::string_view name,
                                                      const std::filesystem::path& directory) {
  return detail::parse_text(toml, name, ScenarioSource::of_text(directory), parse_loop);
}

DirectionalCrawlerScenario parse_directional_crawler_string(std::string_view toml, std::string_view name,
                                                            const std::filesystem::path& directory) {
  return detail::parse_text(toml, name, ScenarioSource::of_text(directory), parse_crawler);
}

std::unique_ptr<Scenario> parse_directional_coefficients_scenario(std::string_view toml, std::string_view name,
                                                                  const ScenarioSource& source) {
  return std::make_unique<DirectionalCoefficientsStudy>(detail::parse_text(toml, name, source, parse_coefficients));
}

std::unique_ptr<Scenario> parse_directional_loop_scenario(std::string_view toml, std::string_view name,
                                                          const ScenarioSource& source) {
  return std::make_unique<DirectionalLoopStudy>(detail::parse_text(toml, name, source, parse_loop));
}

std::unique_ptr<Scenario> parse_directional_crawler_scenario(std::string_view toml, std::string_view name,
                                                             const ScenarioSource& source) {
  return std::make_unique<DirectionalCrawlerStudy>(detail::parse_text(toml, name, source, parse_crawler));
}

}  // namespace bristle::io
