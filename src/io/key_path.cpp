// Key paths (key_path.hpp) of every kind that has them: one mechanism on the schema's Finder walk
// (core/schema.hpp). The field at a path is found by walking the kind's serialize() over the parsed
// scenario itself (no copy, no carrier): its storage, its range and whether it applies come from the
// schema. The few fields whose TOML form differs from their storage (a.declared: Dahl's mu, sigma0, the
// branch lists, pair.s, time.outputs, normal_load_N and the kind's own) are converted here, as the reader
// converts them; then the table's and the kind's cross-checks run, and a failure restores what was changed.
#include "bristle/io/key_path.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <tuple>
#include <type_traits>
#include <utility>

#include "bristle/core/error.hpp"
#include "bristle/core/schema.hpp"
#include "bristle/io/directional_scenario.hpp"
#include "bristle/io/line_scenario.hpp"
#include "bristle/io/patch_scenario.hpp"
#include "bristle/io/structures_scenario.hpp"
#include "bristle/rheology/contact_pair.hpp"
#include "bristle/rheology/rheology.hpp"
#include "scenario_internal.hpp"

namespace bristle::io {

namespace {

using laws::LawKind;
using rheology::RheologyKind;
using schema::Field;
using schema::Type;


/// A kind with the contact's tables ([law], [body1], [body2], [pair]) and their derivations (tau, pair.s, eq. 58);
/// the directional kinds have none.
template <class Sc>
concept WithContact = requires(Sc& sc) {
  sc.law;
  sc.body1;
};

bool starts_with(std::string_view s, std::string_view prefix) { return s.compare(0, prefix.size(), prefix) == 0; }
bool isotropic(const Mat2& m) { return m(0, 1) == 0.0 && m(1, 0) == 0.0 && m(0, 0) == m(1, 1); }

[[noreturn]] void not_isotropic(std::string_view key, const Mat2& m) {
  throw InvalidInput(fmt::format("{} = {}: is a matrix; only an isotropic value k I can be read or set as a number",
                                 key, format_matrix(m)));
}

/// A vector read by its bare key (bench.x0_m): its x, as the TOML number form (x, 0) writes it, only when y is 0;
/// otherwise the number would hide y, and setting it back (to (x, 0)) would change the scenario.
void require_x_only(std::string_view key, const Vec2* v) {
  if (v && (*v)[1] != 0.0)
    throw InvalidInput(fmt::format("{} = [{}, {}]: is a vector with a y component; read its components, {}[0] (x) and "
                                   "{}[1] (y)",
                                   key, format_value((*v)[0]), format_value((*v)[1]), key, key));
}

// ---- the path ------------------------------------------------------------------------------------

/// "a.b.c[i]": two or three components, an optional index on the last.
struct Path {
  std::string_view name;  // without the index
  long index = -1;        // -1: none
  bool ok = false;
};

Path split(std::string_view key) {
  Path p{key};
  if (const std::size_t open = key.find('['); open != std::string_view::npos) {
    if (key.back() != ']') return p;
    const std::string_view digits = key.substr(open + 1, key.size() - open - 2);
    if (digits.empty() || digits.size() > 6) return p;
    long i = 0;
    for (char ch : digits) {
      if (ch < '0' || ch > '9') return p;
      i = 10 * i + (ch - '0');
    }
    p.index = i;
    p.name = key.substr(0, open);
  }
  int parts = 1;
  std::size_t start = 0;
  for (std::size_t dot; (dot = p.name.find('.', start)) != std::string_view::npos; start = dot + 1, ++parts)
    if (dot == start) return p;
  if (start == p.name.size() || parts < 2 || parts > 3 || p.name.find('[') != std::string_view::npos) return p;
  p.ok = true;
  return p;
}

// ---- what each kind adds: its context for messages, its declared numbers and its cross-checks -------

/// "law.type = \"lugre\"" for the tables of the contact (every kind), or "" (the kind says).
template <class Sc>
std::string contact_context(const Sc& sc, std::string_view table) {
  if (table == "law") return fmt::format("law.type = \"{}\"", laws::to_string(sc.law.kind));
  if (table == "body1") return fmt::format("body1.type = \"{}\"", rheology::to_string(sc.body1.kind));
  if (table == "body2") return fmt::format("body2.type = \"{}\"", rheology::to_string(sc.body2.kind));
  if (table == "pair") return "this scenario (no [pair]: body2.k0 is given directly)";
  return {};
}

template <class Sc>
struct Kind;

template <>
struct Kind<LumpedScenario> {
  using Sc = LumpedScenario;
  /// A constant signal is listed as "<signal>.value" (and read or set as "<signal>" too); a constant load
  /// is bench.normal_load_N, so bench.normal_load is not a number.
  static constexpr bool kListSignalByName = false;
  static bool signal_by_name(std::string_view name) { return name != "bench.normal_load"; }
  static bool listed(const Sc& sc, std::string_view key) {
    return !(sc.bench.normal_load.kind == contact::SignalKind::constant && starts_with(key, "bench.normal_load."));
  }
  static std::string context(const Sc& sc, std::string_view table) {
    if (std::string c = contact_context(sc, table); !c.empty()) return c;
    if (table == "bench") return fmt::format("bench.drive = \"{}\"", contact::to_string(sc.bench.drive));
    if (table == "integrator")
      return fmt::format("integrator.method = \"{}\"", integrate::to_string(sc.integrator.method));
    if (table == "initial") return "initial.steady = true";
    for (const auto& [s, key] : contact::named_signals(sc.bench))
      if (table == key) return fmt::format("{}.type = \"{}\"", table, contact::to_string(s->kind));
    return {};
  }
  static std::string signal_unit(const Sc& sc, std::string_view key, std::string_view) {
    if (starts_with(key, "bench.normal_load")) return "N";
    if (starts_with(key, "bench.belt")) return "m/s";
    return sc.bench.drive == contact::DriveKind::force ? "N" : "m/s";
  }
  static double* declared(Sc&, std::string_view) { return nullptr; }
  static const double* declared(const Sc&, std::string_view) { return nullptr; }
  /// What the reader derives from the value just set: the textbook form's law, body1 and body2, mapped again by
  /// contact::textbook_model from law.textbook under the load (a key of either). save/restore: what derive changes.
  static void derive(Sc& sc, std::string_view path) {
    if (!sc.textbook || !(starts_with(path, "law.textbook.") || path == "bench.normal_load_N")) return;
    const contact::TextbookModel mapped =
        contact::textbook_model(sc.law.kind, *sc.textbook, sc.bench.normal_load.value, "law.textbook.");
    sc.law = mapped.law;
    sc.body1 = mapped.body1;
    sc.body2 = mapped.body2;
  }
  static contact::TextbookModel save(const Sc& sc) { return {sc.law, sc.body1, sc.body2}; }
  static void restore(Sc& sc, const contact::TextbookModel& saved) {
    sc.law = saved.law;
    sc.body1 = saved.body1;
    sc.body2 = saved.body2;
  }
  /// The reader's whole-scenario checks a number can break: the run's span (a sine's periods over it, the grid, the
  /// integrator options: detail::check_run_span, cheap), and with a steady initial state the whole validate(), which
  /// builds the model (2.5 ms with a 1e6-row table signal: not at every set of a fit's evaluations).
  static void check(const Sc& sc) {
    if (sc.initial.steady) sc.validate();
    else detail::check_run_span(sc);
  }
};

template <class Sc>
struct PatchKind {
  static constexpr bool kListSignalByName = true;  // kinematics.Vr_mps and kinematics.Vr_mps.value
  static bool signal_by_name(std::string_view) { return true; }
  static bool listed(const Sc&, std::string_view) { return true; }
  static std::string context(const Sc& sc, std::string_view table) { return contact_context(sc, table); }
  static std::string signal_unit(const Sc&, std::string_view, std::string_view table_unit) {
    return std::string(table_unit);
  }
  static void check(const Sc& sc) { io::validate(sc); }
};

template <>
struct Kind<PatchMapScenario> : PatchKind<PatchMapScenario> {
  /// The storage of a declared numeric key (a scalar kinematics axis, a stated p_0), or null.
  template <class Sc>
  static auto declared(Sc& sc, std::string_view name) -> decltype(&sc.Vr_mps) {
    if (name == "kinematics.vx_mps") return &sc.vx.values.front();
    if (name == "kinematics.vy_mps" || name == "kinematics.slip_angle_deg") return &sc.lateral.values.front();
    if (name == "kinematics.spin_radps") return &sc.spin.values.front();
    if (name == "patch.peak_pressure_Pa" && sc.patch.peak_pressure_Pa) return &*sc.patch.peak_pressure_Pa;
    return nullptr;
  }
};

template <>
struct Kind<PatchTransientScenario> : PatchKind<PatchTransientScenario> {
  template <class Sc>
  static auto declared(Sc& sc, std::string_view name) -> decltype(&sc.time.t_end_s) {
    if (name == "patch.peak_pressure_Pa" && sc.transient.patch.peak_pressure_Pa)
      return &*sc.transient.patch.peak_pressure_Pa;
    if (name == "patch.width_exponent" && sc.transient.width_exponent) return &*sc.transient.width_exponent;
    return nullptr;
  }
  /// What the reader derives from the value just set: without load.Fz_N, F_z(t) = patch.normal_load_N; a key of
  /// load.Fz_N makes the load given. save/restore: what derive changes, for a set that fails.
  static void derive(PatchTransientScenario& sc, std::string_view path) {
    if (starts_with(path, "load.Fz_N")) sc.Fz_N_given = true;
    if (!sc.Fz_N_given) sc.Fz_N = contact::Signal::constant_value(sc.transient.patch.normal_load_N);
  }
  static auto save(const PatchTransientScenario& sc) { return std::pair(sc.Fz_N, sc.Fz_N_given); }
  static void restore(PatchTransientScenario& sc, const std::pair<contact::Signal, bool>& saved) {
    std::tie(sc.Fz_N, sc.Fz_N_given) = saved;
  }
};

/// The structure kinds: a beam without contact_positions_m touches at l/2 (simply supported) or l (cantilever), the
/// reader's defaults, so the contact follows structure.length_m; then the kind's validate(). The position is
/// restored if a check fails.
template <class Sc>
void check_structure_kind(Sc& sc) {
  StructureSpec& s = sc.structure;
  const std::vector<double> saved = s.beam.contact_positions_m;
  if (s.contact_by_default)
    s.beam.contact_positions_m = {s.kind == structures::StructureKind::simply_supported_beam ? 0.5 * s.beam.length_m
                                                                                             : s.beam.length_m};
  try {
    io::validate(sc);
  } catch (...) {
    s.beam.contact_positions_m = saved;
    throw;
  }
}

template <>
struct Kind<StructureStickSlipScenario> {
  using Sc = StructureStickSlipScenario;
  static constexpr bool kListSignalByName = false;  // no signals
  static bool signal_by_name(std::string_view) { return false; }
  static bool listed(const Sc&, std::string_view) { return true; }
  static std::string context(const Sc& sc, std::string_view table) {
    const bool contact = table == "law" || table == "body1" || table == "body2" || table == "pair" ||
                         starts_with(table, "law.");
    if (contact && !sc.dynamic) return "[friction] (set-valued Coulomb-Stribeck; [law] with [body1] is a dynamic law)";
    if (table == "friction" && sc.dynamic)
      return fmt::format("a dynamic [law] (law.type = \"{}\"; [friction] is the set-valued Coulomb-Stribeck law)",
                         laws::to_string(sc.law.kind));
    if (table == "model") return fmt::format("model.type = \"{}\"", sc.modal ? "modal" : "reduced");
    if (table == "structure") return fmt::format("structure.type = \"{}\"", structures::to_string(sc.structure.kind));
    return contact_context(sc, table);
  }
  static std::string signal_unit(const Sc&, std::string_view, std::string_view table_unit) {
    return std::string(table_unit);
  }
  template <class S>
  static auto declared(S&, std::string_view) -> decltype(&std::declval<S&>().dt_s) {
    return nullptr;
  }
  static void check(Sc& sc) { check_structure_kind(sc); }
};

/// A kind without the contact's tables ([law], [body1], [body2], [pair]) and without signals: its numbers are set in
/// place (set_in_place), nothing derived from them unless the kind says so (save/restore/on_set), then check(sc).
template <class Sc>
struct ContactlessKind {
  static constexpr bool kListSignalByName = false;  // no signals
  static bool signal_by_name(std::string_view) { return false; }
  static bool listed(const Sc&, std::string_view) { return true; }
  static std::string signal_unit(const Sc&, std::string_view, std::string_view table_unit) {
    return std::string(table_unit);
  }
  template <class S>
  static auto declared(S&, std::string_view) -> std::conditional_t<std::is_const_v<S>, const double*, double*> {
    return nullptr;  // the declared keys are lists and texts
  }
  static void check(Sc& sc) { io::validate(sc); }
  /// What a set changes besides the key (restored when a check fails), and how: nothing here.
  struct Extra {};
  static Extra save(const Sc&) { return Extra{}; }
  static void restore(Sc&, const Extra&) {}
  static void on_set(Sc&, std::string_view) {}
};

/// The directional kinds: the choice of a table ([profile] kind, [mechanism] kind) says why a key does not apply;
/// io::validate(sc) runs the reader's cross-checks.
template <class Sc>
struct DirectionalKind : ContactlessKind<Sc> {
  static std::string context(const Sc& sc, std::string_view table) {
    if (table == "profile") return fmt::format("profile.kind = \"{}\"", directional::to_string(sc.profile.kind));
    if (table == "mechanism")
      return fmt::format("mechanism.kind = \"{}\"", directional::to_string(sc.mechanism.kind));
    return {};
  }
};

/// range.from_rad / to_rad set are given (sampled, checked against the admissible range); one not given follows the
/// admissible bound, which validate() re-derives. What a failed set restores besides the key: both ends and flags.
template <>
struct Kind<DirectionalCoefficientsScenario> : DirectionalKind<DirectionalCoefficientsScenario> {
  struct Extra {
    double from_rad, to_rad;
    bool from_included, to_included;
  };
  static Extra save(const DirectionalCoefficientsScenario& sc) {
    return Extra{sc.from_rad, sc.to_rad, sc.from_included, sc.to_included};
  }
  static void restore(DirectionalCoefficientsScenario& sc, const Extra& e) {
    sc.from_rad = e.from_rad;
    sc.to_rad = e.to_rad;
    sc.from_included = e.from_included;
    sc.to_included = e.to_included;
  }
  /// An end not given that is set to its admissible bound (what get reads) stays the default: set(k, get(k)) is
  /// a no-op; any other value makes it given.
  static void on_set(DirectionalCoefficientsScenario& sc, std::string_view path) {
    if (path != "range.from_rad" && path != "range.to_rad") return;
    const bool from = path == "range.from_rad";
    bool& given = from ? sc.from_included : sc.to_included;
    if (given) return;
    const auto [lo, hi] = sc.admissible();
    given = (from ? sc.from_rad : sc.to_rad) != (from ? lo : hi);
  }
};
template <>
struct Kind<DirectionalLoopScenario> : DirectionalKind<DirectionalLoopScenario> {};
template <>
struct Kind<DirectionalCrawlerScenario> : DirectionalKind<DirectionalCrawlerScenario> {};

/// The line kinds: as the patch kinds; their cross-checks also re-derive s, n1, n2 and the case columns.
template <class Sc>
struct LineKind : PatchKind<Sc> {
  static void check(Sc& sc) { rederive_and_validate(sc); }
};

template <>
struct Kind<LineSteadyScenario> : LineKind<LineSteadyScenario> {
  /// A map of one velocity: kinematics.V_mps (sliding) or kinematics.vx_mps (rolling) is that number.
  template <class Sc>
  static auto declared(Sc& sc, std::string_view name) -> decltype(&sc.Vr_mps) {
    if ((name == "kinematics.V_mps" || name == "kinematics.vx_mps") && sc.velocities.size() == 1)
      return &sc.velocities.front();
    return nullptr;
  }
};

template <>
struct Kind<LineTransientScenario> : LineKind<LineTransientScenario> {
  template <class Sc>
  static auto declared(Sc&, std::string_view) -> decltype(&std::declval<Sc&>().time.t_end_s) {
    return nullptr;
  }
};

/// kind = "structure_kernel": the structure's kind says why a key does not apply; a grid without tau_start_s has
/// no such key to set; check_structure_kind moves a beam's default contact with its length, then validates.
template <>
struct Kind<StructureKernelScenario> : ContactlessKind<StructureKernelScenario> {
  static std::string context(const StructureKernelScenario& sc, std::string_view table) {
    if (table == "kernel" && sc.tau_start_s < 0.0)
      return "a grid without kernel.tau_start_s (the grid (0, kernel.tau_end_s]; give tau_start_s in the file to set "
             "it)";
    if (table == "structure") return fmt::format("structure.type = \"{}\"", structures::to_string(sc.structure.kind));
    return {};
  }
  static void check(StructureKernelScenario& sc) { check_structure_kind(sc); }
};

// ---- what a path resolves to -----------------------------------------------------------------------

enum class Status { ok, unknown, not_applicable, derived, not_scalar, bad_index, not_number };

/// How the value is stored and what setting it also changes.
enum class Hook {
  plain,      // the number, matrix k I or integer itself
  vector_x,   // a vector without index: [value, 0], as in TOML
  dahl_mu,    // Dahl: mu_s = mu_d
  sigma0,     // optional; read: the pair's static stiffness K_static when not given
  body_k0,    // body1.k0 under pair.s: body2.k0 follows
  branch,     // a branch's c or k (by tau: the other follows, paper 1 eqs. 8 and 10)
  tau,        // a branch's tau
  pair_s,     // body2.k0 = body1.k0 (1 - s)/s (errata §5)
  outputs,    // time.outputs
};

template <bool Const>
struct Target {
  template <class T>
  using Ptr = std::conditional_t<Const, const T*, T*>;
  Status status = Status::unknown;
  Field field;
  std::string_view path;     // the field's path (a constant signal given by name: "<signal>.value")
  std::string_view table;    // the table holding it ("law", "bench.input"); not_applicable: the one to blame
  Ptr<double> d = nullptr;   // a number (or a vector component)
  Ptr<Mat2> m = nullptr;     // a matrix k I
  Ptr<long> l = nullptr;     // an integer
  Ptr<int> i = nullptr;
  Ptr<Vec2> v = nullptr;     // Hook::vector_x
  Ptr<laws::StribeckParams> stribeck = nullptr;  // Hook::dahl_mu
  Hook hook = Hook::plain;
  int body = 0;              // 0, 1: body1, body2
  std::size_t branch = 0;
  bool gkv = false;          // Hook::branch, tau: a GKV body (else GM)
  bool main = false;         // Hook::branch: the key that goes with tau (gkv: c, gm: k)
  std::string hint;          // derived / not_scalar / bad_index: the rest of the message (error path only)
  std::string storage;       // a constant signal given by name: the path of its value
};

/// The table to name when the field at `path` does not apply: the first table on the way that does not
/// apply, else the one holding the field.
template <class Sc>
std::string_view blame(const Sc& sc, std::string_view path) {
  std::string_view last = path.substr(0, path.find('.'));
  for (std::size_t dot = path.find('.', last.size() + 1); dot != std::string_view::npos;
       dot = path.find('.', dot + 1)) {
    schema::Finder<true> f(path.substr(0, dot));
    serialize(f, sc);
    if (!f.applies()) return last;
    last = path.substr(0, dot);
  }
  return last;
}

template <class Sc>
auto& body_of(Sc& sc, int which) {
  return which == 0 ? sc.body1 : sc.body2;
}

/// body1.c / k / tau: a branch of the body, in the form the file gave (paper 1, eqs. 8-10).
template <bool C, class Sc>
void resolve_branch(Sc& sc, Target<C>& t, const Path& p, std::string_view f) {
  const int which = t.table == "body1" ? 0 : 1;
  auto& b = body_of(sc, which);
  const std::string_view body = t.table;
  const bool gkv = b.kind == RheologyKind::gkv;
  const std::size_t n = b.branches.size();
  if (p.index < 0 && n != 1) {
    t.status = Status::bad_index;
    t.hint = fmt::format("{} has {} branches; give the branch, e.g. {}.{}[0]", body, n, body, f);
    return;
  }
  const std::size_t i = p.index < 0 ? 0 : static_cast<std::size_t>(p.index);
  if (i >= n) {
    t.status = Status::bad_index;
    t.hint = fmt::format("{} has {} branch{} (indices 0 to {})", body, n, n == 1 ? "" : "es", n - 1);
    return;
  }
  auto& taus = sc.input_form.body_tau[which];
  const bool by_tau = !taus.empty();
  t.body = which;
  t.branch = i;
  t.gkv = gkv;
  t.status = Status::ok;
  if (f == "tau") {
    t.hook = Hook::tau;
    if (!by_tau) {
      t.status = Status::derived;
      t.hint = fmt::format("not given: the branches of {} are given by {}; set {}.{}", body, gkv ? "k" : "c", body,
                           gkv ? "k" : "c");
    } else if (std::isnan(taus[i])) {
      t.status = Status::not_scalar;
    } else {
      t.d = &taus[i];
    }
    return;
  }
  t.hook = Hook::branch;
  t.main = gkv ? f == "c" : f == "k";
  t.m = f == "c" ? &b.branches[i].c : &b.branches[i].k;
  if (!t.main && by_tau) {
    t.status = Status::derived;
    t.hint = gkv ? fmt::format("derived: K_i = C_i / tau_i (paper 1, eq. 8); set {}.c or {}.tau", body, body)
                 : fmt::format("derived: C_i = K_i tau_i (paper 1, eq. 10); set {}.k or {}.tau", body, body);
  } else if (t.main && by_tau && std::isnan(taus[i])) {
    t.status = Status::not_scalar;  // K_i = C_i tau_i^-1 with a matrix tau: not a number
  }
}

/// The Stribeck parameters of the table ("law", "law.axis1", "law.axis2").
template <class Sc>
auto* stribeck_of(Sc& sc, std::string_view table) {
  return table == "law.axis2" ? &sc.law.M.axis2 : &sc.law.M.axis1;
}

/// The field at `key` in `sc` and how to read and set it, into `t` (its views point into `key` and `t`).
template <class Sc>
void resolve(Sc& sc, std::string_view key, Target<std::is_const_v<Sc>>& t) {
  constexpr bool C = std::is_const_v<Sc>;
  using K = Kind<std::remove_const_t<Sc>>;
  using St = typename schema::Finder<C>::Storage;
  detail::require_key_path_size({}, key);
  const Path p = split(key);
  if (!p.ok) return;
  t.path = p.name;
  schema::Finder<C> f(p.name);
  serialize(f, sc);
  if (f.found() && f.field().type == Type::signal) {
    // A constant signal given by name is its value.
    if (p.index >= 0 || !K::signal_by_name(p.name)) return;
    if (!f.applies()) {
      t.status = Status::not_applicable;
      t.field = f.field();
      t.table = blame(std::as_const(sc), p.name);
      return;
    }
    t.storage = std::string(p.name) + ".value";
    schema::Finder<C> g(t.storage);
    serialize(g, sc);
    if (!g.applies()) {
      t.status = Status::not_scalar;
      t.hint = fmt::format("is a signal that is not constant; read or set one of its keys (e.g. {}.t0, {}.amplitude)",
                           p.name, p.name);
      return;
    }
    t.path = t.storage;
    f = g;
  }
  if (!f.found() || starts_with(p.name, "sweep.")) return;
  t.field = f.field();
  t.table = t.path.substr(0, t.path.rfind('.'));
  if (!f.applies()) {
    t.status = Status::not_applicable;
    t.table = blame(std::as_const(sc), t.path);
    if constexpr (requires { sc.bench.normal_load; }) {  // the reader: "cannot be combined with [bench.normal_load]"
      if (t.path == "bench.normal_load_N" && sc.bench.normal_load.kind != contact::SignalKind::constant) {
        t.status = Status::derived;
        t.hint = fmt::format("the load is the signal [bench.normal_load] (type = \"{}\"); read or set its keys, e.g. "
                             "bench.normal_load.t0",
                             contact::to_string(sc.bench.normal_load.kind));
      }
    }
    return;
  }
  const std::string_view name = t.field.key;
  t.status = Status::ok;
  if constexpr (requires { sc.textbook; }) {
    // The textbook form maps law, body1 and body2 from law.textbook under the load: their keys are read, not set.
    if (sc.textbook && !starts_with(t.path, "law.textbook.") &&
        (starts_with(t.path, "law.") || starts_with(t.path, "body1.") || starts_with(t.path, "body2.") ||
         starts_with(t.path, "pair."))) {
      t.status = Status::derived;
      t.hint = "mapped from [law.textbook] under bench.normal_load_N (contact::textbook_model); set a key of "
               "law.textbook or the load instead";
    }
  }
  switch (f.storage()) {
    case St::number:
      if (p.index >= 0) return void(t.status = Status::unknown);
      t.d = f.number_ptr();
      if constexpr (WithContact<std::remove_const_t<Sc>>) {
        if (sc.law.kind == LawKind::dahl && starts_with(t.table, "law") && (name == "mu_s" || name == "mu_d"))
          t.hook = Hook::dahl_mu, t.stribeck = stribeck_of(sc, t.table);
      }
      return;
    case St::integer:
      if (p.index >= 0) return void(t.status = Status::unknown);
      t.l = f.integer_ptr();
      t.i = f.int_ptr();
      return;
    case St::vector:
      if (p.index > 1) {
        t.status = Status::bad_index;
        t.hint = "a vector has the components [0] (x) and [1] (y)";
        return;
      }
      t.d = &(*f.vector_ptr())[p.index < 0 ? 0 : p.index];
      if (p.index < 0) t.hook = Hook::vector_x, t.v = f.vector_ptr();
      return;
    case St::matrix:
      if (p.index >= 0) return void(t.status = Status::unknown);
      t.m = f.matrix_ptr();
      if constexpr (WithContact<std::remove_const_t<Sc>>) {
        if (t.table == "body1" || t.table == "body2") {
          t.hook = Hook::body_k0;
          t.body = t.table == "body1" ? 0 : 1;
          if (t.body == 1 && sc.pair_s) {
            t.status = Status::derived;
            t.hint = fmt::format("derived from pair.s = {} (body2.k0 = body1.k0 (1 - s)/s); set pair.s instead",
                                 format_value(*sc.pair_s));
          }
        }
      }
      return;
    case St::declared:
      if constexpr (!WithContact<std::remove_const_t<Sc>>) {  // the kind's own declared keys only
        if (p.index >= 0) return void(t.status = Status::unknown);
        t.d = K::declared(sc, t.path);
        if (!t.d) t.status = Status::not_number;
        return;
      } else {
        if (t.table == "body1" || t.table == "body2") {
          resolve_branch(sc, t, p, name);
          return;
        }
        if (p.index >= 0) return void(t.status = Status::unknown);
        if (starts_with(t.table, "law") && name == "mu") {
          t.hook = Hook::dahl_mu;
          t.stribeck = stribeck_of(sc, t.table);
          t.d = &t.stribeck->mu_s;
        } else if (t.table == "law" && name == "sigma0") {
          t.hook = Hook::sigma0;
        } else if (t.table == "pair" && name == "s") {
          t.hook = Hook::pair_s;
        } else if (t.table == "time" && name == "outputs") {
          t.hook = Hook::outputs;
        } else if constexpr (requires { sc.bench; }) {
          if (t.table == "bench" && name == "normal_load_N") t.d = &sc.bench.normal_load.value;
          else t.status = Status::not_number;
        } else {
          t.d = K::declared(sc, t.path);
          if (!t.d) t.status = Status::not_number;
        }
        return;
      }
    default:
      t.status = t.field.type == Type::table ? Status::unknown : Status::not_number;
      return;
  }
}

// ---- the numeric keys --------------------------------------------------------------------------------

/// The key paths a walk offers (every field that applies; vectors as [0], [1]; a branch list per branch),
/// kept when they resolve to a settable number.
template <class Sc>
class Candidates {
 public:
  explicit Candidates(const Sc& sc) : sc_(sc) {}
  std::vector<std::string> keys;

