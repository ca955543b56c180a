#pragma once
// Shared by the key-path tests of the kinds (tests/io/*key_path*_test.cpp): the file with one line edited, "set then
// run equals parsing the edited file", and "an error names the key and leaves the scenario unchanged".
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "bristle/core/error.hpp"
#include "bristle/io/key_path.hpp"
#include "bristle/io/output.hpp"

namespace bristle::io::test {

/// `text` with the line starting with `replace` replaced by `line`.
inline std::string edited(std::string text, const std::string& replace, const std::string& line) {
  const std::size_t at = text.find("\n" + replace);
  EXPECT_NE(at, std::string::npos) << replace;
  const std::size_t end = text.find('\n', at + 1);
  return text.replace(at + 1, end - at - 1, line);
}

/// key = value set on the parsed file, against the file whose line starting with `replaces` is `file_line`.
struct KeyCase {
  std::string key;
  double value;
  std::string file_line, replaces;
};

/// For each case: set_number on the parsed `text` gives the value get_number reads from the edited file, the same
/// CSV and the same report entries `report_keys` when run, and a CSV other than the unedited file's.
template <class Parse, class Run>
void check_set_equals_file(const std::string& text, const std::vector<KeyCase>& cases, Parse&& parse, Run&& run,
                           const std::vector<std::string>& report_keys = {"parameters"}) {
  const auto base = parse(text);
  const std::string base_csv = csv_text(run(base));
  for (const KeyCase& c : cases) {
    auto sc = base;
    set_number(sc, c.key, c.value);
    const auto file = parse(edited(text, c.replaces, c.file_line));
    EXPECT_EQ(get_number(sc, c.key), get_number(file, c.key)) << c.key;
    EXPECT_EQ(get_number(sc, c.key), c.value) << c.key;
    const RunResult a = run(sc), b = run(file);
    EXPECT_TRUE(csv_text(a) == csv_text(b)) << c.key << ": not the CSV of the file with the value";
    for (const std::string& k : report_keys) EXPECT_EQ(a.report.find(k)->dump(), b.report.find(k)->dump()) << c.key;
    EXPECT_TRUE(csv_text(a) != base_csv) << c.key << ": the value had no effect";
  }
}

/// set_number's message for key = value on a copy of `sc`, or "(no error)"; an error must leave the scenario's CSV
/// (by `run`) unchanged.
template <class Sc, class Run>
std::string set_error_of(Sc sc, const std::string& key, double value, Run&& run) {
  const std::string before = csv_text(run(sc));
  try {
    set_number(sc, key, value);
  } catch (const InvalidInput& e) {
    EXPECT_EQ(csv_text(run(sc)), before) << key << ": the scenario changed on an error";
    return e.what();
  }
  return "(no error)";
}

}  // namespace bristle::io::test
