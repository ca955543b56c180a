#pragma once
// Private: the JSON echo of parameters as used, from the same serialize() walk as the reader
// (core/schema.hpp's archive interface).
//
// JsonWriter writes every field that applies, in walk order, under its TOML key: numbers and integers as
// numbers, matrices as k (k I), [a, b] (diagonal) or [[a, b], [c, d]], vectors as [x, y], texts and flags as
// such, choices by name (to_string), sub-tables and signals as objects. Declared fields (whose TOML form
// differs from the storage) are written only by a hook; a hook, found by the field's full dotted path or else
// by its bare key, writes the field itself into the table's object, whether or not the field applies (e.g.
// a ramp's t_end = inf as "inf", initial.f as the contact state actually used).
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>

#include "bristle/core/schema.hpp"
#include "bristle/io/json.hpp"

namespace bristle::io::detail {

/// k (k I), [a, b] (diagonal) or [[a, b], [c, d]].
Json matrix_json(const Mat2& m);
/// [x, y].
Json vec_json(const Vec2& v);

class JsonWriter {
 public:
  using Hook = std::function<void(Json& table)>;
  using Hooks = std::map<std::string, Hook, std::less<>>;

  /// `path`: the dotted key path of the table written (hooks are found by it).
  explicit JsonWriter(const Hooks& hooks, std::string path = {}) : hooks_(&hooks), path_(std::move(path)) {}

  /// The JSON object of `p` (a struct with a serialize()).
  template <class T>
  static Json write(const T& p, const Hooks& hooks, std::string path) {
    JsonWriter w(hooks, std::move(path));
    serialize(w, p);
    return std::move(w.json_);
  }

  /// The JSON object of the fields `visit(writer)` lists.
  template <class Visit>
  static Json run(const Hooks& hooks, std::string path, Visit&& visit) {
    JsonWriter w(hooks, std::move(path));
    visit(w);
    return std::move(w.json_);
  }

  template <class T>
  void number(const T& v, const schema::Field& f, bool applies = true) {
    if (!hooked(f) && applies) json_[std::string(f.key)] = static_cast<double>(v);
  }
  template <class T>
  void integer(const T& v, const schema::Field& f, bool applies = true) {
    if (!hooked(f) && applies) json_[std::string(f.key)] = static_cast<long>(v);
  }
  void matrix(const Mat2& m, const schema::Field& f, bool applies = true) {
    if (!hooked(f) && applies) json_[std::string(f.key)] = matrix_json(m);
  }
  void vector(const Vec2& v, const schema::Field& f, bool applies = true) {
    if (!hooked(f) && applies) json_[std::string(f.key)] = vec_json(v);
  }
  void text(const std::string& v, const schema::Field& f, bool applies = true) {
    if (!hooked(f) && applies) json_[std::string(f.key)] = v;
  }
  void flag(const bool& v, const schema::Field& f, bool applies = true) {
    if (!hooked(f) && applies) json_[std::string(f.key)] = v;
  }
  template <class E>
  void choice(const E& v, const schema::Field& f, bool applies = true) {
    if (!hooked(f) && applies) json_[std::string(f.key)] = std::string(to_string(v));
  }
  void declared(const schema::Field& f, bool = true) { hooked(f); }
  template <class Visit>
  void table(const schema::Field& f, Visit&& visit, bool applies = true) {
    if (hooked(f) || !applies) return;
    JsonWriter sub(*hooks_, key(f.key));
    visit(sub);
    json_[std::string(f.key)] = std::move(sub.json_);
  }

 private:
  std::string key(std::string_view k) const { return path_.empty() ? std::string(k) : path_ + "." + std::string(k); }
  /// Calls the field's hook, if any.
  bool hooked(const schema::Field& f) {
    auto it = hooks_->find(key(f.key));
    if (it == hooks_->end()) it = hooks_->find(f.key);
    if (it == hooks_->end()) return false;
    it->second(json_);
    return true;
  }

  const Hooks* hooks_;
  std::string path_;
  Json json_ = Json::object();
};

}  // namespace bristle::io::detail
