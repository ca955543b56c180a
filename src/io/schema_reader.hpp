#pragma once
// Private: the schema-driven TOML reader (core/schema.hpp's archive interface over a toml_reader Section).
//
// SchemaReader walks a struct's serialize() against one TOML table, in three passes per table:
//   1. choices and flags: each `a.choice` / `a.flag` present is read (a choice by the overload
//      choice_from_string below, whose error names the key and the nearest valid name; a required choice
//      that is absent is "missing key"), so that the fields' `applies` are those of the value at hand;
//      the first choice gives the context of messages ("law.type = \"frbd\"", "integrator.method =
//      \"auto\" (the default)"). Then the table's `before` hook, if any (checks of the TOML form that
//      the schema does not state, e.g. "mu_s cannot be combined with [law.axis1]").
//   2. keys: the table's keys must be fields of the walk; a field that does not apply is "key \"..\" does
//      not apply to <context> (valid keys here: ..)" in a table with a choice (in a table without one
//      every field is valid: its cross-checks are the caller's), anything else "unknown key" with the
//      nearest valid key (Section::check_keys, the messages of the hand-written readers). With a `forms`
//      hook the valid keys are those of every form of the table (isotropic and anisotropic friction).
//   3. values: every applying field present is read with its type checked and its Range checked
//      (Range::check, with the full dotted key path the user wrote; a number or integer with a `check` hook
//      calls it instead, vectors and matrices have none); absent fields keep their default,
//      and a field whose default_value is "required" is "missing key \"<path>\" (required: <text>)",
//      <text> from the `required` hook or else the field's doc (", <unit>" unless the unit is "-" or a
//      "(...)" placeholder). Declared fields (a TOML form that differs from the storage) call their
//      `declared` hook when they apply, present or not, in walk order; without a hook they are only
//      accepted (the caller converts them). Sub-tables are read by a reader of their own (same hooks);
//      an absent sub-table is walked as an empty one (its required keys are then "missing"), unless it is
//      in `skip`. A signal (Type::signal) is a number (a constant: read as {type = "constant", value = x})
//      or a table walked by contact::Signal's serialize().
// Hooks are found by the full dotted path of the field or table ("law.mu", "bench.input"); `declared` and
// `required` hooks also by the field's bare key ("mu", "times").
#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bristle/contact/bench.hpp"
#include "bristle/contact/signal.hpp"
#include "bristle/core/error.hpp"
#include "bristle/core/schema.hpp"
#include "bristle/integrate/ode.hpp"
#include "bristle/laws/friction_law.hpp"
#include "bristle/rheology/rheology.hpp"
#include "scenario_internal.hpp"
#include "toml_reader.hpp"

namespace bristle::io::detail {

// Choice names to values; each throws InvalidInput naming `key` and the nearest valid name. Other enums
// add an overload here (or in their own namespace, found by argument-dependent lookup).
void choice_from_string(std::string_view key, std::string_view name, laws::LawKind& out);
void choice_from_string(std::string_view key, std::string_view name, rheology::RheologyKind& out);
void choice_from_string(std::string_view key, std::string_view name, contact::SignalKind& out);
void choice_from_string(std::string_view key, std::string_view name, contact::DriveKind& out);
void choice_from_string(std::string_view key, std::string_view name, integrate::Method& out);

/// What a schema does not say: conversions of declared fields, message texts, checks of the TOML form.
struct ReaderHooks {
  using TableHook = std::function<void(const Section& table)>;
  /// A declared field that applies, present or not: `table` is the field's table.
  std::map<std::string, TableHook, std::less<>> declared;
  /// A table, after its choices are read and before its keys are checked.
  std::map<std::string, TableHook, std::less<>> before;
  /// A number or integer whose check is not its Range (a message of its own, or the library's in the caller's
  /// validate()): called with the field's table instead of Range::check; a choice whose names depend on more than
  /// its type: called instead of choice_from_string, the hook sets the value.
  std::map<std::string, TableHook, std::less<>> check;
  /// The "(required: ...)" text of a required field (when its doc is not the text).
  std::map<std::string, std::function<std::string()>, std::less<>> required;
  /// A table with several TOML forms (selected by presence, not by a key): form(i) selects form i of
  /// `count`, then form(-1) restores the form at hand.
  struct Forms {
    int count = 1;
    std::function<void(int)> form;
  };
  std::map<std::string, Forms, std::less<>> forms;
  /// Tables not walked (read elsewhere, e.g. "sweep").
  std::vector<std::string> skip;
  /// Every matrix as written (form: k, [a, b] or [[..]]), by full key path.
  std::map<std::string, MatrixValue, std::less<>>* matrices = nullptr;
};

/// The "(required: ...)" text of `f` without a hook: its doc, then ", unit" for a physical unit.
std::string required_text(const schema::Field& f);
/// "a, b or c" from a schema choice list "a, b, c".
std::string choices_text(std::string_view choices);

class SchemaReader {
 public:
  /// `context`: that of the enclosing table (a table without a choice of its own inherits it).
  SchemaReader(const Section& table, const ReaderHooks& hooks, std::string context = {})
      : s_(table), hooks_(&hooks), context_(std::move(context)) {}

