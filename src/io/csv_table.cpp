#include "csv_table.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <string_view>
#include <system_error>
#include <unordered_map>

#include "bristle/core/error.hpp"
#include "bristle/io/json.hpp"
#include "input_file.hpp"
#include "toml_reader.hpp"

namespace bristle::io::detail {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

/// The cells of a CSV line, trimmed and unquoted.
std::vector<std::string> split(std::string_view line) {
  std::vector<std::string> cells;
  for (std::string_view cell : split_at(line, ',')) {
    cell = trim(cell);
    if (cell.size() >= 2 && cell.front() == '"' && cell.back() == '"') cell = cell.substr(1, cell.size() - 2);
    cells.emplace_back(cell);
  }
  return cells;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

std::string shown_header(const std::vector<std::string>& header) {
  constexpr std::size_t kShown = 20;
  std::string out;
  for (std::size_t i = 0; i < header.size() && i < kShown; ++i) out += (i ? ", " : "") + shown_key(header[i]);
  if (header.size() > kShown) out += fmt::format(", ... ({} columns)", header.size());
  return out;
}

std::vector<std::string_view> split_at(std::string_view text, char separator) {
  std::vector<std::string_view> pieces;
  for (std::size_t start = 0;;) {
    const std::size_t at = text.find(separator, start);
    pieces.push_back(text.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
    if (at == std::string_view::npos) return pieces;
    start = at + 1;
  }
}

std::optional<double> parse_csv_number(const std::string& cell, bool& out_of_range) {
  out_of_range = false;
  std::size_t i = 0;
  const std::size_t n = cell.size();
  if (i < n && (cell[i] == '+' || cell[i] == '-')) ++i;
  const std::size_t mantissa = i;
  std::size_t digits = 0;
  bool nonzero = false;
  while (i < n && is_digit(cell[i])) nonzero |= cell[i++] != '0', ++digits;
  if (i < n && cell[i] == '.') {
    ++i;
    while (i < n && is_digit(cell[i])) nonzero |= cell[i++] != '0', ++digits;
  }
  if (digits == 0) return std::nullopt;
  if (i < n && (cell[i] == 'e' || cell[i] == 'E')) {
    ++i;
    if (i < n && (cell[i] == '+' || cell[i] == '-')) ++i;
    const std::size_t exponent = i;
    while (i < n && is_digit(cell[i])) ++i;
    if (i == exponent) return std::nullopt;
  }
  if (i != n) return std::nullopt;
  // The grammar is that of from_chars' general format less inf/nan/hex; from_chars does not take '+'.
  const std::size_t from = cell[0] == '+' ? 1 : 0;
  double v = 0.0;
  const auto [end, ec] = std::from_chars(cell.data() + from, cell.data() + n, v);
  (void)mantissa;
  if (ec == std::errc::result_out_of_range || (ec == std::errc() && nonzero && !std::isnormal(v))) {
    out_of_range = true;
    return std::nullopt;
  }
  if (ec != std::errc() || end != cell.data() + n) return std::nullopt;
  return v;
}

CsvNumbers read_csv_numbers(const std::string& where, const std::filesystem::path& path) {
  const std::string shown = path.string();
  const std::string text = read_input_file(path, kMaxTableBytes, where + ": ");
  std::string_view rest(text);
  if (rest.substr(0, 3) == "\xEF\xBB\xBF") rest.remove_prefix(3);  // UTF-8 byte-order mark
  CsvNumbers out;
  std::size_t line_number = 0;
  while (!rest.empty()) {
    const std::size_t newline = rest.find('\n');
    const std::string_view line = rest.substr(0, newline);
    rest.remove_prefix(newline == std::string_view::npos ? rest.size() : newline + 1);
    ++line_number;
    const std::string_view t = trim(line);
    if (t.empty() || t.front() == '#') continue;
    const std::vector<std::string> cells = split(t);
    if (out.header.empty()) {
      out.header = cells;
      out.header_line = line_number;
      out.rows.columns = cells.size();
      std::unordered_map<std::string_view, std::size_t> seen;  // each name's first column
      for (std::size_t c = 0; c < cells.size(); ++c) {
        bool ok = !cells[c].empty();
        for (const char ch : cells[c])
          if (static_cast<unsigned char>(ch) < 0x20 || ch == '"') ok = false;
        if (!ok)
          throw InvalidInput(fmt::format("{}: {}:{}:{}: {} is not a column name (not empty, no quotes or control "
                                         "characters)",
                                         where, shown, line_number, c + 1, json_quote(shown_key(cells[c]))));
        bool out_of_range = false;
        if (parse_csv_number(cells[c], out_of_range) || out_of_range)
          throw InvalidInput(fmt::format("{}: {}:{}:{}: {} is a number, not a column name: the first row that is not "
                                         "blank or a '#' comment is the header, which names the columns",
                                         where, shown, line_number, c + 1, shown_key(cells[c])));
        const auto [first, added] = seen.emplace(cells[c], c);
        if (!added)
          throw InvalidInput(fmt::format("{}: {}:{}:{}: duplicate column name \"{}\" (also column {})", where,
                                         shown, line_number, c + 1, shown_key(cells[c]), first->second + 1));
      }
      continue;
    }
    if (cells.size() != out.header.size())
      throw InvalidInput(fmt::format("{}: {}:{}: {} cell(s), but the header (line {}) has {} column(s)", where, shown,
                                     line_number, cells.size(), out.header_line, out.header.size()));
    if (out.row_lines.size() == kMaxTableRows)
      throw InvalidInput(fmt::format("{}: {}:{}: more than {} data rows (Limits in docs/scenarios.md)", where, shown,
                                     line_number, kMaxTableRows));
    for (std::size_t c = 0; c < cells.size(); ++c) {
      bool out_of_range = false;
      const auto v = parse_csv_number(cells[c], out_of_range);
      if (out_of_range)
        throw InvalidInput(fmt::format("{}: {}:{}:{}: {} is out of the range of normal doubles (column \"{}\")",
                                       where, shown, line_number, c + 1, shown_key(cells[c]),
                                       shown_key(out.header[c])));
      if (!v)
        throw InvalidInput(fmt::format("{}: {}:{}:{}: {} is not a number (column \"{}\")", where, shown, line_number,
                                       c + 1, json_quote(shown_key(cells[c])), shown_key(out.header[c])));
      if (std::abs(*v) > kMaxMagnitude)  // the rule of every scenario number (its subnormal rule: out_of_range above)
        require_scenario_number(fmt::format("{}: {}:{}:{} (column \"{}\")", where, shown, line_number, c + 1,
                                            shown_key(out.header[c])),
                                *v);
      out.rows.cells.push_back(*v);
    }
    out.row_lines.push_back(line_number);
  }
  if (out.header.empty())
    throw InvalidInput(fmt::format("{}: {} is empty; a header row is expected", where, shown));
  return out;
}

CsvTable read_csv_table(const std::string& key, const std::string& file, const std::filesystem::path& path,
                        const std::optional<std::string>& time_column,
                        const std::optional<std::string>& value_column) {
  const std::string where = fmt::format("{}.file = {}", key, json_quote(file));
  const std::string shown = path.string();
  const CsvNumbers csv = read_csv_numbers(where, path);
  const std::vector<std::string>& header = csv.header;

  const auto find_column = [&](const std::optional<std::string>& wanted, std::size_t fallback,
                               std::string_view option) -> std::size_t {
    if (!wanted) {
      if (fallback >= header.size())
        throw InvalidInput(fmt::format("{}: {}:{}: the header has {} column(s); give {}.{} or add a column", where,
                                       shown, csv.header_line, header.size(), key, option));
      return fallback;
    }
    for (std::size_t i = 0; i < header.size(); ++i)
      if (header[i] == *wanted) return i;
    throw InvalidInput(fmt::format("{}.{} = {}: {}:{}: no such column (header: {})", key, option,
                                   json_quote(shown_key(*wanted)), shown, csv.header_line, shown_header(header)));
  };
  const std::size_t it = find_column(time_column, 0, "time_column");
  const std::size_t iv = find_column(value_column, 1, "value_column");

  CsvTable out;
  out.time_column = header[it];
  out.value_column = header[iv];
  for (std::size_t r = 0; r < csv.rows.size(); ++r) {
    const double t = csv.rows[r][it];
    if (!out.times.empty() && !(t > out.times.back()))
      throw InvalidInput(fmt::format("{}: {}:{}:{}: time {} is not greater than the previous time {}", where, shown,
                                     csv.row_lines[r], it + 1, format_value(t), format_value(out.times.back())));
    out.times.push_back(t);
    out.values.push_back(csv.rows[r][iv]);
  }
  if (out.times.size() < 2)
    throw InvalidInput(fmt::format("{}: {} has {} data row(s); a table needs at least 2", where, shown,
                                   out.times.size()));
  return out;
}

}  // namespace bristle::io::detail
