#include "toml_reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <vector>

#include "bristle/core/error.hpp"
#include "bristle/io/json.hpp"
#include "bristle/rheology/rheology.hpp"
#include "input_file.hpp"

namespace bristle::io::detail {

namespace {

/// Where the TOML text would nest deeper than `limit`, by a lexical pre-scan (toml++ recurses once per
/// level when it builds and destroys the tables, and a dotted key 60,000 components deep overflows the
/// stack; it limits arrays and inline tables to 256 levels, dotted keys and headers not at all).
/// The depth counted at a point is the components of the current [header], plus those of each dotted
/// key and one per array or inline table open around it; strings and comments are skipped. It can only
/// over-count (by one per inline table), never under-count, so a text it passes builds no deeper tree.
struct DepthExcess {
  std::size_t line = 1, column = 1;
};
std::optional<DepthExcess> find_excess_depth(std::string_view text, std::size_t limit) {
  struct Open {
    bool inline_table;
    std::size_t base;  // depth of the values directly inside
  };
  std::vector<Open> open;
  std::size_t header = 0;        // components of the current [header]
  std::size_t dots = 0;          // dots of the key being read
  bool key_context = true;       // reading a key (top level or inside an inline table), not a value
  bool line_start = true;        // only blanks since the last top-level newline
  bool in_header = false;
  std::size_t line = 1, line_begin = 0;
  std::size_t value_base = 0;    // depth of the value being read (top level: after '=')
  const auto key_base = [&] { return open.empty() ? header : open.back().base; };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const auto here = [&] { return DepthExcess{line, i - line_begin + 1}; };
    if (c == '\n') {
      ++line;
      line_begin = i + 1;
      if (open.empty()) {
        key_context = true;
        line_start = true;
        in_header = false;
        dots = 0;
      }
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r') continue;
    const bool was_line_start = line_start;
    line_start = false;
    if (c == '#') {  // comment: to the end of the line
      while (i + 1 < text.size() && text[i + 1] != '\n') ++i;
      continue;
    }
    if (c == '"' || c == '\'') {  // strings (basic, literal, multi-line): skipped
      const bool multi = text.substr(i, 3) == std::string_view(c == '"' ? "\"\"\"" : "'''");
      const std::size_t quote = multi ? 3 : 1;
      std::size_t j = i + quote;
      while (j < text.size()) {
        if (c == '"' && text[j] == '\\') {
          j += 2;
          continue;
        }
        if (!multi && text[j] == '\n') break;
        if (text[j] == '\n') {
          ++line;
          line_begin = j + 1;
        }
        if (text.substr(j, quote) == text.substr(i, quote)) break;
        ++j;
      }
      i = std::min(text.size(), j + quote) - 1;
      continue;
    }
    if (key_context) {
      if (c == '[' && open.empty() && was_line_start) {
        in_header = true;
        dots = 0;
        if (i + 1 < text.size() && text[i + 1] == '[') ++i;
      } else if (c == ']' && in_header) {
        header = dots + 1;
        in_header = false;
        if (i + 1 < text.size() && text[i + 1] == ']') ++i;
      } else if (c == '.') {
        ++dots;
        if ((in_header ? 0 : key_base()) + dots + 1 > limit) return here();
      } else if (c == '=') {
        value_base = key_base() + dots + 1;
        if (value_base > limit) return here();
        key_context = false;
        dots = 0;
      } else if (c == '}' && !open.empty() && open.back().inline_table) {  // {} or a trailing ','
        open.pop_back();
        key_context = false;
        value_base = open.empty() ? value_base : open.back().base;
      }
      continue;
    }
    if (c == '[' || c == '{') {
      const std::size_t base = value_base + 1;
      if (base > limit) return here();
      open.push_back({c == '{', base});
      value_base = base;
      key_context = c == '{';
      dots = 0;
    } else if ((c == ']' || c == '}') && !open.empty()) {
      open.pop_back();
      if (!open.empty()) value_base = open.back().base;
    } else if (c == ',' && !open.empty()) {
      value_base = open.back().base;
      if (open.back().inline_table) {
        key_context = true;
        dots = 0;
      }
    }
  }
  return std::nullopt;
}

/// The key of the pair or [header] that toml++ reports a redefinition at: line `line`, column `column` (1-based, in
/// code points: the start of a header, a pair's value or the start of a dotted key's segment). For a header, the key
/// between its brackets; for a pair, the text from the pair's start (the line's, or after an unquoted '{' or ',' before
/// the column) to its first unquoted '='. Strings are skipped as TOML writes them (a backslash escapes in "..."). Empty
/// if there is none.
std::string written_key_at(std::string_view text, std::size_t line, std::size_t column, bool header) {
  std::size_t at = 0;
  for (std::size_t l = 1; l < line && at != std::string_view::npos; ++l) {
    at = text.find('\n', at);
    if (at != std::string_view::npos) ++at;
  }
  if (at == std::string_view::npos || at > text.size()) return {};
  const std::size_t end = text.find('\n', at);
  std::string_view row = text.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at);
  if (line == 1 && row.starts_with("\xEF\xBB\xBF")) row.remove_prefix(3);  // a byte-order mark: no column, no key
  std::size_t cut = 0;  // the first byte of code point `column`
  for (std::size_t points = 1; cut < row.size() && points < column; ++points) {
    ++cut;
    while (cut < row.size() && (static_cast<unsigned char>(row[cut]) & 0xC0) == 0x80) ++cut;
  }
  std::vector<bool> quoted(row.size(), false);  // inside a string, its quotes included
  for (std::size_t i = 0, quote = 0; i < row.size(); ++i) {
    const char c = row[i];
    if (quote) {
      quoted[i] = true;
      if (c == '\\' && quote == '"' && i + 1 < row.size()) quoted[++i] = true;
      else if (c == static_cast<char>(quote)) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = static_cast<unsigned char>(c);
      quoted[i] = true;
    }
  }
  const auto trim = [](std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
    return s;
  };
  const auto first = [&](char c, std::size_t from) {
    for (std::size_t i = from; i < row.size(); ++i)
      if (row[i] == c && !quoted[i]) return i;
    return std::string_view::npos;
  };
  if (header) {  // between [ (or [[) and the first unquoted ]
    std::size_t open = first('[', 0);
    if (open == std::string_view::npos) return {};
    if (open + 1 < row.size() && row[open + 1] == '[') ++open;
    const std::size_t close = first(']', open + 1);
    if (close == std::string_view::npos) return {};
    return std::string(trim(row.substr(open + 1, close - open - 1)));
  }
  std::size_t start = 0;
  for (std::size_t i = 0; i < std::min(cut, row.size()); ++i)
    if ((row[i] == '{' || row[i] == ',') && !quoted[i]) start = i + 1;
  const std::size_t equals = first('=', start);
  if (equals == std::string_view::npos) return {};
  return std::string(trim(row.substr(start, equals - start)));
}

}  // namespace

