// Output writers: CSV text, JSON, and the all-or-nothing file writing with gnuplot.
#include "bristle/io/output.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>

#include "bristle/io/json.hpp"
#include "bristle/io/scenario.hpp"
#include "support/test_support.hpp"

namespace bristle::io {
namespace {

namespace fs = std::filesystem;

using test::TempDir;

std::string read(const fs::path& p) { return test::read_text(p); }

std::size_t count_entries(const fs::path& dir) {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++n;
  return n;
}

RunResult small_result(bool sweep) {
  RunResult r;
  r.name = "small";
  r.title = "Small 'quoted' title";
  r.plot_x = "t_s";
  r.plot_y = {"F_N", "x_m"};
  if (sweep) r.sweep_column = "omega";
  for (int c = 0; c < (sweep ? 2 : 1); ++c) {
    CaseResult cr;
    if (sweep) cr.sweep_value = c == 0 ? 1.0 : 2.5;
    cr.series = TimeSeries({"t_s", "x_m", "F_N"});
    for (int i = 0; i < 3; ++i) cr.series.add_row({0.1 * i, 1.0 / 3.0 * (c + 1), i == 2 ? -0.0 : 1e-300 * i});
    r.cases.push_back(std::move(cr));
  }
  r.report["name"] = "small";
  r.report["solve_seconds"] = 0.25;
  return r;
}

TEST(Json, WritesShortestRoundTripNumbersAndEscapes) {
  Json j = Json::object();
  j["a"] = 0.1;
  j["b"] = 1.0 / 3.0;
  j["nan"] = std::nan("");
  j["s"] = "quote \" backslash \\ newline \n";
  j["list"] = Json(std::vector<double>{1, 2.5});
  j["n"] = 42;
  j["t"] = true;
  j["null"] = nullptr;
  EXPECT_EQ(j.dump(0), "{\"a\": 0.1, \"b\": 0.3333333333333333, \"nan\": null, \"s\": \"quote \\\" backslash \\\\ "
                       "newline \\n\", \"list\": [1, 2.5], \"n\": 42, \"t\": true, \"null\": null}");
  const Json* b = j.find("b");
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(j.find("zzz"), nullptr);
}

TEST(Output, CsvHasAHeaderAndFullPrecision) {
  const std::string csv = csv_text(small_result(false));
  EXPECT_EQ(csv,
            "t_s,x_m,F_N\n"
            "0,0.3333333333333333,0\n"
            "0.1,0.3333333333333333,1e-300\n"
            "0.2,0.3333333333333333,-0\n");
}

TEST(Output, NotAvailableValuesAreEmptyCells) {
  RunResult r = small_result(false);
  r.cases[0].series = TimeSeries({"t_s", "P_outflow_W", "F_N"});
  r.cases[0].series.add_row({0.0, std::nan(""), 1.5});
  r.cases[0].series.add_row({0.1, std::nan(""), std::nan("")});
  EXPECT_EQ(csv_text(r), "t_s,P_outflow_W,F_N\n0,,1.5\n0.1,,\n");
}

TEST(Output, SweepCsvIsLongFormatWithTheSweepColumnFirst) {
  const std::string csv = csv_text(small_result(true));
  std::istringstream in(csv);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "omega,t_s,x_m,F_N");
  int ones = 0, others = 0;
  while (std::getline(in, line)) {
    if (line.rfind("1,", 0) == 0) ++ones;
    if (line.rfind("2.5,", 0) == 0) {
      ++others;
      EXPECT_EQ(ones, 3) << "cases must come in blocks";
    }
  }
  EXPECT_EQ(ones, 3);
  EXPECT_EQ(others, 3);
}

TEST(Output, GnuplotScriptHasOnePanelPerColumnAndALegendPerCase) {
  const std::string s = gnuplot_script(small_result(true), "/tmp/x.png");
  EXPECT_NE(s.find("set terminal pngcairo"), std::string::npos);
  EXPECT_NE(s.find("set multiplot layout 2,1 title 'Small ''quoted'' title'"), std::string::npos);
  EXPECT_NE(s.find("set ylabel 'F_N'"), std::string::npos);
  EXPECT_NE(s.find("set ylabel 'x_m'"), std::string::npos);
  EXPECT_NE(s.find("set xlabel 't_s'"), std::string::npos);
  EXPECT_NE(s.find("title 'omega = 1'"), std::string::npos);
  EXPECT_NE(s.find("title 'omega = 2.5'"), std::string::npos);
}

TEST(Output, WritesCsvJsonAndPng) {
  TempDir dir;
  const fs::path out = dir.path() / "new" / "nested";
  const auto files = write_outputs(small_result(true), out);
  ASSERT_EQ(files.size(), 3u);
  EXPECT_EQ(read(out / "small.csv"), csv_text(small_result(true)));
  EXPECT_NE(read(out / "small.json").find("\"solve_seconds\": 0.25"), std::string::npos);
  const std::string png = read(out / "small.png");
  ASSERT_GT(png.size(), 8u);
  EXPECT_EQ(png.substr(1, 3), "PNG");
  EXPECT_EQ(count_entries(out), 3u);  // no temporaries left
}

TEST(Output, NoPlotWritesTwoFiles) {
  TempDir dir;
  WriteOptions o;
  o.plot = false;
  o.gnuplot = "/nonexistent/gnuplot";
  const auto files = write_outputs(small_result(false), dir.path(), o);
  EXPECT_EQ(files.size(), 2u);
  EXPECT_EQ(count_entries(dir.path()), 2u);
}

TEST(Output, FailingOrMissingGnuplotLeavesNothing) {
  TempDir dir;
  for (const char* gnuplot : {"false", "/nonexistent/gnuplot"}) {
    WriteOptions o;
    o.gnuplot = gnuplot;
    const fs::path out = dir.path() / "a" / "b";
    EXPECT_THROW(write_outputs(small_result(false), out, o), OutputError) << gnuplot;
    EXPECT_FALSE(fs::exists(dir.path() / "a")) << gnuplot;  // created directories are removed again
    // An existing directory keeps its own files and gets none of ours.
    std::ofstream(dir.path() / "keep.txt") << "x";
    EXPECT_THROW(write_outputs(small_result(false), dir.path(), o), OutputError) << gnuplot;
    EXPECT_EQ(count_entries(dir.path()), 1u) << gnuplot;
  }
}

TEST(Output, ExistingFileAsDirectoryIsAnError) {
  TempDir dir;
  std::ofstream(dir.path() / "file") << "x";
  WriteOptions o;
  o.plot = false;
  EXPECT_THROW(write_outputs(small_result(false), dir.path() / "file", o), OutputError);
  EXPECT_EQ(count_entries(dir.path()), 1u);
}

// issue 17: every output value is checked before anything is written; a non-finite one is a
// NonFiniteOutput (a SolverError, exit 3) naming the file, column, value, time and case, and no file or
// directory is left behind.
std::string non_finite_message(const RunResult& r, const fs::path& out) {
  WriteOptions o;
  o.plot = false;
  try {
    write_outputs(r, out, o);
  } catch (const NonFiniteOutput& e) {
    EXPECT_FALSE(fs::exists(out)) << "a directory or file was left behind";
    return e.what();
  }
  ADD_FAILURE() << "no NonFiniteOutput";
  return "";
}

TEST(Output, InfiniteCellIsRefusedNamingColumnTimeAndCase) {
  TempDir dir;
  RunResult r = small_result(true);
  r.cases[1].series.columns[2][1] = std::numeric_limits<double>::infinity();
  EXPECT_EQ(non_finite_message(r, dir.path() / "out"),
            "non-finite output: small.csv column F_N = inf at t_s = 0.1 (case omega = 2.5); nothing written");
  static_assert(std::is_base_of_v<SolverError, NonFiniteOutput>);  // bristle run: exit 3
}

TEST(Output, NanIsRefusedUnlessTheColumnIsOptional) {
  TempDir dir;
  RunResult r = small_result(false);
  r.cases[0].series.columns[1][2] = std::nan("");
  EXPECT_EQ(non_finite_message(r, dir.path() / "out"),
            "non-finite output: small.csv column x_m = nan at t_s = 0.2; nothing written");
  r.optional_columns = {"x_m"};  // "not available": an empty cell
  WriteOptions o;
  o.plot = false;
  EXPECT_EQ(write_outputs(r, dir.path() / "ok", o).size(), 2u);
  EXPECT_NE(read(dir.path() / "ok" / "small.csv").find("0.2,,-0\n"), std::string::npos);
  // An infinity is never "not available".
  r.cases[0].series.columns[1][2] = -std::numeric_limits<double>::infinity();
  EXPECT_EQ(non_finite_message(r, dir.path() / "out"),
            "non-finite output: small.csv column x_m = -inf at t_s = 0.2; nothing written");
}

TEST(Output, NonFiniteCellOfAnExtraFileIsRefused) {
  TempDir dir;
  RunResult r = small_result(false);
  r.extra_files.push_back({"_fields.csv", "label,t_s,x_m,Fx_N\nV = 1,0.5,0,1\nV = 1,0.5,0.1,inf\n"});
  EXPECT_EQ(non_finite_message(r, dir.path() / "out"),
            "non-finite output: small_fields.csv column Fx_N = inf at t_s = 0.5 (line 3); nothing written");
  r.extra_files[0].text = "label,t_s,x_m,Fx_N\nV = 1,0.5,0,\n";  // an empty cell is not a number
  WriteOptions o;
  o.plot = false;
  EXPECT_EQ(write_outputs(r, dir.path() / "ok", o).size(), 3u);
}

TEST(Output, NonFiniteJsonNumberIsRefusedNamingItsPath) {
  TempDir dir;
  RunResult r = small_result(false);
  Json c = Json::object();
  c["final"]["Fx_N"] = std::nan("");
  r.report["cases"].push_back(Json::object());
  r.report["cases"].push_back(c);
  EXPECT_EQ(non_finite_message(r, dir.path() / "out"),
            "non-finite output: small.json cases[1].final.Fx_N = nan; nothing written");
  r.report = Json::object();
  r.report["steady"]["ratio"] = std::numeric_limits<double>::infinity();
  EXPECT_EQ(non_finite_message(r, dir.path() / "out"),
            "non-finite output: small.json steady.ratio = inf; nothing written");
  r.report["steady"]["ratio"] = nullptr;  // a null put there on purpose is fine
  r.report["final"]["mu"] = std::nan("");
  r.optional_columns = {"mu"};  // ... and so is an optional column's "not available"
  WriteOptions o;
  o.plot = false;
  EXPECT_EQ(write_outputs(r, dir.path() / "ok", o).size(), 2u);
}

TEST(Output, RunningALumpedScenarioFillsTheReport) {
  const auto scenario = parse_scenario_string(
      "[law]\ntype = \"lugre\"\nmu_s = 1.5\nmu_d = 1\nv_s = 0.001\n[body1]\ntype = \"elastic\"\nk0 = 1e5\n"
      "[bench]\ndrive = \"velocity\"\ninput = 0.01\nnormal_load_N = 10\n[time]\nt_end_s = 0.05\noutputs = 51\n"
      "[sweep]\nparameter = \"bench.normal_load_N\"\nvalues = [10, 20]\ncolumn = \"load\"\n",
      "report");
  int calls = 0;
  const RunResult r = scenario->run([&](const Progress& p) {
    ++calls;
    EXPECT_EQ(p.case_count, 2u);
  });
  EXPECT_GT(calls, 0);
  ASSERT_EQ(r.cases.size(), 2u);
  EXPECT_EQ(r.sweep_column, "load");
  EXPECT_EQ(r.cases[1].series.rows(), 51u);
  // Steady sliding at 0.01 m/s >> v_s: F = -F_z mu_d.
  EXPECT_NEAR(r.cases[0].series.column("F_N").back(), -10.0, 1e-6);
  EXPECT_NEAR(r.cases[1].series.column("F_N").back(), -20.0, 1e-6);
  const std::string json = r.report.dump();
  for (const char* key : {"\"bristle_version\"", "\"solve_seconds\"", "\"solve_cpu_seconds\"", "\"parameters\"",
                          "\"derived\"",
                          "\"F_peak_N\"", "\"integrator_stats\"", "\"steady_at_final_velocity\"", "\"load\": 20",
                          // The default method (auto; cvode_bdf and so "full" before issue 19) at rtol 1e-8:
                          "\"path\": \"kernel\"", "\"method\": \"auto\"", "\"method_used\": \"rodas5p\""})
    EXPECT_NE(json.find(key), std::string::npos) << key;
  EXPECT_GE(r.solve_seconds, 0.0);
}

// integrator_stats.path names the implementation that ran: with rodas4 this elastic LuGre contact takes the
// compiled 1-D kernel, with a y input the full 2-D system.
TEST(Output, ReportNamesTheIntegrationPath) {
  const std::string base =
      "[law]\ntype = \"lugre\"\nmu_s = 1.5\nmu_d = 1\nv_s = 0.001\n[body1]\ntype = \"elastic\"\nk0 = 1e5\n"
      "[time]\nt_end_s = 0.05\noutputs = 51\n[integrator]\nmethod = \"rodas4\"\nrtol = 1e-6\natol = 1e-10\n";
  const auto kernel = parse_scenario_string(base + "[bench]\ndrive = \"velocity\"\ninput = 0.01\n", "kernel");
  EXPECT_NE(kernel->run({}).report.dump().find("\"path\": \"kernel\""), std::string::npos);
  const auto full =
      parse_scenario_string(base + "[bench]\ndrive = \"velocity\"\ninput = 0.01\ninput_y = 0.005\n", "full");
  EXPECT_NE(full->run({}).report.dump().find("\"path\": \"full\""), std::string::npos);
}

// integrator_stats.method_used and parameters.integrator.method_used say which method ran: what auto chose
// (rodas4 at rtol >= 1e-5, rodas5p below, on a bench), or the method named.
TEST(Output, ReportNamesTheMethodThatRan) {
  const std::string base =
      "[law]\ntype = \"lugre\"\nmu_s = 1.5\nmu_d = 1\nv_s = 0.001\n[body1]\ntype = \"elastic\"\nk0 = 1e5\n"
      "[time]\nt_end_s = 0.05\noutputs = 51\n[bench]\ndrive = \"velocity\"\ninput = 0.01\n";
  const auto count = [](const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
  };
  const std::string loose =
      parse_scenario_string(base + "[integrator]\nrtol = 1e-4\natol = 1e-8\n", "loose")->run({}).report.dump();
  EXPECT_EQ(count(loose, "\"method\": \"auto\""), 1u) << loose;
  EXPECT_EQ(count(loose, "\"method_used\": \"rodas4\""), 2u) << loose;  // parameters and the case's stats
  const std::string tight =
      parse_scenario_string(base + "[integrator]\nrtol = 1e-8\n", "tight")->run({}).report.dump();
  EXPECT_EQ(count(tight, "\"method_used\": \"rodas5p\""), 2u) << tight;
  const std::string bdf = parse_scenario_string(base + "[integrator]\nmethod = \"cvode_bdf\"\n", "bdf")->run({}).report.dump();
  EXPECT_EQ(count(bdf, "\"method\": \"cvode_bdf\""), 1u) << bdf;
  EXPECT_EQ(count(bdf, "\"method_used\": \"cvode_bdf\""), 2u) << bdf;
  EXPECT_EQ(count(bdf, "\"path\": \"full\""), 1u) << bdf;
}

}  // namespace
}  // namespace bristle::io