  /// Reads `p` (a struct with a serialize()) from the table.
  template <class T>
  void read(T& p) {
    run([&](auto& a) { serialize(a, p); });
  }
  /// Reads the fields `visit(archive)` lists from the table.
  template <class Visit>
  void run(Visit&& visit) {
    pass_ = Pass::choices;
    visit(*this);
    if (const auto* h = find(hooks_->before, s_.path(), {})) (*h)(s_);
    pass_ = Pass::keys;
    keys_.clear();
    applies_.clear();
    const auto forms = hooks_->forms.find(s_.path());
    if (forms == hooks_->forms.end()) {
      index_ = 0;
      visit(*this);
    } else {
      for (int i = 0; i < forms->second.count; ++i) {
        forms->second.form(i);
        index_ = 0;
        visit(*this);
      }
      forms->second.form(-1);
    }
    check_keys();
    pass_ = Pass::values;
    visit(*this);
  }

  template <class T>
  void number(T& v, const schema::Field& f, bool applies = true) {
    if (!field(f, applies)) return;
    v = *s_.number(f.key, f.range.rule == schema::Rule::finite_or_inf);
    if (const auto* h = find(hooks_->check, s_.key(f.key), {})) return (*h)(s_);
    f.range.check(s_.key(f.key), v);
  }
  template <class T>
  void integer(T& v, const schema::Field& f, bool applies = true) {
    if (!field(f, applies)) return;
    const auto i = *s_.integer(f.key);
    if (const auto* h = find(hooks_->check, s_.key(f.key), {})) (*h)(s_);
    else f.range.check(s_.key(f.key), static_cast<double>(i), fmt::format("{}", i));  // i quoted exactly
    if constexpr (sizeof(T) < sizeof(i)) {  // an int beyond its storage (a range "any", or a check hook's key)
      if (i < std::numeric_limits<T>::min() || i > std::numeric_limits<T>::max()) {
        // the storage's bounds within the field's range (an index >= 0 says [0, 2147483647])
        const double lo = std::max<double>(std::numeric_limits<T>::min(), f.range.min());
        const double hi = std::min<double>(std::numeric_limits<T>::max(), f.range.max());
        throw InvalidInput(fmt::format("{} = {}: must be in [{}, {}]", s_.key(f.key), i, static_cast<std::int64_t>(lo),
                                       static_cast<std::int64_t>(hi)));
      }
    }
    v = static_cast<T>(i);
  }
  void matrix(Mat2& m, const schema::Field& f, bool applies = true);
  void vector(Vec2& v, const schema::Field& f, bool applies = true);
  void text(std::string& v, const schema::Field& f, bool applies = true);
  void flag(bool& v, const schema::Field& f, bool applies = true);
  template <class E>
  void choice(E& v, const schema::Field& f, bool applies = true) {
    if (pass_ == Pass::keys) return record(f.key, applies);
    if (pass_ != Pass::choices || !applies) return;
    const bool present = s_.has(f.key);
    if (!present && f.default_value == "required") s_.missing(f.key, required(f));
    if (const auto* h = present ? find(hooks_->check, s_.key(f.key), {}) : nullptr) (*h)(s_);
    else if (present) choice_from_string(s_.key(f.key), *s_.string(f.key), v);
    if (!own_context_)
      context_ = present ? fmt::format("{} = \"{}\"", s_.key(f.key), *s_.string(f.key))
                         : fmt::format("{} = \"{}\" (the default)", s_.key(f.key), to_string(v));
    own_context_ = true;
  }
  void declared(const schema::Field& f, bool applies = true);
  template <class Visit>
  void table(const schema::Field& f, Visit&& visit, bool applies = true) {
    if (pass_ == Pass::keys) return record(f.key, applies);
    if (pass_ != Pass::values || !applies) return;
    const std::string path = s_.key(f.key);
    for (const auto& k : hooks_->skip)
      if (k == path) return;
    if (f.type == schema::Type::signal) return signal(f, visit);
    SchemaReader(s_.table(f.key), *hooks_, context_).run(visit);
  }
  /// Reads the sub-table or signal `f` of the table alone (its table's other keys are not checked).
  template <class Visit>
  void read_table(const schema::Field& f, Visit&& visit) {
    pass_ = Pass::values;
    table(f, visit);
  }

