#include "csv_table.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <sstream>
#include <string_view>
#include <system_error>

#include "bristle/core/error.hpp"
#include "bristle/io/json.hpp"
#include "input_file.hpp"

namespace bristle::io::detail {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

std::vector<std::string> split(std::string_view line) {
  std::vector<std::string> cells;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = line.find(',', start);
    std::string_view cell = trim(line.substr(start, comma == std::string_view::npos ? line.npos : comma - start));
    if (cell.size() >= 2 && cell.front() == '"' && cell.back() == '"') cell = cell.substr(1, cell.size() - 2);
    cells.emplace_back(cell);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return cells;
}

std::optional<double> parse_double(std::string_view s) {
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  if (s.empty()) return std::nullopt;
  double v = 0.0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

}  // namespace

CsvTable read_csv_table(const std::string& key, const std::string& file, const std::filesystem::path& path,
                        const std::optional<std::string>& time_column,
                        const std::optional<std::string>& value_column) {
  const std::string where = fmt::format("{}.file = {}", key, json_quote(file));
  const std::string shown = path.string();
  std::istringstream in(read_input_file(path, kMaxTableBytes, where + ": "));

  std::string line;
  std::size_t line_number = 0;
  std::vector<std::string> header;
  while (std::getline(in, line)) {
    ++line_number;
    const std::string_view t = trim(line);
    if (t.empty() || t.front() == '#') continue;
    header = split(t);
    break;
  }
  if (header.empty()) throw InvalidInput(fmt::format("{}: {} is empty; a header row is expected", where, shown));
  const std::size_t header_line = line_number;

  const auto find_column = [&](const std::optional<std::string>& wanted, std::size_t fallback,
                               std::string_view option) -> std::size_t {
    if (!wanted) {
      if (fallback >= header.size())
        throw InvalidInput(fmt::format("{}: {}:{}: the header has {} column(s); give {}.{} or add a column", where,
                                       shown, header_line, header.size(), key, option));
      return fallback;
    }
    for (std::size_t i = 0; i < header.size(); ++i)
      if (header[i] == *wanted) return i;
    throw InvalidInput(fmt::format("{}.{} = {}: {}:{}: no such column (header: {})", key, option, json_quote(*wanted),
                                   shown, header_line, fmt::join(header, ", ")));
  };
  const std::size_t it = find_column(time_column, 0, "time_column");
  const std::size_t iv = find_column(value_column, 1, "value_column");

  CsvTable out;
  out.time_column = header[it];
  out.value_column = header[iv];
  while (std::getline(in, line)) {
    ++line_number;
    const std::string_view t = trim(line);
    if (t.empty() || t.front() == '#') continue;
    const std::vector<std::string> cells = split(t);
    double row[2] = {0.0, 0.0};
    const std::size_t wanted[2] = {it, iv};
    for (int c = 0; c < 2; ++c) {
      const std::size_t col = wanted[c];
      if (col >= cells.size())
        throw InvalidInput(fmt::format("{}: {}:{}: {} cell(s), but column {} (\"{}\") is needed", where, shown,
                                       line_number, cells.size(), col + 1, header[col]));
      const auto v = parse_double(cells[col]);
      if (!v)
        throw InvalidInput(fmt::format("{}: {}:{}:{}: {} is not a number (column \"{}\")", where, shown, line_number,
                                       col + 1, json_quote(cells[col]), header[col]));
      if (!std::isfinite(*v))
        throw InvalidInput(fmt::format("{}: {}:{}:{}: {} is not finite (column \"{}\")", where, shown, line_number,
                                       col + 1, cells[col], header[col]));
      row[c] = *v;
    }
    if (!out.times.empty() && !(row[0] > out.times.back()))
      throw InvalidInput(fmt::format("{}: {}:{}:{}: time {} is not greater than the previous time {}", where, shown,
                                     line_number, it + 1, format_value(row[0]), format_value(out.times.back())));
    out.times.push_back(row[0]);
    out.values.push_back(row[1]);
  }
  if (out.times.size() < 2)
    throw InvalidInput(fmt::format("{}: {} has {} data row(s); a table needs at least 2", where, shown,
                                   out.times.size()));
  return out;
}

}  // namespace bristle::io::detail
