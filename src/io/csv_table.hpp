#pragma once
// Private: reading a (time, value) table for a table signal from a CSV file with a header row.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace bristle::io::detail {

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
