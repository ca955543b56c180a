#pragma once
// The schema Traits of contact::Signal (schema_py.hpp), shared by every class with a signal field: BenchParams
// (contact.cpp) and LineContactParams (transport.cpp).
#include "bristle/contact/signal.hpp"
#include "common.hpp"
#include "schema_py.hpp"

namespace bristle::python::schema_py {

template <>
struct ChoiceParser<contact::SignalKind> : ParseWith<contact::SignalKind, contact::signal_kind_from_string> {};

/// Signal: a signal table (a bare number in TOML is a constant). Declared, stored as lists: times, values.
template <>
struct Traits<contact::Signal> : PlainTraits<contact::Signal> {
  static constexpr const char* name = "Signal";
  static constexpr const char* prefix = "signal";
  static constexpr const char* extra_doc =
      "Deprecated alias: kind= (use type=).\n"
      "Example: ``Signal(type=\"sine\", amplitude=0.1, omega=6.283)(np.linspace(0, 1, 5))``\n";
  static void dump(const contact::Signal& p, std::vector<Entry>& es) {
    const bool table = p.kind == contact::SignalKind::table;
    es.push_back(Entry{"times", to_py(p.times), table, schema::Type::number_list, "the table's times (s)", {}});
    es.push_back(Entry{"values", to_py(p.values), table, schema::Type::number_list, "the table's values", {}});
  }
  static void load(contact::Signal& p, Load& l) {
    py::dict& kw = l.keywords();
    alias(kw, "kind", "type", "Signal");
    if (l.choice_given("type", p.kind) == contact::SignalKind::table)
      refuse_table_file(kw, "signal", {"file", "time_column", "value_column"}, "times= and values=");
    if (py::object t = pop(kw, "times")) p.times = to_vector(t, "signal.times");
    if (py::object v = pop(kw, "values")) p.values = to_vector(v, "signal.values");
  }
};

/// A signal field of a parameter class (BenchParams' input, LineContactParams' V2): its keyword `key` taken from the
/// Load (a Signal, a number: a constant, or a dict of a signal table's keys), with `<prefix>.<key>` in messages. A
/// dict given by the user is checked strictly; a state (pickling) holds every key.
inline void load_signal(Load& l, const std::string& key, std::string_view prefix, contact::Signal& s) {
  if (py::object v = pop(l.keywords(), key.c_str())) {
    const std::string path = std::string(prefix) + "." + key;
    s = from_kwargs<contact::Signal>(copy_of(table_dict(v, schema::Type::signal, path)), path,
                                     l.strict() && py::isinstance<py::dict>(v));
  }
}

}  // namespace bristle::python::schema_py
