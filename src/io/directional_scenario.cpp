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

namespace bristle::io {

namespace {

using detail::Section;
using Keys = std::vector<std::string>;
namespace dir = bristle::directional;

constexpr std::int64_t kMaxPoints = 1'000'000;
// Cycles of a loop's triangle drive (two vertices each, every vertex a kink the solver stops at).
constexpr double kMaxLoopCycles = 10'000;

std::string q(std::string_view s) { return json_quote(s); }

using detail::suggestion;

// ---------------------------------------------------------------------------------------------
// Common tables

const Keys kProfileKeys = {"kind", "amplitude", "asymmetry", "cos", "sin", "x", "w", "file", "x_column", "w_column"};

void read_profile(const Section& root, DirectionalBase& sc) {
  const Section p = root.table("profile");
  if (!p.present()) root.missing("profile", "the surface profile w, a table with kind = \"sine\", \"ratchet\", "
                                            "\"fourier\" or \"table\"");
  const std::string kind = p.required_string("kind", "the profile kind: sine, ratchet, fourier or table");
  sc.profile.kind = dir::profile_kind_from_string(p.key("kind"), kind);
  const std::string context = fmt::format("profile.kind = {}", q(kind));
  switch (sc.profile.kind) {
    case dir::ProfileKind::sine:
      p.check_keys({"kind", "amplitude"}, kProfileKeys, context);
      sc.profile.amplitude = p.number_or("amplitude", sc.profile.amplitude);
      break;
    case dir::ProfileKind::ratchet:
      p.check_keys({"kind", "amplitude", "asymmetry"}, kProfileKeys, context);
      sc.profile.amplitude = p.number_or("amplitude", sc.profile.amplitude);
      sc.profile.asymmetry = p.number_or("asymmetry", sc.profile.asymmetry);
      break;
    case dir::ProfileKind::fourier:
      p.check_keys({"kind", "cos", "sin"}, kProfileKeys, context);
      sc.profile.cos_coefficients = p.numbers("cos", true).value_or(std::vector<double>{});
      sc.profile.sin_coefficients = p.numbers("sin", true).value_or(std::vector<double>{});
      break;
    case dir::ProfileKind::table:
      if (p.has("file")) {
        p.check_keys({"kind", "file", "x_column", "w_column"}, kProfileKeys, "profile.file (a CSV table)");
        sc.profile_file = *p.string("file");
        const auto path = std::filesystem::path(sc.profile_file).is_absolute()
                              ? std::filesystem::path(sc.profile_file)
                              : sc.source.directory / sc.profile_file;
        const auto table =
            detail::read_csv_table("profile", sc.profile_file, path, p.string("x_column"), p.string("w_column"));
        sc.profile.x = table.times;
        sc.profile.w = table.values;
      } else {
        p.check_keys({"kind", "x", "w"}, kProfileKeys, context + " (or give profile.file)");
        if (!p.has("x")) p.missing("x", "the abscissae of one period, 0 = x_0 < ... < x_n = 1");
        if (!p.has("w")) p.missing("w", "the heights w(x_i), w_n = w_0");
        sc.profile.x = *p.numbers("x");
        sc.profile.w = *p.numbers("w");
      }
      break;
  }
  sc.profile.validate("profile");
}

const Keys kMechanismKeys = {"kind", "k", "height_m", "rest_length_m", "theta_rad", "length_m", "theta_rest_rad"};

void read_mechanism(const Section& root, DirectionalBase& sc, bool geometry_only) {
  const Section m = root.table("mechanism");
  if (!m.present()) root.missing("mechanism", "the bristle, a table with kind = \"vertical\", \"slanted\" or "
                                              "\"angular\"");
  const std::string kind = m.required_string("kind", "the mechanism: vertical, slanted or angular");
  sc.mechanism.kind = dir::mechanism_kind_from_string(m.key("kind"), kind);
  if (geometry_only) {
    m.check_keys({"kind"}, kMechanismKeys,
                 "kind = \"directional_coefficients\" (mu_+- depend only on the slant and the surface)");
    return;
  }
  const std::string context = fmt::format("mechanism.kind = {}", q(kind));
  switch (sc.mechanism.kind) {
    case dir::MechanismKind::vertical:
      m.check_keys({"kind", "k", "height_m", "rest_length_m"}, kMechanismKeys, context);
      break;
    case dir::MechanismKind::slanted:
      m.check_keys({"kind", "k", "height_m", "rest_length_m", "theta_rad"}, kMechanismKeys, context);
      break;
    case dir::MechanismKind::angular:
      m.check_keys({"kind", "k", "height_m", "length_m", "theta_rest_rad"}, kMechanismKeys, context);
      break;
  }
  auto& p = sc.mechanism;
  p.k = m.number_or("k", p.k);
  p.height_m = m.number_or("height_m", p.height_m);
  p.rest_length_m = m.number_or("rest_length_m", p.rest_length_m);
  p.theta_rad = m.number_or("theta_rad", p.theta_rad);
  p.length_m = m.number_or("length_m", p.length_m);
  p.theta_rest_rad = m.number_or("theta_rest_rad", p.theta_rest_rad);
}

void read_top(const Section& root, std::string_view kind, const Keys& top_keys, std::string_view default_name,
              const ScenarioSource& source, DirectionalBase& sc) {
  root.check_keys(top_keys);
  sc.source = source;
  if (const auto k = root.string("kind"); k && *k != kind)
    throw InvalidInput(fmt::format("kind = {}: this parser reads kind = {}", q(*k), q(kind)));
  sc.name = root.string("name").value_or(std::string(default_name));
  detail::validate_name(root.has("name") ? "name" : "name (the file stem)", sc.name);
  sc.description = root.string("description").value_or("");
}

void read_output(const Section& root, DirectionalBase& sc, const std::string& x, const Keys& y, const Keys& columns) {
  const Section o = root.table("output");
  o.check_keys({"plot_x", "plot_y", "title"});
  sc.output.plot_x = o.string("plot_x").value_or(x);
  if (const auto ys = o.strings("plot_y", true)) {
    if (ys->empty()) throw InvalidInput("output.plot_y = []: must name at least one column");
    sc.output.plot_y = *ys;
  } else {
    sc.output.plot_y = y;
  }
  sc.output.title = o.string("title").value_or(sc.name);
  const auto check = [&](const std::string& key, const std::string& column) {
    if (std::find(columns.begin(), columns.end(), column) != columns.end()) return;
    throw InvalidInput(fmt::format("{} = {}: unknown column{} (columns: {})", key, q(column),
                                   suggestion(column, columns), fmt::join(columns, ", ")));
  };
  check("output.plot_x", sc.output.plot_x);
  for (std::size_t i = 0; i < sc.output.plot_y.size(); ++i)
    check(fmt::format("output.plot_y[{}]", i), sc.output.plot_y[i]);
}

/// A whole number in [lo, hi] under `key` of `s`, or `fallback`.
int read_count(const Section& s, std::string_view key, int fallback, std::int64_t lo, std::int64_t hi) {
  const auto v = s.integer(key);
  if (!v) return fallback;
  if (*v < lo || *v > hi)
    throw InvalidInput(fmt::format("{} = {}: must be a whole number in [{}, {}]", s.key(key), *v, lo, hi));
  return static_cast<int>(*v);
}

/// [epsilon]: values_m (each checked against the mechanism's geometry), gamma, limit.
EpsilonList read_epsilon(const Section& root, const dir::Mechanism& mechanism) {
  EpsilonList e;
  const Section s = root.table("epsilon");
  s.check_keys({"values_m", "gamma", "limit"});
  if (const auto v = s.numbers("values_m", true)) e.values_m = *v;
  e.gamma = s.number_or("gamma", e.gamma);
  e.limit = s.boolean("limit").value_or(e.limit);
  dir::EpsilonParams{1.0, e.gamma}.validate("epsilon");  // gamma > 0 (eq. 2.7)
  if (e.values_m.empty() && !e.limit)
    throw InvalidInput("epsilon.values_m = []: must list at least one eps (or set epsilon.limit = true)");
  const bool scalar = s.has("values_m") && s.node("values_m")->is_number();
  for (std::size_t i = 0; i < e.values_m.size(); ++i) {
    const std::string key = scalar ? "epsilon.values_m" : fmt::format("epsilon.values_m[{}]", i);
    dir::WigglyPotential(mechanism, e.values_m[i], key);  // eps > 0 and the geometry at this eps
  }
  return e;
}

Json profile_json(const DirectionalBase& sc, const dir::Profile& w) {
  Json j = Json::object();
  j["kind"] = dir::to_string(sc.profile.kind);
  switch (sc.profile.kind) {
    case dir::ProfileKind::sine:
      j["amplitude"] = sc.profile.amplitude;
      break;
    case dir::ProfileKind::ratchet:
      j["amplitude"] = sc.profile.amplitude;
      j["asymmetry"] = sc.profile.asymmetry;
      break;
    case dir::ProfileKind::fourier:
      j["cos"] = Json(sc.profile.cos_coefficients);
      j["sin"] = Json(sc.profile.sin_coefficients);
      break;
    case dir::ProfileKind::table:
      if (!sc.profile_file.empty()) j["file"] = sc.profile_file;
      j["x"] = Json(sc.profile.x);
      j["w"] = Json(sc.profile.w);
      break;
  }
  j["omega_plus"] = w.omega_plus();
  j["omega_minus"] = w.omega_minus();
  j["w_max"] = w.w_max();
  j["w_min"] = w.w_min();
  return j;
}

Json mechanism_json(const dir::Mechanism& m) {
  const auto& p = m.params();
  Json j = Json::object();
  j["kind"] = dir::to_string(p.kind);
  j["k"] = p.k;
  j["height_m"] = p.height_m;
  if (p.kind == dir::MechanismKind::angular) {
    j["length_m"] = p.length_m;
    j["theta_rest_rad"] = p.theta_rest_rad;
    j["theta_lim_rad"] = m.theta_lim();
  } else {
    j["rest_length_m"] = p.rest_length_m;
    if (p.kind == dir::MechanismKind::slanted) j["theta_rad"] = p.theta_rad;
  }
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

void fill_header(Json& r, const DirectionalBase& sc, std::string_view kind, double solve_seconds) {
  detail::report_header(r, kind, sc.name, sc.description, sc.source, solve_seconds);
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

std::string case_label(double eps) { return eps == 0.0 ? "limit" : fmt::format("eps = {} m", format_value(eps)); }

std::vector<double> case_epsilons(const EpsilonList& e) {
  std::vector<double> out = e.values_m;
  if (e.limit) out.push_back(0.0);
  return out;
}

template <class Parse>
auto parse_text(std::string_view toml, std::string_view name, const ScenarioSource& source, Parse&& parse) {
  const toml::table root = detail::parse_toml(toml, source.display_name());
  return parse(Section(&root, ""), name, source);
}

// ---------------------------------------------------------------------------------------------
// directional_coefficients

const Keys kCoefficientsTop = {"kind", "name", "description", "profile", "mechanism", "range", "output"};

DirectionalCoefficientsScenario parse_coefficients(const Section& root, std::string_view name,
                                                   const ScenarioSource& source) {
  DirectionalCoefficientsScenario sc;
  read_top(root, "directional_coefficients", kCoefficientsTop, name, source, sc);
  read_profile(root, sc);
  read_mechanism(root, sc, true);
  if (sc.mechanism.kind == dir::MechanismKind::vertical)
    throw InvalidInput("mechanism.kind = \"vertical\": the coefficients are swept over the slant, so the mechanism "
                       "must be \"slanted\" (theta, eq. 3.14) or \"angular\" (theta_lim, eq. 3.24); the vertical "
                       "spring has mu_+- = omega_+-");
  const Section r = root.table("range");
  r.check_keys({"points", "from_rad", "to_rad"});
  sc.points = read_count(r, "points", sc.points, 2, kMaxPoints);
  const auto [lo, hi] = sc.admissible();
  if (!(lo < hi))
    throw InvalidInput(fmt::format("profile: omega_+ = {}, omega_- = {}: no angle satisfies eq. 3.17 (it needs "
                                   "-omega_+ omega_- < 1)",
                                   format_value(dir::Profile(sc.profile).omega_plus()),
                                   format_value(dir::Profile(sc.profile).omega_minus())));
  const auto from = r.number("from_rad"), to = r.number("to_rad");
  sc.from_included = from.has_value();
  sc.to_included = to.has_value();
  sc.from_rad = from.value_or(lo);
  sc.to_rad = to.value_or(hi);
  const std::string rule = sc.mechanism.kind == dir::MechanismKind::slanted
                               ? "the admissible range of theta, 0 < theta < arccot(omega_+) (eq. 3.9)"
                               : "the admissible range of theta_lim, arctan(-omega_-) < theta_lim < "
                                 "arccot(omega_+) (eq. 3.17)";
  for (const auto& [key, value] : {std::pair{"from_rad", sc.from_rad}, std::pair{"to_rad", sc.to_rad}})
    if (r.has(key) && !(value > lo && value < hi))
      throw InvalidInput(fmt::format("{} = {}: must lie in ({}, {}), {}", r.key(key), format_value(value),
                                     format_value(lo), format_value(hi), rule));
  if (!(sc.from_rad < sc.to_rad))
    throw InvalidInput(fmt::format("range.to_rad = {}: must be > range.from_rad = {}", format_value(sc.to_rad),
                                   format_value(sc.from_rad)));
  read_output(root, sc, sc.angle_column(), {"mu_plus", "mu_minus"}, {sc.angle_column(), "mu_plus", "mu_minus"});
  return sc;
}

}  // namespace

std::string DirectionalCoefficientsScenario::angle_column() const {
  return mechanism.kind == dir::MechanismKind::slanted ? "theta_rad" : "theta_lim_rad";
}

std::pair<double, double> DirectionalCoefficientsScenario::admissible() const {
  const dir::Profile w(profile);
  if (mechanism.kind == dir::MechanismKind::slanted) return {0.0, std::atan(1.0 / w.omega_plus())};  // eq. 3.9
  return {std::atan(-w.omega_minus()), std::atan(1.0 / w.omega_plus())};                          // eq. 3.17
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

std::string DirectionalCoefficientsStudy::summary() const {
  const dir::Profile w(sc_.profile);
  std::string s = base_summary(sc_, kind(), w);
  const auto [lo, hi] = sc_.admissible();
  s += fmt::format("mechanism  {}: mu_+- of Lemma 3 against {}\n", dir::to_string(sc_.mechanism.kind),
                   sc_.angle_column());
  s += fmt::format("range      {} points in {}{}, {}{} (admissible ({}, {}))\n", sc_.points,
                   sc_.from_included ? "[" : "(", format_value(sc_.from_rad), format_value(sc_.to_rad),
                   sc_.to_included ? "]" : ")", format_value(lo), format_value(hi));
  s += fmt::format("plot       {} against {}\n", fmt::join(sc_.output.plot_y, ", "), sc_.output.plot_x);
  return s;
}

RunResult DirectionalCoefficientsStudy::run(const ProgressCallback& progress) const {
  RunResult result;
  result.name = sc_.name;
  result.title = sc_.output.title;
  result.plot_x = sc_.output.plot_x;
  result.plot_y = sc_.output.plot_y;
  if (progress) progress(Progress{0, 1, 0.0, ""});
  const auto start = std::chrono::steady_clock::now();
  TimeSeries series = sc_.solve();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (progress) progress(Progress{0, 1, 1.0, ""});
  const dir::Profile w(sc_.profile);
  Json& r = result.report;
  fill_header(r, sc_, kind(), seconds);
  Json parameters = Json::object();
  parameters["profile"] = profile_json(sc_, w);
  parameters["mechanism"] = Json::object();
  parameters["mechanism"]["kind"] = dir::to_string(sc_.mechanism.kind);
  const auto [lo, hi] = sc_.admissible();
  Json range = Json::object();
  range["points"] = sc_.points;
  range["from_rad"] = sc_.from_rad;
  range["to_rad"] = sc_.to_rad;
  range["from_included"] = sc_.from_included;
  range["to_included"] = sc_.to_included;
  range["admissible_rad"] = Json(std::vector<double>{lo, hi});
  parameters["range"] = range;
  r["parameters"] = parameters;
  r["formula"] = sc_.mechanism.kind == dir::MechanismKind::slanted
                     ? "mu_+- = omega_+- / (1 - omega_+- tan(theta)) (paper 2, eq. 3.14)"
                     : "mu_+- = omega_+- / (1 + omega_+- cot(theta_lim)) (paper 2, eq. 3.24)";
  r["columns"] = Json(series.names);
  result.solve_seconds = seconds;
  result.cases.push_back(CaseResult{std::nullopt, std::move(series), seconds});
  return result;
}

namespace {

// ---------------------------------------------------------------------------------------------
// directional_loop

const Keys kLoopTop = {"kind",    "name", "description", "profile",    "mechanism",
                       "drive",   "epsilon", "time",     "integrator", "output"};
const Keys kLoopColumns = {"t_s", "q_m", "u_m", "p_m", "angle_rad", "F_N", "D_J"};

integrate::Options read_integrator(const Section& root, double& atol_z_per_epsilon) {
  const Section s = root.table("integrator");
  s.check_keys({"method", "rtol", "atol_z_per_epsilon", "max_steps"});
  integrate::Options o;
  if (const auto name = s.string("method")) {
    // Any method's name is recognised (an unknown one gets the nearest suggested), but the eps-solves run
    // cvode_bdf (WigglySystem::default_options), so only that and auto apply here.
    const integrate::Method m = integrate::method_from_string(s.key("method"), *name);
    if (m != integrate::Method::auto_ && m != integrate::Method::cvode_bdf)
      throw InvalidInput(fmt::format("{} = \"{}\": does not apply to kind = \"directional_loop\" (its epsilon-systems "
                                     "are integrated by cvode_bdf; valid here: auto, cvode_bdf)",
                                     s.key("method"), *name));
  }
  o.rtol = s.number_or("rtol", 1e-10);
  atol_z_per_epsilon = s.number_or("atol_z_per_epsilon", atol_z_per_epsilon);
  require_positive("integrator.atol_z_per_epsilon", atol_z_per_epsilon);
  if (const auto m = s.integer("max_steps")) o.max_steps = *m;
  else o.max_steps = 200'000'000;
  o.validate("integrator");
  return o;
}

integrate::Options options_for(const integrate::Options& base, double atol_z_per_epsilon, double eps) {
  integrate::Options o = dir::WigglySystem::default_options(eps);
  o.rtol = base.rtol;
  o.max_steps = base.max_steps;
  o.atol_per_component[0] = atol_z_per_epsilon * eps;
  return o;
}

DirectionalLoopScenario parse_loop(const Section& root, std::string_view name, const ScenarioSource& source) {
  DirectionalLoopScenario sc;
  read_top(root, "directional_loop", kLoopTop, name, source, sc);
  read_profile(root, sc);
  read_mechanism(root, sc, false);
  const dir::Mechanism mechanism(sc.mechanism, dir::Profile(sc.profile), "mechanism");
  const Section d = root.table("drive");
  d.check_keys({"k_h_N_per_m", "rest_length_m", "start_m", "amplitude_m", "period_s", "cycles"});
  sc.drive.k_h_N_per_m = d.number_or("k_h_N_per_m", sc.drive.k_h_N_per_m);
  sc.drive.rest_length_m = d.number_or("rest_length_m", sc.drive.rest_length_m);
  sc.drive.validate("drive");
  sc.start_m = d.number_or("start_m", sc.start_m);
  sc.amplitude_m = d.number_or("amplitude_m", sc.amplitude_m);
  sc.period_s = d.number_or("period_s", sc.period_s);
  sc.cycles = d.number_or("cycles", sc.cycles);
  require_positive(d.key("amplitude_m"), sc.amplitude_m);
  require_positive(d.key("period_s"), sc.period_s);
  require_positive(d.key("cycles"), sc.cycles);
  if (sc.cycles > kMaxLoopCycles)  // the triangle has 2 vertices per cycle, each solved through
    throw InvalidInput(fmt::format("{} = {}: at most {} cycles (Limits in docs/scenarios.md)", d.key("cycles"),
                                   format_value(sc.cycles), format_value(kMaxLoopCycles)));
  sc.driver();  // validates start, amplitude, period and cycles with the drive.* keys
  sc.epsilon = read_epsilon(root, mechanism);
  const Section t = root.table("time");
  t.check_keys({"outputs"});
  sc.outputs = read_count(t, "outputs", sc.outputs, 2, kMaxPoints);
  sc.integrator = read_integrator(root, sc.atol_z_per_epsilon);
  read_output(root, sc, "q_m", {"F_N"}, kLoopColumns);
  return sc;
}

}  // namespace

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
  s += fmt::format("plot       {} against {}\n", fmt::join(sc_.output.plot_y, ", "), sc_.output.plot_x);
  return s;
}

RunResult DirectionalLoopStudy::run(const ProgressCallback& progress) const {
  const dir::Profile w(sc_.profile);
  const dir::Mechanism m(sc_.mechanism, w, "mechanism");
  const auto q = sc_.driver();
  const auto times = sc_.times();
  RunResult result;
  result.name = sc_.name;
  result.title = sc_.output.title;
  result.plot_x = sc_.output.plot_x;
  result.plot_y = sc_.output.plot_y;
  result.sweep_column = "epsilon_m";
  const auto epsilons = case_epsilons(sc_.epsilon);
  // The limit first (the reference for the per-case differences), reported in the listed order.
  const auto limit = dir::limit_loop(m, sc_.drive, q, times);
  Json cases = Json::array();
  for (std::size_t i = 0; i < epsilons.size(); ++i) {
    const double eps = epsilons[i];
    if (progress) progress(Progress{i, epsilons.size(), 0.0, case_label(eps)});
    const std::string label = case_label(eps);
    std::function<void(double)> on_progress;
    if (progress) on_progress = [&](double fraction) { progress(Progress{i, epsilons.size(), fraction, label}); };
    const auto start = std::chrono::steady_clock::now();
    const dir::Loop loop =
        eps == 0.0 ? limit
                   : dir::epsilon_loop(m, {eps, sc_.epsilon.gamma}, sc_.drive, q, times,
                                       options_for(sc_.integrator, sc_.atol_z_per_epsilon, eps), on_progress);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (progress) progress(Progress{i, epsilons.size(), 1.0, case_label(eps)});
    Json c = Json::object();
    c["epsilon_m"] = eps;
    c["label"] = case_label(eps);
    double du = 0.0, dF = 0.0;
    for (std::size_t k = 0; k < times.size(); ++k) {
      du = std::max(du, std::abs(loop.series.column("u_m")[k] - limit.series.column("u_m")[k]));
      dF = std::max(dF, std::abs(loop.series.column("F_N")[k] - limit.series.column("F_N")[k]));
    }
    c["dissipated_J"] = loop.series.column("D_J").back();
    c["max_abs_u_minus_limit_m"] = du;
    c["max_abs_F_minus_limit_N"] = dF;
    c["max_F_N"] = *std::max_element(loop.series.column("F_N").begin(), loop.series.column("F_N").end());
    c["min_F_N"] = *std::min_element(loop.series.column("F_N").begin(), loop.series.column("F_N").end());
    if (eps > 0.0) {
      c["gamma"] = sc_.epsilon.gamma;
      c["steps"] = loop.stats.steps;
      c["rhs_evaluations"] = loop.stats.rhs_evaluations;
      c["error_test_failures"] = loop.stats.error_test_failures;
    }
    c["solve_seconds"] = seconds;
    cases.push_back(std::move(c));
    result.solve_seconds += seconds;
    result.case_labels.push_back(case_label(eps));
    result.cases.push_back(CaseResult{eps, loop.series, seconds});
  }
  Json& r = result.report;
  fill_header(r, sc_, kind(), result.solve_seconds);
  Json parameters = Json::object();
  parameters["profile"] = profile_json(sc_, w);
  parameters["mechanism"] = mechanism_json(m);
  Json d = Json::object();
  d["k_h_N_per_m"] = sc_.drive.k_h_N_per_m;
  d["rest_length_m"] = sc_.drive.rest_length_m;
  d["start_m"] = sc_.start_m;
  d["amplitude_m"] = sc_.amplitude_m;
  d["period_s"] = sc_.period_s;
  d["cycles"] = sc_.cycles;
  parameters["drive"] = d;
  Json e = Json::object();
  e["values_m"] = Json(sc_.epsilon.values_m);
  e["gamma"] = sc_.epsilon.gamma;
  e["limit"] = sc_.epsilon.limit;
  parameters["epsilon"] = e;
  Json integ = Json::object();
  integ["method"] = "cvode_bdf";
  integ["method_used"] = "cvode_bdf";  // the eps-solves always run it (integrator.method = "auto" too)
  integ["rtol"] = sc_.integrator.rtol;
  integ["atol_z_per_epsilon"] = sc_.atol_z_per_epsilon;
  integ["max_steps"] = sc_.integrator.max_steps;
  parameters["integrator"] = integ;
  parameters["outputs"] = sc_.outputs;
  r["parameters"] = parameters;
  r["columns"] = Json(std::vector<std::string>{"epsilon_m", "t_s", "q_m", "u_m", "p_m", "angle_rad", "F_N", "D_J"});
  r["cases"] = cases;
  return result;
}

namespace {

// ---------------------------------------------------------------------------------------------
// directional_crawler

const Keys kCrawlerTop = {"kind", "name", "description", "profile", "mechanism", "crawler", "epsilon", "run",
                          "output"};

Keys crawler_columns(int feet) {
  Keys c{"t_s"};
  for (int i = 1; i <= feet; ++i) c.push_back(fmt::format("x{}_m", i));
  c.emplace_back("center_m");
  c.emplace_back("D_J");
  return c;
}

DirectionalCrawlerScenario parse_crawler(const Section& root, std::string_view name, const ScenarioSource& source) {
  DirectionalCrawlerScenario sc;
  read_top(root, "directional_crawler", kCrawlerTop, name, source, sc);
  read_profile(root, sc);
  read_mechanism(root, sc, false);
  const dir::Mechanism mechanism(sc.mechanism, dir::Profile(sc.profile), "mechanism");
  const Section c = root.table("crawler");
  c.check_keys({"feet", "k_a_N_per_m", "rest_length_m", "stroke_m", "period_s", "phase_lag"});
  sc.crawler.feet = read_count(c, "feet", sc.crawler.feet, std::numeric_limits<int>::min(),
                               std::numeric_limits<int>::max());
  sc.crawler.k_a_N_per_m = c.number_or("k_a_N_per_m", sc.crawler.k_a_N_per_m);
  sc.crawler.rest_length_m = c.number_or("rest_length_m", sc.crawler.rest_length_m);
  sc.crawler.stroke_m = c.number_or("stroke_m", sc.crawler.stroke_m);
  sc.crawler.period_s = c.number_or("period_s", sc.crawler.period_s);
  sc.crawler.phase_lag = c.number_or("phase_lag", sc.crawler.phase_lag);
  sc.crawler.validate("crawler");
  sc.epsilon = read_epsilon(root, mechanism);
  const Section r = root.table("run");
  r.check_keys({"cycles", "samples_per_cycle", "limit_steps_per_cycle"});
  sc.cycles = read_count(r, "cycles", sc.cycles, 2, 1000);
  sc.samples_per_cycle = read_count(r, "samples_per_cycle", sc.samples_per_cycle, 4, kMaxPoints);
  sc.limit_steps_per_cycle = read_count(r, "limit_steps_per_cycle", sc.limit_steps_per_cycle, 4, kMaxPoints);
  read_output(root, sc, "t_s", {"center_m"}, crawler_columns(sc.crawler.feet));
  return sc;
}

}  // namespace

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
  s += fmt::format("plot       {} against {}\n", fmt::join(sc_.output.plot_y, ", "), sc_.output.plot_x);
  return s;
}

RunResult DirectionalCrawlerStudy::run(const ProgressCallback& progress) const {
  const dir::Profile w(sc_.profile);
  const dir::Mechanism m(sc_.mechanism, w, "mechanism");
  RunResult result;
  result.name = sc_.name;
  result.title = sc_.output.title;
  result.plot_x = sc_.output.plot_x;
  result.plot_y = sc_.output.plot_y;
  result.sweep_column = "epsilon_m";
  const auto epsilons = case_epsilons(sc_.epsilon);
  Json cases = Json::array();
  for (std::size_t i = 0; i < epsilons.size(); ++i) {
    const double eps = epsilons[i];
    if (progress) progress(Progress{i, epsilons.size(), 0.0, case_label(eps)});
    const auto start = std::chrono::steady_clock::now();
    dir::CrawlerRun run;
    if (eps == 0.0) {
      run = dir::crawl_limit(m, sc_.crawler, sc_.cycles, sc_.limit_steps_per_cycle);
      // Resample the limit onto the eps-systems' output grid (every steps/samples-th step).
      if (sc_.limit_steps_per_cycle % sc_.samples_per_cycle == 0) {
        const std::size_t stride = static_cast<std::size_t>(sc_.limit_steps_per_cycle / sc_.samples_per_cycle);
        TimeSeries thinned(run.series.names);
        for (std::size_t k = 0; k < run.series.rows(); k += stride) {
          std::vector<double> row;
          for (const auto& col : run.series.columns) row.push_back(col[k]);
          thinned.add_row(row);
        }
        run.series = std::move(thinned);
      }
    } else {
      const std::string label = case_label(eps);
      std::function<void(double)> on_progress;
      if (progress) on_progress = [&](double fraction) { progress(Progress{i, epsilons.size(), fraction, label}); };
      run = dir::crawl_epsilon(m, sc_.crawler, {eps, sc_.epsilon.gamma}, sc_.cycles, sc_.samples_per_cycle,
                               on_progress);
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (progress) progress(Progress{i, epsilons.size(), 1.0, case_label(eps)});
    Json c = Json::object();
    c["epsilon_m"] = eps;
    c["label"] = case_label(eps);
    c["advance_per_cycle_m"] = run.advance_per_cycle_m;
    c["dissipated_J"] = run.series.column("D_J").back();
    if (eps > 0.0) {
      c["gamma"] = sc_.epsilon.gamma;
      c["steps"] = run.stats.steps;
      c["rhs_evaluations"] = run.stats.rhs_evaluations;
    } else {
      c["steps_per_cycle"] = sc_.limit_steps_per_cycle;
    }
    c["solve_seconds"] = seconds;
    cases.push_back(std::move(c));
    result.solve_seconds += seconds;
    result.case_labels.push_back(case_label(eps));
    result.cases.push_back(CaseResult{eps, std::move(run.series), seconds});
  }
  Json& r = result.report;
  fill_header(r, sc_, kind(), result.solve_seconds);
  Json parameters = Json::object();
  parameters["profile"] = profile_json(sc_, w);
  parameters["mechanism"] = mechanism_json(m);
  const auto& cr = sc_.crawler;
  Json c = Json::object();
  c["feet"] = cr.feet;
  c["k_a_N_per_m"] = cr.k_a_N_per_m;
  c["rest_length_m"] = cr.rest_length_m;
  c["stroke_m"] = cr.stroke_m;
  c["period_s"] = cr.period_s;
  c["phase_lag"] = cr.phase_lag;
  parameters["crawler"] = c;
  Json e = Json::object();
  e["values_m"] = Json(sc_.epsilon.values_m);
  e["gamma"] = sc_.epsilon.gamma;
  e["limit"] = sc_.epsilon.limit;
  parameters["epsilon"] = e;
  Json rn = Json::object();
  rn["cycles"] = sc_.cycles;
  rn["samples_per_cycle"] = sc_.samples_per_cycle;
  rn["limit_steps_per_cycle"] = sc_.limit_steps_per_cycle;
  parameters["run"] = rn;
  r["parameters"] = parameters;
  if (cr.feet == 2)
    r["advance_per_cycle_closed_form_m"] =
        dir::two_foot_advance(m.limit().rho_plus, m.limit().rho_minus, cr.k_a_N_per_m, cr.stroke_m);
  Keys columns{"epsilon_m"};
  for (const auto& name : crawler_columns(cr.feet)) columns.push_back(name);
  r["columns"] = Json(columns);
  r["cases"] = cases;
  return result;
}

// ---------------------------------------------------------------------------------------------
// Entry points

DirectionalCoefficientsScenario parse_directional_coefficients_string(std::string_view toml, std::string_view name,
                                                                      const std::filesystem::path& directory) {
  return parse_text(toml, name, ScenarioSource::of_text(directory), parse_coefficients);
}

DirectionalLoopScenario parse_directional_loop_string(std::string_view toml, std::string_view name,
                                                      const std::filesystem::path& directory) {
  return parse_text(toml, name, ScenarioSource::of_text(directory), parse_loop);
}

DirectionalCrawlerScenario parse_directional_crawler_string(std::string_view toml, std::string_view name,
                                                            const std::filesystem::path& directory) {
  return parse_text(toml, name, ScenarioSource::of_text(directory), parse_crawler);
}

std::unique_ptr<Scenario> parse_directional_coefficients_scenario(std::string_view toml, std::string_view name,
                                                                  const ScenarioSource& source) {
  return std::make_unique<DirectionalCoefficientsStudy>(parse_text(toml, name, source, parse_coefficients));
}

std::unique_ptr<Scenario> parse_directional_loop_scenario(std::string_view toml, std::string_view name,
                                                          const ScenarioSource& source) {
  return std::make_unique<DirectionalLoopStudy>(parse_text(toml, name, source, parse_loop));
}

std::unique_ptr<Scenario> parse_directional_crawler_scenario(std::string_view toml, std::string_view name,
                                                             const ScenarioSource& source) {
  return std::make_unique<DirectionalCrawlerStudy>(parse_text(toml, name, source, parse_crawler));
}

}  // namespace bristle::io
