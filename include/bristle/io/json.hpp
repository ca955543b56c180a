#pragma once
// A small JSON document model for the run reports: null, booleans, numbers, strings, arrays and
// objects that keep their keys in insertion order. Numbers are written in the shortest form that
// reads back to the same double; NaN and infinities (which JSON cannot express) are written as null.
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace bristle::io {

class Json {
 public:
  using Array = std::vector<Json>;
  using Object = std::vector<std::pair<std::string, Json>>;

  Json() = default;  // null
  Json(std::nullptr_t) {}
  Json(bool b) : value_(b) {}
  Json(double d) : value_(d) {}
  Json(int i) : value_(static_cast<std::int64_t>(i)) {}
  Json(long i) : value_(static_cast<std::int64_t>(i)) {}
  Json(long long i) : value_(static_cast<std::int64_t>(i)) {}
  Json(unsigned long i) : value_(static_cast<std::int64_t>(i)) {}
  Json(const char* s) : value_(std::string(s)) {}
  Json(std::string s) : value_(std::move(s)) {}
  Json(std::string_view s) : value_(std::string(s)) {}
  Json(Array a) : value_(std::move(a)) {}
  Json(Object o) : value_(std::move(o)) {}
  Json(const std::vector<double>& values);
  Json(const std::vector<std::string>& values);
  Json(const std::map<std::string, double>& values);

  static Json array() { return Json(Array{}); }
  static Json object() { return Json(Object{}); }

  bool is_null() const { return std::holds_alternative<std::monostate>(value_); }
  bool is_object() const { return std::holds_alternative<Object>(value_); }
  bool is_array() const { return std::holds_alternative<Array>(value_); }

  /// Object access: the value under `key`, inserted (as null) at the end if absent. Turns a null
  /// into an empty object first.
  Json& operator[](std::string_view key);
  /// Object lookup; nullptr if absent or not an object.
  const Json* find(std::string_view key) const;
  /// The number held (an integer converted), or nothing if this is not a number.
  std::optional<double> number() const;
  /// Appends to an array (turns a null into an empty array first).
  void push_back(Json value);

  /// Calls fn(path, value) for every floating-point number in the document, depth first in order; path
  /// names it the way a reader would address it ("cases[0].final.F_N"; "" for the root).
  void for_each_number(const std::function<void(const std::string& path, double value)>& fn) const;

  /// Serialised text; indent > 0 pretty-prints with that many spaces per level.
  std::string dump(int indent = 2) const;

 private:
  void write(std::string& out, int indent, int level) const;
  void for_each_number(std::string& path, const std::function<void(const std::string&, double)>& fn) const;
  std::variant<std::monostate, bool, std::int64_t, double, std::string, Array, Object> value_;
};

/// A JSON string literal for `s` (quoted and escaped).
std::string json_quote(std::string_view s);

}  // namespace bristle::io
