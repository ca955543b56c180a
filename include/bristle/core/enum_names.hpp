#pragma once
// Names of enumerations as they appear in scenario files, both ways, with one error message for an
// unknown name: "<key> = \"<name>\": unknown <what> (valid: a, b, c); did you mean \"b\"?".
#include <array>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace bristle {

template <typename Kind, std::size_t N>
using NameTable = std::array<std::pair<Kind, std::string_view>, N>;

/// Throws InvalidInput for an unknown name, listing the valid ones and suggesting the nearest.
[[noreturn]] void throw_unknown_name(std::string_view key, std::string_view name, std::string_view what,
                                     const std::vector<std::string>& valid);

template <typename Kind, std::size_t N>
std::string_view name_of(const NameTable<Kind, N>& table, Kind kind) {
  for (const auto& [k, n] : table)
    if (k == kind) return n;
  return "unknown";
}

template <typename Kind, std::size_t N>
Kind parse_name(const NameTable<Kind, N>& table, std::string_view key, std::string_view name,
                std::string_view what) {
  std::vector<std::string> valid;
  for (const auto& [k, n] : table) {
    if (n == name) return k;
    valid.emplace_back(n);
  }
  throw_unknown_name(key, name, what, valid);
}

}  // namespace bristle
