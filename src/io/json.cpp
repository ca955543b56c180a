#include "bristle/io/json.hpp"

#include <fmt/format.h>

#include <cmath>

namespace bristle::io {

Json::Json(const std::vector<double>& values) : value_(Array{}) {
  auto& a = std::get<Array>(value_);
  a.reserve(values.size());
  for (double v : values) a.emplace_back(v);
}

Json::Json(const std::vector<std::string>& values) : value_(Array{}) {
  auto& a = std::get<Array>(value_);
  a.reserve(values.size());
  for (const auto& v : values) a.emplace_back(v);
}

Json::Json(const std::map<std::string, double>& values) : value_(Object{}) {
  auto& o = std::get<Object>(value_);
  for (const auto& [k, v] : values) o.emplace_back(k, Json(v));
}

Json& Json::operator[](std::string_view key) {
  if (is_null()) value_ = Object{};
  auto& o = std::get<Object>(value_);  // throws std::bad_variant_access if not an object
  for (auto& [k, v] : o)
    if (k == key) return v;
  o.emplace_back(std::string(key), Json());
  return o.back().second;
}

const Json* Json::find(std::string_view key) const {
  if (!is_object()) return nullptr;
  for (const auto& [k, v] : std::get<Object>(value_))
    if (k == key) return &v;
  return nullptr;
}

std::optional<double> Json::number() const {
  if (const auto* d = std::get_if<double>(&value_)) return *d;
  if (const auto* i = std::get_if<std::int64_t>(&value_)) return static_cast<double>(*i);
  return std::nullopt;
}

void Json::push_back(Json value) {
  if (is_null()) value_ = Array{};
  std::get<Array>(value_).push_back(std::move(value));
}

std::string json_quote(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  out += '"';
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    switch (ch) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        if (c < 0x20)
          out += fmt::format("\\u{:04x}", static_cast<unsigned>(c));
        else
          out += ch;
    }
  }
  out += '"';
  return out;
}

std::string Json::dump(int indent) const {
  std::string out;
  write(out, indent, 0);
  if (indent > 0) out += '\n';
  return out;
}

void Json::for_each_number(const std::function<void(const std::string&, double)>& fn) const {
  std::string path;
  for_each_number(path, fn);
}

void Json::for_each_number(std::string& path, const std::function<void(const std::string&, double)>& fn) const {
  const std::size_t size = path.size();
  if (const double* d = std::get_if<double>(&value_)) {
    fn(path, *d);
  } else if (const Array* a = std::get_if<Array>(&value_)) {
    for (std::size_t k = 0; k < a->size(); ++k) {
      path += '[' + std::to_string(k) + ']';
      (*a)[k].for_each_number(path, fn);
      path.resize(size);
    }
  } else if (const Object* o = std::get_if<Object>(&value_)) {
    for (const auto& [key, value] : *o) {
      if (!path.empty()) path += '.';
      path += key;
      value.for_each_number(path, fn);
      path.resize(size);
    }
  }
}

void Json::write(std::string& out, int indent, int level) const {
  const auto newline = [&](int lvl) {
    if (indent <= 0) return;
    out += '\n';
    out.append(static_cast<std::size_t>(indent * lvl), ' ');
  };
  if (std::holds_alternative<std::monostate>(value_)) {
    out += "null";
  } else if (const bool* b = std::get_if<bool>(&value_)) {
    out += *b ? "true" : "false";
  } else if (const std::int64_t* i = std::get_if<std::int64_t>(&value_)) {
    out += fmt::format("{}", *i);
  } else if (const double* d = std::get_if<double>(&value_)) {
    out += std::isfinite(*d) ? fmt::format("{}", *d) : "null";
  } else if (const std::string* s = std::get_if<std::string>(&value_)) {
    out += json_quote(*s);
  } else if (const Array* a = std::get_if<Array>(&value_)) {
    if (a->empty()) {
      out += "[]";
      return;
    }
    // Arrays of plain numbers stay on one line (time tables, matrices, value lists).
    const auto scalar = [](const Json& e) { return !e.is_array() && !e.is_object(); };
    bool flat = true;
    for (const auto& e : *a) {
      if (e.is_object()) flat = false;
      if (const Array* inner = std::get_if<Array>(&e.value_))
        for (const auto& x : *inner)
          if (!scalar(x)) flat = false;
    }
    out += '[';
    for (std::size_t k = 0; k < a->size(); ++k) {
      if (k > 0) out += flat || indent <= 0 ? ", " : ",";
      if (!flat) newline(level + 1);
      (*a)[k].write(out, indent, level + 1);
    }
    if (!flat) newline(level);
    out += ']';
  } else if (const Object* o = std::get_if<Object>(&value_)) {
    if (o->empty()) {
      out += "{}";
      return;
    }
    out += '{';
    for (std::size_t k = 0; k < o->size(); ++k) {
      if (k > 0) out += indent > 0 ? "," : ", ";
      newline(level + 1);
      out += json_quote((*o)[k].first);
      out += ": ";
      (*o)[k].second.write(out, indent, level + 1);
    }
    newline(level);
    out += '}';
  }
}

}  // namespace bristle::io