 private:
  enum class Pass { choices, keys, values };

  template <class Map>
  const typename Map::mapped_type* find(const Map& map, std::string_view path, std::string_view key) const {
    if (const auto it = map.find(path); it != map.end()) return &it->second;
    if (!key.empty())
      if (const auto it = map.find(key); it != map.end()) return &it->second;
    return nullptr;
  }
  std::string required(const schema::Field& f) const;
  /// Values pass: whether `f` applies and is present (a required field that is absent throws).
  bool field(const schema::Field& f, bool applies);
  void record(std::string_view key, bool applies);
  void check_keys() const;
  template <class Visit>
  void signal(const schema::Field& f, Visit&& visit) {
    const toml::node* node = s_.node(f.key);
    if (!node) {
      if (f.default_value == "required") s_.missing(f.key, required(f));
      return;
    }
    if (node->is_number()) {
      toml::table constant{{"type", "constant"}, {"value", *s_.number(f.key)}};
      SchemaReader(Section(&constant, s_.key(f.key)), *hooks_).run(visit);
      return;
    }
    if (!node->is_table()) s_.wrong_type(f.key, "a number (a constant) or a signal table with a type");
    SchemaReader(s_.table(f.key), *hooks_).run(visit);
  }

  Section s_;
  const ReaderHooks* hooks_;
  Pass pass_ = Pass::choices;
  std::string context_;             // "<choice key path> = \"value\"", from the first choice (or inherited)
  bool own_context_ = false;        // context_ is this table's
  std::vector<std::string> keys_;   // keys pass: every field, in walk order
  std::vector<char> applies_;       // ... and whether it applies in some form
  std::size_t index_ = 0;           // position in keys_ in the second and later forms
};

/// A whole scenario read by one walk of its serialize() with `h` (the directional and structure kinds): kind must be
/// `kind`, name defaults to the file stem (validate_name), output.title to the name, output.plot_y lists a column;
/// [sweep] is left to read_key_path_sweep (after the kind's checks).
/// The hook of the root's `kind` every reader shares: it must be `kind` (the dispatcher chose this reader by it).
inline void add_kind_hook(ReaderHooks& h, std::string_view kind) {
  h.declared["kind"] = [kind = std::string(kind)](const Section& r) {
    if (const auto k = r.string("kind"); k && *k != kind)
      throw InvalidInput(fmt::format("kind = {}: this parser reads kind = {}", json_quote(*k), json_quote(kind)));
  };
}
/// add_kind_hook, and output.plot_y: when given, at least one column (else the kind's default stays).
template <class Sc>
void add_scenario_hooks(ReaderHooks& h, Sc& sc, std::string_view kind) {
  add_kind_hook(h, kind);
  h.declared["output.plot_y"] = [&sc](const Section& o) {
    if (const auto ys = o.strings("plot_y", true)) {
      if (ys->empty()) throw InvalidInput("output.plot_y = []: must name at least one column");
      sc.output.plot_y = *ys;
    }
  };
}

template <class Sc>
void read_scenario(const Section& root, Sc& sc, std::string_view kind, std::string_view name,
                   const ScenarioSource& source, ReaderHooks& h) {
  sc.source = source;
  add_scenario_hooks(h, sc, kind);
  h.skip.emplace_back("sweep");
  SchemaReader(root, h).read(sc);
  if (!root.has("name")) sc.name = std::string(name);
  validate_name(root.has("name") ? "name" : "name (the file stem)", sc.name);
  if (!root.table("output").has("title")) sc.output.title = sc.name;
}

}  // namespace bristle::io::detail
