#pragma once
// Private: the CSV readers of scenario tables (table signals, modal data) share one strict reader:
// a header row of distinct column names, rows of exactly as many cells, numbers in decimal notation
// only (no hex, inf or nan; overflow and underflow are errors), every error naming the scenario key,
// the file and file:line:column.
#include <cstddef>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace bristle::io::detail {

/// Most data rows of a CSV table: 4,000,000 (a fit takes at most 2,000,001 samples; 64 MiB of one-character rows
/// are 33 million, which took 2.2 GB as they were read).
inline constexpr std::size_t kMaxTableRows = 4'000'000;

/// The data rows of a CsvNumbers in one row-major block: rows[r][c].
struct CsvRows {
  std::size_t columns = 0;
  std::vector<double> cells;
  std::size_t size() const { return columns == 0 ? 0 : cells.size() / columns; }
  bool empty() const { return cells.empty(); }
  std::span<const double> operator[](std::size_t r) const { return {cells.data() + r * columns, columns}; }
};

/// A numeric CSV file: its header and its rows as numbers, with the line of each row.
struct CsvNumbers {
  std::vector<std::string> header;
  std::size_t header_line = 0;
  CsvRows rows;
  std::vector<std::size_t> row_lines;
};

/// A header as messages show it: its column names joined by ", ", the first 20 of a longer one and their count.
std::string shown_header(const std::vector<std::string>& header);

/// The pieces of `text` between the `separator`s (n separators give n + 1 pieces, empty ones included).
std::vector<std::string_view> split_at(std::string_view text, char separator);

/// Reads `path` (a regular file of at most kMaxTableBytes and kMaxTableRows). `where` prefixes every message (e.g.
/// `bench.input.file = "drive.csv"`). Blank lines and lines starting with '#' are skipped; a UTF-8
/// byte-order mark, blanks around cells and a pair of double quotes around a cell are removed. A column name may
/// not be a number (a file without a header row would lose its first row to it), and a number's magnitude is at
/// most kMaxMagnitude, as in the scenario.
CsvNumbers read_csv_numbers(const std::string& where, const std::filesystem::path& path);

/// The strict number parser of every CSV reader: [+-] digits [. digits] [(e|E) [+-] digits], at least one
/// digit before the exponent; nullopt for anything else. `out_of_range` is set when the text is such a
/// number but its value overflows or underflows to a subnormal or zero from a non-zero mantissa.
std::optional<double> parse_csv_number(const std::string& cell, bool& out_of_range);

struct CsvTable {
  std::vector<double> times, values;
  std::string time_column, value_column;  // the names actually used
};

/// Reads two columns of `path`. `key` is the signal's dotted key (e.g. "bench.input") and `file` the
/// file name as written in the scenario; errors are InvalidInput naming both, and the file's line and
/// column where the problem is. Columns default to the first (time) and second (value).
CsvTable read_csv_table(const std::string& key, const std::string& file, const std::filesystem::path& path,
                        const std::optional<std::string>& time_column,
                        const std::optional<std::string>& value_column);

}  // namespace bristle::io::detail
