// Property test (issue 17, item 7): random valid scenarios of every kind, made from the examples by
// perturbing their numeric keys, either run to completion with finite outputs or fail cleanly: exit 2
// (invalid input) or 3 (solver failure, non-finite result) with one error line and no file written.
// Never a crash, a hang (a run killed after 60 s counts as one), exit 1, or a CSV cell that is not a
// finite number.
//
// Perturbation (seeded by example and draw): every float is multiplied by exp(U(-0.5, 0.5)) (zero stays
// zero, the sign is kept), every integer >= 10 by U(0.02, 0.2) (at least 10: counts of points, cells,
// outputs, samples and steps; the run gets smaller, never larger), integers < 10 (indices, feet, small
// counts), strings and booleans are kept; the end times (t_end_s, tau_end_s, the entries of field_times_s,
// the drive's cycles; integers at least min(2, the example's): a crawler needs 2) are scaled by one factor
// U(0.05, 0.25) per draw, so that every run is short, and the
// integrator tolerances (rtol, atol*) are only loosened, by exp(U(0, 1)).
// Bounded in count and time: draws go round-robin over the examples (draw 0 of every example, then draw
// 1, ...), at most BRISTLE_PROPERTY_DRAWS (default 3) per example, and after the first round no new draw
// starts once BRISTLE_PROPERTY_SECONDS (default 90) s have passed; under the sanitizer build (BRISTLE_SANITIZED=1) the line,
// patch and structures examples (the large ones) are skipped and one draw each is made. The counts per
// kind and exit code are printed at the end.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <toml++/toml.h>
#include <vector>

#include "support/test_support.hpp"

