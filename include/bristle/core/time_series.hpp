#pragma once
// A table of named columns (one row per output time), the common result type of every solver.
// Column names carry SI units where it helps: "t_s", "x_m", "v_mps", "F_N".
#include <string>
#include <string_view>
#include <vector>

namespace bristle {

struct TimeSeries {
  std::vector<std::string> names;
  std::vector<std::vector<double>> columns;

  explicit TimeSeries(std::vector<std::string> column_names = {});
  std::size_t rows() const { return columns.empty() ? 0 : columns.front().size(); }
  void add_row(const std::vector<double>& row);
  /// Reserves room for `rows` rows in every column (avoids regrowth while a solver records).
  void reserve(std::size_t rows);
  /// The column called `name`; throws std::out_of_range naming it if absent.
  const std::vector<double>& column(std::string_view name) const;
  bool has(std::string_view name) const;
};

}  // namespace bristle
