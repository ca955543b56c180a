// Reliability of the scenario readers (issue 17): each test is the smallest input of a class that once
// crashed, hung or exhausted memory, and pins the exact InvalidInput message that replaced it.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

#include "bristle/core/error.hpp"
#include "bristle/io/scenario.hpp"
#include "support/test_support.hpp"

namespace bristle::io {
namespace {

namespace fs = std::filesystem;
using test::message_of;
using test::TempDir;

std::string example(const std::string& name) { return test::read_text(fs::path(BRISTLE_SOURCE_DIR) / "examples" / name); }

/// The message of parsing `toml` as a scenario of any kind ("(no error)" if it parses).
std::string error_of(const std::string& toml) {
  return message_of([&] { (void)parse_scenario_string(toml, "t"); });
}

/// `text` with the first line that starts with `key =` replaced by `line` (or removed when empty).
std::string with_line(std::string text, const std::string& key, const std::string& line) {
  const std::regex re("(^|\n)" + key + " *=[^\n]*\n");
  std::smatch m;
  if (!std::regex_search(text, m, re)) throw std::runtime_error("no line " + key);
  return text.replace(static_cast<std::size_t>(m.position(0)), static_cast<std::size_t>(m.length(0)),
                      m[1].str() + (line.empty() ? "" : line + "\n"));
}

// ---- 1. crash fixes -------------------------------------------------------------------------------

// A dotted key 60,000 components deep overflowed toml++'s recursion (SIGSEGV in `check`); the depth is
// now counted before toml++ sees the text, for keys, [headers], arrays and inline tables alike.
TEST(Reliability, NestingDeeperThanTheLimitIsRefusedBeforeParsing) {
  std::string deep_key;
  for (int i = 0; i < 60000; ++i) deep_key += "a.";
  EXPECT_EQ(error_of(deep_key + "a = 1\n"),
            "<string>:1:128: nested deeper than 64 levels (tables, dotted keys, arrays and inline tables together); "
            "see Limits in docs/scenarios.md");
  EXPECT_EQ(error_of("x = 1\n[" + deep_key + "a]\n").substr(0, 40), "<string>:2:129: nested deeper than 64 le");
  EXPECT_EQ(error_of("x = " + std::string(300, '[') + std::string(300, ']') + "\n").substr(0, 38),
            "<string>:1:68: nested deeper than 64 l");
  // 63 levels (a header of 31 components and a key of 32) are within the limit: toml++ reads them.
  std::string header, key;
  for (int i = 0; i < 30; ++i) header += "h.";
  for (int i = 0; i < 31; ++i) key += "k.";
  EXPECT_EQ(error_of("[" + header + "h]\n" + key + "k = 1\n"), "unknown key \"h\"; did you mean \"law\"?");
  // Dots and brackets inside strings and comments are not nesting.
  EXPECT_EQ(error_of("name = \"" + deep_key + "\" # " + std::string(100, '[') + "\nq = '''" + deep_key + "'''\n"),
            "unknown key \"q\"; did you mean \"law\"?");
}

// patch_transient with a [kinematics] lacking Vr_mps (or empty) dereferenced a missing node.
TEST(Reliability, PatchTransientWithoutRollingSpeedNamesTheKey) {
  const std::string text = example("patch_load_step.toml");
  const std::string message = "missing key \"kinematics.Vr_mps\" (required: the rolling speed V_r, m/s: a number or a "
                              "signal table)";
  EXPECT_EQ(error_of(with_line(text, "Vr_mps", "")), message);
  std::string empty = text;
  for (const char* k : {"mode", "Vr_mps", "vx_mps", "vy_mps", "spin_radps"}) empty = with_line(empty, k, "");
  EXPECT_EQ(error_of(empty), message);
}

// Scenario files: regular files only (/dev/zero was read to 2 GB, bad_alloc), and at most 4 MiB.
TEST(Reliability, ScenarioFilesAreRegularAndBounded) {
  EXPECT_EQ(message_of([] { (void)load_scenario("/dev/zero"); }),
            "cannot read scenario /dev/zero: not a regular file (a device, FIFO or socket)");
  const TempDir dir;
  EXPECT_EQ(message_of([&] { (void)load_scenario(dir.path()); }),
            "cannot read scenario " + dir.path().string() + ": is a directory, not a regular file");
  const fs::path fifo = dir.path() / "fifo.toml";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);  // no writer: opening it must not block
  EXPECT_EQ(message_of([&] { (void)load_scenario(fifo); }),
            "cannot read scenario " + fifo.string() + ": not a regular file (a device, FIFO or socket)");
  // A 48 MB array under an unknown key hung toml++ for minutes; the size is refused before reading.
  const fs::path big = dir.path() / "big.toml";
  {
    std::ofstream out(big);
    out << example("lugre_stick_slip.toml") << "\nzzz = [";
    for (int i = 0; i < 1'200'000; ++i) out << "1.25, ";
    out << "1]\n";
  }
  EXPECT_EQ(message_of([&] { (void)load_scenario(big); }),
            "cannot read scenario " + big.string() + ": " + fmt::format("{:.1f}", fs::file_size(big) / 1048576.0) +
                " MiB is larger than the limit of 4 MiB for this file");
}

// Table files likewise: a device or a directory is "not a regular file", never read.
TEST(Reliability, TableFilesAreRegular) {
  const std::string lumped =
      "[law]\ntype = \"lugre\"\n[body1]\ntype = \"elastic\"\nk0 = 1e5\n[bench]\ndrive = \"velocity\"\n"
      "input = { type = \"table\", file = \"/dev/zero\" }\n[time]\nt_end_s = 0.1\n";
  EXPECT_EQ(error_of(lumped), "bench.input.file = \"/dev/zero\": cannot read /dev/zero: not a regular file (a device, "
                              "FIFO or socket)");
  const TempDir dir;
  std::string in_dir = lumped;
  in_dir.replace(in_dir.find("/dev/zero"), 9, dir.path().string());
  EXPECT_EQ(error_of(in_dir), "bench.input.file = \"" + dir.path().string() + "\": cannot read " +
                                  dir.path().string() + ": is a directory, not a regular file");
  const std::string modal = "kind = \"structure_kernel\"\n[structure]\ntype = \"generic\"\nfile = \"/dev/zero\"\n";
  EXPECT_EQ(error_of(modal),
            "structure.file = \"/dev/zero\": cannot read /dev/zero: not a regular file (a device, FIFO or socket)");
}

}  // namespace
}  // namespace bristle::io
