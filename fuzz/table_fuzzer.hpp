#pragma once
// Shared by the CSV fuzz targets: the input bytes become a CSV file that a fixed scenario names, read
// through the scenario reader (the only way the library reads tables), so that the target follows any
// change of the reader. The file lives in a directory of its own, made once per process.
#include <stdlib.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>

#include "bristle/core/error.hpp"
#include "bristle/io/scenario.hpp"

namespace bristle::fuzz {

/// The path of the CSV file of this process (in $TMPDIR or /tmp; removed at exit).
inline const std::filesystem::path& table_path() {
  static const std::filesystem::path path = [] {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/bristle_fuzz_XXXXXX";
    if (!mkdtemp(pattern.data())) std::abort();
    static const std::string dir = pattern;
    std::atexit([] {
      std::error_code ec;
      std::filesystem::remove_all(dir, ec);
    });
    return std::filesystem::path(pattern) / "table.csv";
  }();
  return path;
}

/// Writes `data` to table_path() and checks `scenario` (which names that file) as `bristle check` does.
inline void check_with_table(const std::uint8_t* data, std::size_t size, const std::string& scenario) {
  std::FILE* f = std::fopen(table_path().c_str(), "wb");
  if (!f) std::abort();
  if (size > 0 && std::fwrite(data, 1, size, f) != size) std::abort();
  std::fclose(f);
  try {
    const auto s = io::parse_scenario_string(scenario, "fuzz", table_path().parent_path());
    (void)s->summary();
  } catch (const InvalidInput&) {
    // refused with a message: the expected outcome for a bad table
  }
}

}  // namespace bristle::fuzz
