#pragma once
// One parameter schema: every parameter declared once, next to its struct.
//
// Each parameter struct P has, beside its definition, one function
//
//   template <class Archive, schema::Of<P> Self> void serialize(Archive& a, Self& p);
//
// listing its fields in order, each with its TOML key, unit, default, range or choices, one-line doc and
// paper equation (a schema::Field), and whether it applies to the value at hand (e.g. `v_s` only to the
// Stribeck laws). This is Drake's Serialize(Archive*) (systems/analysis/simulator_config.h) with the
// documentation and the rules in the list, so that the archives that walk it need nothing else:
//   - schema::KeyTable   every key of a kind with unit, default, range and doc (docs/scenarios.md,
//                        `bristle keys`), generated from a default-constructed scenario;
//   - schema::Finder     the field at a dotted key path, its storage and its rule (io/key_path.hpp);
//   - schema::Range      the reader's check of a number, with the reader's message naming the key path
//                        ("law.mu_s = -1: must be > 0").
// Discipline that makes this work: a serialize() calls the archive for every field whatever the value
// (conditions go into `applies`, never around the call), so that one walk over a default value sees every
// key. The archive calls are
//   a.number(double&, Field, applies)    a.integer(long&, ...)     a.matrix(Mat2&, ...)   (k I, [a, b], [[..]])
//   a.vector(Vec2&, ...)                  a.text(std::string&, ...) a.flag(bool&, ...)    a.choice(Enum&, ...)
//   a.declared(Field, applies)            a field whose TOML form differs from its storage (branch lists
//                                         by tau or k/c, Dahl's mu, the optional sigma0, pair.s): its
//                                         conversion is a named hook of the reader and of io/key_path.cpp
//   a.table(Field, visit, applies)        a sub-table; visit(a) serializes its contents
// Const-correct: Self may be const (the Finder then hands out const storage).
#include <cmath>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "bristle/core/types.hpp"

namespace bristle::schema {

/// Self is T or const T.
template <class Self, class T>
concept Of = std::is_same_v<std::remove_const_t<Self>, T>;

enum class Type { number, integer, matrix, matrix_list, vector, text, text_list, number_list, choice, flag, signal, table };
std::string_view to_string(Type type);

enum class Rule { any, finite, finite_or_inf, positive, non_negative, open_interval, at_least, spd, spsd,
                  closed_interval, half_open, integer_in };

/// The allowed values of a number (or of a matrix's scalar form k I).
struct Range {
  Rule rule = Rule::any;
  double lo = -std::numeric_limits<double>::infinity();
  double hi = std::numeric_limits<double>::infinity();

  /// "> 0", ">= 0", "(0, 1)", "finite", ">= 2 (integer)", "SPD", "" (any).
  std::string text() const;
  /// Throws InvalidInput("<key_path> = <value>: <rule>") with the reader's wording (core/error.hpp). `shown`: the
  /// value as written, if not format_value(value) (a TOML integer beyond 2^53, for the integer rules).
  void check(std::string_view key_path, double value, std::string_view shown = {}) const;
  /// The bounds of the range (open or closed as text() says); +-inf when unbounded.
  double min() const;
  double max() const;
};
/// The largest magnitude of an integer key: a double holds every integer exactly only below 2^53 (about 9.007e15).
inline constexpr double kMaxIntegerMagnitude = 9e15;  // (its messages say "9e15")
/// InvalidInput unless `v` is an integer of magnitude below kMaxIntegerMagnitude: "<key> = <v>: must be an integer",
/// or for a larger integer "... must be an integer of magnitude below 9e15 (...)". `shown`: the value as written, if
/// not format_value(v) (a TOML integer beyond 2^53 has no exact double).
void require_integer(std::string_view key, double v, std::string_view shown = {});

constexpr Range any() { return {}; }
constexpr Range finite() { return {Rule::finite}; }
constexpr Range finite_or_inf() { return {Rule::finite_or_inf}; }
constexpr Range positive() { return {Rule::positive}; }
constexpr Range non_negative() { return {Rule::non_negative}; }
constexpr Range open(double lo, double hi) { return {Rule::open_interval, lo, hi}; }
constexpr Range at_least(double lo) { return {Rule::at_least, lo}; }  // an integer >= lo
constexpr Range spd() { return {Rule::spd}; }    // scalar form: > 0
constexpr Range spsd() { return {Rule::spsd}; }  // scalar form: >= 0
constexpr Range closed(double lo, double hi) { return {Rule::closed_interval, lo, hi}; }    // [lo, hi]
constexpr Range half_open(double lo, double hi) { return {Rule::half_open, lo, hi}; }      // (lo, hi]
constexpr Range integer_in(double lo, double hi) { return {Rule::integer_in, lo, hi}; }    // an integer in [lo, hi]

/// One key of a scenario table. Written once, in the struct's serialize().
struct Field {
  std::string_view key = {};            // the TOML key (a table: its name)
  Type type = Type::number;
  std::string_view unit = "-";          // SI; "-" for pure numbers, "(signal)" for the unit of the signal
  std::string_view default_value = {};  // as documented: "1", "required", "the pair's static stiffness K_static"
  Range range = {};
  std::string_view doc = {};            // one line
  std::string_view equation = {};       // "paper 1, eq. 53"
  std::string_view choices = {};        // Type::choice: "dahl, lugre, frbd, bouc_wen, frictionless"
  std::string_view used_by = {};        // docs: where the key applies, e.g. "lugre, frbd" ("" = always)
  bool log_scale = false;               // the value spans decades (stiffness, damping, times, tolerances)
  bool numerics = false;                // a setting of the method (a step, a tolerance, a Courant number, a run's
                                        // span), not of the model: a fit refuses it as a parameter
};

// ---------------------------------------------------------------------------------------------
// KeyTable: every key, for docs and `bristle keys`.

struct KeyRow {
  std::string path;  // dotted, from the root, e.g. "law.axis1.mu_s"
  Field field;
  bool table = false;  // a sub-table heading (its keys follow)
};

/// Collects the rows of a serialize() walk (all fields, applying or not). Signal tables are listed as one
/// row (their keys are documented once, from contact::Signal's own serialize()).
class KeyTable {
 public:
  explicit KeyTable(std::string prefix = {}) : prefix_(std::move(prefix)) {}
  const std::vector<KeyRow>& rows() const { return rows_; }