  template <class T> void number(T&, const Field& f, bool applies = true) { add(f.key, applies); }
  template <class T> void integer(T&, const Field& f, bool applies = true) { add(f.key, applies); }
  template <class T> void matrix(T&, const Field& f, bool applies = true) { add(f.key, applies); }
  template <class T> void vector(T&, const Field& f, bool applies = true) {
    add(std::string(f.key) + "[0]", applies);
    add(std::string(f.key) + "[1]", applies);
  }
  template <class T> void text(T&, const Field&, bool = true) {}
  template <class T> void flag(T&, const Field&, bool = true) {}
  template <class T> void choice(T&, const Field&, bool = true) {}
  void declared(const Field& f, bool applies = true) {
    if constexpr (WithContact<Sc>) {
      if (f.type == Type::matrix_list && (prefix_ == "body1" || prefix_ == "body2")) {
        const std::size_t n = (prefix_ == "body1" ? sc_.body1 : sc_.body2).branches.size();
        for (std::size_t i = 0; i < n; ++i)
          add(n == 1 ? std::string(f.key) : fmt::format("{}[{}]", f.key, i), applies);
        return;
      }
    }
    if (f.type != Type::text && f.type != Type::text_list) {
      add(f.key, applies);
    }
  }
  template <class Visit>
  void table(const Field& f, Visit&& visit, bool applies = true) {
    if (prefix_.empty() && f.key == "sweep") return;
    const std::string saved = prefix_;
    const bool saved_applies = applies_;
    if (f.type == Type::signal && Kind<Sc>::kListSignalByName) add(f.key, applies);
    prefix_ = join(f.key);
    applies_ = applies_ && applies;
    visit(*this);
    prefix_ = saved;
    applies_ = saved_applies;
  }

