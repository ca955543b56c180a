// kind = "lumped": the TOML schema of a bench run (docs/scenarios.md), its validation, its JSON echo
// and its runner.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <limits>
#include <system_error>

#include "bristle/contact/analysis.hpp"
#include "bristle/contact/bench.hpp"
#include "bristle/contact/contact_model.hpp"
#include "bristle/core/error.hpp"
#include "bristle/io/scenario.hpp"
#include "bristle/rheology/contact_pair.hpp"
#include "csv_table.hpp"
#include "scenario_internal.hpp"

namespace bristle::io {

namespace {

/// CPU time consumed by the calling thread (s).
double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

using detail::MatrixForm;
using detail::MatrixRule;
using detail::MatrixValue;
using detail::Section;
using laws::LawKind;
using rheology::RheologyKind;
using Keys = std::vector<std::string>;

constexpr std::size_t kMaxOutputTimes = 10'000'001;

std::string q(std::string_view s) { return json_quote(s); }

[[noreturn]] void cannot_combine(const std::string& key, const std::string& other, std::string_view advice) {
  throw InvalidInput(fmt::format("key \"{}\" cannot be combined with {}; {}", key, other, advice));
}

Keys concat(std::initializer_list<Keys> lists) {
  Keys out;
  for (const auto& l : lists) out.insert(out.end(), l.begin(), l.end());
  return out;
}

// ---------------------------------------------------------------------------------------------
// [law]

const Keys kStribeckKeys = {"mu_s", "mu_d", "v_s", "delta_s", "mu_v"};
const Keys kDahlKeys = {"mu", "mu_s", "mu_d"};
const Keys kAllStribeckKeys = {"mu", "mu_s", "mu_d", "v_s", "delta_s", "mu_v"};

laws::StribeckParams parse_stribeck(const Section& s, LawKind kind) {
  laws::StribeckParams p;
  if (kind == LawKind::dahl) {
    if (s.has("mu")) {
      for (const char* k : {"mu_s", "mu_d"})
        if (s.has(k)) cannot_combine(s.key(k), s.key("mu"), "give either mu or mu_s and mu_d");
      const double mu = *s.number("mu");
      require_positive(s.key("mu"), mu);
      p.mu_s = p.mu_d = mu;
      return p;
    }
    const auto mu_s = s.number("mu_s"), mu_d = s.number("mu_d");
    if (mu_s && mu_d && *mu_s != *mu_d)
      throw InvalidInput(fmt::format("{} = {}: the Dahl law has a constant friction coefficient, mu_s must equal "
                                     "mu_d = {} (use \"lugre\" for a Stribeck curve)",
                                     s.key("mu_s"), format_value(*mu_s), format_value(*mu_d)));
    p.mu_s = p.mu_d = mu_s ? *mu_s : mu_d.value_or(1.0);
    return p;
  }
  p.mu_s = s.number_or("mu_s", p.mu_s);
  p.mu_d = s.number_or("mu_d", p.mu_d);
  p.v_s = s.number_or("v_s", p.v_s);
  p.delta_s = s.number_or("delta_s", p.delta_s);
  p.mu_v = s.number_or("mu_v", p.mu_v);
  return p;
}

laws::LawParams parse_law(const Section& root) {
  const Section law = root.table("law");
  const std::string type =
      law.required_string("type", "the friction law: dahl, lugre, frbd, bouc_wen or frictionless");
  const LawKind kind = laws::law_kind_from_string(law.key("type"), type);
  const Keys axes = {"axis1", "axis2", "angle_rad"};
  Keys valid;
  switch (kind) {
    case LawKind::dahl: valid = concat({{"type", "eps"}, kDahlKeys, axes, {"sigma0"}}); break;
    case LawKind::lugre: valid = concat({{"type", "eps"}, kStribeckKeys, axes, {"sigma0", "sigma1", "sigma2"}}); break;
    case LawKind::frbd: valid = concat({{"type", "eps"}, kStribeckKeys, axes}); break;
    case LawKind::bouc_wen: valid = {"type", "eps", "A", "beta1", "beta2", "gamma"}; break;
    case LawKind::frictionless: valid = {"type"}; break;
  }
  const Keys known = concat({{"type", "eps"}, kAllStribeckKeys, axes,
                             {"sigma0", "sigma1", "sigma2", "A", "beta1", "beta2", "gamma"}});
  law.check_keys(valid, known, fmt::format("law.type = {}", q(type)));

  laws::LawParams p;
  p.kind = kind;
  p.eps = law.number_or("eps", p.eps);
  if (kind == LawKind::dahl || kind == LawKind::lugre || kind == LawKind::frbd) {
    const Section axis1 = law.table("axis1"), axis2 = law.table("axis2");
    if (axis1.present() || axis2.present()) {
      if (!axis1.present()) law.missing("axis1", "the Stribeck law along the first principal axis, with law.axis2");
      if (!axis2.present()) law.missing("axis2", "the Stribeck law along the second principal axis, with law.axis1");
      for (const auto& k : kAllStribeckKeys)
        if (law.has(k)) cannot_combine(law.key(k), "[law.axis1] and [law.axis2]", "give it in each axis table");
      const Keys axis_valid = kind == LawKind::dahl ? kDahlKeys : kStribeckKeys;
      const std::string context = fmt::format("law.type = {}", q(type));
      axis1.check_keys(axis_valid, kAllStribeckKeys, context);
      axis2.check_keys(axis_valid, kAllStribeckKeys, context);
      p.M.anisotropic = true;
      p.M.axis1 = parse_stribeck(axis1, kind);
      p.M.axis2 = parse_stribeck(axis2, kind);
      p.M.angle_rad = law.number_or("angle_rad", 0.0);
    } else {
      if (law.has("angle_rad"))
        throw InvalidInput("key \"law.angle_rad\" applies only with [law.axis1] and [law.axis2] (anisotropic "
                           "friction)");
      p.M.axis1 = parse_stribeck(law, kind);
      p.M.axis2 = p.M.axis1;
    }
  }
  if (const auto s0 = law.matrix("sigma0", MatrixRule::spd)) p.sigma0 = s0->m;
  if (const auto s1 = law.matrix("sigma1", MatrixRule::spsd)) p.sigma1 = s1->m;
  if (const auto s2 = law.matrix("sigma2", MatrixRule::spsd)) p.sigma2 = s2->m;
  p.A = law.number_or("A", p.A);
  p.beta1 = law.number_or("beta1", p.beta1);
  p.beta2 = law.number_or("beta2", p.beta2);
  p.gamma = law.number_or("gamma", p.gamma);
  return p;
}

// ---------------------------------------------------------------------------------------------
// [body1], [body2], [pair]

using detail::Body;  // shared with the line kinds (scenario_internal.hpp)

/// `product` = a b^-1 (branch stiffness from damping and tau, or damping from stiffness and tau when
/// b = tau^-1); must be SPD.
Mat2 checked_product(const Mat2& product, const std::string& tau_key, const MatrixValue& tau,
                     const std::string& other_key) {
  const double scale = std::max(1e-300, product.cwiseAbs().maxCoeff());
  const bool symmetric = std::abs(product(0, 1) - product(1, 0)) <= 1e-12 * scale;
  const double det = product(0, 0) * product(1, 1) - product(0, 1) * product(1, 0);
  if (!symmetric || !(product(0, 0) > 0.0 && det > 0.0))
    throw InvalidInput(fmt::format("{} = {}: the branch matrix it gives with {} is not symmetric positive definite "
                                   "(tau must share principal axes with {})",
                                   tau_key, format_matrix(tau.m), other_key, other_key));
  return 0.5 * (product + product.transpose());
}

Body parse_body(const Section& root, const std::string& name, bool required) {
  Body body;
  const Section b = root.table(name);
  if (!b.present()) {
    if (required) b.missing("type", "rheology of the upper body: rigid, elastic, gkv or gm");
    return body;
  }
  body.present = true;
  const std::string type = b.required_string("type", fmt::format("rheology of {}: rigid, elastic, gkv or gm", name));
  const RheologyKind kind = rheology::rheology_kind_from_string(b.key("type"), type);
  Keys valid;
  switch (kind) {
    case RheologyKind::rigid: valid = {"type"}; break;
    case RheologyKind::elastic: valid = {"type", "k0"}; break;
    case RheologyKind::gkv: valid = {"type", "k0", "c", "tau", "k"}; break;
    case RheologyKind::gm: valid = {"type", "k_inf", "k", "tau", "c"}; break;
  }
  b.check_keys(valid, {"type", "k0", "k_inf", "c", "tau", "k"}, fmt::format("{}.type = {}", name, q(type)));
  body.params.kind = kind;
  body.params.branches.clear();
  if (kind == RheologyKind::rigid) return body;

  const std::string k_key = kind == RheologyKind::gm ? "k_inf" : "k0";
  body.k0 = b.matrix(k_key, MatrixRule::spd);
  if (body.k0) body.params.k_elastic = body.k0->m;
  if (kind == RheologyKind::gm && !body.k0) b.missing("k_inf", "equilibrium stiffness K_inf, 1/m");
  if (kind == RheologyKind::elastic) return body;

  // Branches: gkv c + (tau | k), gm k + (tau | c).
  const bool gkv = kind == RheologyKind::gkv;
  const std::string main = gkv ? "c" : "k";
  const std::string alt = gkv ? "k" : "c";
  const auto first = b.matrices(main, MatrixRule::spd);
  if (!first)
    b.missing(main, gkv ? "branch dampings C_i (s/m), one entry per branch"
                        : "branch stiffnesses K_i (1/m), one entry per branch");
  if (first->empty())
    throw InvalidInput(fmt::format("{} = []: needs at least one branch (use type = \"elastic\" for none)",
                                   b.key(main)));
  if (b.has("tau") && b.has(alt))
    cannot_combine(b.key(alt), b.key("tau"), fmt::format("give either tau or {} for the branches", alt));
  const bool by_tau = !b.has(alt);
  const std::string second_key = by_tau ? "tau" : alt;
  if (!b.has(second_key))
    b.missing("tau", fmt::format("branch relaxation times tau_i (s), one per entry of {} (or give {})", b.key(main),
                                 b.key(alt)));
  const auto second = b.matrices(second_key, MatrixRule::spd);
  if (second->size() != first->size())
    throw InvalidInput(fmt::format("{} has {} {} but {} has {}; give one per branch", b.key(second_key),
                                   second->size(), second->size() == 1 ? "entry" : "entries", b.key(main),
                                   first->size()));
  for (std::size_t i = 0; i < first->size(); ++i) {
    const MatrixValue& m1 = (*first)[i];
    const MatrixValue& m2 = (*second)[i];
    const std::string k1 = fmt::format("{}[{}]", b.key(main), i);
    const std::string k2 = fmt::format("{}[{}]", b.key(second_key), i);
    rheology::Branch branch;
    if (gkv) {
      branch.c = m1.m;
      // tau = K^-1 C  ->  K = C tau^-1
      branch.k = by_tau ? (m2.form == MatrixForm::scalar ? Mat2(m1.m / m2.m(0, 0))
                                                         : checked_product(m1.m * m2.m.inverse(), k2, m2, k1))
                        : m2.m;
    } else {
      branch.k = m1.m;
      // tau = K^-1 C  ->  C = K tau
      branch.c = by_tau ? (m2.form == MatrixForm::scalar ? Mat2(m1.m * m2.m(0, 0))
                                                         : checked_product(m1.m * m2.m, k2, m2, k1))
                        : m2.m;
    }
    body.params.branches.push_back(branch);
    if (by_tau) body.tau.push_back(m2.form == MatrixForm::scalar ? m2.m(0, 0) : std::nan(""));
  }
  return body;
}

void apply_pair(const Section& root, Body& body1, Body& body2, std::optional<double>& pair_s) {
  const Section pair = root.table("pair");
  pair.check_keys({"s"});
  if (pair.present()) {
    const double s = pair.required_number("s", "stiffness ratio s = k01/(k01 + k02), in (0, 1)");
    rheology::substrate_stiffness_from_s("pair.s", s, 1.0);  // range check first
    const std::string where = fmt::format("pair.s = {}", format_value(s));
    const RheologyKind k1 = body1.params.kind;
    if (k1 != RheologyKind::elastic && k1 != RheologyKind::gkv)
      throw InvalidInput(fmt::format("{}: needs body1.type = \"elastic\" or \"gkv\" with a scalar body1.k0 (body1.type "
                                     "is \"{}\")",
                                     where, rheology::to_string(k1)));
    if (!body1.k0 || body1.k0->form != MatrixForm::scalar)
      throw InvalidInput(fmt::format("{}: needs an isotropic body1.k0 (a single number), not {}", where,
                                     format_matrix(body1.params.k_elastic)));
    if (body2.present) {
      const RheologyKind k2 = body2.params.kind;
      if (k2 != RheologyKind::elastic && k2 != RheologyKind::gkv)
        throw InvalidInput(fmt::format("{}: sets body2.k0, but body2.type = \"{}\" has none (use \"elastic\" or "
                                       "\"gkv\")",
                                       where, rheology::to_string(k2)));
      if (body2.k0)
        throw InvalidInput(fmt::format("{}: body2.k0 is given too; give either pair.s or body2.k0", where));
    } else {
      body2.params = rheology::elastic(1.0);
      body2.present = true;
    }
    const double k02 = rheology::substrate_stiffness_from_s("pair.s", s, body1.k0->m(0, 0));
    body2.params.k_elastic = k02 * Mat2::Identity();
    body2.k0 = MatrixValue{body2.params.k_elastic, MatrixForm::scalar};
    pair_s = s;
    return;
  }
  const RheologyKind k2 = body2.params.kind;
  if ((k2 == RheologyKind::elastic || k2 == RheologyKind::gkv) && !body2.k0)
    root.table("body2").missing("k0", "elastic stiffness K0 of the substrate, 1/m (or give pair.s)");
  if ((body1.params.kind == RheologyKind::elastic || body1.params.kind == RheologyKind::gkv) && !body1.k0)
    root.table("body1").missing("k0", "elastic stiffness K0 of the upper body, 1/m");
}

// ---------------------------------------------------------------------------------------------
// [bench] and signals

contact::Signal parse_signal(const Section& parent, const std::string& name, const ScenarioSource& source,
                             std::vector<TableFile>& files) {
  const toml::node* node = parent.node(name);
  if (node->is_number()) return contact::Signal::constant_value(*parent.number(name));
  if (!node->is_table()) parent.wrong_type(name, "a number (a constant) or a signal table with a type");
  const Section s = parent.table(name);
  const std::string type = s.required_string("type", "signal type: constant, step, ramp, sine or table");
  contact::Signal sig;
  sig.kind = contact::signal_kind_from_string(s.key("type"), type);
  Keys valid;
  switch (sig.kind) {
    case contact::SignalKind::constant: valid = {"type", "value"}; break;
    case contact::SignalKind::step: valid = {"type", "t0", "before", "after"}; break;
    case contact::SignalKind::ramp: valid = {"type", "t0", "start", "rate", "t_end"}; break;
    case contact::SignalKind::sine: valid = {"type", "offset", "amplitude", "omega", "phase"}; break;
    case contact::SignalKind::table:
      valid = {"type", "times", "values", "file", "time_column", "value_column"};
      break;
  }
  s.check_keys(valid,
               {"type", "value", "t0", "before", "after", "start", "rate", "t_end", "offset", "amplitude", "omega",
                "phase", "times", "values", "file", "time_column", "value_column"},
               fmt::format("{}.type = {}", s.path(), q(type)));
  switch (sig.kind) {
    case contact::SignalKind::constant:
      sig.value = s.required_number("value", "the constant value");
      break;
    case contact::SignalKind::step:
      sig.t0 = s.number_or("t0", sig.t0);
      sig.before = s.number_or("before", sig.before);
      sig.after = s.required_number("after", "the value from t0 on");
      break;
    case contact::SignalKind::ramp:
      sig.t0 = s.number_or("t0", sig.t0);
      sig.start = s.number_or("start", sig.start);
      sig.rate = s.required_number("rate", "the slope of the ramp, per s");
      sig.t_end = s.number("t_end", true).value_or(sig.t_end);
      break;
    case contact::SignalKind::sine:
      sig.offset = s.number_or("offset", sig.offset);
      sig.amplitude = s.required_number("amplitude", "the amplitude of the sine");
      sig.omega = s.required_number("omega", "the angular frequency of the sine, rad/s");
      sig.phase = s.number_or("phase", sig.phase);
      break;
    case contact::SignalKind::table:
      if (s.has("file")) {
        for (const char* k : {"times", "values"})
          if (s.has(k)) cannot_combine(s.key(k), s.key("file"), "give the table inline or as a file");
        TableFile tf;
        tf.key = s.path();
        tf.file = *s.string("file");
        const std::filesystem::path given(tf.file);
        tf.path = given.is_absolute() ? given : source.directory / given;
        const detail::CsvTable table =
            detail::read_csv_table(s.path(), tf.file, tf.path, s.string("time_column"), s.string("value_column"));
        tf.time_column = table.time_column;
        tf.value_column = table.value_column;
        sig.times = table.times;
        sig.values = table.values;
        files.push_back(tf);
      } else {
        for (const char* k : {"time_column", "value_column"})
          if (s.has(k))
            throw InvalidInput(fmt::format("key \"{}\" applies only with {} (a CSV file)", s.key(k), s.key("file")));
        const auto times = s.numbers("times");
        if (!times) s.missing("times", "the table's times (s), strictly increasing (or give file)");
        const auto values = s.numbers("values");
        if (!values) s.missing("values", "the table's values, one per time");
        sig.times = *times;
        sig.values = *values;
      }
      break;
  }
  return sig;
}

std::string input_description(contact::DriveKind drive) {
  switch (drive) {
    case contact::DriveKind::velocity: return "the drive input: relative velocity v_r(t), m/s";
    case contact::DriveKind::force: return "the drive input: external force F_ext(t), N";
    case contact::DriveKind::spring: return "the drive input: velocity v_p(t) of the spring's pulled end, m/s";
  }
  return "the drive input";
}

contact::BenchParams parse_bench(const Section& root, const ScenarioSource& source, std::vector<TableFile>& files) {
  const Section b = root.table("bench");
  const std::string drive = b.required_string("drive", "how the bench is driven: velocity, force or spring");
  contact::BenchParams p;
  p.drive = contact::drive_kind_from_string(b.key("drive"), drive);
  const Keys common = {"drive", "normal_load_N", "normal_load", "input", "input_y", "x0_m"};
  Keys valid = common;
  if (p.drive != contact::DriveKind::velocity) valid = concat({common, {"mass_kg", "v0_mps", "belt", "belt_y"}});
  if (p.drive == contact::DriveKind::spring) valid = concat({valid, {"spring_N_per_m", "spring_end0_m"}});
  b.check_keys(valid,
               concat({common, {"mass_kg", "v0_mps", "belt", "belt_y", "spring_N_per_m", "spring_end0_m"}}),
               fmt::format("bench.drive = {}", q(drive)));
  p.mass_kg = b.number_or("mass_kg", p.mass_kg);
  p.spring_N_per_m = b.number_or("spring_N_per_m", p.spring_N_per_m);
  if (b.has("normal_load_N") && b.has("normal_load"))
    cannot_combine("bench.normal_load_N", "[bench.normal_load]", "give a constant load or a signal table");
  if (const auto fz = b.number("normal_load_N")) {
    require_positive(b.key("normal_load_N"), *fz);
    p.normal_load = contact::Signal::constant_value(*fz);
  } else if (const toml::node* n = b.node("normal_load")) {
    if (!n->is_table()) b.wrong_type("normal_load", "a signal table (give a constant load as bench.normal_load_N)");
    p.normal_load = parse_signal(b, "normal_load", source, files);
  }
  if (!b.has("input")) b.missing("input", input_description(p.drive));
  p.input_x = parse_signal(b, "input", source, files);
  if (b.has("input_y")) p.input_y = parse_signal(b, "input_y", source, files);
  if (b.has("belt")) p.belt_x = parse_signal(b, "belt", source, files);
  if (b.has("belt_y")) p.belt_y = parse_signal(b, "belt_y", source, files);
  p.x0 = b.vec2("x0_m").value_or(p.x0);
  p.v0 = b.vec2("v0_mps").value_or(p.v0);
  p.spring_end0 = b.vec2("spring_end0_m").value_or(p.spring_end0);
  return p;
}

// ---------------------------------------------------------------------------------------------
// [time], [integrator], [initial], [output]

TimeGrid parse_time(const Section& root) {
  const Section t = root.table("time");
  t.check_keys({"t_start_s", "t_end_s", "output_dt_s", "outputs"});
  TimeGrid g;
  g.t_start_s = t.number_or("t_start_s", 0.0);
  g.t_end_s = t.required_number("t_end_s", "end time of the run, s");
  if (!(g.t_end_s > g.t_start_s))
    throw InvalidInput(fmt::format("time.t_end_s = {}: must be > time.t_start_s = {}", format_value(g.t_end_s),
                                   format_value(g.t_start_s)));
  const double span = g.t_end_s - g.t_start_s;
  if (t.has("output_dt_s") && t.has("outputs"))
    cannot_combine("time.outputs", "time.output_dt_s", "give one of them");
  if (const auto n = t.integer("outputs")) {
    if (*n < 2) throw InvalidInput(fmt::format("time.outputs = {}: must be >= 2 (both ends are output)", *n));
    if (static_cast<std::size_t>(*n) > kMaxOutputTimes)
      throw InvalidInput(fmt::format("time.outputs = {}: at most {} output times are allowed", *n, kMaxOutputTimes));
    g.output_dt_s = span / static_cast<double>(*n - 1);
  } else if (const auto dt = t.number("output_dt_s")) {
    require_positive("time.output_dt_s", *dt);
    const double count = std::ceil(span / *dt) + 1.0;
    if (count > static_cast<double>(kMaxOutputTimes))
      throw InvalidInput(fmt::format("time.output_dt_s = {}: gives {} output times; at most {} are allowed",
                                     format_value(*dt), format_value(count), kMaxOutputTimes));
    g.output_dt_s = *dt;
  } else {
    g.output_dt_s = span / 1000.0;
  }
  return g;
}

integrate::Options parse_integrator(const Section& root) {
  const Section s = root.table("integrator");
  integrate::Options o;
  const std::string method = s.string("method").value_or("cvode_bdf");
  o.method = integrate::method_from_string(s.key("method"), method);
  const bool adaptive = integrate::is_adaptive(o.method);
  const Keys adaptive_keys = {"method", "rtol", "atol", "max_dt_s", "initial_dt_s", "max_steps"};
  const Keys fixed_keys = {"method", "dt_s", "max_steps"};
  s.check_keys(adaptive ? adaptive_keys : fixed_keys, concat({adaptive_keys, {"dt_s"}}),
               fmt::format("integrator.method = {}{}", q(method), s.has("method") ? "" : " (the default)"));
  if (const auto v = s.number("rtol")) {
    require_positive(s.key("rtol"), *v);
    o.rtol = *v;
  }
  if (const auto v = s.number("atol")) {
    require_positive(s.key("atol"), *v);
    o.atol = *v;
  }
  if (const auto v = s.number("max_dt_s")) {
    require_non_negative(s.key("max_dt_s"), *v);
    o.max_dt = *v;
  }
  if (const auto v = s.number("initial_dt_s")) {
    require_non_negative(s.key("initial_dt_s"), *v);
    o.initial_dt = *v;
  }
  if (!adaptive) {
    o.dt = s.number("dt_s").value_or(0.0);
    if (!s.has("dt_s")) s.missing("dt_s", fmt::format("the fixed step of method \"{}\", s", method));
    require_positive(s.key("dt_s"), o.dt);
  }
  if (const auto v = s.integer("max_steps")) {
    if (*v < 1) throw InvalidInput(fmt::format("integrator.max_steps = {}: must be >= 1", *v));
    o.max_steps = static_cast<long>(*v);
  }
  return o;
}

InitialCondition parse_initial(const Section& root) {
  const Section s = root.table("initial");
  s.check_keys({"f", "steady"});
  InitialCondition init;
  init.steady = s.boolean("steady").value_or(false);
  if (s.has("f") && init.steady) cannot_combine("initial.f", "initial.steady = true", "give one of them");
  init.f = s.vec2("f").value_or(Vec2::Zero());
  return init;
}

OutputOptions parse_output(const Section& root, contact::DriveKind drive, const std::string& name) {
  const Section s = root.table("output");
  s.check_keys({"plot_x", "plot_y", "title"});
  OutputOptions o;
  o.plot_x = s.string("plot_x").value_or("t_s");
  if (const auto ys = s.strings("plot_y", true)) {
    if (ys->empty()) throw InvalidInput("output.plot_y = []: must name at least one column");
    o.plot_y = *ys;
  } else {
    switch (drive) {
      case contact::DriveKind::velocity: o.plot_y = {"F_N"}; break;
      case contact::DriveKind::force: o.plot_y = {"x_m", "F_N"}; break;
      case contact::DriveKind::spring: o.plot_y = {"x_m", "v_mps", "F_N"}; break;
    }
  }
  o.title = s.string("title").value_or(name);
  return o;
}

// ---------------------------------------------------------------------------------------------
// One case

LumpedScenario parse_case(const toml::table& table, std::string_view default_name, const ScenarioSource& source) {
  const Section root(&table, "");
  root.check_keys({"name", "description", "kind", "law", "body1", "body2", "pair", "bench", "time", "integrator",
                   "initial", "sweep", "output"});
  LumpedScenario sc;
  sc.source = source;
  if (const auto kind = root.string("kind"); kind && *kind != "lumped")
    throw InvalidInput(fmt::format("kind = {}: this parser reads kind = \"lumped\"", q(*kind)));
  sc.name = root.string("name").value_or(std::string(default_name));
  detail::validate_name(root.has("name") ? "name" : "name (the file stem)", sc.name);
  sc.description = root.string("description").value_or("");
  sc.law = parse_law(root);
  Body body1 = parse_body(root, "body1", true);
  Body body2 = parse_body(root, "body2", false);
  apply_pair(root, body1, body2, sc.pair_s);
  sc.body1 = body1.params;
  sc.body2 = body2.params;
  sc.input_form.body_tau[0] = body1.tau;
  sc.input_form.body_tau[1] = body2.tau;
  sc.bench = parse_bench(root, source, sc.table_files);
  sc.time = parse_time(root);
  const Section time = root.table("time");
  sc.input_form.time_outputs = time.integer("outputs").value_or(0);
  sc.input_form.time_output_dt_given = time.has("output_dt_s");
  sc.integrator = parse_integrator(root);
  sc.initial = parse_initial(root);
  sc.output = parse_output(root, sc.bench.drive, sc.name);
  return sc;
}

void check_column(const std::string& key, const std::string& column, const std::vector<std::string>& columns) {
  if (std::find(columns.begin(), columns.end(), column) != columns.end()) return;
  const std::string near = nearest_word(column, columns);
  throw InvalidInput(fmt::format("{} = {}: unknown column{} (columns: {})", key, q(column),
                                 near.empty() ? "" : fmt::format("; did you mean \"{}\"?", near),
                                 fmt::join(columns, ", ")));
}

void validate_options(const integrate::Options& o) {
  try {
    o.validate("integrator");
  } catch (const InvalidInput& e) {
    // The library names the fields; the TOML keys carry units.
    std::string m = e.what();
    for (const auto& [field, key] : {std::pair<std::string, std::string>{"integrator.dt ", "integrator.dt_s "},
                                     {"integrator.max_dt ", "integrator.max_dt_s "},
                                     {"integrator.initial_dt ", "integrator.initial_dt_s "}})
      for (std::size_t pos = m.find(field); pos != std::string::npos; pos = m.find(field, pos + key.size()))
        m.replace(pos, field.size(), key);
    throw InvalidInput(m);
  }
}

// ---------------------------------------------------------------------------------------------
// JSON echo of the parameters as used

Json matrix_json(const Mat2& m) {
  if (m(0, 1) == 0.0 && m(1, 0) == 0.0) {
    if (m(0, 0) == m(1, 1)) return Json(m(0, 0));
    return Json(std::vector<double>{m(0, 0), m(1, 1)});
  }
  Json out = Json::array();
  out.push_back(Json(std::vector<double>{m(0, 0), m(0, 1)}));
  out.push_back(Json(std::vector<double>{m(1, 0), m(1, 1)}));
  return out;
}

Json vec_json(const Vec2& v) { return Json(std::vector<double>{v[0], v[1]}); }

Json stribeck_json(const laws::StribeckParams& p, LawKind kind) {
  Json j = Json::object();
  j["mu_s"] = p.mu_s;
  j["mu_d"] = p.mu_d;
  if (kind != LawKind::dahl) {
    j["v_s"] = p.v_s;
    j["delta_s"] = p.delta_s;
    j["mu_v"] = p.mu_v;
  }
  return j;
}

Json law_json(const laws::LawParams& p, const Mat2& sigma0_used) {
  Json j = Json::object();
  j["type"] = laws::to_string(p.kind);
  if (p.kind == LawKind::frictionless) return j;
  j["eps"] = p.eps;
  if (p.kind == LawKind::bouc_wen) {
    j["A"] = p.A;
    j["beta1"] = p.beta1;
    j["beta2"] = p.beta2;
    j["gamma"] = p.gamma;
    return j;
  }
  if (p.M.anisotropic) {
    j["axis1"] = stribeck_json(p.M.axis1, p.kind);
    j["axis2"] = stribeck_json(p.M.axis2, p.kind);
    j["angle_rad"] = p.M.angle_rad;
  } else {
    Json s = stribeck_json(p.M.axis1, p.kind);
    for (const char* k : {"mu_s", "mu_d", "v_s", "delta_s", "mu_v"})
      if (const Json* v = s.find(k)) j[k] = *v;
  }
  if (p.kind == LawKind::dahl || p.kind == LawKind::lugre) {
    j["sigma0"] = matrix_json(sigma0_used);
    j["sigma0_default"] = !p.sigma0.has_value();  // true: the pair's static stiffness K_static
  }
  if (p.kind == LawKind::lugre) {
    j["sigma1"] = matrix_json(p.sigma1);
    j["sigma2"] = matrix_json(p.sigma2);
  }
  return j;
}

Json body_json(const rheology::RheologyParams& p) {
  Json j = Json::object();
  j["type"] = rheology::to_string(p.kind);
  if (p.kind == RheologyKind::rigid) return j;
  j[p.kind == RheologyKind::gm ? "k_inf" : "k0"] = matrix_json(p.k_elastic);
  if (p.branches.empty()) return j;
  Json c = Json::array(), k = Json::array(), tau = Json::array();
  for (const auto& b : p.branches) {
    c.push_back(matrix_json(b.c));
    k.push_back(matrix_json(b.k));
    tau.push_back(matrix_json(b.k.inverse() * b.c));
  }
  j["c"] = c;
  j["k"] = k;
  j["tau"] = tau;
  return j;
}

Json signal_json(const contact::Signal& s, const std::string& key, const std::vector<TableFile>& files) {
  Json j = Json::object();
  j["type"] = contact::to_string(s.kind);
  switch (s.kind) {
    case contact::SignalKind::constant: j["value"] = s.value; break;
    case contact::SignalKind::step:
      j["t0"] = s.t0;
      j["before"] = s.before;
      j["after"] = s.after;
      break;
    case contact::SignalKind::ramp:
      j["t0"] = s.t0;
      j["start"] = s.start;
      j["rate"] = s.rate;
      if (s.t_end < 1e299) j["t_end"] = s.t_end;
      else j["t_end"] = "inf";
      break;
    case contact::SignalKind::sine:
      j["offset"] = s.offset;
      j["amplitude"] = s.amplitude;
      j["omega"] = s.omega;
      j["phase"] = s.phase;
      break;
    case contact::SignalKind::table:
      for (const auto& f : files)
        if (f.key == key) {
          j["file"] = f.file;
          j["path"] = f.path.string();
          j["time_column"] = f.time_column;
          j["value_column"] = f.value_column;
        }
      j["times"] = Json(s.times);
      j["values"] = Json(s.values);
      break;
  }
  return j;
}

Json parameters_json(const LumpedScenario& sc, const contact::ContactModel& model) {
  Json j = Json::object();
  j["law"] = law_json(sc.law, model.law().sigma0());
  j["body1"] = body_json(sc.body1);
  j["body2"] = body_json(sc.body2);
  if (sc.pair_s) j["pair"]["s"] = *sc.pair_s;
  Json b = Json::object();
  const auto drive = sc.bench.drive;
  b["drive"] = contact::to_string(drive);
  if (drive != contact::DriveKind::velocity) b["mass_kg"] = sc.bench.mass_kg;
  if (drive == contact::DriveKind::spring) b["spring_N_per_m"] = sc.bench.spring_N_per_m;
  if (sc.bench.normal_load.kind == contact::SignalKind::constant)
    b["normal_load_N"] = sc.bench.normal_load.value;
  else
    b["normal_load"] = signal_json(sc.bench.normal_load, "bench.normal_load", sc.table_files);
  b["input"] = signal_json(sc.bench.input_x, "bench.input", sc.table_files);
  b["input_y"] = signal_json(sc.bench.input_y, "bench.input_y", sc.table_files);
  if (drive != contact::DriveKind::velocity) {
    b["belt"] = signal_json(sc.bench.belt_x, "bench.belt", sc.table_files);
    b["belt_y"] = signal_json(sc.bench.belt_y, "bench.belt_y", sc.table_files);
  }
  b["x0_m"] = vec_json(sc.bench.x0);
  if (drive != contact::DriveKind::velocity) b["v0_mps"] = vec_json(sc.bench.v0);
  if (drive == contact::DriveKind::spring) b["spring_end0_m"] = vec_json(sc.bench.spring_end0);
  j["bench"] = b;
  Json t = Json::object();
  t["t_start_s"] = sc.time.t_start_s;
  t["t_end_s"] = sc.time.t_end_s;
  t["output_dt_s"] = sc.time.output_dt_s;
  t["outputs"] = sc.time.times().size();
  j["time"] = t;
  Json in = Json::object();
  const auto& o = sc.integrator;
  in["method"] = integrate::to_string(o.method);
  if (integrate::is_adaptive(o.method)) {
    in["rtol"] = o.rtol;
    in["atol"] = o.atol;
    in["max_dt_s"] = o.max_dt;
    in["initial_dt_s"] = o.initial_dt;
  } else {
    in["dt_s"] = o.dt;
  }
  in["max_steps"] = o.max_steps;
  j["integrator"] = in;
  Json init = Json::object();
  init["steady"] = sc.initial.steady;
  const VecX u0 = sc.initial_contact_state(model);
  init["f"] = vec_json(Vec2(u0[0], u0[1]));
  j["initial"] = init;
  Json out = Json::object();
  out["plot_x"] = sc.output.plot_x;
  out["plot_y"] = Json(sc.output.plot_y);
  out["title"] = sc.output.title;
  j["output"] = out;
  return j;
}

std::string describe_signal(const contact::Signal& s) {
  switch (s.kind) {
    case contact::SignalKind::constant: return fmt::format("constant {}", format_value(s.value));
    case contact::SignalKind::step:
      return fmt::format("step {} -> {} at {} s", format_value(s.before), format_value(s.after), format_value(s.t0));
    case contact::SignalKind::ramp:
      return fmt::format("ramp from {} at {} s, rate {}/s", format_value(s.start), format_value(s.t0),
                         format_value(s.rate));
    case contact::SignalKind::sine:
      return fmt::format("sine {} + {} sin({} t + {})", format_value(s.offset), format_value(s.amplitude),
                         format_value(s.omega), format_value(s.phase));
    case contact::SignalKind::table:
      return fmt::format("table of {} points, t = {} .. {} s", s.times.size(), format_value(s.times.front()),
                         format_value(s.times.back()));
  }
  return "";
}

/// Advice when the absolute tolerance cannot resolve sticking: on a mass bench whose Stribeck curve falls
/// from mu_s to mu_d over v_s, the velocity while sticking stays far below v_s, and an absolute tolerance on
/// it above 1e-3 v_s lets an adaptive method step over the stick phases (examples/lugre_stick_slip.toml at
/// rtol 1e-3 with rodas4: period 8.37 s at atol = 1e-5 = 1e-2 v_s, 6.3634 s at 1e-6; converged 6.3627 s;
/// no limit cycle at all at 1e-4). Empty if none applies.
std::string velocity_tolerance_warning(const LumpedScenario& sc, const contact::Bench& bench) {
  if (!integrate::is_adaptive(sc.integrator.method) || sc.bench.drive == contact::DriveKind::velocity) return {};
  const laws::LawParams& law = sc.law;
  const bool stribeck = (law.kind == laws::LawKind::lugre || law.kind == laws::LawKind::frbd) && !law.G_inverse;
  if (!stribeck) return {};
  const laws::FrictionCoefficient& m = law.M;
  double v_s = std::numeric_limits<double>::infinity();
  if (m.axis1.mu_s != m.axis1.mu_d) v_s = m.axis1.v_s;
  if (m.anisotropic && m.axis2.mu_s != m.axis2.mu_d) v_s = std::min(v_s, m.axis2.v_s);
  if (!std::isfinite(v_s)) return {};  // no Stribeck drop: nothing to resolve
  const VecX atol = integrate::absolute_tolerances(sc.integrator, bench.state_size());
  const double atol_v = std::max(atol[2], atol[3]);  // the velocity components (force and spring drives)
  if (!(atol_v > 1e-3 * v_s)) return {};
  return fmt::format(
      "integrator.atol = {} (m/s on the velocity) is not small against the Stribeck velocity v_s = {} m/s: while "
      "sticking the velocity stays far below v_s, and with this tolerance the steps may skip the stick phases "
      "(wrong stick-slip periods, or none); atol <= 1e-3 v_s = {} is advised",
      format_value(atol_v), format_value(v_s), format_value(1e-3 * v_s));
}

}  // namespace

// ---------------------------------------------------------------------------------------------

namespace detail {

// The readers and JSON writers above, shared with the other kinds (scenario_internal.hpp).
laws::LawParams read_law(const Section& root) { return parse_law(root); }
Body read_body(const Section& root, const std::string& name, bool required) {
  return parse_body(root, name, required);
}
void read_pair(const Section& root, Body& body1, Body& body2, std::optional<double>& pair_s) {
  apply_pair(root, body1, body2, pair_s);
}
contact::Signal read_signal(const Section& parent, const std::string& name, const ScenarioSource& source,
                            std::vector<TableFile>& files) {
  return parse_signal(parent, name, source, files);
}
TimeGrid read_time(const Section& root) { return parse_time(root); }
Json law_to_json(const laws::LawParams& p, const Mat2& sigma0_used) { return law_json(p, sigma0_used); }
Json body_to_json(const rheology::RheologyParams& p) { return body_json(p); }
Json signal_to_json(const contact::Signal& s, const std::string& key, const std::vector<TableFile>& files) {
  return signal_json(s, key, files);
}
std::string signal_summary(const contact::Signal& s) { return describe_signal(s); }

std::vector<LumpedScenario> parse_lumped(const toml::table& root, std::string_view name,
                                         const ScenarioSource& source) {
  std::vector<LumpedScenario> cases;
  for_each_case(root, [&](const toml::table& table, const std::optional<Sweep>& sweep, std::optional<double> value) {
    LumpedScenario sc = parse_case(table, name, source);
    sc.sweep = sweep;
    sc.sweep_value = value;
    sc.validate();
    cases.push_back(std::move(sc));
  });
  return cases;
}

}  // namespace detail

void LumpedScenario::validate() const {
  const contact::ContactModel model(law, body1, body2);
  const contact::Bench bench_object(model, bench);
  validate_options(integrator);
  const std::vector<std::string> columns = bench_object.column_names();
  check_column("output.plot_x", output.plot_x, columns);
  for (std::size_t i = 0; i < output.plot_y.size(); ++i)
    check_column(fmt::format("output.plot_y[{}]", i), output.plot_y[i], columns);
  if (sweep && std::find(columns.begin(), columns.end(), sweep->column) != columns.end())
    throw InvalidInput(fmt::format("sweep.column = {}: clashes with an output column of the same name; give "
                                   "sweep.column another name",
                                   q(sweep->column)));
  if (initial.steady) {
    const VecX u0 = initial_contact_state(model);
    if (!u0.allFinite())
      throw InvalidInput(fmt::format("initial.steady = true: the law has no finite steady state at the initial "
                                     "relative velocity (law.eps = {}); give law.eps > 0, a non-zero initial "
                                     "velocity or initial.f instead",
                                     format_value(law.eps)));
  }
}

VecX LumpedScenario::initial_contact_state(const contact::ContactModel& model) const {
  VecX u = VecX::Zero(model.state_size());
  if (!initial.steady) {
    u[0] = initial.f[0];
    u[1] = initial.f[1];
    return u;
  }
  const double t0 = time.t_start_s;
  Vec2 v_r;
  if (bench.drive == contact::DriveKind::velocity)
    v_r = Vec2(bench.input_x(t0), bench.input_y(t0));
  else
    v_r = bench.v0 - Vec2(bench.belt_x(t0), bench.belt_y(t0));
  return model.steady_state(v_r);
}

LumpedStudy::LumpedStudy(std::vector<LumpedScenario> cases) : cases_(std::move(cases)) {
  if (cases_.empty()) throw InvalidInput("a scenario needs at least one case");
}

std::string LumpedStudy::summary() const {
  const LumpedScenario& sc = cases_.front();
  std::string s;
  s += fmt::format("scenario   {} (kind = \"lumped\", {})\n", sc.name, sc.source.display_name());
  if (!sc.description.empty()) s += fmt::format("description {}\n", sc.description);
  s += fmt::format("law        {}{}\n", laws::to_string(sc.law.kind), sc.law.M.anisotropic ? " (anisotropic)" : "");
  const auto body = [](const rheology::RheologyParams& b) {
    if (b.kind == RheologyKind::rigid) return std::string("rigid");
    return fmt::format("{}, {} = {}, {} branch(es)", rheology::to_string(b.kind),
                       b.kind == RheologyKind::gm ? "k_inf" : "k0", format_matrix(b.k_elastic), b.branches.size());
  };
  s += fmt::format("body1      {}\n", body(sc.body1));
  s += fmt::format("body2      {}{}\n", body(sc.body2),
                   sc.pair_s ? fmt::format(" (from pair.s = {})", format_value(*sc.pair_s)) : "");
  s += fmt::format("bench      drive = {}, input: {}\n", contact::to_string(sc.bench.drive),
                   describe_signal(sc.bench.input_x));
  s += fmt::format("time       {} .. {} s, {} output times (every {} s)\n", format_value(sc.time.t_start_s),
                   format_value(sc.time.t_end_s), sc.time.times().size(), format_value(sc.time.output_dt_s));
  s += fmt::format("integrator {}{}\n", integrate::to_string(sc.integrator.method),
                   integrate::is_adaptive(sc.integrator.method)
                       ? fmt::format(" (rtol = {}, atol = {})", format_value(sc.integrator.rtol),
                                     format_value(sc.integrator.atol))
                       : fmt::format(" (dt_s = {})", format_value(sc.integrator.dt)));
  if (sc.sweep)
    s += fmt::format("sweep      {} = {} ({} cases, column \"{}\")\n", sc.sweep->parameter,
                     fmt::join(sc.sweep->values, ", "), cases_.size(), sc.sweep->column);
  s += fmt::format("plot       {} against {}\n", fmt::join(sc.output.plot_y, ", "), sc.output.plot_x);
  return s;
}

RunResult LumpedStudy::run(const ProgressCallback& progress) const {
  const LumpedScenario& first = cases_.front();
  RunResult result;
  result.name = first.name;
  result.title = first.output.title;
  result.plot_x = first.output.plot_x;
  result.plot_y = first.output.plot_y;
  if (first.sweep) result.sweep_column = first.sweep->column;

  Json cases_json = Json::array();
  double solve_cpu_seconds = 0.0;
  Json parameters;
  std::vector<std::string> columns;
  for (std::size_t i = 0; i < cases_.size(); ++i) {
    const LumpedScenario& sc = cases_[i];
    const contact::ContactModel model(sc.law, sc.body1, sc.body2);
    const contact::Bench bench(model, sc.bench);
    if (i == 0) {
      parameters = parameters_json(sc, model);
      columns = bench.column_names();
    }
    if (const std::string w = velocity_tolerance_warning(sc, bench);
        !w.empty() && std::find(result.warnings.begin(), result.warnings.end(), w) == result.warnings.end())
      result.warnings.push_back(w);
    const VecX u0 = sc.initial_contact_state(model);
    const std::vector<double> times = sc.time.times();
    const std::string label = sc.sweep_value
                                  ? fmt::format("{} = {}", sc.sweep->column, format_value(*sc.sweep_value))
                                  : std::string();
    std::function<void(double)> on_progress;
    if (progress)
      on_progress = [&](double fraction) { progress(Progress{i, cases_.size(), fraction, label}); };
    const auto start = std::chrono::steady_clock::now();
    const double cpu_start = thread_cpu_seconds();
    contact::BenchRun run = contact::run(bench, times, sc.integrator, u0, on_progress);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double cpu_seconds = thread_cpu_seconds() - cpu_start;

    Json c = Json::object();
    if (sc.sweep_value) c[sc.sweep->column] = *sc.sweep_value;
    c["solve_seconds"] = seconds;
    c["solve_cpu_seconds"] = cpu_seconds;  // CPU time of the solving thread: robust on a loaded machine
    solve_cpu_seconds += cpu_seconds;
    c["derived"] = Json(contact::derived_quantities(run.series, sc.bench.drive == contact::DriveKind::spring));
    Json final_values = Json::object();
    for (std::size_t k = 0; k < run.series.names.size(); ++k)
      final_values[run.series.names[k]] = run.series.columns[k].back();
    c["final"] = final_values;
    if (sc.law.kind != LawKind::frictionless) {
      // Analytic steady friction at the final relative velocity and load (null where it does not exist).
      const double t_end = run.series.column("t_s").back();
      const Vec2 v_r(run.series.column("vr_mps").back(), run.series.column("vr_y_mps").back());
      const Vec2 f = sc.bench.normal_load(t_end) * model.steady_force(v_r);
      Json steady = Json::object();
      steady["vr_mps"] = v_r[0];
      steady["vr_y_mps"] = v_r[1];
      steady["F_N"] = f[0];
      steady["Fy_N"] = f[1];
      c["steady_at_final_velocity"] = steady;
    }
    Json stats = Json::object();
    stats["steps"] = run.stats.steps;
    stats["rhs_evaluations"] = run.stats.rhs_evaluations;
    stats["jacobian_evaluations"] = run.stats.jacobian_evaluations;
    stats["error_test_failures"] = run.stats.error_test_failures;
    stats["nonlinear_failures"] = run.stats.nonlinear_failures;
    stats["restarts"] = run.stats.restarts;
    stats["smallest_step_s"] = run.stats.smallest_step;
    stats["largest_step_s"] = run.stats.largest_step;
    // Which implementation integrated (contact::run): the compiled 1-D kernel, the general 1-D x subsystem
    // or the full 2-D system.
    stats["path"] = run.kernel ? "kernel" : run.x_only ? "x_only" : "full";
    c["integrator_stats"] = stats;
    cases_json.push_back(std::move(c));

    result.solve_seconds += seconds;
    result.cases.push_back(CaseResult{sc.sweep_value, std::move(run.series), seconds});
  }

  Json& r = result.report;
  detail::report_header(r, "lumped", first.name, first.description, first.source, result.solve_seconds);
  r["solve_cpu_seconds"] = solve_cpu_seconds;
  r["parameters"] = parameters;
  if (first.sweep) {
    Json s = Json::object();
    s["parameter"] = first.sweep->parameter;
    s["column"] = first.sweep->column;
    s["values"] = Json(first.sweep->values);
    s["note"] = "parameters are those of the first case; the swept key takes each case's value";
    r["sweep"] = s;
  } else {
    r["sweep"] = nullptr;
  }
  r["columns"] = Json(columns);
  r["cases"] = cases_json;
  r["warnings"] = Json(result.warnings);
  return result;
}

}  // namespace bristle::io
