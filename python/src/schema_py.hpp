#pragma once
// The parameter schema (bristle/core/schema.hpp) on the Python side: three archives that walk a struct's
// serialize() and give, from that one field list,
//   Dump   the state: every key (TOML name) with its value as plain Python data (float, int, str, bool,
//          lists; a matrix k I as the number k, else [[a, b], [c, d]]; a sub-table as a dict), plus
//          whether it applies to the value at hand;
//   Load   the inverse: applies a dict keyed by the TOML names (the constructor's keywords, __setstate__,
//          attribute assignment), with the reader's key paths in the messages ("law.mu_s: expected a
//          number, got str");
//   repr   ClassName(key=value, ...) listing the keys that apply and differ from the default, which reads
//          back as Python with `from bristle import *` (eval(repr(x)) == x).
// bind_schema<T>() puts them on a bound class: a keyword constructor (the TOML keys; its docstring the
// schema's key table), __repr__, pickling (state = the Dump dict), __eq__ (equal states) and a property
// per TOML key the class does not have yet (the schema's doc as docstring).
//
// A struct's fields that the schema declares but stores differently (branch lists, Dahl's mu, the optional
// sigma0, normal_load_N, signal tables) and the Python-only extras (G_inverse, atol_per_component) are the
// business of its Traits<T> (next to the class's binding): dump() adds entries, load() consumes keywords
// before the walk, including the deprecated aliases of the keyword names used before (docs/python.md,
// "Names").
#include <algorithm>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bristle/core/schema.hpp"
#include "common.hpp"

namespace bristle::python::schema_py {

namespace sc = bristle::schema;

// ---- conversions ------------------------------------------------------------------------------------
inline py::object to_py(double v) { return py::float_(v); }
inline py::object to_py(long v) { return py::int_(v); }
inline py::object to_py(bool v) { return py::bool_(v); }
inline py::object to_py(const std::string& v) { return py::str(v); }
inline py::object to_py(const Mat2& m) {
  if (m(0, 1) == 0.0 && m(1, 0) == 0.0 && m(0, 0) == m(1, 1)) return py::float_(m(0, 0));
  py::list rows;
  for (int i = 0; i < 2; ++i) {
    py::list row;
    row.append(m(i, 0));
    row.append(m(i, 1));
    rows.append(row);
  }
  return rows;
}
inline py::object to_py(const Vec2& v) {
  py::list out;
  out.append(v[0]);
  out.append(v[1]);
  return out;
}
inline py::object to_py(const std::vector<double>& v) {
  py::list out;
  for (double x : v) out.append(x);
  return out;
}

/// Python source of plain data (floats as repr_double: nan and inf read back).
inline std::string source_of(py::handle v) {
  if (py::isinstance<py::bool_>(v)) return v.cast<bool>() ? "True" : "False";
  if (py::isinstance<py::float_>(v)) return repr_double(v.cast<double>());
  if (py::isinstance<py::list>(v) || py::isinstance<py::tuple>(v)) {
    std::string s = "[";
    bool first = true;
    for (py::handle x : v) {
      s += (first ? "" : ", ") + source_of(x);
      first = false;
    }
    return s + "]";
  }
  return std::string(py::repr(v));
}

/// Raises a DeprecationWarning (an error when warnings are errors).
inline void deprecated(const std::string& message) {
  if (PyErr_WarnEx(PyExc_DeprecationWarning, message.c_str(), 2) != 0) throw py::error_already_set();
}

/// Moves kw[old_name] to kw[new_name] with a DeprecationWarning; both given is an error.
inline void alias(py::dict& kw, const char* old_name, const char* new_name, std::string_view cls) {
  if (!kw.contains(old_name)) return;
  if (kw.contains(new_name))
    throw py::type_error(std::string(cls) + ": give " + new_name + " (the TOML key), not also " + old_name);
  deprecated(std::string(cls) + "(" + old_name + "=...): deprecated, use " + new_name + "= (the TOML key)");
  kw[new_name] = kw[old_name];
  PyDict_DelItemString(kw.ptr(), old_name);
}

/// Pops kw[key] (an empty object if absent).
inline py::object pop(py::dict& kw, const char* key) {
  if (!kw.contains(key)) return py::object();
  py::object v = kw[key];
  PyDict_DelItemString(kw.ptr(), key);
  return v;
}

// ---- the archives ----------------------------------------------------------------------------------
struct Entry {
  std::string key;
  py::object value;  // a leaf's value; empty for a table
  bool applies = true;
  sc::Type type = sc::Type::number;
  std::string doc;  // "doc (unit), range; equation"
  std::vector<Entry> children;  // a table's entries
};

inline std::string doc_of(const sc::Field& f) {
  std::string s(f.doc);
  if (!f.unit.empty() && f.unit != "-") s += " (" + std::string(f.unit) + ")";
  const std::string range = f.range.text();
  if (!range.empty()) s += ", " + range;
  if (!f.equation.empty()) s += "; " + std::string(f.equation);
  if (!f.used_by.empty()) s += "; used by " + std::string(f.used_by);
  return s;
}

class Dump {
 public:
  std::vector<Entry> entries;