 private:
  std::string join(std::string_view key) const { return prefix_.empty() ? std::string(key) : prefix_ + "." + std::string(key); }
  void add(std::string_view key, bool applies) {
    if (!applies_ || !applies) return;
    std::string path = join(key);
    if (!Kind<Sc>::listed(sc_, path)) return;
    Target<true> t;
    resolve(sc_, path, t);
    if (t.status != Status::ok) return;
    if constexpr (requires { sc_.time; }) {  // the grid is given by its spacing or by its count
      if (path == "time.outputs" && sc_.input_form.time_output_dt_given) return;
      if (path == "time.output_dt_s" && sc_.input_form.time_outputs > 0) return;
    }
    if (t.m && !isotropic(*t.m)) return;
    if constexpr (WithContact<Sc>)
      if (t.hook == Hook::sigma0 && sc_.law.sigma0 && !isotropic(*sc_.law.sigma0)) return;
    if (t.hook == Hook::dahl_mu && t.field.key != "mu") return;  // Dahl: listed as mu
    if constexpr (WithContact<Sc>)  // c = "eq58": the dampings follow k0 and tau (set refuses them)
      if (t.hook == Hook::branch && t.gkv && t.main && !body_of(sc_, t.body).eq58_tau.empty()) return;
    keys.push_back(std::move(path));
  }
  const Sc& sc_;
  std::string prefix_;
  bool applies_ = true;
};

template <class Sc>
std::vector<std::string> all_numeric_keys(const Sc& sc) {
  Candidates<Sc> walk(sc);
  serialize(walk, sc);
  return std::move(walk.keys);
}

// ---- errors ------------------------------------------------------------------------------------------

template <class Sc, bool C>
[[noreturn]] void fail(const Sc& sc, std::string_view key, const Target<C>& t) {
  const std::vector<std::string> keys = all_numeric_keys(sc);
  switch (t.status) {
    case Status::ok:
    case Status::unknown: break;
    case Status::not_applicable: {
      std::vector<std::string> here;
      const std::string prefix = std::string(t.table) + ".";
      for (const auto& k : keys)
        if (starts_with(k, prefix)) here.push_back(k);
      std::string context = Kind<Sc>::context(sc, t.table);
      if (context.empty())
        context = t.field.used_by.empty() ? std::string("this scenario")
                                          : fmt::format("this scenario (used by: {})", t.field.used_by);
      throw InvalidInput(fmt::format("key \"{}\" does not apply to {} (numeric keys here: {})", key, context,
                                     here.empty() ? "none" : fmt::format("{}", fmt::join(here, ", "))));
    }
    case Status::derived:
    case Status::bad_index: throw InvalidInput(fmt::format("{}: {}", key, t.hint));
    case Status::not_scalar:
      throw InvalidInput(fmt::format("{}: {}", key,
                                     t.hint.empty() ? "is a matrix (or derived from one); only an isotropic value "
                                                      "k I can be read or set as a number"
                                                    : t.hint));
    case Status::not_number: {
      const std::string_view type = schema::to_string(t.field.type);  // "string", "array of numbers", ...
      throw InvalidInput(fmt::format("{}: is {} {}, not a number", key,
                                     type.find_first_of("aeiou") == 0 ? "an" : "a", type));
    }
  }
  const std::string near = nearest_word(key, keys);
  if (!near.empty()) throw InvalidInput(fmt::format("unknown key \"{}\"; did you mean \"{}\"?", key, near));
  throw InvalidInput(fmt::format("unknown key \"{}\" (numeric keys: {})", key, fmt::join(keys, ", ")));
}

template <class Sc>
std::string_view signal_table_unit(const Sc& sc, std::string_view path) {
  const std::string_view table = path.substr(0, path.rfind('.'));
  schema::Finder<true> f(table);
  serialize(f, sc);
  return f.found() ? f.field().unit : std::string_view();
}

// ---- get, set, info ------------------------------------------------------------------------------------

template <class Sc>
double get_generic(const Sc& sc, std::string_view key) {
  Target<true> t;
  resolve(sc, key, t);
  if constexpr (!WithContact<Sc>) {  // a number or an integer in place
    if (t.status != Status::ok) fail(sc, key, t);
    if (t.hook == Hook::vector_x) require_x_only(key, t.v);
    if (t.d) return *t.d;
    if (t.l) return static_cast<double>(*t.l);
    if (t.i) return static_cast<double>(*t.i);
    fail(sc, key, t);
  } else {
    if (t.hook == Hook::tau && t.status == Status::derived) {
      // tau of branches given by k/c: tau = K^-1 C
      const rheology::Branch& b = body_of(sc, t.body).branches[t.branch];
      if (!isotropic(b.k) || !isotropic(b.c)) not_isotropic(key, b.k.inverse() * b.c);
      return b.c(0, 0) / b.k(0, 0);
    }
    if (t.status != Status::ok && t.status != Status::derived) fail(sc, key, t);
    if (t.hook == Hook::vector_x) require_x_only(key, t.v);
    if (t.d) return *t.d;
    if (t.m) {
      if (!isotropic(*t.m)) not_isotropic(key, *t.m);
      return (*t.m)(0, 0);
    }
    if (t.l) return static_cast<double>(*t.l);
    if (t.i) return static_cast<double>(*t.i);
    switch (t.hook) {
      case Hook::pair_s: return *sc.pair_s;
      case Hook::outputs:
        if constexpr (requires { sc.time; })
          return sc.input_form.time_outputs > 0 ? static_cast<double>(sc.input_form.time_outputs)
                                                : static_cast<double>(sc.time.times().size());
        break;
      case Hook::sigma0: {  // as given, else the pair's static stiffness K_static
        const Mat2 s0 = sc.law.sigma0 ? *sc.law.sigma0 : rheology::ContactPair(sc.body1, sc.body2).K_static();
        if (!isotropic(s0)) not_isotropic(key, s0);
        return s0(0, 0);
      }
      default: break;
    }
    fail(sc, key, t);
  }
}

/// What a set may change beyond the value itself, restored when a check fails.
struct Saved {
  double d = 0.0;
  Mat2 m = Mat2::Zero();
  long l = 0;
  int i = 0;
  Vec2 v = Vec2::Zero();
  laws::StribeckParams axis1, axis2;
  std::optional<Mat2> sigma0;
  Mat2 k1 = Mat2::Zero(), k2 = Mat2::Zero();
  rheology::Branch branch;
  double tau = 0.0;
  std::optional<double> pair_s;
  TimeGrid time;
  std::int64_t outputs = 0;
  bool output_dt_given = false;
};

/// A kind without the contact's tables: the number or integer in place (its range already checked), the kind's
/// on_set (a coefficients range end becomes given), then its cross-checks; a failure restores what changed.
template <class Sc>
void set_in_place(Sc& sc, const Target<false>& t, double value) {
  using K = Kind<Sc>;
  const double saved_d = t.d ? *t.d : 0.0;
  const long saved_l = t.l ? *t.l : 0;
  const int saved_i = t.i ? *t.i : 0;
  const Vec2 saved_v = t.v ? *t.v : Vec2::Zero();
  const auto extra = K::save(sc);
  try {
    if (t.v) *t.v = Vec2(value, 0.0);  // a vector without index, as in TOML
    else if (t.d) *t.d = value;
    else if (t.l) *t.l = static_cast<long>(value);
    else if (t.i) *t.i = static_cast<int>(value);
    K::on_set(sc, t.path);
    K::check(sc);
  } catch (...) {
    if (t.d) *t.d = saved_d;
    if (t.l) *t.l = saved_l;
    if (t.i) *t.i = saved_i;
    if (t.v) *t.v = saved_v;
    K::restore(sc, extra);
    throw;
  }
}

template <class Sc>
void set_generic(Sc& sc, std::string_view key, double value) {
  Target<false> t;
  resolve(sc, key, t);
  if (t.status != Status::ok) fail(sc, key, t);
  // The reader's checks of every scenario number (toml_reader.hpp): NaN and infinities whatever the rule (a ramp's
  // t_end may be inf, as in TOML), magnitudes above 1e150, subnormals.
  detail::require_scenario_number(std::string(key), value, t.field.range.rule == schema::Rule::finite_or_inf);
  if (t.hook == Hook::pair_s) require_open_interval(key, value, 0.0, 1.0);
  else if (t.hook != Hook::outputs) t.field.range.check(key, value);
  if ((t.l || t.i) && value != std::trunc(value))
    throw InvalidInput(fmt::format("{} = {}: must be an integer", key, format_value(value)));
  // The storage's bounds (an int; a long, a step budget, below 2^63: the largest double below it is 2^63 - 1024)
  // within the field's range, as the reader says them (SchemaReader::integer): an index >= 0 is [0, 2147483647].
  const double lowest = std::max(t.field.range.min(), t.i ? double(std::numeric_limits<int>::min()) : -0x1p63);
  const double highest = std::min(t.field.range.max(), t.i ? double(std::numeric_limits<int>::max()) : 0x1p63 - 1024.0);
  if ((t.l || t.i) && !(value >= lowest && value <= highest))
    throw InvalidInput(fmt::format("{} = {}: must be in [{}, {}]", key, format_value(value), format_value(lowest),
                                   format_value(highest)));
  if (t.m && !isotropic(*t.m)) not_isotropic(key, *t.m);
  if constexpr (!WithContact<Sc>) {
    set_in_place(sc, t, value);
  } else {
    if (t.hook == Hook::sigma0 && sc.law.sigma0 && !isotropic(*sc.law.sigma0)) not_isotropic(key, *sc.law.sigma0);

    auto& body = body_of(sc, t.body);
    std::vector<double>& taus = sc.input_form.body_tau[t.body];
    Saved saved;
    if (t.d) saved.d = *t.d;
    if (t.m) saved.m = *t.m;
    if (t.l) saved.l = *t.l;
    if (t.i) saved.i = *t.i;
    if (t.v) saved.v = *t.v;
    saved.axis1 = sc.law.M.axis1;
    saved.axis2 = sc.law.M.axis2;
    saved.sigma0 = sc.law.sigma0;
    saved.k1 = sc.body1.k_elastic;
    saved.k2 = sc.body2.k_elastic;
    if (t.branch < body.branches.size()) saved.branch = body.branches[t.branch];
    if (t.branch < taus.size()) saved.tau = taus[t.branch];
    saved.pair_s = sc.pair_s;
    if constexpr (requires { sc.time; }) saved.time = sc.time;
    saved.outputs = sc.input_form.time_outputs;
    saved.output_dt_given = sc.input_form.time_output_dt_given;
    const rheology::RheologyParams saved_body1 = sc.body1, saved_body2 = sc.body2;  // eq. 58 re-derives branches
    constexpr bool kDerives = requires { Kind<Sc>::derive(sc, t.path); };
    [[maybe_unused]] const auto saved_derived = [&] {
      if constexpr (kDerives) return Kind<Sc>::save(sc);
      else return 0;
    }();
    const Mat2 iso = value * Mat2::Identity();
    try {
      if (!body.eq58_tau.empty() && t.hook == Hook::branch && t.gkv && t.main)
        throw InvalidInput(fmt::format("{}: set by eq. 58 (body{}.c = \"eq58\": c_i = tau_i k0); set body{}.tau or the "
                                       "stiffness instead",
                                       key, t.body + 1, t.body + 1));
      if (!body.eq58_tau.empty() && t.hook == Hook::tau) body.eq58_tau[t.branch] = value;
      switch (t.hook) {
        case Hook::plain:
          if (t.d) *t.d = value;
          else if (t.m) *t.m = iso;
          else if (t.l) *t.l = static_cast<long>(value);
          else if (t.i) *t.i = static_cast<int>(value);
          break;
        case Hook::vector_x: *t.v = Vec2(value, 0.0); break;
        case Hook::dahl_mu: t.stribeck->mu_s = t.stribeck->mu_d = value; break;
        case Hook::sigma0: sc.law.sigma0 = iso; break;
        case Hook::body_k0:
          *t.m = iso;
          if (t.body == 0 && sc.pair_s)
            sc.body2.k_elastic = rheology::substrate_stiffness_from_s("pair.s", *sc.pair_s, value) * Mat2::Identity();
          break;
        case Hook::pair_s:
          sc.body2.k_elastic =
              rheology::substrate_stiffness_from_s("pair.s", value, sc.body1.k_elastic(0, 0)) * Mat2::Identity();
          sc.pair_s = value;
          break;
        case Hook::branch:  // by tau (a scalar, as written), the other of c and k follows (paper 1, eqs. 8, 10)
          *t.m = iso;
          if (!taus.empty()) rheology::set_relaxation_time(body, t.branch, taus[t.branch]);
          break;
        case Hook::tau:
          rheology::set_relaxation_time(body, t.branch, value);
          taus[t.branch] = value;
          break;
        case Hook::outputs:
          if constexpr (requires { sc.time; }) {
            if (sc.input_form.time_output_dt_given)
              throw InvalidInput("key \"time.outputs\" cannot be combined with time.output_dt_s; give one of them");
            schema::require_integer("time.outputs", value);
            if (value < 2.0)
              throw InvalidInput(fmt::format("time.outputs = {}: must be >= 2 (both ends are output)", format_value(value)));
            if (value > static_cast<double>(detail::kMaxOutputTimes))
              throw InvalidInput(fmt::format("time.outputs = {}: at most {} output times are allowed (Limits in docs/scenarios.md)", format_value(value),
                                             detail::kMaxOutputTimes));
            sc.input_form.time_outputs = static_cast<std::int64_t>(value);
          }
          break;
      }
      rheology::apply_eq58(sc.body1, "body1");  // c = "eq58": the dampings follow the k0 and tau now set
      rheology::apply_eq58(sc.body2, "body2");
      // The table's own cross-checks, as the reader runs them.
      if (starts_with(t.table, "law")) {
        if (!sc.law.M.anisotropic) sc.law.M.axis2 = sc.law.M.axis1;  // the reader's isotropic M (lumped.cpp)
        sc.law.validate("law");
      }
      if constexpr (requires { sc.bench; })
        if (starts_with(t.table, "bench")) sc.bench.validate("bench");
      if constexpr (requires { sc.time; }) {
        if (t.table == "time") {
          if (t.path == "time.output_dt_s") {
            if (sc.input_form.time_outputs > 0)
              throw InvalidInput("key \"time.outputs\" cannot be combined with time.output_dt_s; give one of them");
            sc.input_form.time_output_dt_given = true;
          }
          detail::derive_output_dt(sc.input_form, sc.time);
        }
      }
      if constexpr (kDerives) Kind<Sc>::derive(sc, t.path);
      Kind<Sc>::check(sc);
    } catch (...) {
      if constexpr (kDerives) Kind<Sc>::restore(sc, saved_derived);
      if (t.d) *t.d = saved.d;
      if (t.m) *t.m = saved.m;
      if (t.l) *t.l = saved.l;
      if (t.i) *t.i = saved.i;
      if (t.v) *t.v = saved.v;
      sc.law.M.axis1 = saved.axis1;
      sc.law.M.axis2 = saved.axis2;
      sc.law.sigma0 = saved.sigma0;
      sc.body1.k_elastic = saved.k1;
      sc.body2.k_elastic = saved.k2;
      if (t.branch < body.branches.size()) body.branches[t.branch] = saved.branch;
      if (t.branch < taus.size()) taus[t.branch] = saved.tau;
      sc.pair_s = saved.pair_s;
      if constexpr (requires { sc.time; }) sc.time = saved.time;
      sc.input_form.time_outputs = saved.outputs;
      sc.input_form.time_output_dt_given = saved.output_dt_given;
      sc.body1 = saved_body1;
      sc.body2 = saved_body2;
      throw;
    }
  }
}

template <class Sc>
KeyInfo info_generic(const Sc& sc, std::string_view key) {
  Target<true> t;
  resolve(sc, key, t);
  if (t.status == Status::unknown || t.status == Status::not_applicable || t.status == Status::bad_index ||
      t.status == Status::not_number)
    fail(sc, key, t);
  const Field& f = t.field;
  KeyInfo info;
  info.key = std::string(key);
  std::string unit(f.unit);
  if (const std::size_t at = unit.find("(signal)"); at != std::string::npos)
    unit.replace(at, 8, Kind<Sc>::signal_unit(sc, key, signal_table_unit(sc, t.path)));
  info.unit = unit;
  info.doc = std::string(f.doc);
  info.equation = std::string(f.equation);
  info.default_value = std::string(f.default_value);
  info.range = f.range.text();
  info.min = f.range.min();
  info.max = f.range.max();
  info.log_scale = f.log_scale;
  info.numerics = f.numerics;
  info.integer = t.l || t.i || t.hook == Hook::outputs;
  info.rule = t.hook == Hook::pair_s ? schema::open(0.0, 1.0) : f.range;
  return info;
}

}  // namespace

template <WithKeyPaths Sc>
double get_number(const Sc& sc, std::string_view key) {
  return get_generic(sc, key);
}
template <WithKeyPaths Sc>
void set_number(Sc& sc, std::string_view key, double value) {
  set_generic(sc, key, value);
}
template <WithKeyPaths Sc>
std::vector<std::string> numeric_keys(const Sc& sc) {
  return all_numeric_keys(sc);
}
template <WithKeyPaths Sc>
KeyInfo key_info(const Sc& sc, std::string_view key) {
  return info_generic(sc, key);
}

#define BRISTLE_KEY_PATHS(Sc)                                                      \
  template double get_number<Sc>(const Sc&, std::string_view);                     \
  template void set_number<Sc>(Sc&, std::string_view, double);                     \
  template std::vector<std::string> numeric_keys<Sc>(const Sc&);                   \
  template KeyInfo key_info<Sc>(const Sc&, std::string_view);
BRISTLE_KEY_PATHS(LumpedScenario)
BRISTLE_KEY_PATHS(PatchMapScenario)
BRISTLE_KEY_PATHS(PatchTransientScenario)
BRISTLE_KEY_PATHS(LineSteadyScenario)
BRISTLE_KEY_PATHS(LineTransientScenario)
BRISTLE_KEY_PATHS(StructureKernelScenario)
BRISTLE_KEY_PATHS(StructureStickSlipScenario)
BRISTLE_KEY_PATHS(DirectionalCoefficientsScenario)
BRISTLE_KEY_PATHS(DirectionalLoopScenario)
BRISTLE_KEY_PATHS(DirectionalCrawlerScenario)
#undef BRISTLE_KEY_PATHS

// ---- a parsed Scenario of any kind that has key paths ---------------------------------------------------

namespace {

[[noreturn]] void no_key_paths(const Scenario& s) {
  throw InvalidInput(fmt::format("kind = \"{}\": has no key paths yet (lumped, line_steady, line_transient, "
                                 "patch_steady_map, patch_transient, structure_kernel, structure_stick_slip, "
                                 "directional_coefficients, directional_loop and directional_crawler have them)",
                                 s.kind()));
}

/// A study's cases must agree on the value read (a [sweep] or [[case]] may vary it).
template <class Case>
double agreed(const std::vector<Case>& cases, std::string_view key) {
  const double v = get_number(cases.front(), key);
  for (std::size_t i = 1; i < cases.size(); ++i)
    if (const double w = get_number(cases[i], key); !(w == v || (std::isnan(w) && std::isnan(v))))
      throw InvalidInput(fmt::format("{}: differs between the {} cases of the study ({} in case 1, {} in case {}); "
                                     "read it from one case",
                                     key, cases.size(), format_value(v), format_value(w), i + 1));
  return v;
}

/// A study's key-path [sweep] sets its parameter in every case (any entry of it, for a list key): setting it on the
/// study would be overwritten, so it is refused.
void refuse_swept(std::string_view parameter, std::string_view key) {
  if (split(key).name == split(parameter).name)
    throw InvalidInput(fmt::format("{}: is the parameter of the sweep (sweep.parameter = \"{}\"); set it in one "
                                   "case",
                                   key, parameter));
}
void refuse_swept(const std::optional<Sweep>& sweep, std::string_view key) {
  if (sweep) refuse_swept(sweep->parameter, key);
}

/// The same for another spelling of the swept value (bench.input.value under a sweep of bench.input, law.mu_s under
/// law.mu of a Dahl law): `was` is its value before the key was set on `after`; a set that moved it is refused.
template <class Case>
void refuse_moving_swept(double was, const Case& after, std::string_view parameter, std::string_view key) {
  const double now = get_number(after, parameter);
  if (was == now || (std::isnan(was) && std::isnan(now))) return;
  throw InvalidInput(fmt::format("{}: sets the parameter of the sweep (sweep.parameter = \"{}\", {} -> {}); set it "
                                 "in one case",
                                 key, parameter, format_value(was), format_value(now)));
}

/// A line study: the value is set in every case (each validated; an error names the case); a key that a
/// [sweep] varies (pair.s under sweep.s, body<i>.tau under sweep.tau<i>, sweep.parameter) is refused.
template <class Study>
void set_line_study(Study& study, std::string_view key, double value) {
  auto cases = study.cases();
  for (const std::string& swept : cases.front().swept) {
    if (swept.find('.') != std::string::npos) {  // a key-path sweep's parameter; the lists' names have no dot
      refuse_swept(swept, key);
      continue;
    }
    const bool hit = (swept == "s" && split(key).name == "pair.s") ||
                     (swept == "tau1" && starts_with(key, "body1.tau")) ||
                     (swept == "tau2" && starts_with(key, "body2.tau"));
    if (hit)
      throw InvalidInput(fmt::format("{}: is varied by the sweep (sweep.{}); set it in the sweep", key, swept));
  }
  // A case whose [[case]] table gives the key keeps its own value, as the file with the value would run.
  const auto names_it = [&](const std::string& given) {
    const auto under = [](std::string_view a, std::string_view b) {  // a is b or one of its entries or keys
      return a.size() > b.size() && a.compare(0, b.size(), b) == 0 && (a[b.size()] == '.' || a[b.size()] == '[');
    };
    return given == key || under(key, given) || under(given, key);
  };
  std::size_t kept = 0;
  std::string kept_label;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    if (std::any_of(cases[i].case_keys.begin(), cases[i].case_keys.end(), names_it)) {
      if (kept++ == 0) kept_label = cases[i].label;
      continue;
    }
    try {
      std::vector<std::pair<std::string_view, double>> was;  // a key-path sweep's parameter (the lists' have no dot)
      for (const std::string& swept : cases[i].swept)
        if (swept.find('.') != std::string::npos) was.emplace_back(swept, get_number(cases[i], swept));
      set_number(cases[i], key, value);
      for (const auto& [swept, v] : was) refuse_moving_swept(v, cases[i], swept, key);
    } catch (const InvalidInput& error) {
      if (cases.size() == 1) throw;
      throw InvalidInput(fmt::format("case {} of {} ({}): {}", i + 1, cases.size(), cases[i].label, error.what()));
    }
    // Another spelling of a key the case gives (Dahl's law.mu_s under its law.mu): the case keeps its own.
    const auto& original = study.cases()[i];
    for (const std::string& given : cases[i].case_keys) {
      double before = 0.0, after = 0.0;
      try {
        before = get_number(original, given);
        after = get_number(cases[i], given);
      } catch (const InvalidInput&) {
        continue;  // not a number (a string, a table's key): named by names_it if it is the key
      }
      if (before != after) {
        cases[i] = original;
        if (kept++ == 0) kept_label = cases[i].label;
        break;
      }
    }
  }
  if (kept == cases.size())
    throw InvalidInput(fmt::format("{}: every [[case]] gives its own value ({} of {}, e.g. {}), which a set on the "
                                   "study leaves to the case; set it in the [[case]] tables",
                                   key, kept, cases.size(), kept_label.empty() ? "the file" : kept_label));
  study = Study(std::move(cases));
}

/// A study of one scenario with a key-path [sweep]: the swept key refused, the value set on a copy, the study (its
/// sweep cases, each validated) rebuilt from it; the study is unchanged on any error.
template <class Study>
void set_study(Study& study, std::string_view key, double value) {
  auto sc = study.scenario();
  refuse_swept(sc.sweep, key);
  set_number(sc, key, value);
  Study rebuilt(std::move(sc));
  // Each case's swept value as before: compared after the sweep (on the file the parameter may be derived from the key
  // set, e.g. law.sigma0 from body1.k0, time.output_dt_s from time.t_end_s, which the sweep then replaces).
  if (const auto& swept = study.scenario().sweep)
    for (std::size_t i = 0; i < study.cases().size() && i < rebuilt.cases().size(); ++i)
      refuse_moving_swept(get_number(study.cases()[i], swept->parameter), rebuilt.cases()[i], swept->parameter, key);
  study = std::move(rebuilt);
}

/// The one case of `s` a key is read from: a lumped study's cases must agree on the value.
template <class F>
auto with_case(const Scenario& s, F&& f) {
  if (const auto* l = dynamic_cast<const LumpedStudy*>(&s)) return f(l->cases().front());
  if (const auto* m = dynamic_cast<const PatchSteadyMapStudy*>(&s)) return f(m->scenario());
  if (const auto* t = dynamic_cast<const PatchTransientStudy*>(&s)) return f(t->scenario());
  if (const auto* t = dynamic_cast<const StructureStickSlipStudy*>(&s)) return f(t->scenario());
  if (const auto* k = dynamic_cast<const StructureKernelStudy*>(&s)) return f(k->scenario());
  if (const auto* ls = dynamic_cast<const LineSteadyStudy*>(&s)) return f(ls->cases().front());
  if (const auto* lt = dynamic_cast<const LineTransientStudy*>(&s)) return f(lt->cases().front());
  if (const auto* dc = dynamic_cast<const DirectionalCoefficientsStudy*>(&s)) return f(dc->scenario());
  if (const auto* dl = dynamic_cast<const DirectionalLoopStudy*>(&s)) return f(dl->scenario());
  if (const auto* dr = dynamic_cast<const DirectionalCrawlerStudy*>(&s)) return f(dr->scenario());
  no_key_paths(s);
}

/// Sets `key` in every case of the study, each validated, and rebuilds the study (its origin is the caller's).
void set_study_of_any_kind(Scenario& s, std::string_view key, double value) {
  if (auto* l = dynamic_cast<LumpedStudy*>(&s)) {
    std::vector<LumpedScenario> cases = l->cases();
    refuse_swept(cases.front().sweep, key);
    for (LumpedScenario& c : cases) {
      const double was = c.sweep ? get_number(c, c.sweep->parameter) : 0.0;
      set_number(c, key, value);
      if (c.sweep) refuse_moving_swept(was, c, c.sweep->parameter, key);
    }
    *l = LumpedStudy(std::move(cases));
  } else if (auto* m = dynamic_cast<PatchSteadyMapStudy*>(&s)) {
    set_study(*m, key, value);  // the sweep's cases again, each validated
  } else if (auto* t = dynamic_cast<PatchTransientStudy*>(&s)) {
    set_study(*t, key, value);
  } else if (auto* st = dynamic_cast<StructureStickSlipStudy*>(&s)) {
    set_study(*st, key, value);
  } else if (auto* sk = dynamic_cast<StructureKernelStudy*>(&s)) {
    set_study(*sk, key, value);
  } else if (auto* ls = dynamic_cast<LineSteadyStudy*>(&s)) {
    set_line_study(*ls, key, value);
  } else if (auto* lt = dynamic_cast<LineTransientStudy*>(&s)) {
    set_line_study(*lt, key, value);
  } else if (auto* dc = dynamic_cast<DirectionalCoefficientsStudy*>(&s)) {
    set_study(*dc, key, value);
  } else if (auto* dl = dynamic_cast<DirectionalLoopStudy*>(&s)) {
    set_study(*dl, key, value);
  } else if (auto* dr = dynamic_cast<DirectionalCrawlerStudy*>(&s)) {
    set_study(*dr, key, value);
  } else {
    no_key_paths(s);
  }
}

}  // namespace

