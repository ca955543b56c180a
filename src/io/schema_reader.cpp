// The schema-driven TOML reader (schema_reader.hpp).
#include "schema_reader.hpp"

#include <algorithm>

namespace bristle::io::detail {

void choice_from_string(std::string_view key, std::string_view name, laws::LawKind& out) {
  out = laws::law_kind_from_string(key, name);
}
void choice_from_string(std::string_view key, std::string_view name, rheology::RheologyKind& out) {
  out = rheology::rheology_kind_from_string(key, name);
}
void choice_from_string(std::string_view key, std::string_view name, contact::SignalKind& out) {
  out = contact::signal_kind_from_string(key, name);
}
void choice_from_string(std::string_view key, std::string_view name, contact::DriveKind& out) {
  out = contact::drive_kind_from_string(key, name);
}
void choice_from_string(std::string_view key, std::string_view name, integrate::Method& out) {
  out = integrate::method_from_string(key, name);
}

std::string required_text(const schema::Field& f) {
  if (f.unit.empty() || f.unit == "-" || f.unit.front() == '(') return std::string(f.doc);
  return fmt::format("{}, {}", f.doc, f.unit);
}

std::string choices_text(std::string_view choices) {
  std::string s(choices);
  if (const std::size_t last = s.rfind(", "); last != std::string::npos) s.replace(last, 2, " or ");
  return s;
}

std::string SchemaReader::required(const schema::Field& f) const {
  if (const auto* h = find(hooks_->required, s_.key(f.key), f.key)) return (*h)();
  if (f.type == schema::Type::choice) return fmt::format("{}: {}", f.doc, choices_text(f.choices));
  return required_text(f);
}

bool SchemaReader::field(const schema::Field& f, bool applies) {
  if (pass_ == Pass::keys) {
    record(f.key, applies);
    return false;
  }
  if (pass_ != Pass::values || !applies) return false;
  if (s_.has(f.key)) return true;
  if (f.default_value == "required") s_.missing(f.key, required(f));
  return false;
}

void SchemaReader::record(std::string_view key, bool applies) {
  if (index_ == keys_.size()) {
    keys_.emplace_back(key);
    applies_.push_back(applies);
  } else {
    applies_[index_] = applies_[index_] || applies;
  }
  ++index_;
}

void SchemaReader::check_keys() const {
  std::vector<std::string> valid, known;
  for (std::size_t i = 0; i < keys_.size(); ++i) {
    // Without a choice, nothing in the table selects what applies: the caller checks combinations.
    if (applies_[i] || context_.empty()) valid.push_back(keys_[i]);
    else known.push_back(keys_[i]);
  }
  if (known.empty()) return s_.check_keys(valid);
  known.insert(known.end(), valid.begin(), valid.end());
  s_.check_keys(valid, known, context_);
}

void SchemaReader::matrix(Mat2& m, const schema::Field& f, bool applies) {
  if (!field(f, applies)) return;
  const auto rule = f.range.rule == schema::Rule::spsd ? MatrixRule::spsd : MatrixRule::spd;
  const MatrixValue value = *s_.matrix(f.key, rule);
  m = value.m;
  if (hooks_->matrices) (*hooks_->matrices)[s_.key(f.key)] = value;
}

void SchemaReader::vector(Vec2& v, const schema::Field& f, bool applies) {
  if (!field(f, applies)) return;
  v = *s_.vec2(f.key);
  for (const double x : {v[0], v[1]}) f.range.check(s_.key(f.key), x);
}

void SchemaReader::text(std::string& v, const schema::Field& f, bool applies) {
  if (field(f, applies)) v = *s_.string(f.key);
}

void SchemaReader::flag(bool& v, const schema::Field& f, bool applies) {
  if (pass_ == Pass::keys) return record(f.key, applies);
  if (pass_ == Pass::choices && applies && s_.has(f.key)) v = *s_.boolean(f.key);
}

void SchemaReader::declared(const schema::Field& f, bool applies) {
  if (pass_ == Pass::keys) return record(f.key, applies);
  if (pass_ != Pass::values || !applies) return;
  if (const auto* h = find(hooks_->declared, s_.key(f.key), f.key)) (*h)(s_);
}

}  // namespace bristle::io::detail