  template <class T>
  void number(const T& v, const sc::Field& f, bool applies = true) { add(f, to_py(static_cast<double>(v)), applies); }
  template <class T>
  void integer(const T& v, const sc::Field& f, bool applies = true) { add(f, to_py(static_cast<long>(v)), applies); }
  template <class T>
  void matrix(const T& v, const sc::Field& f, bool applies = true) { add(f, to_py(Mat2(v)), applies); }
  template <class T>
  void vector(const T& v, const sc::Field& f, bool applies = true) { add(f, to_py(Vec2(v)), applies); }
  template <class T>
  void text(const T& v, const sc::Field& f, bool applies = true) { add(f, py::str(std::string(v)), applies); }
  template <class T>
  void flag(const T& v, const sc::Field& f, bool applies = true) { add(f, py::bool_(bool(v)), applies); }
  template <class E>
  void choice(const E& e, const sc::Field& f, bool applies = true) {
    add(f, py::str(std::string(to_string(e))), applies);
  }
  void declared(const sc::Field&, bool = true) {}  // Traits<T>::dump adds these
  template <class Visit>
  void table(const sc::Field& f, Visit&& visit, bool applies = true) {
    Dump sub;
    visit(sub);
    entries.push_back(Entry{std::string(f.key), py::object(), applies, f.type, doc_of(f), std::move(sub.entries)});
  }