void detail::require_key_path_size(std::string_view where, std::string_view key) {
  if (key.size() <= kMaxKeyPathBytes) return;
  throw InvalidInput(fmt::format("{}{}key path {} is {} bytes long; at most {} (Limits in docs/scenarios.md)", where,
                                 where.empty() ? "" : ": ", json_quote(shown_key(key)), key.size(), kMaxKeyPathBytes));
}

double get_number(const Scenario& s, std::string_view key) {
  if (const auto* l = dynamic_cast<const LumpedStudy*>(&s)) {
    const double v = get_number(l->cases().front(), key);
    for (std::size_t i = 1; i < l->cases().size(); ++i)
      if (const double w = get_number(l->cases()[i], key); !(w == v || (std::isnan(w) && std::isnan(v))))
        throw InvalidInput(fmt::format("{}: differs between the {} cases of the sweep ({} in case 1, {} in case {}); "
                                       "read it from one case",
                                       key, l->cases().size(), format_value(v), format_value(w), i + 1));
    return v;
  }
  if (const auto* ls = dynamic_cast<const LineSteadyStudy*>(&s)) return agreed(ls->cases(), key);
  if (const auto* lt = dynamic_cast<const LineTransientStudy*>(&s)) return agreed(lt->cases(), key);
  return with_case(s, [&](const auto& sc) { return get_number(sc, key); });
}