  template <class T> void number(T&, const Field& f, bool = true) { add(f); }
  template <class T> void integer(T&, const Field& f, bool = true) { add(f); }
  template <class T> void matrix(T&, const Field& f, bool = true) { add(f); }
  template <class T> void vector(T&, const Field& f, bool = true) { add(f); }
  template <class T> void text(T&, const Field& f, bool = true) { add(f); }
  template <class T> void flag(T&, const Field& f, bool = true) { add(f); }
  template <class T> void choice(T&, const Field& f, bool = true) { add(f); }
  void declared(const Field& f, bool = true) { add(f); }
  template <class Visit>
  void table(const Field& f, Visit&& visit, bool = true) {
    if (f.type == Type::signal) return add(f);
    rows_.push_back(KeyRow{join(f.key), f, true});
    const std::string saved = prefix_;
    prefix_ = join(f.key);
    visit(*this);
    prefix_ = saved;
  }

 private:
  std::string join(std::string_view key) const { return prefix_.empty() ? std::string(key) : prefix_ + "." + std::string(key); }
  void add(const Field& f) { rows_.push_back(KeyRow{join(f.key), f, false}); }
  std::string prefix_;
  std::vector<KeyRow> rows_;
};

// ---------------------------------------------------------------------------------------------
// Finder: the field at a key path ("law.axis1.mu_s", "bench.x0_m[1]"). No allocation: the path is matched
// component by component while the walk goes down the tables.

template <bool Const>
class Finder {
  template <class T>
  using Ptr = std::conditional_t<Const, const T*, T*>;

 public:
  enum class Storage { none, number, integer, matrix, vector, declared, text, other };

  /// `path` without an index; the index, if any, is the caller's business (vector component, branch).
  explicit Finder(std::string_view path) : rest_(path) {}

  bool found() const { return found_; }
  const Field& field() const { return field_; }
  bool applies() const { return applies_; }
  Storage storage() const { return storage_; }
  Ptr<double> number_ptr() const { return number_; }
  Ptr<long> integer_ptr() const { return integer_; }
  Ptr<int> int_ptr() const { return int_; }  // an integer stored as int (integer_ptr() is then null)
  Ptr<Mat2> matrix_ptr() const { return matrix_; }
  Ptr<Vec2> vector_ptr() const { return vector_; }
  /// The last table entered on the way (e.g. "law" for "law.mu_s"): where a key that does not apply sits.
  std::string_view table_key() const { return table_; }

  void number(std::conditional_t<Const, const double, double>& v, const Field& f, bool applies = true) {
    if (match(f, applies, Storage::number)) number_ = &v;
  }
  void integer(std::conditional_t<Const, const long, long>& v, const Field& f, bool applies = true) {
    if (match(f, applies, Storage::integer)) integer_ = &v;
  }
  void integer(std::conditional_t<Const, const int, int>& v, const Field& f, bool applies = true) {
    if (match(f, applies, Storage::integer)) int_ = &v;
  }
  void matrix(std::conditional_t<Const, const Mat2, Mat2>& m, const Field& f, bool applies = true) {
    if (match(f, applies, Storage::matrix)) matrix_ = &m;
  }
  void vector(std::conditional_t<Const, const Vec2, Vec2>& v, const Field& f, bool applies = true) {
    if (match(f, applies, Storage::vector)) vector_ = &v;
  }
  template <class T> void text(T&, const Field& f, bool applies = true) { match(f, applies, Storage::text); }
  template <class T> void flag(T&, const Field& f, bool applies = true) { match(f, applies, Storage::other); }
  template <class T> void choice(T&, const Field& f, bool applies = true) { match(f, applies, Storage::other); }
  void declared(const Field& f, bool applies = true) { match(f, applies, Storage::declared); }
  template <class Visit>
  void table(const Field& f, Visit&& visit, bool applies = true) {
    if (found_ || rest_.size() <= f.key.size() || rest_.compare(0, f.key.size(), f.key) != 0 ||
        rest_[f.key.size()] != '.') {
      match(f, applies, Storage::other);
      return;
    }
    const std::string_view saved = rest_, saved_table = table_;
    const bool saved_applies = applies_;
    rest_ = rest_.substr(f.key.size() + 1);
    applies_ = applies_ && applies;
    table_ = f.key;
    visit(*this);
    if (!found_) {
      rest_ = saved;
      table_ = saved_table;
      applies_ = saved_applies;
    }
  }

 private:
  bool match(const Field& f, bool applies, Storage s) {
    if (found_ || rest_ != f.key) return false;
    found_ = true;
    field_ = f;
    applies_ = applies_ && applies;
    storage_ = s;
    return true;
  }
  std::string_view rest_;
  bool found_ = false;
  bool applies_ = true;
  Field field_;
  Storage storage_ = Storage::none;
  std::string_view table_;
  Ptr<double> number_ = nullptr;
  Ptr<long> integer_ = nullptr;
  Ptr<int> int_ = nullptr;
  Ptr<Mat2> matrix_ = nullptr;
  Ptr<Vec2> vector_ = nullptr;
};

}  // namespace bristle::schema