 private:
  void add(const sc::Field& f, py::object v, bool applies) {
    entries.push_back(Entry{std::string(f.key), std::move(v), applies, f.type, doc_of(f), {}});
  }
};

/// A table file (`file` and its column keys) given to a Python class: the scenario reader's; Python gives the
/// arrays (`arrays`, e.g. "times= and values="). TypeError naming the key.
inline void refuse_table_file(const py::dict& kw, const std::string& table, std::initializer_list<const char*> keys,
                              const char* arrays) {
  for (const char* k : keys)
    if (kw.contains(k))
      throw py::type_error(table + "." + k + ": a table file is read by the scenario reader; in Python give " + arrays +
                           " (e.g. from numpy.loadtxt)");
}

/// Inserts `e` after the entry of `key` (at the end if absent): a declared field in its schema place.
inline void insert_after(std::vector<Entry>& entries, std::string_view key, Entry e) {
  std::size_t at = 0;
  while (at < entries.size() && entries[at].key != key) ++at;
  entries.insert(entries.begin() + static_cast<std::ptrdiff_t>(std::min(at + 1, entries.size())), std::move(e));
}

/// A declared optional number (PatchParams' peak_pressure_Pa, PatchTransientParams' width_exponent): its entry, the
/// number or None, placed after `after`; and its keyword `key` taken from `kw` (None unsets it).
inline void dump_optional(std::vector<Entry>& entries, std::string_view after, const char* key,
                          const std::optional<double>& v, std::string doc) {
  insert_after(entries, after,
               Entry{key, v ? py::object(py::float_(*v)) : py::none(), true, sc::Type::number, std::move(doc), {}});
}
inline void load_optional(py::dict& kw, const char* key, const std::string& path, std::optional<double>& v) {
  if (py::object o = pop(kw, key)) {
    if (o.is_none()) v.reset();
    else v = cast_arg<double>(o, path, "a number or None");
  }
}

/// The entry of `key` (nullptr if absent).
inline Entry* find(std::vector<Entry>& entries, std::string_view key) {
  for (Entry& e : entries)
    if (e.key == key) return &e;
  return nullptr;
}
inline const Entry* find(const std::vector<Entry>& entries, std::string_view key) {
  for (const Entry& e : entries)
    if (e.key == key) return &e;
  return nullptr;
}

/// The state dict: every leaf and every signal; the other sub-tables where they apply (as dicts; LawParams'
/// axis1 / axis2 tables say that the friction is anisotropic).
/// `applying`: only the keys that apply to the value at hand (what __eq__ compares: two Dahl laws that differ
/// only in v_s, which a Dahl law does not read, are equal).
inline py::dict state_of(const std::vector<Entry>& entries, bool applying = false) {
  py::dict d;
  for (const Entry& e : entries) {
    if (applying && !e.applies) continue;
    if (e.value) {
      d[py::str(e.key)] = e.value;
    } else if (e.applies || e.type == sc::Type::signal) {
      d[py::str(e.key)] = state_of(e.children, applying);
    }
  }
  return d;
}

/// A dict for a sub-table from a dict, an object with __getstate__ (a bound parameter class) or, for a
/// signal, a number (a constant).
inline py::dict table_dict(py::handle v, sc::Type type, const std::string& path) {
  if (py::isinstance<py::dict>(v)) return py::reinterpret_borrow<py::dict>(v);
  if (type == sc::Type::signal && (py::isinstance<py::float_>(v) || py::isinstance<py::int_>(v))) {
    py::dict d;
    d["type"] = "constant";
    d["value"] = v;
    return d;
  }
  if (py::hasattr(v, "__getstate__")) {
    py::object s = v.attr("__getstate__")();
    if (py::isinstance<py::dict>(s)) return py::reinterpret_borrow<py::dict>(s);
  }
  throw py::type_error(path + ": expected " + (type == sc::Type::signal ? "a number, a Signal" : "a parameter object") +
                       " or a dict, got " + std::string(py::str(py::type::handle_of(v).attr("__name__"))));
}

/// A shallow copy of a dict: py::dict(d) of a dict is d itself, and the walk pops the keys it takes (a dict given
/// for a sub-table, BenchParams(input=d), was emptied).
inline py::dict copy_of(const py::dict& d) { return py::reinterpret_steal<py::dict>(PyDict_Copy(d.ptr())); }

// Enum parsers by type (the library's, which name the key and suggest the nearest name).
template <class E>
struct ChoiceParser;

/// The library's parser of a choice as its ChoiceParser: template <> struct ChoiceParser<E> : ParseWith<E, f> {};
template <class E, E (*Parse)(std::string_view key, std::string_view name)>
struct ParseWith {
  static E parse(std::string_view key, std::string_view name) { return Parse(key, name); }
};

class Load {
 public:
  /// `strict`: a key given that does not apply to the value at hand (law.v_s of a Dahl law) is set but warned
  /// of (a UserWarning with the reader's message, which refuses it: loops over law types with common keywords
  /// are Python's idiom, as scikit-learn warns of a parameter its chosen variant does not use); false for a
  /// state dict (pickling, an object's __getstate__), which holds every key. `fresh`: the struct is a default
  /// one (a constructor), so a choice not given is "(the default)". `context`: that of the enclosing table (a
  /// table without a choice of its own inherits it).
  Load(py::dict kw, std::string prefix, bool strict = true, bool fresh = true, std::string context = {})
      : kw_(std::move(kw)), prefix_(std::move(prefix)), strict_(strict), fresh_(fresh), context_(std::move(context)) {
    for (auto item : kw_) given_.emplace_back(py::str(item.first));
  }