toml::table parse_toml(std::string_view text, const std::string& source_name, bool generated) {
  // A text given directly (Python, the C API) has the file limit: 40 MB of a sweep list took 10 s and 1.5 GB.
  if (!generated && text.size() > kMaxScenarioBytes)
    throw InvalidInput(fmt::format("{}: the scenario text is {}, larger than the limit of {} (Limits in "
                                   "docs/scenarios.md)",
                                   source_name, format_bytes(text.size()), format_bytes(kMaxScenarioBytes)));
  if (const auto excess = find_excess_depth(text, kMaxTomlDepth))
    throw InvalidInput(fmt::format("{}:{}:{}: nested deeper than {} levels (tables, dotted keys, arrays and inline "
                                   "tables together); see Limits in docs/scenarios.md",
                                   source_name, excess->line, excess->column, kMaxTomlDepth));
  try {
    return toml::parse(text, source_name);
  } catch (const toml::parse_error& e) {
    std::string description(e.description());
    std::replace(description.begin(), description.end(), '\n', ' ');
    // toml++ garbles a quoted key in "cannot redefine existing integer '...'" ('"lalaw.mu" ' for a second
    // "law.mu" under [fit.parameters]): the key as the line writes it instead.
    if (const std::size_t redefine = description.find("cannot redefine existing "); redefine != std::string::npos) {
      const std::size_t open = description.find('\'', redefine), close = description.rfind('\'');
      const std::string key = written_key_at(text, e.source().begin.line, e.source().begin.column,
                                             description.find("table header") != std::string::npos);
      if (open != std::string::npos && close > open && !key.empty())
        description.replace(open, close - open + 1, "'" + key + "'");
      else if (open == std::string::npos && !key.empty())  // "... existing table as dotted key-value pair": no key
        description += " ('" + key + "')";
    }
    throw InvalidInput(fmt::format("{}:{}:{}: invalid TOML: {}", source_name, e.source().begin.line,
                                   e.source().begin.column, description));
  }
}

