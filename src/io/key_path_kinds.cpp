// Key paths of the kinds other than lumped (io/key_path.hpp): one generic walk over the kind's serialize()
// with the schema's Finder (core/schema.hpp). [law], [body1], [body2], [pair] and [time] go through the
// lumped kind's key paths on a carrier scenario (the same derivations and messages); the kind's own keys
// are found, checked with their schema range and set in place; then the kind's validate() (the reader's
// cross-checks) runs on the changed copy, which replaces the scenario only when everything passed.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "bristle/core/error.hpp"
#include "bristle/io/key_path.hpp"
#include "bristle/io/patch_scenario.hpp"

namespace bristle::io {

namespace {

using schema::Field;
using schema::Type;

/// "a.b[1]" -> ("a.b", 1).
struct Split {
  std::string_view name;
  long index = -1;  // -1: none
  bool ok = true;
};

Split split_index(std::string_view key) {
  Split s{key};
  const std::size_t open = key.find('[');
  if (open == std::string_view::npos) return s;
  s.name = key.substr(0, open);
  const std::string_view digits = key.substr(open + 1, key.size() - open - 2);
  if (key.back() != ']' || digits.empty() || digits.size() > 6) return Split{key, -1, false};
  long i = 0;
  for (char ch : digits) {
    if (ch < '0' || ch > '9') return Split{key, -1, false};
    i = 10 * i + (ch - '0');
  }
  s.index = i;
  return s;
}

bool starts_with(std::string_view s, std::string_view prefix) { return s.compare(0, prefix.size(), prefix) == 0; }

// ---- per kind: what is shared with lumped, the declared numbers, the cross-checks ----------------------

template <class Sc>
struct Kind;

template <>
struct Kind<PatchMapScenario> {
  static constexpr bool has_time = false;
  static TimeGrid* time(PatchMapScenario&) { return nullptr; }
  /// The storage of a declared numeric key (a scalar kinematics axis, a stated p_0), or null.
  static double* declared(PatchMapScenario& sc, std::string_view name) {
    if (name == "kinematics.vx_mps") return &sc.vx.values.front();
    if (name == "kinematics.vy_mps" || name == "kinematics.slip_angle_deg") return &sc.lateral.values.front();
    if (name == "kinematics.spin_radps") return &sc.spin.values.front();
    if (name == "patch.peak_pressure_Pa" && sc.patch.peak_pressure_Pa) return &*sc.patch.peak_pressure_Pa;
    return nullptr;
  }
  static void validate(const PatchMapScenario& sc) { io::validate(sc); }
};

template <>
struct Kind<PatchTransientScenario> {
  static constexpr bool has_time = true;
  static TimeGrid* time(PatchTransientScenario& sc) { return &sc.time; }
  static double* declared(PatchTransientScenario& sc, std::string_view name) {
    if (name == "patch.peak_pressure_Pa" && sc.transient.patch.peak_pressure_Pa)
      return &*sc.transient.patch.peak_pressure_Pa;
    if (name == "patch.width_exponent" && sc.transient.width_exponent) return &*sc.transient.width_exponent;
    return nullptr;
  }
  static void validate(const PatchTransientScenario& sc) { io::validate(sc); }
};

/// Keys answered by the lumped kind's key paths on a carrier.
template <class Sc>
bool shared(std::string_view key) {
  for (std::string_view p : {"law.", "body1.", "body2.", "pair."})
    if (starts_with(key, p)) return true;
  return Kind<Sc>::has_time && starts_with(key, "time.");
}

template <class Sc>
LumpedScenario carrier(const Sc& sc) {
  LumpedScenario l;
  l.law = sc.law;
  l.body1 = sc.body1;
  l.body2 = sc.body2;
  l.pair_s = sc.pair_s;
  l.input_form = sc.input_form;
  if constexpr (Kind<Sc>::has_time) l.time = sc.time;
  return l;
}

template <class Sc>
void take_back(Sc& sc, const LumpedScenario& l) {
  sc.law = l.law;
  sc.body1 = l.body1;
  sc.body2 = l.body2;
  sc.pair_s = l.pair_s;
  sc.input_form = l.input_form;
  if constexpr (Kind<Sc>::has_time) sc.time = l.time;
}

// ---- the numeric keys of a walk ------------------------------------------------------------------------

/// Collects the key paths of the numeric fields that apply (vectors as [0], [1]; a constant signal as its
/// table key, like lumped's bench.input).
class NumericKeys {
 public:
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
    if (f.type == Type::number || f.type == Type::integer || f.type == Type::number_list) add(f.key, applies);
  }
  template <class Visit>
  void table(const Field& f, Visit&& visit, bool applies = true) {
    const std::string saved = prefix_;
    const bool saved_applies = applies_;
    prefix_ = join(f.key);
    applies_ = applies_ && applies;
    visit(*this);
    prefix_ = saved;
    applies_ = saved_applies;
  }

