#include "bristle/core/time_series.hpp"

#include <stdexcept>

namespace bristle {

TimeSeries::TimeSeries(std::vector<std::string> column_names)
    : names(std::move(column_names)), columns(names.size()) {}

void TimeSeries::add_row(const std::vector<double>& row) {
  if (row.size() != names.size()) throw std::logic_error("TimeSeries::add_row: row size does not match columns");
  for (std::size_t i = 0; i < row.size(); ++i) columns[i].push_back(row[i]);
}

void TimeSeries::reserve(std::size_t rows) {
  for (auto& c : columns) c.reserve(rows);
}

const std::vector<double>& TimeSeries::column(std::string_view name) const {
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return columns[i];
  throw std::out_of_range("TimeSeries: no column named " + std::string(name));
}

bool TimeSeries::has(std::string_view name) const {
  for (const auto& n : names)
    if (n == name) return true;
  return false;
}

}  // namespace bristle