  /// Two walks of serialize(), as the reader's passes: the choices and flags first (the fields' `applies`
  /// are those of the value given: LawParams' serialize() reads its type before its walk), then the rest.
  template <class Walk>
  void run(Walk&& walk) {
    choices_pass_ = true;
    walk(*this);
    choices_pass_ = false;
    walk(*this);
  }

  template <class T>
  void number(T& v, const sc::Field& f, bool applies = true) {
    if (py::object o = take(f, applies)) v = number_arg(o, path(f.key));
  }
  template <class T>
  void integer(T& v, const sc::Field& f, bool applies = true) {
    py::object o = take(f, applies);
    if (!o) return;
    // Within the storage's bounds (the field's range is validate()'s): 2**32 + 7 became 7 in an int, and a float
    // beyond a long's range was cast with undefined behaviour.
    constexpr long long lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
    const auto out_of_range = [&] {
      return InvalidInput(path(f.key) + " = " + std::string(py::repr(o)) + ": must be in [" + std::to_string(lo) +
                          ", " + std::to_string(hi) + "]");
    };
    if (py::isinstance<py::float_>(o)) {
      const double x = o.cast<double>();
      if (std::isfinite(x) && x != std::trunc(x))
        throw InvalidInput(path(f.key) + " = " + std::string(py::repr(o)) + ": must be an integer");
      // [lo, hi] exactly: lo and -lo = hi + 1 are powers of two
      if (!(x >= static_cast<double>(lo) && x < -static_cast<double>(lo))) throw out_of_range();
      v = static_cast<T>(x);
      return;
    }
    if (py::isinstance<py::int_>(o) && !py::isinstance<py::bool_>(o)) {
      int overflow = 0;
      const long long i = PyLong_AsLongLongAndOverflow(o.ptr(), &overflow);
      if (overflow != 0 || i < lo || i > hi) throw out_of_range();
      v = static_cast<T>(i);
      return;
    }
    v = static_cast<T>(cast_arg<long>(o, path(f.key), "an integer"));  // its TypeError
  }
  template <class T>
  void matrix(T& v, const sc::Field& f, bool applies = true) {
    if (py::object o = take(f, applies)) v = to_mat2(o, path(f.key));
  }
  template <class T>
  void vector(T& v, const sc::Field& f, bool applies = true) {
    if (py::object o = take(f, applies)) v = to_vec2(o, path(f.key));
  }
  template <class T>
  void text(T& v, const sc::Field& f, bool applies = true) {
    if (py::object o = take(f, applies)) v = cast_arg<std::string>(o, path(f.key), "a str");
  }
  template <class T>
  void flag(T& v, const sc::Field& f, bool applies = true) {
    if (!choices_pass_) return record(f, applies);
    if (py::object o = take(f.key)) v = cast_arg<bool>(o, path(f.key), "a bool");
  }
  template <class E>
  void choice(E& e, const sc::Field& f, bool applies = true) {
    if (choices_pass_) {
      if (py::object o = take(f.key)) {
        e = enum_from<E>(o, path(f.key), ChoiceParser<E>::parse);
        given_choices_.emplace_back(f.key);
      }
      return;
    }
    record(f, applies);
    if (own_context_ || !applies) return;
    const bool given = std::find(given_choices_.begin(), given_choices_.end(), f.key) != given_choices_.end();
    context_ = path(f.key) + " = \"" + std::string(to_string(e)) + "\"" + (given || !fresh_ ? "" : " (the default)");
    own_context_ = true;
  }
  /// A declared field is converted by Traits<T>::load (which pops its key before the walk); given where it does
  /// not apply, it is warned of as the reader refuses it, and dropped (it has no storage to set).
  void declared(const sc::Field& f, bool applies = true) {
    if (choices_pass_) return;
    record(f, applies);
    if (applies || !strict_ || context_.empty() || !given(f.key)) return;
    refused_.push_back(path(f.key));
    if (kw_.contains(py::str(std::string(f.key)))) PyDict_DelItemString(kw_.ptr(), std::string(f.key).c_str());
  }
  template <class Visit>
  void table(const sc::Field& f, Visit&& visit, bool applies = true) {
    py::object o = take(f, applies);
    if (!o) return;
    // A dict is the user's (strict); a parameter object's state holds every key.
    const bool strict = strict_ && py::isinstance<py::dict>(o);
    Load sub(copy_of(table_dict(o, f.type, path(f.key))), path(f.key), strict, true, context_);  // o untouched
    sub.run(visit);
    sub.finish();
  }