std::string shown_key(std::string_view key) {
  if (key.size() <= kMaxKeyPathBytes) return std::string(key);
  std::size_t cut = 40;
  while (cut > 0 && (static_cast<unsigned char>(key[cut]) & 0xC0) == 0x80) --cut;
  return std::string(key.substr(0, cut)) + "...";
}

void put(toml::table& table, std::string_view key, const toml::node& value) {
  value.visit([&](const auto& v) { table.insert_or_assign(key, v); });
}

void deep_merge(toml::table& into, const toml::table& from, bool inline_replaces) {
  for (auto&& [k, v] : from) {
    toml::node* existing = into.get(k.str());
    if (v.is_table() && existing && existing->is_table() && !(inline_replaces && v.as_table()->is_inline()))
      deep_merge(*existing->as_table(), *v.as_table(), inline_replaces);
    else
      put(into, k.str(), v);
  }
}

std::string format_node(const toml::node& node) {
  if (const auto* s = node.as_string()) return json_quote(s->get());
  if (const auto* i = node.as_integer()) return fmt::format("{}", i->get());
  if (const auto* d = node.as_floating_point()) return format_value(d->get());
  if (const auto* b = node.as_boolean()) return b->get() ? "true" : "false";
  if (const auto* a = node.as_array()) {
    std::string out = "[";
    for (std::size_t k = 0; k < a->size(); ++k) {
      if (k > 0) out += ", ";
      if (out.size() > 60) {
        out += "...";
        break;
      }
      out += format_node(*a->get(k));
    }
    return out + "]";
  }
  if (const auto* t = node.as_table()) {
    std::string out = "{ ";
    bool first = true;
    for (auto&& [k, v] : *t) {
      if (!first) out += ", ";
      first = false;
      if (out.size() > 60) {
        out += "...";
        break;
      }
      out += fmt::format("{} = {}", k.str(), format_node(v));
    }
    return out + (first ? "}" : " }");
  }
  std::ostringstream os;  // dates and times
  if (const auto* d = node.as_date()) os << *d;
  else if (const auto* t = node.as_time()) os << *t;
  else if (const auto* dt = node.as_date_time()) os << *dt;
  return os.str();
}

std::string Section::key(std::string_view k) const {
  std::string full = path_.empty() ? std::string(k) : path_ + "." + std::string(k);
  return full.size() <= kMaxKeyPathBytes ? full : shown_key(full);
}

bool Section::has(std::string_view k) const { return node(k) != nullptr; }

const toml::node* Section::node(std::string_view k) const {
  if (!table_) return nullptr;
  return table_->get(k);
}

std::vector<std::string> Section::keys() const {
  std::vector<std::string> out;
  if (!table_) return out;
  for (auto&& [k, v] : *table_) out.emplace_back(k.str());
  return out;
}

void Section::check_keys(const std::vector<std::string>& valid, const std::vector<std::string>& known,
                         std::string_view context) const {
  if (!table_) return;
  for (auto&& [k, v] : *table_) {
    const std::string name(k.str());
    if (std::find(valid.begin(), valid.end(), name) != valid.end()) continue;
    if (std::find(known.begin(), known.end(), name) != known.end())
      throw InvalidInput(fmt::format("key \"{}\" does not apply to {} (valid keys here: {})", key(name), context,
                                     fmt::join(valid, ", ")));
    std::string near = nearest_word(name, valid);
    if (near.empty()) near = nearest_word(name, known);
    if (!near.empty())
      throw InvalidInput(fmt::format("unknown key \"{}\"; did you mean \"{}\"?", key(name), key(near)));
    throw InvalidInput(fmt::format("unknown key \"{}\" (valid keys{}: {})", key(name),
                                   path_.empty() ? "" : fmt::format(" in [{}]", path_), fmt::join(valid, ", ")));
  }
}

