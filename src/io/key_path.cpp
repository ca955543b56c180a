// Key paths of the lumped kind (key_path.hpp): get, set with the reader's rules, the list of settable keys
// and their documentation.
#include "bristle/io/key_path.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <type_traits>

#include "bristle/core/error.hpp"
#include "bristle/core/schema.hpp"
#include "bristle/rheology/contact_pair.hpp"
#include "bristle/rheology/rheology.hpp"

namespace bristle::io {

namespace {

using laws::LawKind;
using rheology::RheologyKind;
using contact::DriveKind;
using contact::SignalKind;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr std::size_t kMaxOutputTimes = 10'000'001;  // as the reader (lumped.cpp)

// ---- the path ------------------------------------------------------------------------------------

/// "a.b.c[i]": up to three components, an optional index on the last.
struct Path {
  std::string_view part[3];
  int size = 0;
  long index = -1;  // -1: none
};

std::optional<Path> split(std::string_view key) {
  Path p;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = key.find('.', start);
    if (p.size == 3) return std::nullopt;
    p.part[p.size++] = key.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  std::string_view& last = p.part[p.size - 1];
  if (const std::size_t open = last.find('['); open != std::string_view::npos) {
    if (last.back() != ']' || open + 2 > last.size() - 1 + 1) return std::nullopt;
    const std::string_view digits = last.substr(open + 1, last.size() - open - 2);
    if (digits.empty() || digits.size() > 6) return std::nullopt;
    long i = 0;
    for (char ch : digits) {
      if (ch < '0' || ch > '9') return std::nullopt;
      i = 10 * i + (ch - '0');
    }
    p.index = i;
    last = last.substr(0, open);
  }
  for (int i = 0; i < p.size; ++i)
    if (p.part[i].empty() || p.part[i].find('[') != std::string_view::npos) return std::nullopt;
  return p;
}

// ---- what a path resolves to -----------------------------------------------------------------------

/// The reader's rule for the value (lumped.cpp, toml_reader.cpp and the library's validate()).
enum class Rule { finite, finite_or_inf, positive, non_negative, open_unit, integer };

/// What setting the value also does (derived quantities, cross-checks).
enum class Hook {
  none,
  law,          // LawParams::validate("law"); isotropic: axis2 follows axis1
  dahl_mu,      // Dahl: mu_s = mu_d
  body_k0,      // body1.k0 under pair.s: body2.k0 follows
  gkv_c,        // K_i = C_i / tau_i when given by tau (paper 1, eq. 8)
  gkv_tau,
  gm_k,         // C_i = K_i tau_i when given by tau (paper 1, eq. 10)
  gm_tau,
  pair_s,       // body2.k0 = body1.k0 (1 - s)/s (errata §5)
  bench,        // BenchParams::validate("bench")
  time_span,    // t_start_s, t_end_s: t_end > t_start, output spacing re-derived
  output_dt,
  outputs,
  rtol,         // < 1
  max_steps,
};

enum class Status { ok, unknown, not_applicable, derived, not_scalar, bad_index };

template <class Sc>
struct Target {
  static constexpr bool kConst = std::is_const_v<Sc>;
  using D = std::conditional_t<kConst, const double, double>;
  using M = std::conditional_t<kConst, const Mat2, Mat2>;
  using S = std::conditional_t<kConst, const laws::StribeckParams, laws::StribeckParams>;
  Status status = Status::unknown;
  D* d = nullptr;            // a number (or a vector component)
  M* m = nullptr;            // an isotropic matrix k I
  Rule rule = Rule::finite;
  Hook hook = Hook::none;
  int body = 0;              // 0, 1: body1, body2
  std::size_t branch = 0;
  S* stribeck = nullptr;     // Hook::dahl_mu: the law whose mu_s = mu_d is set
  bool tau_from_k = false;   // a branch tau given by k (gkv) or c (gm): get computes K^-1 C
  std::string_view context;  // for not_applicable: the section ("law", "body1", "bench.input", ...)
  std::string hint;          // for derived / not_scalar / bad_index: the rest of the message (error path only)
};

bool isotropic(const Mat2& m) { return m(0, 1) == 0.0 && m(1, 0) == 0.0 && m(0, 0) == m(1, 1); }

template <class Sc>
Target<Sc> with(Target<Sc> t, Status s) {
  t.status = s;
  return t;
}

template <class Sc>
Target<Sc> number(typename Target<Sc>::D* d, Rule rule, Hook hook = Hook::none) {
  Target<Sc> t;
  t.status = Status::ok;
  t.d = d;
  t.rule = rule;
  t.hook = hook;
  return t;
}

template <class Sc>
Target<Sc> matrix(typename Target<Sc>::M* m, Rule rule, Hook hook = Hook::none) {
  Target<Sc> t;
  t.status = Status::ok;
  t.m = m;
  t.rule = rule;
  t.hook = hook;
  return t;
}

template <class Sc, class S>
Target<Sc> stribeck_field(S& p, std::string_view f, bool dahl, std::string_view context) {
  using T = Target<Sc>;
  if (dahl) {
    if (f == "mu" || f == "mu_s" || f == "mu_d") {
      Target<Sc> t = number<Sc>(&p.mu_s, Rule::positive, Hook::dahl_mu);
      t.stribeck = &p;
      return t;
    }
  } else {
    if (f == "mu_s") return number<Sc>(&p.mu_s, Rule::positive, Hook::law);
    if (f == "mu_d") return number<Sc>(&p.mu_d, Rule::positive, Hook::law);
    if (f == "v_s") return number<Sc>(&p.v_s, Rule::positive, Hook::law);
    if (f == "delta_s") return number<Sc>(&p.delta_s, Rule::non_negative, Hook::law);
    if (f == "mu_v") return number<Sc>(&p.mu_v, Rule::non_negative, Hook::law);
  }
  T t;
  t.context = context;
  const bool known = f == "mu" || f == "mu_s" || f == "mu_d" || f == "v_s" || f == "delta_s" || f == "mu_v";
  return with(t, known ? Status::not_applicable : Status::unknown);
}

template <class Sc>
Target<Sc> resolve_law(Sc& sc, const Path& p) {
  using T = Target<Sc>;
  auto& l = sc.law;
  T na;
  na.context = "law";
  const LawKind kind = l.kind;
  const bool stribeck = kind == LawKind::dahl || kind == LawKind::lugre || kind == LawKind::frbd;
  const bool dahl = kind == LawKind::dahl;
  const std::string_view f = p.part[1];
  if (p.size == 3) {
    if (f != "axis1" && f != "axis2") return with(na, Status::unknown);
    if (!stribeck || !l.M.anisotropic || p.index >= 0) return with(na, Status::not_applicable);
    return stribeck_field<Sc>(f == "axis1" ? l.M.axis1 : l.M.axis2, p.part[2], dahl, "law");
  }
  if (p.index >= 0) return with(na, Status::unknown);
  const bool known_law = f == "eps" || f == "sigma0" || f == "sigma1" || f == "sigma2" || f == "A" ||
                         f == "beta1" || f == "beta2" || f == "gamma" || f == "angle_rad";
  if (kind == LawKind::frictionless)
    return with(na, known_law || stribeck_field<Sc>(l.M.axis1, f, false, "law").status != Status::unknown
                        ? Status::not_applicable
                        : Status::unknown);
  if (f == "eps") return number<Sc>(&l.eps, Rule::non_negative, Hook::law);
  if (kind == LawKind::bouc_wen) {
    if (f == "A") return number<Sc>(&l.A, Rule::positive, Hook::law);
    if (f == "beta1") return number<Sc>(&l.beta1, Rule::positive, Hook::law);
    if (f == "beta2") return number<Sc>(&l.beta2, Rule::non_negative, Hook::law);
    if (f == "gamma") return number<Sc>(&l.gamma, Rule::finite, Hook::law);
    return with(na, known_law || stribeck_field<Sc>(l.M.axis1, f, false, "law").status != Status::unknown
                        ? Status::not_applicable
                        : Status::unknown);
  }
  if (f == "sigma0" && kind != LawKind::frbd) {
    return number<Sc>(nullptr, Rule::positive, Hook::law);  // optional: get/set handle it
  }
  if (f == "sigma1" && kind == LawKind::lugre) return matrix<Sc>(&l.sigma1, Rule::non_negative, Hook::law);
  if (f == "sigma2" && kind == LawKind::lugre) return matrix<Sc>(&l.sigma2, Rule::non_negative, Hook::law);
  if (f == "angle_rad" && l.M.anisotropic) return number<Sc>(&l.M.angle_rad, Rule::finite, Hook::law);
  if (known_law) return with(na, Status::not_applicable);
  if (l.M.anisotropic) {
    T t = stribeck_field<Sc>(l.M.axis1, f, dahl, "law");
    return with(na, t.status == Status::unknown ? Status::unknown : Status::not_applicable);
  }
  return stribeck_field<Sc>(l.M.axis1, f, dahl, "law");
}

template <class Sc>
Target<Sc> resolve_body(Sc& sc, const Path& p, int which) {
  using T = Target<Sc>;
  auto& b = which == 0 ? sc.body1 : sc.body2;
  T na;
  na.context = which == 0 ? "body1" : "body2";
  na.body = which;
  if (p.size != 2) return with(na, Status::unknown);
  const std::string_view f = p.part[1];
  const bool known = f == "k0" || f == "k_inf" || f == "c" || f == "k" || f == "tau";
  if (!known) return with(na, Status::unknown);
  const RheologyKind kind = b.kind;
  const bool gkv = kind == RheologyKind::gkv, gm = kind == RheologyKind::gm;
  const std::string_view k_key = gm ? "k_inf" : "k0";
  if (kind == RheologyKind::rigid) return with(na, Status::not_applicable);
  if (f == "k0" || f == "k_inf") {
    if (f != k_key || p.index >= 0) return with(na, f != k_key ? Status::not_applicable : Status::unknown);
    T t = matrix<Sc>(&b.k_elastic, Rule::positive, Hook::body_k0);
    t.body = which;
    if (which == 1 && sc.pair_s) {
      t.status = Status::derived;
      t.hint = fmt::format("derived from pair.s = {} (body2.k0 = body1.k0 (1 - s)/s); set pair.s instead",
                           format_value(*sc.pair_s));
    }
    return t;
  }
  if (kind == RheologyKind::elastic) return with(na, Status::not_applicable);
  // Branches.
  const std::size_t n = b.branches.size();
  if (p.index < 0 && n != 1) {
    T t = with(na, Status::bad_index);
    t.hint = fmt::format("body{} has {} branches; give the branch, e.g. body{}.{}[0]", which + 1, n, which + 1, f);
    return t;
  }
  const std::size_t i = p.index < 0 ? 0 : static_cast<std::size_t>(p.index);
  if (i >= n) {
    T t = with(na, Status::bad_index);
    t.hint = fmt::format("body{} has {} branch{} (indices 0 to {})", which + 1, n, n == 1 ? "" : "es", n - 1);
    return t;
  }
  auto& branch = b.branches[i];
  auto& taus = sc.input_form.body_tau[which];
  const bool by_tau = !taus.empty();
  const std::string_view body = which == 0 ? "body1" : "body2";
  T t;
  t.body = which;
  t.branch = i;
  if (f == "tau") {
    t = number<Sc>(by_tau ? &taus[i] : nullptr, Rule::positive, gkv ? Hook::gkv_tau : Hook::gm_tau);
    t.body = which;
    t.branch = i;
    t.tau_from_k = !by_tau;
    if (!by_tau)
      t.status = Status::derived, t.hint = fmt::format("not given: the branches of {} are given by {}; set {}.{}",
                                                       body, gkv ? "k" : "c", body, gkv ? "k" : "c");
    else if (std::isnan(taus[i]))
      t.status = Status::not_scalar;
    return t;
  }
  const bool main = gkv ? f == "c" : f == "k";
  auto& slot = f == "c" ? branch.c : branch.k;
  t = matrix<Sc>(&slot, Rule::positive,
                 main ? (by_tau ? (gkv ? Hook::gkv_c : Hook::gm_k) : Hook::none) : Hook::none);
  t.body = which;
  t.branch = i;
  if (!main && by_tau)
    t.status = Status::derived,
    t.hint = gkv ? fmt::format("derived: K_i = C_i / tau_i (paper 1, eq. 8); set {}.c or {}.tau", body, body)
                 : fmt::format("derived: C_i = K_i tau_i (paper 1, eq. 10); set {}.k or {}.tau", body, body);
  else if (main && by_tau && std::isnan(taus[i]))
    t.status = Status::not_scalar;  // K_i = C_i tau_i^-1 with a matrix tau: not a number
  return t;
}

template <class Sc, class G>
Target<Sc> resolve_signal(G& s, const Path& p, std::string_view context) {
  using T = Target<Sc>;
  T na;
  na.context = context;
  if (p.index >= 0) return with(na, Status::unknown);
  if (p.size == 2) {
    if (s.kind == SignalKind::constant) return number<Sc>(&s.value, Rule::finite, Hook::bench);
    T t = with(na, Status::not_scalar);
    t.hint = fmt::format("is a {} signal; set one of its keys", contact::to_string(s.kind));
    return t;
  }
  const std::string_view f = p.part[2];
  switch (s.kind) {
    case SignalKind::constant:
      if (f == "value") return number<Sc>(&s.value, Rule::finite, Hook::bench);
      break;
    case SignalKind::step:
      if (f == "t0") return number<Sc>(&s.t0, Rule::finite, Hook::bench);
      if (f == "before") return number<Sc>(&s.before, Rule::finite, Hook::bench);
      if (f == "after") return number<Sc>(&s.after, Rule::finite, Hook::bench);
      break;
    case SignalKind::ramp:
      if (f == "t0") return number<Sc>(&s.t0, Rule::finite, Hook::bench);
      if (f == "start") return number<Sc>(&s.start, Rule::finite, Hook::bench);
      if (f == "rate") return number<Sc>(&s.rate, Rule::finite, Hook::bench);
      if (f == "t_end") return number<Sc>(&s.t_end, Rule::finite_or_inf, Hook::bench);
      break;
    case SignalKind::sine:
      if (f == "offset") return number<Sc>(&s.offset, Rule::finite, Hook::bench);
      if (f == "amplitude") return number<Sc>(&s.amplitude, Rule::finite, Hook::bench);
      if (f == "omega") return number<Sc>(&s.omega, Rule::finite, Hook::bench);
      if (f == "phase") return number<Sc>(&s.phase, Rule::finite, Hook::bench);
      break;
    case SignalKind::table: break;
  }
  const bool known = f == "value" || f == "t0" || f == "before" || f == "after" || f == "start" || f == "rate" ||
                     f == "t_end" || f == "offset" || f == "amplitude" || f == "omega" || f == "phase" ||
                     f == "times" || f == "values";
  return with(na, known ? Status::not_applicable : Status::unknown);
}

template <class Sc, class V>
Target<Sc> vector_component(V& v, const Path& p, Hook hook = Hook::none) {
  if (p.index > 1) {
    Target<Sc> t;
    t.status = Status::bad_index;
    t.hint = "a vector has the components [0] (x) and [1] (y)";
    return t;
  }
  return number<Sc>(&v[p.index < 0 ? 0 : p.index], Rule::finite, hook);
}

template <class Sc>
Target<Sc> resolve_bench(Sc& sc, const Path& p) {
  using T = Target<Sc>;
  auto& b = sc.bench;
  T na;
  na.context = "bench";
  const std::string_view f = p.part[1];
  const DriveKind drive = b.drive;
  const bool mass = drive != DriveKind::velocity, spring = drive == DriveKind::spring;
  const bool signal = f == "input" || f == "input_y" || f == "belt" || f == "belt_y" || f == "normal_load";
  if (signal) {
    if ((f == "belt" || f == "belt_y") && !mass) return with(na, Status::not_applicable);
    auto& s = f == "input" ? b.input_x : f == "input_y" ? b.input_y : f == "belt" ? b.belt_x
                                                      : f == "belt_y" ? b.belt_y : b.normal_load;
    const std::string_view context = f == "input" ? "bench.input" : f == "input_y" ? "bench.input_y"
                                     : f == "belt" ? "bench.belt" : f == "belt_y" ? "bench.belt_y"
                                                   : "bench.normal_load";
    if (f == "normal_load" && p.size == 2) return with(na, Status::unknown);  // bench.normal_load_N
    return resolve_signal<Sc>(s, p, context);
  }
  if (p.size != 2) return with(na, Status::unknown);
  if (f == "x0_m") return vector_component<Sc>(b.x0, p);
  if (p.index < 0) {
    if (f == "normal_load_N") {
      if (b.normal_load.kind != SignalKind::constant) return with(na, Status::not_applicable);
      return number<Sc>(&b.normal_load.value, Rule::positive, Hook::bench);
    }
    if (f == "mass_kg" && mass) return number<Sc>(&b.mass_kg, Rule::positive, Hook::bench);
    if (f == "spring_N_per_m" && spring)
      return number<Sc>(&b.spring_N_per_m, Rule::positive, Hook::bench);
  }
  if (f == "v0_mps" && mass) return vector_component<Sc>(b.v0, p);
  if (f == "spring_end0_m" && spring) return vector_component<Sc>(b.spring_end0, p);
  const bool known = f == "mass_kg" || f == "spring_N_per_m" || f == "v0_mps" || f == "spring_end0_m";
  return with(na, known && (p.index < 0 || f == "v0_mps" || f == "spring_end0_m") ? Status::not_applicable
                                                                                  : Status::unknown);
}

template <class Sc>
Target<Sc> resolve(Sc& sc, std::string_view key) {
  using T = Target<Sc>;
  const std::optional<Path> path = split(key);
  if (!path || path->size < 2) return T{};
  const Path& p = *path;
  const std::string_view head = p.part[0];
  if (head == "law") return resolve_law(sc, p);
  if (head == "body1") return resolve_body(sc, p, 0);
  if (head == "body2") return resolve_body(sc, p, 1);
  if (head == "bench") return resolve_bench(sc, p);
  T na;
  na.context = head;
  if (p.size != 2) return T{};
  const std::string_view f = p.part[1];
  if (head == "pair") {
    if (f != "s" || p.index >= 0) return T{};
    if (!sc.pair_s) return with(na, Status::not_applicable);
    T t = number<Sc>(nullptr, Rule::open_unit, Hook::pair_s);
    return t;
  }
  if (head == "time" && p.index < 0) {
    if (f == "t_start_s") return number<Sc>(&sc.time.t_start_s, Rule::finite, Hook::time_span);
    if (f == "t_end_s") return number<Sc>(&sc.time.t_end_s, Rule::finite, Hook::time_span);
    if (f == "output_dt_s") return number<Sc>(&sc.time.output_dt_s, Rule::positive, Hook::output_dt);
    if (f == "outputs") return number<Sc>(nullptr, Rule::integer, Hook::outputs);
    return T{};
  }
  if (head == "integrator" && p.index < 0) {
    auto& o = sc.integrator;
    const bool adaptive = integrate::is_adaptive(o.method);
    if (f == "max_steps") return number<Sc>(nullptr, Rule::integer, Hook::max_steps);
    if (adaptive) {
      if (f == "rtol") return number<Sc>(&o.rtol, Rule::positive, Hook::rtol);
      if (f == "atol") return number<Sc>(&o.atol, Rule::positive);
      if (f == "max_dt_s") return number<Sc>(&o.max_dt, Rule::non_negative);
      if (f == "initial_dt_s") return number<Sc>(&o.initial_dt, Rule::non_negative);
    } else if (f == "dt_s") {
      return number<Sc>(&o.dt, Rule::positive);
    }
    const bool known = f == "rtol" || f == "atol" || f == "max_dt_s" || f == "initial_dt_s" || f == "dt_s";
    return with(na, known ? Status::not_applicable : Status::unknown);
  }
  if (head == "initial" && f == "f") {
    if (sc.initial.steady) return with(na, Status::not_applicable);
    return vector_component<Sc>(sc.initial.f, p);
  }
  return T{};
}

// ---- errors ------------------------------------------------------------------------------------------

std::string context_of(const LumpedScenario& sc, std::string_view context) {
  if (context == "law") return fmt::format("law.type = \"{}\"", laws::to_string(sc.law.kind));
  if (context == "body1") return fmt::format("body1.type = \"{}\"", rheology::to_string(sc.body1.kind));
  if (context == "body2") return fmt::format("body2.type = \"{}\"", rheology::to_string(sc.body2.kind));
  if (context == "bench") return fmt::format("bench.drive = \"{}\"", contact::to_string(sc.bench.drive));
  if (context == "integrator")
    return fmt::format("integrator.method = \"{}\"", integrate::to_string(sc.integrator.method));
  if (context == "initial") return "initial.steady = true";
  if (context == "pair") return "this scenario (no [pair]: body2.k0 is given directly)";
  const contact::Signal& s = context == "bench.input"     ? sc.bench.input_x
                             : context == "bench.input_y" ? sc.bench.input_y
                             : context == "bench.belt"    ? sc.bench.belt_x
                             : context == "bench.belt_y"  ? sc.bench.belt_y
                                                          : sc.bench.normal_load;
  return fmt::format("{}.type = \"{}\"", context, contact::to_string(s.kind));
}

template <class Sc>
[[noreturn]] void fail(const LumpedScenario& sc, std::string_view key, const Target<Sc>& t) {
  const std::vector<std::string> keys = numeric_keys(sc);
  switch (t.status) {
    case Status::ok:
    case Status::unknown: {
      const std::string near = nearest_word(key, keys);
      if (!near.empty()) throw InvalidInput(fmt::format("unknown key \"{}\"; did you mean \"{}\"?", key, near));
      throw InvalidInput(fmt::format("unknown key \"{}\" (numeric keys: {})", key, fmt::join(keys, ", ")));
    }
    case Status::not_applicable: {
      std::vector<std::string> here;
      const std::string prefix = std::string(t.context) + ".";
      for (const auto& k : keys)
        if (k.compare(0, prefix.size(), prefix) == 0) here.push_back(k);
      throw InvalidInput(fmt::format("key \"{}\" does not apply to {} (numeric keys here: {})", key,
                                     context_of(sc, t.context), here.empty() ? "none" : fmt::format("{}", fmt::join(here, ", "))));
    }
    case Status::derived: throw InvalidInput(fmt::format("{}: {}", key, t.hint));
    case Status::not_scalar:
      throw InvalidInput(fmt::format("{}: {}", key,
                                     t.hint.empty() ? "is a matrix (or derived from one); only an isotropic value "
                                                      "k I can be read or set as a number"
                                                    : t.hint));
    case Status::bad_index: throw InvalidInput(fmt::format("{}: {}", key, t.hint));
  }
  throw InvalidInput(fmt::format("unknown key \"{}\"", key));
}

[[noreturn]] void not_isotropic(std::string_view key, const Mat2& m) {
  throw InvalidInput(fmt::format("{} = {}: is a matrix; only an isotropic value k I can be read or set as a number",
                                 key, format_matrix(m)));
}

void check_rule(std::string_view key, Rule rule, double v) {
  switch (rule) {
    case Rule::finite: require_finite(key, v); break;
    case Rule::finite_or_inf:
      if (!std::isinf(v)) require_finite(key, v);
      break;
    case Rule::positive: require_positive(key, v); break;
    case Rule::non_negative: require_non_negative(key, v); break;
    case Rule::open_unit: require_open_interval(key, v, 0.0, 1.0); break;
    case Rule::integer:
      require_finite(key, v);
      if (!(v == std::trunc(v) && std::abs(v) < 9e15))
        throw InvalidInput(fmt::format("{} = {}: must be an integer", key, format_value(v)));
      break;
  }
}

/// The output spacing as the reader derives it (lumped.cpp, parse_time), with its checks.
void derive_output_dt(const LumpedInputForm& form, TimeGrid& g) {
  if (!(g.t_end_s > g.t_start_s))
    throw InvalidInput(fmt::format("time.t_end_s = {}: must be > time.t_start_s = {}", format_value(g.t_end_s),
                                   format_value(g.t_start_s)));
  const double span = g.t_end_s - g.t_start_s;
  if (form.time_outputs > 0) {
    g.output_dt_s = span / static_cast<double>(form.time_outputs - 1);
  } else if (form.time_output_dt_given) {
    const double count = std::ceil(span / g.output_dt_s) + 1.0;
    if (count > static_cast<double>(kMaxOutputTimes))
      throw InvalidInput(fmt::format("time.output_dt_s = {}: gives {} output times; at most {} are allowed",
                                     format_value(g.output_dt_s), format_value(count), kMaxOutputTimes));
  } else {
    g.output_dt_s = span / 1000.0;
  }
}

/// LumpedScenario::validate()'s check of a steady initial state (the only whole-scenario check a number
/// can break), run after a law, bench or time value changed.
void check_steady(const LumpedScenario& sc, Hook hook) {
  if (!sc.initial.steady) return;
  if (hook == Hook::law || hook == Hook::dahl_mu || hook == Hook::bench || hook == Hook::time_span ||
      hook == Hook::body_k0 || hook == Hook::gkv_c || hook == Hook::gkv_tau || hook == Hook::gm_k ||
      hook == Hook::gm_tau || hook == Hook::pair_s)
    sc.validate();
}

// ---- documentation -----------------------------------------------------------------------------------

std::string_view signal_unit(const LumpedScenario& sc, std::string_view key) {
  if (key.rfind("bench.normal_load", 0) == 0) return "N";
  if (key.rfind("bench.belt", 0) == 0) return "m/s";
  return sc.bench.drive == DriveKind::force ? "N" : "m/s";
}

void add_signal_keys(std::vector<std::string>& out, const contact::Signal& s, std::string_view prefix) {
  const auto add = [&](std::string_view f) { out.push_back(fmt::format("{}.{}", prefix, f)); };
  switch (s.kind) {
    case SignalKind::constant: add("value"); break;
    case SignalKind::step: add("t0"), add("before"), add("after"); break;
    case SignalKind::ramp: add("t0"), add("start"), add("rate"), add("t_end"); break;
    case SignalKind::sine: add("offset"), add("amplitude"), add("omega"), add("phase"); break;
    case SignalKind::table: break;
  }
}

}  // namespace

std::vector<std::string> numeric_keys(const LumpedScenario& sc) {
  std::vector<std::string> out;
  const auto add = [&](std::string k) { out.push_back(std::move(k)); };
  const auto add_if_iso = [&](std::string k, const Mat2& m) {
    if (isotropic(m)) out.push_back(std::move(k));
  };
  // [law]
  const laws::LawParams& l = sc.law;
  if (l.kind != LawKind::frictionless) add("law.eps");
  if (l.kind == LawKind::bouc_wen) {
    for (const char* k : {"law.A", "law.beta1", "law.beta2", "law.gamma"}) add(k);
  } else if (l.kind != LawKind::frictionless) {
    const bool dahl = l.kind == LawKind::dahl;
    const auto stribeck = [&](const std::string& prefix) {
      if (dahl) return add(prefix + "mu");
      for (const char* k : {"mu_s", "mu_d", "v_s", "delta_s", "mu_v"}) add(prefix + k);
    };
    if (l.M.anisotropic) {
      stribeck("law.axis1.");
      stribeck("law.axis2.");
      add("law.angle_rad");
    } else {
      stribeck("law.");
    }
    if (l.kind != LawKind::frbd && (!l.sigma0 || isotropic(*l.sigma0))) add("law.sigma0");
    if (l.kind == LawKind::lugre) {
      add_if_iso("law.sigma1", l.sigma1);
      add_if_iso("law.sigma2", l.sigma2);
    }
  }
  // [body1], [body2], [pair]
  for (int which = 0; which < 2; ++which) {
    const rheology::RheologyParams& b = which == 0 ? sc.body1 : sc.body2;
    const std::string name = which == 0 ? "body1" : "body2";
    if (b.kind == RheologyKind::rigid) continue;
    if (!(which == 1 && sc.pair_s)) add_if_iso(name + (b.kind == RheologyKind::gm ? ".k_inf" : ".k0"), b.k_elastic);
    const auto& taus = sc.input_form.body_tau[which];
    const bool gkv = b.kind == RheologyKind::gkv;
    for (std::size_t i = 0; i < b.branches.size(); ++i) {
      const std::string index = b.branches.size() == 1 ? "" : fmt::format("[{}]", i);
      const Mat2& main = gkv ? b.branches[i].c : b.branches[i].k;
      if (!taus.empty()) {
        if (std::isnan(taus[i])) continue;
        add_if_iso(name + (gkv ? ".c" : ".k") + index, main);
        add(name + ".tau" + index);
      } else {
        add_if_iso(name + (gkv ? ".c" : ".k") + index, main);
        add_if_iso(name + (gkv ? ".k" : ".c") + index, gkv ? b.branches[i].k : b.branches[i].c);
      }
    }
  }
  if (sc.pair_s) add("pair.s");
  // [bench]
  const contact::BenchParams& b = sc.bench;
  const bool mass = b.drive != DriveKind::velocity, spring = b.drive == DriveKind::spring;
  if (b.normal_load.kind == SignalKind::constant) add("bench.normal_load_N");
  else add_signal_keys(out, b.normal_load, "bench.normal_load");
  if (mass) add("bench.mass_kg");
  if (spring) add("bench.spring_N_per_m");
  add_signal_keys(out, b.input_x, "bench.input");
  add_signal_keys(out, b.input_y, "bench.input_y");
  if (mass) {
    add_signal_keys(out, b.belt_x, "bench.belt");
    add_signal_keys(out, b.belt_y, "bench.belt_y");
  }
  add("bench.x0_m[0]"), add("bench.x0_m[1]");
  if (mass) add("bench.v0_mps[0]"), add("bench.v0_mps[1]");
  if (spring) add("bench.spring_end0_m[0]"), add("bench.spring_end0_m[1]");
  // [time], [integrator], [initial]
  add("time.t_start_s");
  add("time.t_end_s");
  if (!sc.input_form.time_outputs) add("time.output_dt_s");
  if (!sc.input_form.time_output_dt_given) add("time.outputs");
  if (integrate::is_adaptive(sc.integrator.method)) {
    for (const char* k : {"integrator.rtol", "integrator.atol", "integrator.max_dt_s", "integrator.initial_dt_s"}) add(k);
  } else {
    add("integrator.dt_s");
  }
  add("integrator.max_steps");
  if (!sc.initial.steady) add("initial.f[0]"), add("initial.f[1]");
  return out;
}

KeyInfo key_info(const LumpedScenario& sc, std::string_view key) {
  const Target<const LumpedScenario> t = resolve(sc, key);
  if (t.status == Status::unknown || t.status == Status::not_applicable || t.status == Status::bad_index)
    fail(sc, key, t);
  // The documentation is the schema's (core/schema.hpp): the field at the path without its index; a
  // constant signal given as a number is its `value`.
  std::string path(key.substr(0, key.find('[')));
  schema::Finder<true> finder(path);
  serialize(finder, sc);
  if (finder.found() && finder.field().type == schema::Type::signal) {
    path += ".value";
    finder = schema::Finder<true>(path);
    serialize(finder, sc);
  }
  if (!finder.found()) throw InvalidInput(fmt::format("key \"{}\": not in the parameter schema (a bug)", key));
  const schema::Field& f = finder.field();
  KeyInfo info;
  info.key = std::string(key);
  std::string unit(f.unit);
  if (const std::size_t at = unit.find("(signal)"); at != std::string::npos) unit.replace(at, 8, signal_unit(sc, key));
  info.unit = unit;
  info.doc = std::string(f.doc);
  info.equation = std::string(f.equation);
  info.default_value = std::string(f.default_value);
  info.range = f.range.text();
  info.min = f.range.min();
  info.max = f.range.max();
  info.log_scale = f.log_scale;
  return info;
}

double get_number(const LumpedScenario& sc, std::string_view key) {
  const Target<const LumpedScenario> t = resolve(sc, key);
  if (t.tau_from_k) {
    // tau of branches given by k/c: tau = K^-1 C
    const rheology::Branch& b = (t.body == 0 ? sc.body1 : sc.body2).branches[t.branch];
    if (!isotropic(b.k) || !isotropic(b.c)) not_isotropic(key, b.k.inverse() * b.c);
    return b.c(0, 0) / b.k(0, 0);
  }
  if (t.status != Status::ok && t.status != Status::derived) fail(sc, key, t);
  if (t.d) return *t.d;
  if (t.m) {
    if (!isotropic(*t.m)) not_isotropic(key, *t.m);
    return (*t.m)(0, 0);
  }
  switch (t.hook) {
    case Hook::pair_s: return *sc.pair_s;
    case Hook::outputs:
      return sc.input_form.time_outputs > 0 ? static_cast<double>(sc.input_form.time_outputs)
                                            : static_cast<double>(sc.time.times().size());
    case Hook::max_steps: return static_cast<double>(sc.integrator.max_steps);
    case Hook::law: {  // law.sigma0: as given, else the pair's static stiffness K_static
      const Mat2 s0 = sc.law.sigma0 ? *sc.law.sigma0 : rheology::ContactPair(sc.body1, sc.body2).K_static();
      if (!isotropic(s0)) not_isotropic(key, s0);
      return s0(0, 0);
    }
    default: break;
  }
  fail(sc, key, t);
}

void set_number(LumpedScenario& sc, std::string_view key, double value) {
  Target<LumpedScenario> t = resolve(sc, key);
  if (t.status != Status::ok) fail(sc, key, t);
  check_rule(key, t.rule, value);
  const Mat2 iso = value * Mat2::Identity();
  switch (t.hook) {
    case Hook::none:
      if (t.d) *t.d = value;
      else if (!isotropic(*t.m)) not_isotropic(key, *t.m);
      else *t.m = iso;
      return;
    case Hook::law: {
      if (t.m && !isotropic(*t.m)) not_isotropic(key, *t.m);
      if (!t.d && !t.m && sc.law.sigma0 && !isotropic(*sc.law.sigma0)) not_isotropic(key, *sc.law.sigma0);
      const laws::LawParams old = sc.law;
      if (t.d) *t.d = value;
      else if (t.m) *t.m = iso;
      else sc.law.sigma0 = iso;  // law.sigma0
      if (!sc.law.M.anisotropic) sc.law.M.axis2 = sc.law.M.axis1;  // the reader's isotropic M (lumped.cpp)
      try {
        sc.law.validate("law");
        check_steady(sc, t.hook);
      } catch (...) {
        sc.law = old;
        throw;
      }
      return;
    }
    case Hook::dahl_mu: {
      const laws::LawParams old = sc.law;
      t.stribeck->mu_s = t.stribeck->mu_d = value;
      if (!sc.law.M.anisotropic) sc.law.M.axis2 = sc.law.M.axis1;
      try {
        check_steady(sc, t.hook);
      } catch (...) {
        sc.law = old;
        throw;
      }
      return;
    }
    default: break;
  }
  // Bodies, pair, bench, time, integrator: save what may change, restore on error.
  rheology::RheologyParams& body = t.body == 0 ? sc.body1 : sc.body2;
  const Mat2 old_k2 = sc.body2.k_elastic;
  const Mat2 old_k1 = sc.body1.k_elastic;
  const std::optional<double> old_s = sc.pair_s;
  const TimeGrid old_time = sc.time;
  rheology::Branch old_branch;
  double old_tau = 0.0;
  if (!body.branches.empty() && t.branch < body.branches.size()) old_branch = body.branches[t.branch];
  std::vector<double>& taus = sc.input_form.body_tau[t.body];
  if (t.branch < taus.size()) old_tau = taus[t.branch];
  const double old_d = t.d ? *t.d : 0.0;
  const std::int64_t old_outputs = sc.input_form.time_outputs;
  const bool old_dt_given = sc.input_form.time_output_dt_given;
  const rheology::RheologyParams old_body1 = sc.body1, old_body2 = sc.body2;  // eq. 58 re-derives branches
  try {
    if (!body.eq58_tau.empty() && t.hook == Hook::gkv_c)
      throw InvalidInput(fmt::format("{}: set by eq. 58 (body{}.c = \"eq58\": c_i = tau_i k0); set body{}.tau or the "
                                     "stiffness instead",
                                     key, t.body + 1, t.body + 1));
    if (!body.eq58_tau.empty() && t.hook == Hook::gkv_tau) body.eq58_tau[t.branch] = value;
    switch (t.hook) {
      case Hook::body_k0:
        if (!isotropic(*t.m)) not_isotropic(key, *t.m);
        *t.m = iso;
        if (t.body == 0 && sc.pair_s)
          sc.body2.k_elastic = rheology::substrate_stiffness_from_s("pair.s", *sc.pair_s, value) * Mat2::Identity();
        break;
      case Hook::pair_s:
        sc.body2.k_elastic =
            rheology::substrate_stiffness_from_s("pair.s", value, sc.body1.k_elastic(0, 0)) * Mat2::Identity();
        sc.pair_s = value;
        break;
      case Hook::gkv_c: {  // K = C tau^-1 with tau as written (a scalar): lumped.cpp
        if (!isotropic(*t.m)) not_isotropic(key, *t.m);
        rheology::Branch& b = body.branches[t.branch];
        b.c = iso;
        b.k = Mat2(b.c / taus[t.branch]);
        break;
      }
      case Hook::gkv_tau: {
        rheology::Branch& b = body.branches[t.branch];
        b.k = Mat2(b.c / value);
        taus[t.branch] = value;
        break;
      }
      case Hook::gm_k: {  // C = K tau
        if (!isotropic(*t.m)) not_isotropic(key, *t.m);
        rheology::Branch& b = body.branches[t.branch];
        b.k = iso;
        b.c = Mat2(b.k * taus[t.branch]);
        break;
      }
      case Hook::gm_tau: {
        rheology::Branch& b = body.branches[t.branch];
        b.c = Mat2(b.k * value);
        taus[t.branch] = value;
        break;
      }
      case Hook::bench:
        *t.d = value;
        sc.bench.validate("bench");
        break;
      case Hook::time_span:
        *t.d = value;
        derive_output_dt(sc.input_form, sc.time);
        break;
      case Hook::output_dt:
        if (sc.input_form.time_outputs > 0)
          throw InvalidInput("key \"time.outputs\" cannot be combined with time.output_dt_s; give one of them");
        *t.d = value;
        sc.input_form.time_output_dt_given = true;
        derive_output_dt(sc.input_form, sc.time);
        break;
      case Hook::outputs:
        if (sc.input_form.time_output_dt_given)
          throw InvalidInput("key \"time.outputs\" cannot be combined with time.output_dt_s; give one of them");
        if (value < 2.0) throw InvalidInput(fmt::format("time.outputs = {}: must be >= 2 (both ends are output)", format_value(value)));
        if (value > static_cast<double>(kMaxOutputTimes))
          throw InvalidInput(fmt::format("time.outputs = {}: at most {} output times are allowed", format_value(value), kMaxOutputTimes));
        sc.input_form.time_outputs = static_cast<std::int64_t>(value);
        derive_output_dt(sc.input_form, sc.time);
        break;
      case Hook::rtol:
        if (!(value < 1.0)) throw InvalidInput(fmt::format("{} = {}: must be < 1", key, format_value(value)));
        *t.d = value;
        break;
      case Hook::max_steps:
        if (value < 1.0) throw InvalidInput(fmt::format("{} = {}: must be >= 1", key, format_value(value)));
        sc.integrator.max_steps = static_cast<long>(value);
        break;
      default: break;
    }
    rheology::apply_eq58(sc.body1, "body1");  // c = "eq58": the dampings follow the k0 and tau now set
    rheology::apply_eq58(sc.body2, "body2");
    check_steady(sc, t.hook);
  } catch (...) {
    sc.body1 = old_body1;
    sc.body2 = old_body2;
    sc.body1.k_elastic = old_k1;
    sc.body2.k_elastic = old_k2;
    sc.pair_s = old_s;
    sc.time = old_time;
    if (t.branch < body.branches.size()) body.branches[t.branch] = old_branch;
    if (t.branch < taus.size()) taus[t.branch] = old_tau;
    if (t.d) *t.d = old_d;
    sc.input_form.time_outputs = old_outputs;
    sc.input_form.time_output_dt_given = old_dt_given;
    throw;
  }
}

}  // namespace bristle::io