  /// TypeError for keys no field took; a UserWarning for keys given that do not apply (strict only, in a table
  /// with a choice: elsewhere the cross-checks are validate()'s).
  void finish() const {
    for (auto item : kw_)
      throw py::type_error(prefix_ + ": unknown key '" + std::string(py::str(item.first)) + "'");
    if (refused_.empty()) return;
    const bool one = refused_.size() == 1;
    // Not "no effect": two keys may share storage (k0 and k_inf of RheologyParams), and an anisotropic law's
    // mu_s is its axes'.
    const std::string message = (one ? "key \"" : "keys \"") + join(refused_, "\", \"") +
                                (one ? "\" does not apply to " : "\" do not apply to ") + context_ +
                                " (valid keys here: " + join(valid_, ", ") + "; the scenario reader refuses " +
                                (one ? "it)" : "them)");
    if (PyErr_WarnEx(PyExc_UserWarning, message.c_str(), 1) != 0) throw py::error_already_set();
  }
  py::dict& keywords() { return kw_; }
  /// The choice `key` as given (parsed by its ChoiceParser, the key path in messages), else `current`: what a
  /// Traits<T>::load that depends on the type reads before the walk sets it.
  template <class E>
  E choice_given(const char* key, E current) const {
    if (!kw_.contains(key)) return current;
    return enum_from<E>(kw_[key], path(key), ChoiceParser<E>::parse);
  }
  /// Whether the struct is a default one (a constructor), not an object being changed (an attribute set).
  bool fresh() const { return fresh_; }
  /// Whether keys that do not apply are warned of (false for a state dict): a Traits<T>::load that reads a
  /// sub-table itself passes it on (strict() && the value is a dict).
  bool strict() const { return strict_; }

