#pragma once
// The parameter schema (bristle/core/schema.hpp) on the Python side: three archives that walk a struct's
// serialize() and give, from that one field list,
//   Dump   the state: every key (TOML name) with its value as plain Python data (float, int, str, bool,
//          lists; a matrix k I as the number k, else [[a, b], [c, d]]; a sub-table as a dict), plus
//          whether it applies to the value at hand;
//   Load   the inverse: applies a dict keyed by the TOML names (the constructor's keywords, __setstate__,
//          attribute assignment), with the reader's key paths in the messages ("law.mu_s: expected a
//          number, got str");
//   repr   ClassName(key=value, ...) listing the keys that apply or differ from the default, which reads
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
inline py::dict state_of(const std::vector<Entry>& entries) {
  py::dict d;
  for (const Entry& e : entries) {
    if (e.value) {
      d[py::str(e.key)] = e.value;
    } else if (e.applies || e.type == sc::Type::signal) {
      d[py::str(e.key)] = state_of(e.children);
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

// Enum parsers by type (the library's, which name the key and suggest the nearest name).
template <class E>
struct ChoiceParser;

class Load {
 public:
  Load(py::dict kw, std::string prefix) : kw_(std::move(kw)), prefix_(std::move(prefix)) {}

  template <class T>
  void number(T& v, const sc::Field& f, bool = true) {
    if (py::object o = take(f.key)) v = cast_arg<double>(o, path(f.key), "a number");
  }
  template <class T>
  void integer(T& v, const sc::Field& f, bool = true) {
    if (py::object o = take(f.key)) {
      if (py::isinstance<py::float_>(o) && o.cast<double>() != static_cast<double>(static_cast<long>(o.cast<double>())))
        throw InvalidInput(path(f.key) + " = " + std::string(py::repr(o)) + ": must be an integer");
      v = static_cast<T>(cast_arg<long>(o, path(f.key), "an integer"));
    }
  }
  template <class T>
  void matrix(T& v, const sc::Field& f, bool = true) {
    if (py::object o = take(f.key)) v = to_mat2(o, path(f.key));
  }
  template <class T>
  void vector(T& v, const sc::Field& f, bool = true) {
    if (py::object o = take(f.key)) v = to_vec2(o, path(f.key));
  }
  template <class T>
  void text(T& v, const sc::Field& f, bool = true) {
    if (py::object o = take(f.key)) v = cast_arg<std::string>(o, path(f.key), "a str");
  }
  template <class T>
  void flag(T& v, const sc::Field& f, bool = true) {
    if (py::object o = take(f.key)) v = cast_arg<bool>(o, path(f.key), "a bool");
  }
  template <class E>
  void choice(E& e, const sc::Field& f, bool = true) {
    if (py::object o = take(f.key)) e = enum_from<E>(o, path(f.key), ChoiceParser<E>::parse);
  }
  void declared(const sc::Field&, bool = true) {}
  template <class Visit>
  void table(const sc::Field& f, Visit&& visit, bool = true) {
    py::object o = take(f.key);
    if (!o) return;
    Load sub(py::dict(table_dict(o, f.type, path(f.key))), path(f.key));  // a copy: taking keys must not touch o
    visit(sub);
    sub.finish();
  }

  /// InvalidInput for keys no field took.
  void finish() const {
    for (auto item : kw_)
      throw py::type_error(prefix_ + ": unknown key '" + std::string(py::str(item.first)) + "'");
  }
  py::dict& keywords() { return kw_; }

 private:
  std::string path(std::string_view key) const { return prefix_.empty() ? std::string(key) : prefix_ + "." + std::string(key); }
  py::object take(std::string_view key) {
    py::str k{std::string(key)};
    if (!kw_.contains(k)) return py::object();
    py::object v = kw_[k];
    PyDict_DelItem(kw_.ptr(), k.ptr());
    return v;
  }
  py::dict kw_;
  std::string prefix_;
};

// ---- per-class traits ------------------------------------------------------------------------------
// Traits<T>: name (the Python class), prefix (the TOML table, for messages), walk(archive, self)
// (serialize), dump(const T&, entries) (declared fields, extras), load(T&, Load&) (consumes the keywords
// the walk does not know, before it), after(T&, const py::dict& given) (fix-ups after the walk).
template <class T>
struct Traits;

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
template <class T>
void apply(T& p, py::dict kw, std::string prefix = Traits<T>::prefix) {
  const py::dict given = py::dict(kw);  // the keys given (before the walk takes them)
  Load l(py::dict(kw), std::move(prefix));
  Traits<T>::load(p, l);
  Traits<T>::walk(l, p);
  l.finish();
  Traits<T>::after(p, given);
}

template <class T>
T from_kwargs(py::dict kw, std::string prefix = Traits<T>::prefix) {
  T p{};
  apply(p, std::move(kw), std::move(prefix));
  return p;
}

/// name(key=value, ...) of the entries that apply or differ from `defaults` (the type/drive/method choice
/// always). A sub-table is shown by `table_repr(key, state)` (a signal that is a constant as its number).
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
      if (same && !(choice && e.applies)) continue;
      text = source_of(e.value);
    } else {
      if (!e.applies) continue;
      const py::dict st = state_of(e.children);
      if (d && st.equal(state_of(d->children))) continue;
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

/// Puts the schema's constructor, repr, pickling, equality and the missing TOML-key properties on `cls`.
/// `constructor`: false where the class keeps its own (already named as TOML) constructor.
template <class T, class Class>
void bind_schema(Class& cls, std::string_view intro, bool constructor = true) {
  if (constructor) cls.def(py::init([](py::kwargs kw) { return from_kwargs<T>(py::dict(kw)); }), key_doc<T>(intro).c_str());
  cls.def("__repr__", [](const T& p) { return repr(p); })
      .def(py::pickle([](const T& p) { return state(p); }, [](py::dict d) { return from_kwargs<T>(std::move(d)); }))
      .def(
          "__eq__",
          [](const T& a, py::object b) -> py::object {
            if (!py::isinstance<T>(b)) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
            return py::bool_(state(a).equal(state(b.cast<const T&>())));
          },
          py::arg("other"), "Equal when every key has the same value (the pickled states are equal).")
      .def_static(
          "keys", [] { return py::list(state(T{}).attr("keys")()); },
          keys_doc(python_path(cls), py::list(state(T{}).attr("keys")())).c_str());
  cls.attr("__hash__") = py::none();
  // A property per top-level key that the class does not have yet.
  const std::vector<Entry> entries = entries_of(T{});
  for (const Entry& e : entries) {
    if (py::hasattr(cls, e.key.c_str()) || !e.value) continue;
    const std::string key = e.key;
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