void Section::missing(std::string_view k, std::string_view description) const {
  throw InvalidInput(fmt::format("missing key \"{}\" (required: {})", key(k), description));
}

void Section::wrong_type(std::string_view k, std::string_view expected) const {
  const toml::node* n = node(k);
  throw InvalidInput(fmt::format("{} = {}: must be {}", key(k), n ? format_node(*n) : "?", expected));
}

void require_scenario_number(const std::string& key, double value, bool allow_infinite) {
  if (allow_infinite && std::isinf(value)) return;
  require_finite(key, value);
  require_normal_magnitude(key, value);  // core/error.hpp: the rule of every parameter
}

namespace {
void require_list_length(const std::string& key, std::size_t size, std::size_t limit, std::string_view what) {
  if (size > limit)
    throw InvalidInput(fmt::format("{} has {} entries: at most {} {} (Limits in docs/scenarios.md)", key, size,
                                   limit, what));
}

std::optional<double> as_number(const toml::node& n) {
  if (const auto* i = n.as_integer()) return static_cast<double>(i->get());
  if (const auto* d = n.as_floating_point()) return d->get();
  return std::nullopt;
}
}  // namespace

std::optional<double> Section::number(std::string_view k, bool allow_infinite) const {
  const toml::node* n = node(k);
  if (!n) return std::nullopt;
  const auto v = as_number(*n);
  if (!v) wrong_type(k, "a number");
  require_scenario_number(key(k), *v, allow_infinite);
  return v;
}

double Section::number_or(std::string_view k, double fallback) const { return number(k).value_or(fallback); }

double Section::required_number(std::string_view k, std::string_view description) const {
  const auto v = number(k);
  if (!v) missing(k, description);
  return *v;
}

std::optional<std::int64_t> Section::integer(std::string_view k) const {
  const toml::node* n = node(k);
  if (!n) return std::nullopt;
  if (const auto* i = n->as_integer()) return i->get();
  if (const auto* d = n->as_floating_point()) {
    require_finite(key(k), d->get());
    if (d->get() == std::trunc(d->get())) {
      schema::require_integer(key(k), d->get());
      return static_cast<std::int64_t>(d->get());
    }
  }
  wrong_type(k, "an integer");
}

std::optional<std::string> Section::string(std::string_view k) const {
  const toml::node* n = node(k);
  if (!n) return std::nullopt;
  if (const auto* s = n->as_string()) return s->get();
  wrong_type(k, "a string");
}

std::string Section::required_string(std::string_view k, std::string_view description) const {
  const auto v = string(k);
  if (!v) missing(k, description);
  return *v;
}

std::optional<bool> Section::boolean(std::string_view k) const {
  const toml::node* n = node(k);
  if (!n) return std::nullopt;
  if (const auto* b = n->as_boolean()) return b->get();
  wrong_type(k, "true or false");
}

std::optional<std::vector<double>> Section::numbers(std::string_view k, bool allow_scalar) const {
  const toml::node* n = node(k);
  if (!n) return std::nullopt;
  if (allow_scalar && as_number(*n)) return std::vector<double>{*number(k)};
  const auto* a = n->as_array();
  if (!a) wrong_type(k, allow_scalar ? "a number or an array of numbers" : "an array of numbers");
  require_list_length(key(k), a->size(), kMaxListEntries, "values");
  std::vector<double> out;
  for (std::size_t i = 0; i < a->size(); ++i) {
    const auto v = as_number(*a->get(i));
    const std::string element = fmt::format("{}[{}]", key(k), i);
    if (!v) throw InvalidInput(fmt::format("{} = {}: must be a number", element, format_node(*a->get(i))));
    require_scenario_number(element, *v);
    out.push_back(*v);
  }
  return out;
}

std::optional<std::vector<std::string>> Section::strings(std::string_view k, bool allow_scalar) const {
  const toml::node* n = node(k);
  if (!n) return std::nullopt;
  if (allow_scalar && n->is_string()) return std::vector<std::string>{n->as_string()->get()};
  const auto* a = n->as_array();
  if (!a) wrong_type(k, allow_scalar ? "a string or an array of strings" : "an array of strings");
  require_list_length(key(k), a->size(), kMaxListEntries, "strings");
  std::vector<std::string> out;
  for (std::size_t i = 0; i < a->size(); ++i) {
    const auto* s = a->get(i)->as_string();
    if (!s)
      throw InvalidInput(fmt::format("{}[{}] = {}: must be a string", key(k), i, format_node(*a->get(i))));
    out.push_back(s->get());
  }
  return out;
}