namespace {

namespace fs = std::filesystem;

bool is_end_time(const std::string& key) {
  return key == "t_end_s" || key == "tau_end_s" || key == "field_times_s" || key == "cycles";
}

bool is_tolerance(const std::string& key) { return key == "rtol" || key.rfind("atol", 0) == 0; }

void perturb(toml::node& node, const std::string& key, std::mt19937& rng, double time_scale) {
  if (toml::table* t = node.as_table()) {
    for (auto&& [k, v] : *t) perturb(v, std::string(k.str()), rng, time_scale);
  } else if (toml::array* a = node.as_array()) {
    for (toml::node& v : *a) perturb(v, key, rng, time_scale);
  } else if (toml::value<double>* d = node.as_floating_point()) {
    if (is_end_time(key)) {
      d->get() *= time_scale;
    } else if (is_tolerance(key)) {
      std::uniform_real_distribution<double> u(0.0, 1.0);
      d->get() *= std::exp(u(rng));  // loosened only: a tighter tolerance only makes the run longer
    } else {
      std::uniform_real_distribution<double> u(-0.5, 0.5);
      d->get() *= std::exp(u(rng));
    }
  } else if (toml::value<std::int64_t>* i = node.as_integer()) {
    if (is_end_time(key)) {
      // Never below 2 (nor above the example's): a crawler needs 2 cycles (1 was refused, so that no
      // crawler draw ever ran); 2 crawler cycles take about 1.6 s of CPU at the examples' smallest eps.
      const std::int64_t n = i->get();
      i->get() = std::max<std::int64_t>(std::min<std::int64_t>(n, 2), std::llround(static_cast<double>(n) * time_scale));
    } else if (i->get() >= 10 && !is_tolerance(key)) {
      std::uniform_real_distribution<double> u(0.02, 0.2);
      i->get() = std::max<std::int64_t>(10, std::llround(static_cast<double>(i->get()) * u(rng)));
    }
  }
}

/// The first cell of the CSV text that spells a non-finite number ("" if none); empty cells are "not
/// available" and label cells are text.
std::string bad_cell(const std::string& csv) {
  std::istringstream in(csv);
  std::string line;
  std::getline(in, line);  // header
  for (int row = 2; std::getline(in, line); ++row) {
    std::stringstream cells(line);
    for (std::string cell; std::getline(cells, cell, ',');) {
      if (cell == "inf" || cell == "-inf" || cell == "nan" || cell == "-nan")
        return fmt::format("row {}: {}", row, cell);
    }
  }
  return "";
}

TEST(Property, PerturbedExamplesRunOrFailCleanly) {
  const char* sanitized_env = std::getenv("BRISTLE_SANITIZED");
  const bool sanitized = sanitized_env && std::string(sanitized_env) == "1";
  int draws = sanitized ? 1 : 3;
  double budget_s = 90.0;
  if (const char* d = std::getenv("BRISTLE_PROPERTY_DRAWS")) draws = std::max(1, std::atoi(d));
  if (const char* b = std::getenv("BRISTLE_PROPERTY_SECONDS")) budget_s = std::atof(b);
  std::vector<fs::path> examples;
  for (const auto& e : fs::directory_iterator(fs::path(BRISTLE_SOURCE_DIR) / "examples"))
    if (e.path().extension() == ".toml") examples.push_back(e.path());
  std::sort(examples.begin(), examples.end());
  ASSERT_GE(examples.size(), 20u);
  std::vector<std::pair<std::string, toml::table>> bases;
  for (const fs::path& example : examples) {
    toml::table base;
    try {
      base = toml::parse_file(example.string());
    } catch (const toml::parse_error& e) {
      FAIL() << example << ": " << e.what();
    }
    const std::string kind = base["kind"].value_or(std::string("lumped"));
    if (sanitized && (kind.rfind("line_", 0) == 0 || kind.rfind("patch_", 0) == 0 || kind == "structure_stick_slip"))
      continue;
    bases.emplace_back(example.filename().string(), std::move(base));
  }
  std::map<std::string, int> counts;  // "<kind> exit <code>"
  std::vector<std::string> refusals;  // the error line of every exit 2 or 3
  int total = 0;
  const auto start = std::chrono::steady_clock::now();
  const auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  for (int draw = 0; draw < draws && (draw == 0 || elapsed() < budget_s); ++draw) {
    for (const auto& [file, base] : bases) {
      if (draw > 0 && elapsed() >= budget_s) break;  // the first draw of every example always runs
      const std::string kind = base["kind"].value_or(std::string("lumped"));
      std::mt19937 rng(static_cast<unsigned>(1000 * draw + std::hash<std::string>{}(file) % 997));
      std::uniform_real_distribution<double> scale(0.05, 0.25);
      toml::table t = base;
      const double time_scale = scale(rng);
      perturb(t, "", rng, time_scale);
      bristle::test::TempDir dir("bristle_property");
      std::ostringstream text;
      text << t << "\n";
      dir.write("s.toml", text.str());
      const bristle::test::CliResult r =
          bristle::test::run_cli(dir.path(), "run s.toml --out out --no-plot --quiet", "timeout -s KILL 60");
      ++total;
      ++counts[fmt::format("{} exit {}", kind, r.code)];
      SCOPED_TRACE(testing::Message() << file << " draw " << draw << ":\n" << text.str() << "\nstderr: " << r.err);
      if (r.code == 0) {
        bool csv = false;
        for (const auto& e : fs::directory_iterator(dir.path() / "out")) {
          if (e.path().extension() != ".csv") continue;
          csv = true;
          EXPECT_EQ(bad_cell(bristle::test::read_text(e.path())), "") << e.path().filename();
        }
        EXPECT_TRUE(csv);
      } else {
        refusals.push_back(fmt::format("{} draw {}: exit {}: {}", file, draw, r.code, r.err.substr(0, 200)));
        EXPECT_TRUE(r.code == 2 || r.code == 3) << "exit " << r.code << " (137: killed after 60 s)";
        EXPECT_FALSE(fs::exists(dir.path() / "out")) << "files left behind after a failed run";
        EXPECT_EQ(r.err.rfind("bristle: error: ", 0), 0u);
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1);
      }
    }
  }
  std::string summary;
  for (const auto& [what, n] : counts) summary += fmt::format("  {}: {}\n", what, n);
  for (const std::string& line : refusals) summary += "  " + line + (line.back() == '\n' ? "" : "\n");
  std::printf("property test: %d runs from %zu examples in %.0f s (up to %d draws each, budget %.0f s)\n%s", total,
              bases.size(), elapsed(), draws, budget_s, summary.c_str());
  EXPECT_GE(total, static_cast<int>(bases.size()));  // every example drawn at least once
}

}  // namespace