void set_number(Scenario& s, std::string_view key, double value) {
  // The study is rebuilt by assignment, which would drop the origin and its sets: they are kept, with this set
  // appended (a copy made from the origin replays the sets); on an error nothing changes. A set of the key set
  // last replaces its value: from the state before, the value is set and checked as from the state after (a
  // loop over one key keeps one entry).
  std::string key_copy(key);  // the append's memory before the set: the append after it cannot fail
  if (s.sets_.size() == s.sets_.capacity()) s.sets_.reserve(2 * s.sets_.size() + 1);
  std::shared_ptr<const Scenario::Origin> origin = s.origin_;
  std::vector<std::pair<std::string, double>> sets = std::move(s.sets_);
  try {
    set_study_of_any_kind(s, key, value);
  } catch (...) {
    s.origin_ = std::move(origin);
    s.sets_ = std::move(sets);
    throw;
  }
  s.origin_ = std::move(origin);
  if (s.origin_) {
    if (!sets.empty() && sets.back().first == key) sets.back().second = value;
    else sets.emplace_back(std::move(key_copy), value);
  }
  s.sets_ = std::move(sets);
}

std::vector<std::string> numeric_keys(const Scenario& s) {
  return with_case(s, [](const auto& sc) { return numeric_keys(sc); });
}

KeyInfo key_info(const Scenario& s, std::string_view key) {
  return with_case(s, [&](const auto& sc) { return key_info(sc, key); });
}

}  // namespace bristle::io