std::optional<Vec2> Section::vec2(std::string_view k) const {
  const toml::node* n = node(k);
  if (!n) return std::nullopt;
  Vec2 v = Vec2::Zero();
  if (const auto x = as_number(*n)) {
    v[0] = *x;
  } else if (const auto* a = n->as_array(); a && a->size() == 2 && as_number(*a->get(0)) && as_number(*a->get(1))) {
    v = Vec2(*as_number(*a->get(0)), *as_number(*a->get(1)));
  } else {
    wrong_type(k, "a number (the x component) or [x, y]");
  }
  require_finite(key(k), v);
  for (const double x : {v[0], v[1]}) require_scenario_number(key(k), x);
  return v;
}

MatrixValue read_matrix(const toml::node& n, const std::string& key, MatrixRule rule) {
  MatrixValue out;
  const auto fail = [&]() -> MatrixValue {
    throw InvalidInput(fmt::format("{} = {}: must be a number k (k I), [a, b] (diag(a, b)) or [[a, b], [c, d]]",
                                   key, format_node(n)));
  };
  if (const auto x = as_number(n)) {
    require_scenario_number(key, *x);
    if (rule == MatrixRule::spd)
      require_positive(key, *x);
    else
      require_non_negative(key, *x);
    out.m = *x * Mat2::Identity();
    out.form = MatrixForm::scalar;
    return out;
  }
  const auto* a = n.as_array();
  if (!a || a->size() != 2) return fail();
  if (as_number(*a->get(0)) && as_number(*a->get(1))) {
    out.m = Mat2::Zero();
    out.m(0, 0) = *as_number(*a->get(0));
    out.m(1, 1) = *as_number(*a->get(1));
    out.form = MatrixForm::diagonal;
  } else {
    for (std::size_t r = 0; r < 2; ++r) {
      const auto* row = a->get(r)->as_array();
      if (!row || row->size() != 2 || !as_number(*row->get(0)) || !as_number(*row->get(1))) return fail();
      out.m(static_cast<Eigen::Index>(r), 0) = *as_number(*row->get(0));
      out.m(static_cast<Eigen::Index>(r), 1) = *as_number(*row->get(1));
    }
    out.form = MatrixForm::full;
  }
  for (Eigen::Index i = 0; i < 4; ++i)
    if (std::isfinite(out.m.data()[i])) require_scenario_number(key, out.m.data()[i]);  // NaN: require_sp(s)d
  if (rule == MatrixRule::spd)
    require_spd(key, out.m);
  else
    require_spsd(key, out.m);
  return out;
}

std::optional<MatrixValue> Section::matrix(std::string_view k, MatrixRule rule) const {
  const toml::node* n = node(k);
  if (!n) return std::nullopt;
  return read_matrix(*n, key(k), rule);
}

std::optional<std::vector<MatrixValue>> Section::matrices(std::string_view k, MatrixRule rule) const {
  const toml::node* n = node(k);
  if (!n) return std::nullopt;
  if (as_number(*n)) return std::vector<MatrixValue>{read_matrix(*n, key(k), rule)};
  const auto* a = n->as_array();
  if (!a) wrong_type(k, "an array with one entry per branch (each k, [a, b] or [[a, b], [c, d]])");
  require_list_length(key(k), a->size(), rheology::kMaxBranches, "branches");  // RheologyParams::validate's limit
  std::vector<MatrixValue> out;
  for (std::size_t i = 0; i < a->size(); ++i)
    out.push_back(read_matrix(*a->get(i), fmt::format("{}[{}]", key(k), i), rule));
  return out;
}

Section Section::table(std::string_view k) const {
  const toml::node* n = node(k);
  if (!n) return Section(nullptr, key(k));
  const auto* t = n->as_table();
  if (!t) wrong_type(k, "a table");
  return Section(t, key(k));
}

}  // namespace bristle::io::detail