 private:
  static std::string join(const std::vector<std::string>& keys, const std::string& separator) {
    std::string s;
    for (std::size_t i = 0; i < keys.size(); ++i) s += (i ? separator : "") + keys[i];
    return s;
  }
  std::string path(std::string_view key) const { return prefix_.empty() ? std::string(key) : prefix_ + "." + std::string(key); }
  void record(const sc::Field& f, bool applies) {
    if (applies) valid_.emplace_back(f.key);
  }
  /// The second walk's take: records the key, and a key given that does not apply (for finish()'s warning).
  py::object take(const sc::Field& f, bool applies) {
    if (choices_pass_) return py::object();
    record(f, applies);
    py::object o = take(f.key);
    // Also a key Traits<T>::load consumed before the walk (a signal's times, a law's sigma0): given, it is checked.
    if ((o || given(f.key)) && !applies && strict_ && !context_.empty()) refused_.push_back(path(f.key));
    return o;
  }
  bool given(std::string_view key) const { return std::find(given_.begin(), given_.end(), key) != given_.end(); }
  py::object take(std::string_view key) {
    py::str k{std::string(key)};
    if (!kw_.contains(k)) return py::object();
    py::object v = kw_[k];
    PyDict_DelItem(kw_.ptr(), k.ptr());
    return v;
  }
  py::dict kw_;
  std::string prefix_;
  bool strict_ = true;
  bool fresh_ = true;
  std::string context_;                   // "<choice key path> = \"value\"", from the first choice (or inherited)
  bool own_context_ = false;
  bool choices_pass_ = false;
  std::vector<std::string> given_choices_;
  std::vector<std::string> valid_;        // the keys that apply, in walk order (for the message)
  std::vector<std::string> refused_;      // the keys given that do not apply
  std::vector<std::string> given_;        // the keys given, before Traits<T>::load consumed any
};

// ---- per-class traits ------------------------------------------------------------------------------
// Traits<T>: name (the Python class), prefix (the TOML table, for messages), walk(archive, self)
// (serialize), dump(const T&, entries) (declared fields, extras), load(T&, Load&) (consumes the keywords
// the walk does not know, before it), after(T&, const py::dict& given) (fix-ups after the walk).
template <class T>
struct Traits;

/// The Traits of a class whose serialize() says everything (no declared field, alias or fix-up): a
/// specialisation derives from it and adds name and prefix (and extra_doc, if it has one).
template <class T>
struct PlainTraits {
  static constexpr const char* extra_doc = "";
  template <class A, class S>
  static void walk(A& a, S& p) { serialize(a, p); }
  static void dump(const T&, std::vector<Entry>&) {}
  static void load(T&, Load&) {}
  static void after(T&, const py::dict&) {}
  static std::string table_repr(const std::string&, const py::dict&) { return std::string(Traits<T>::name) + "()"; }
};

/// The Dump entries of p (the walk plus Traits<T>::dump).
template <class T>
std::vector<Entry> entries_of(const T& p) {
  Dump d;
  Traits<T>::walk(d, p);
  Traits<T>::dump(p, d.entries);
  return std::move(d.entries);
}

template <class T>
py::dict state(const T& p) {
  return state_of(entries_of(p));
}

/// Applies the keywords (TOML names, deprecated aliases) to p.
/// Applies the keywords (TOML names, deprecated aliases) to p. `strict`, `fresh`: Load's (strict false for a
/// state dict; fresh true when p is a default-constructed struct).
template <class T>
void apply(T& p, py::dict kw, std::string prefix = Traits<T>::prefix, bool strict = true, bool fresh = false) {
  const py::dict given = copy_of(kw);  // the keys given (before the walk takes them)
  Load l(copy_of(kw), std::move(prefix), strict, fresh);
  Traits<T>::load(p, l);
  l.run([&p](Load& a) { Traits<T>::walk(a, p); });
  l.finish();
  Traits<T>::after(p, given);
}

template <class T>
T from_kwargs(py::dict kw, std::string prefix = Traits<T>::prefix, bool strict = true) {
  T p{};
  apply(p, std::move(kw), std::move(prefix), strict, true);
  return p;
}

/// From a state dict (__getstate__, pickling): every key, whether or not it applies.
template <class T>
T from_state(py::dict state, std::string prefix = Traits<T>::prefix) {
  return from_kwargs<T>(std::move(state), std::move(prefix), false);
}

/// name(key=value, ...) of the entries that apply and differ from `defaults` (the type/drive/method choice
/// always; a key that does not apply is left out: eval(repr) equals the value, as __eq__ compares). A sub-table is shown by `table_repr(key, state)` (a signal that is a constant as its number).
inline std::string repr_entries(const std::string& name, const std::vector<Entry>& entries,
                                const std::vector<Entry>& defaults,
                                std::string (*table_repr)(const std::string& key, const py::dict& state)) {
  std::string s = name + "(";
  bool first = true;
  for (const Entry& e : entries) {
    const Entry* d = find(defaults, e.key);
    std::string text;
    if (e.value) {
      const bool same = d && d->value && e.value.equal(d->value);
      const bool choice = e.type == sc::Type::choice;
      if (!e.applies || (same && !choice)) continue;  // a key that does not apply would warn in eval(repr)
      text = source_of(e.value);
    } else {
      if (!e.applies) continue;
      const py::dict st = state_of(e.children);
      // A sub-table (not a signal) that applies here but not to the default is a form, shown even when its values are
      // the defaults: an anisotropic law's axis1 (eval of "LawParams(type='lugre', axis2=...)" alone was a form the
      // reader refuses, `missing key "law.axis1"`).
      const bool form = e.type != sc::Type::signal && d && !d->applies;
      if (d && !form && st.equal(state_of(d->children))) continue;
      if (e.type == sc::Type::signal && st["type"].cast<std::string>() == "constant")
        text = source_of(st["value"]);
      else
        text = table_repr(e.key, st);
    }
    s += (first ? "" : ", ") + e.key + "=" + text;
    first = false;
  }
  return s + ")";
}

template <class T>
std::string repr(const T& p) {
  return repr_entries(Traits<T>::name, entries_of(p), entries_of(T{}), Traits<T>::table_repr);
}

/// The constructor's docstring: the keys of the schema (KeyTable of a default value) with unit, default,
/// range and doc.
template <class T>
std::string key_doc(std::string_view intro) {
  sc::KeyTable table;
  T p{};
  Traits<T>::walk(table, p);
  std::string s = std::string(intro) + "\n\nKeywords (the TOML keys of [" + Traits<T>::prefix + "]; every one optional):\n";
  for (const sc::KeyRow& r : table.rows()) {
    const sc::Field& f = r.field;
    s += "  " + r.path + (r.table ? " (table)" : "") + ": " + std::string(f.doc);
    if (!f.unit.empty()) s += "; unit " + std::string(f.unit);
    if (!f.default_value.empty()) s += "; default " + std::string(f.default_value);
    const std::string range = f.range.text();
    if (!range.empty()) s += "; " + range;
    if (!f.equation.empty()) s += "; " + std::string(f.equation);
    if (!f.used_by.empty()) s += "; used by " + std::string(f.used_by);
    s += "\n";
  }
  s += Traits<T>::extra_doc;
  return s;
}

/// The docstring of Class.keys(): what it returns and, as its example, the class's own first keys.
inline std::string keys_doc(const std::string& path, const py::list& keys) {
  std::string first;
  for (std::size_t i = 0; i < std::min<std::size_t>(3, keys.size()); ++i)
    first += std::string(i ? ", " : "") + std::string(py::repr(keys[i]));
  return "The keyword names (the TOML keys, unit and range in help() of the class), in schema order.\n\n"
         "Example:\n    >>> " + path + ".keys()[:3]\n    [" + first + "]\n";
}

/// Whether the top-level `key` applies to the value walked (nullopt: the walk does not declare it, e.g. a key of
/// Traits<T>::dump). No Python object is built.
class AppliesOf {
 public:
  explicit AppliesOf(std::string_view key) : key_(key) {}
  std::optional<bool> result;
  template <class V> void number(V&, const sc::Field& f, bool applies = true) { see(f, applies); }
  template <class V> void integer(V&, const sc::Field& f, bool applies = true) { see(f, applies); }
  template <class V> void matrix(V&, const sc::Field& f, bool applies = true) { see(f, applies); }
  template <class V> void vector(V&, const sc::Field& f, bool applies = true) { see(f, applies); }
  template <class V> void text(V&, const sc::Field& f, bool applies = true) { see(f, applies); }
  template <class V> void flag(V&, const sc::Field& f, bool applies = true) { see(f, applies); }
  template <class V> void choice(V&, const sc::Field& f, bool applies = true) { see(f, applies); }
  void declared(const sc::Field& f, bool applies = true) { see(f, applies); }
  template <class Visit> void table(const sc::Field& f, Visit&&, bool applies = true) { see(f, applies); }