 private:
  std::string join(std::string_view key) const { return prefix_.empty() ? std::string(key) : prefix_ + "." + std::string(key); }
  void add(std::string_view key, bool applies) {
    if (applies_ && applies) keys.push_back(join(key));
  }
  std::string prefix_;
  bool applies_ = true;
};

template <class Sc>
std::vector<std::string> all_numeric_keys(const Sc& sc) {
  std::vector<std::string> out;
  for (auto& k : numeric_keys(carrier(sc)))
    if (shared<Sc>(k)) out.push_back(std::move(k));
  NumericKeys walk;
  serialize(walk, sc);
  for (auto& k : walk.keys) {
    if (shared<Sc>(k) || starts_with(k, "sweep.")) continue;
    // A constant signal is read and set as "<signal>.value" or "<signal>".
    const std::size_t dot = k.rfind(".value");
    if (dot != std::string::npos && dot + 6 == k.size()) out.push_back(k.substr(0, dot));
    out.push_back(std::move(k));
  }
  return out;
}

// ---- finding a key -------------------------------------------------------------------------------------

template <bool Const, class Sc>
struct Found {
  schema::Finder<Const> finder;
  std::string name;  // the path searched (a constant signal's ".value" appended)
};

[[noreturn]] void unknown(std::string_view key, const std::vector<std::string>& keys) {
  const std::string near = nearest_word(key, keys);
  if (!near.empty()) throw InvalidInput(fmt::format("unknown key \"{}\"; did you mean \"{}\"?", key, near));
  throw InvalidInput(fmt::format("unknown key \"{}\" (numeric keys: {})", key, fmt::join(keys, ", ")));
}

/// The field at `name` in `sc` (a constant signal's table key resolves to its value); errors name `key`.
template <bool Const, class Sc>
schema::Finder<Const> find(std::conditional_t<Const, const Sc, Sc>& sc, std::string_view key, std::string_view name) {
  schema::Finder<Const> f(name);
  serialize(f, sc);
  if (f.found() && f.field().type == Type::signal) {
    const std::string value = std::string(name) + ".value";
    schema::Finder<Const> g(value);
    serialize(g, sc);
    if (!g.applies())
      throw InvalidInput(fmt::format("{}: is a signal that is not constant; read or set one of its keys (e.g. "
                                     "{}.t0, {}.amplitude)",
                                     key, name, name));
    return g;
  }
  if (!f.found() || starts_with(name, "sweep.")) unknown(key, all_numeric_keys(sc));
  if (!f.applies()) {
    std::vector<std::string> here;
    const std::string prefix = std::string(f.table_key()) + ".";
    for (const auto& k : all_numeric_keys(sc))
      if (k.find(prefix) != std::string::npos) here.push_back(k);
    const std::string_view used_by = f.field().used_by;
    throw InvalidInput(fmt::format("key \"{}\" does not apply to this scenario{} (numeric keys here: {})", key,
                                   used_by.empty() ? std::string() : fmt::format(" (used by: {})", used_by),
                                   here.empty() ? std::string("none") : fmt::format("{}", fmt::join(here, ", "))));
  }
  return f;
}

[[noreturn]] void not_a_number(std::string_view key, const Field& f) {
  throw InvalidInput(fmt::format("{}: is a {}, not a number", key, schema::to_string(f.type)));
}

bool isotropic(const Mat2& m) { return m(0, 1) == 0.0 && m(1, 0) == 0.0 && m(0, 0) == m(1, 1); }

[[noreturn]] void not_isotropic(std::string_view key, const Mat2& m) {
  throw InvalidInput(fmt::format("{} = {}: is a matrix; only an isotropic value k I can be read or set as a number",
                                 key, format_matrix(m)));
}

void check_index(std::string_view key, long index, bool vector) {
  if (vector ? index > 1 : index >= 0)
    throw InvalidInput(fmt::format("{}: {}", key, vector ? "a vector has components [0] and [1]" : "takes no index"));
}

template <class Sc>
double get_generic(const Sc& sc, std::string_view key) {
  if (shared<Sc>(key)) return get_number(carrier(sc), key);
  const Split s = split_index(key);
  if (!s.ok) unknown(key, all_numeric_keys(sc));
  const schema::Finder<true> f = find<true, Sc>(sc, key, s.name);
  using St = typename schema::Finder<true>::Storage;
  switch (f.storage()) {
    case St::number: check_index(key, s.index, false); return *f.number_ptr();
    case St::integer:
      check_index(key, s.index, false);
      return f.int_ptr() ? static_cast<double>(*f.int_ptr()) : static_cast<double>(*f.integer_ptr());
    case St::vector: check_index(key, s.index, true); return (*f.vector_ptr())[s.index < 0 ? 0 : s.index];
    case St::matrix:
      check_index(key, s.index, false);
      if (!isotropic(*f.matrix_ptr())) not_isotropic(key, *f.matrix_ptr());
      return (*f.matrix_ptr())(0, 0);
    case St::declared: {
      check_index(key, s.index, false);
      if (const double* d = Kind<Sc>::declared(const_cast<Sc&>(sc), s.name)) return *d;
      not_a_number(key, f.field());
    }
    default: not_a_number(key, f.field());
  }
}

template <class Sc>
void set_generic(Sc& sc, std::string_view key, double value) {
  Sc copy = sc;
  if (shared<Sc>(key)) {
    LumpedScenario l = carrier(copy);
    set_number(l, key, value);
    take_back(copy, l);
  } else {
    const Split s = split_index(key);
    if (!s.ok) unknown(key, all_numeric_keys(sc));
    const schema::Finder<false> f = find<false, Sc>(copy, key, s.name);
    using St = typename schema::Finder<false>::Storage;
    const Field& field = f.field();
    if (!std::isfinite(value)) require_finite(key, value);  // NaN and infinities, whatever the rule
    field.range.check(key, value);
    switch (f.storage()) {
      case St::number: check_index(key, s.index, false); *f.number_ptr() = value; break;
      case St::integer:
        check_index(key, s.index, false);
        if (value != std::trunc(value) || std::abs(value) > 2e9)
          throw InvalidInput(fmt::format("{} = {}: must be an integer", key, format_value(value)));
        if (f.int_ptr()) *f.int_ptr() = static_cast<int>(value);
        else *f.integer_ptr() = static_cast<long>(value);
        break;
      case St::vector: check_index(key, s.index, true); (*f.vector_ptr())[s.index < 0 ? 0 : s.index] = value;
        if (s.index < 0) (*f.vector_ptr())[1] = 0.0;  // as in TOML: a number is [x, 0]
        break;
      case St::matrix:
        check_index(key, s.index, false);
        if (!isotropic(*f.matrix_ptr())) not_isotropic(key, *f.matrix_ptr());
        *f.matrix_ptr() = value * Mat2::Identity();
        break;
      case St::declared: {
        check_index(key, s.index, false);
        double* d = Kind<Sc>::declared(copy, s.name);
        if (!d) not_a_number(key, field);
        *d = value;
        break;
      }
      default: not_a_number(key, field);
    }
  }
  Kind<Sc>::validate(copy);
  sc = std::move(copy);
}

template <class Sc>
KeyInfo info_generic(const Sc& sc, std::string_view key) {
  if (shared<Sc>(key)) return key_info(carrier(sc), key);
  (void)get_generic(sc, key);  // the key exists, applies and is a number
  const Split s = split_index(key);
  schema::Finder<true> f = find<true, Sc>(sc, key, s.name);
  const Field& field = f.field();
  KeyInfo k;
  k.key = std::string(key);
  k.unit = field.unit;
  k.doc = field.doc;
  k.equation = field.equation;
  k.default_value = field.default_value;
  k.range = field.range.text();
  k.min = field.range.min();
  k.max = field.range.max();
  k.log_scale = field.log_scale;
  return k;
}

}  // namespace

double get_number(const PatchMapScenario& sc, std::string_view key) { return get_generic(sc, key); }
void set_number(PatchMapScenario& sc, std::string_view key, double value) { set_generic(sc, key, value); }
std::vector<std::string> numeric_keys(const PatchMapScenario& sc) { return all_numeric_keys(sc); }
KeyInfo key_info(const PatchMapScenario& sc, std::string_view key) { return info_generic(sc, key); }
double get_number(const PatchTransientScenario& sc, std::string_view key) { return get_generic(sc, key); }
void set_number(PatchTransientScenario& sc, std::string_view key, double value) { set_generic(sc, key, value); }
std::vector<std::string> numeric_keys(const PatchTransientScenario& sc) { return all_numeric_keys(sc); }
KeyInfo key_info(const PatchTransientScenario& sc, std::string_view key) { return info_generic(sc, key); }

}  // namespace bristle::io