 private:
  void see(const sc::Field& f, bool applies) {
    if (!result && f.key == key_) result = applies;
  }
  std::string_view key_;
};

/// After an attribute set: the UserWarning of a constructor given that key, when it does not apply to p (checked on
/// a copy, which the value read back is applied to).
template <class T>
void warn_if_not_applies(py::handle self, const std::string& key) {
  const T& p = self.cast<const T&>();
  AppliesOf finder(key);  // the common case, a key that applies, without building the entries (~1 us, not ~25)
  Traits<T>::walk(finder, p);
  if (finder.result && *finder.result) return;
  const std::vector<Entry> es = entries_of(p);
  const Entry* e = find(es, key);
  if (!e || e->applies || (e->value && e->value.is_none())) return;  // None unsets (law.sigma0 = None on FrBD)
  T copy = p;
  py::dict d;
  // A sub-table as the attribute reads (a Signal object: its state is not checked key by key, as a dict would be)
  d[py::str(key)] = e->value ? e->value : py::object(self.attr(key.c_str()));
  apply(copy, d);
}

/// Puts the schema's constructor, repr, pickling, equality and the missing TOML-key properties on `cls`.
/// `constructor`: false where the class keeps its own (already named as TOML) constructor.
template <class T, class Class>
void bind_schema(Class& cls, std::string_view intro, bool constructor = true) {
  if (constructor) cls.def(py::init([](py::kwargs kw) { return from_kwargs<T>(py::dict(kw)); }), key_doc<T>(intro).c_str());
  cls.def("__repr__", [](const T& p) { return repr(p); })
      .def(py::pickle([](const T& p) { return state(p); }, [](py::dict d) { return from_state<T>(std::move(d)); }))
      .def(
          "__eq__",
          [](const T& a, py::object b) -> py::object {
            if (!py::isinstance<T>(b)) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
            return py::bool_(state_of(entries_of(a), true).equal(state_of(entries_of(b.cast<const T&>()), true)));
          },
          py::arg("other"), "Equal when every key that applies has the same value (the keys of the type at hand).")
      .def_static(
          "keys", [] { return py::list(state(T{}).attr("keys")()); },
          keys_doc(python_path(cls), py::list(state(T{}).attr("keys")())).c_str());
  cls.attr("__hash__") = py::none();
  // A property per top-level key that the class does not have yet; a hand-written one of a key keeps its getter
  // and setter, and its setter warns as the generated one does when the key does not apply to the value at hand.
  const std::vector<Entry> entries = entries_of(T{});
  const py::object property = py::module_::import("builtins").attr("property");
  for (const Entry& e : entries) {
    const std::string key = e.key;
    if (py::hasattr(cls, key.c_str())) {  // also a signal table's (BenchParams.belt)
      const py::object prop = cls.attr("__dict__").attr("get")(key);
      if (prop.is_none() || !py::isinstance(prop, property) || prop.attr("fset").is_none()) continue;
      const py::object fset = prop.attr("fset");
      const py::cpp_function setter(
          [fset, key](py::object self, py::object v) {
            fset(self, v);
            warn_if_not_applies<T>(self, key);
          },
          py::is_method(cls));
      cls.attr(key.c_str()) = property(prop.attr("fget"), setter, py::none(), prop.attr("__doc__"));
      continue;
    }
    if (!e.value) continue;  // a sub-table without an attribute of its own: none is generated
    cls.def_property(
        key.c_str(),
        [key](const T& p) -> py::object {
          const std::vector<Entry> es = entries_of(p);
          return find(es, key)->value;
        },
        [key](T& p, py::object v) {
          py::dict d;
          d[py::str(key)] = v;
          apply(p, d);
        },
        (e.doc + " (TOML key " + std::string(Traits<T>::prefix) + "." + key + ")").c_str());
  }
}

}  // namespace bristle::python::schema_py
