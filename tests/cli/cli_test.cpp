// The `bristle` command line, run as a separate process: outputs, exit codes, error lines, and that a
// failed run leaves no output files behind.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "support/test_support.hpp"

namespace {

namespace fs = std::filesystem;

using bristle::test::CliResult;
std::string read(const fs::path& p) { return bristle::test::read_text(p); }

const char* kValid =
    "name = \"tiny\"\n"
    "[law]\ntype = \"lugre\"\nmu_s = 1.5\nmu_d = 1.0\nv_s = 0.001\nsigma1 = 316\n"
    "[body1]\ntype = \"elastic\"\nk0 = 1e5\n"
    "[bench]\ndrive = \"velocity\"\nnormal_load_N = 2\n[bench.input]\ntype = \"ramp\"\nrate = 1\n"
    "[time]\nt_end_s = 0.01\noutputs = 11\n";

/// A scenario with one section replaced (the tiny valid one otherwise).
std::string scenario_with(const std::string& law, const std::string& body1 = "[body1]\ntype = \"elastic\"\nk0 = 1e5\n",
                          const std::string& bench = "[bench]\ndrive = \"velocity\"\ninput = 0.01\n",
                          const std::string& extra = "") {
  return law + body1 + bench + "[time]\nt_end_s = 0.01\noutputs = 11\n" + extra;
}
const std::string kLaw = "[law]\ntype = \"lugre\"\n";

class Cli : public bristle::test::CliTest {};

TEST_F(Cli, ValidScenarioWritesCsvJsonAndPng) {
  write("tiny.toml", kValid);
  const CliResult r = run("run tiny.toml --out results");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  for (const char* ext : {".csv", ".json", ".png"}) {
    EXPECT_TRUE(fs::exists(dir_ / "results" / (std::string("tiny") + ext))) << ext;
    EXPECT_NE(r.out.find(std::string("tiny") + ext), std::string::npos) << r.out;
  }
  std::ifstream csv(dir_ / "results" / "tiny.csv");
  std::string header;
  std::getline(csv, header);
  for (const char* column : {"t_s", "x_m", "v_mps", "F_N"})
    EXPECT_NE(("," + header + ",").find(std::string(",") + column + ","), std::string::npos) << header;
  EXPECT_EQ(header.rfind("t_s,x_m,", 0), 0u) << header;
  int rows = 0;
  for (std::string line; std::getline(csv, line);) ++rows;
  EXPECT_EQ(rows, 11);
  const std::string json = read(dir_ / "results" / "tiny.json");
  EXPECT_NE(json.find("\"solve_seconds\""), std::string::npos);
  EXPECT_NE(json.find("\"bristle_version\""), std::string::npos);
  EXPECT_NE(json.find("tiny.toml"), std::string::npos);
  EXPECT_EQ(read(dir_ / "results" / "tiny.png").substr(1, 3), "PNG");
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir_ / "results")) ++entries;
  EXPECT_EQ(entries, 3u);
}

// A velocity tolerance too loose to resolve sticking (above 1e-3 v_s) does not stop the run, but is named on
// stderr and in the JSON's "warnings"; a tight one gives no warning.
TEST_F(Cli, LooseVelocityToleranceIsWarnedAbout) {
  const std::string law = kLaw + "mu_s = 1.5\nmu_d = 1.0\nv_s = 0.001\n";
  const std::string spring = "[bench]\ndrive = \"spring\"\nmass_kg = 1\nspring_N_per_m = 2\ninput = 0.1\n";
  const std::string body = "[body1]\ntype = \"elastic\"\nk0 = 1e5\n";
  write("loose.toml", scenario_with(law, body, spring, "[integrator]\nmethod = \"rodas4\"\nrtol = 1e-3\natol = 1e-5\n"));
  const CliResult loose = run("run loose.toml --out o --no-plot --quiet");
  ASSERT_EQ(loose.code, 0) << loose.err;
  EXPECT_NE(loose.err.find("bristle: warning: integrator.atol = 1e-05 (m/s on the velocity) is not small against the "
                           "Stribeck velocity v_s = 0.001 m/s"),
            std::string::npos)
      << loose.err;
  EXPECT_NE(loose.err.find("atol <= 1e-3 v_s = 1e-06 is advised"), std::string::npos) << loose.err;
  const std::string json = read(dir_ / "o" / "loose.json");
  EXPECT_NE(json.find("\"warnings\": [\"integrator.atol = 1e-05"), std::string::npos) << json;
  write("tight.toml", scenario_with(law, body, spring, "[integrator]\nmethod = \"rodas4\"\nrtol = 1e-3\natol = 1e-7\n"));
  const CliResult tight = run("run tight.toml --out o --no-plot --quiet");
  ASSERT_EQ(tight.code, 0) << tight.err;
  EXPECT_EQ(tight.err, "");
  EXPECT_NE(read(dir_ / "o" / "tight.json").find("\"warnings\": []"), std::string::npos);
}

TEST_F(Cli, QuietPrintsNothingAndNoPlotSkipsThePng) {
  write("tiny.toml", kValid);
  const CliResult r = run("run tiny.toml --out o --quiet --no-plot", "BRISTLE_GNUPLOT=/nonexistent/gnuplot");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "");
  EXPECT_TRUE(fs::exists(dir_ / "o" / "tiny.csv"));
  EXPECT_TRUE(fs::exists(dir_ / "o" / "tiny.json"));
  EXPECT_FALSE(fs::exists(dir_ / "o" / "tiny.png"));
}

TEST_F(Cli, DefaultOutputDirectoryIsTheCurrentOne) {
  write("tiny.toml", kValid);
  const CliResult r = run("run tiny.toml -q");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(fs::exists(dir_ / "tiny.csv"));
}

TEST_F(Cli, SweepWritesLongFormatCsv) {
  write("sw.toml", std::string(kValid) + "[sweep]\nparameter = \"bench.input.rate\"\nvalues = [1, 2]\n");
  const CliResult r = run("run sw.toml --out o -q");
  ASSERT_EQ(r.code, 0) << r.err;
  std::ifstream csv(dir_ / "o" / "tiny.csv");
  std::string line;
  std::getline(csv, line);
  EXPECT_EQ(line.rfind("rate,t_s,x_m,", 0), 0u) << line;
  int rows = 0;
  while (std::getline(csv, line)) ++rows;
  EXPECT_EQ(rows, 22);
}

TEST_F(Cli, CheckValidatesAndSummarises) {
  write("tiny.toml", kValid);
  const CliResult r = run("check tiny.toml");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("tiny.toml: valid (1 case)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("lugre"), std::string::npos) << r.out;
  write("bad.toml", scenario_with(kLaw + "mu_z = 1\n"));
  const CliResult bad = run("check bad.toml");
  EXPECT_EQ(bad.code, 2);
  EXPECT_EQ(bad.err, "bristle: error: unknown key \"law.mu_z\"; did you mean \"law.mu_s\"?\n");
}

TEST_F(Cli, HelpAndVersion) {
  CliResult r = run("--help");
  EXPECT_EQ(r.code, 0);
  for (const char* text : {"run", "check", "--version", "Exit codes", "docs/scenarios.md"})
    EXPECT_NE(r.out.find(text), std::string::npos) << text;
  r = run("run --help");
  EXPECT_EQ(r.code, 0);
  for (const char* text : {"FILE", "--out", "--no-plot", "--quiet", "<name>.csv", "<name>.json", "<name>.png",
                           "t_s, x_m, y_m, v_mps", "solve_seconds", "Exit codes", "2  invalid input",
                           "3  solver failure", "docs/scenarios.md", "BRISTLE_GNUPLOT"})
    EXPECT_NE(r.out.find(text), std::string::npos) << text;
  r = run("check --help");
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("docs/scenarios.md"), std::string::npos);
  r = run("--version");
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out.rfind("bristle ", 0), 0u) << r.out;
}

// --repeat N: N solves in one process; the files are the last solve's (identical to a single run's), the
// JSON's solve_seconds is the smallest of the N listed under "repeat".
TEST_F(Cli, RepeatSolvesNTimesAndReportsTheBest) {
  write("tiny.toml", kValid);
  ASSERT_EQ(run("run tiny.toml --out once -q --no-plot").code, 0);
  const CliResult r = run("run tiny.toml --out thrice -q --no-plot --repeat 3");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(read(dir_ / "thrice" / "tiny.csv"), read(dir_ / "once" / "tiny.csv"));
  const std::string json = read(dir_ / "thrice" / "tiny.json");
  const std::size_t repeat = json.find("\"repeat\"");
  ASSERT_NE(repeat, std::string::npos) << json;
  EXPECT_NE(json.find("\"count\": 3", repeat), std::string::npos) << json;
  // The N wall times listed, and the top-level best.
  const auto numbers_after = [&](std::size_t from) {
    std::vector<double> v;
    std::size_t p = json.find('[', from);
    const std::size_t end = json.find(']', p);
    while (p < end) {
      char* next = nullptr;
      const double x = std::strtod(json.c_str() + p + 1, &next);
      if (next == json.c_str() + p + 1) break;
      v.push_back(x);
      p = static_cast<std::size_t>(next - json.c_str());
    }
    return v;
  };
  const std::vector<double> all = numbers_after(json.find("\"solve_seconds\"", repeat));
  ASSERT_EQ(all.size(), 3u) << json;
  EXPECT_EQ(numbers_after(json.find("\"solve_cpu_seconds\"", repeat)).size(), 3u) << json;
  const std::size_t top = json.find("\"solve_seconds\": ");
  ASSERT_LT(top, repeat);
  EXPECT_DOUBLE_EQ(std::strtod(json.c_str() + top + 17, nullptr), *std::min_element(all.begin(), all.end()));
  EXPECT_EQ(read(dir_ / "once" / "tiny.json").find("\"repeat\""), std::string::npos);
  for (const char* bad : {"0", "-1", "x"}) {
    const CliResult b = run(std::string("run tiny.toml --out bad -q --no-plot --repeat ") + bad);
    EXPECT_EQ(b.code, 2) << bad;
    EXPECT_EQ(b.err.rfind("bristle: error: ", 0), 0u) << b.err;
    EXPECT_FALSE(fs::exists(dir_ / "bad")) << bad;
  }
}

TEST_F(Cli, CommandLineErrorsExitWith2) {
  CliResult r = run("");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err.rfind("bristle: error: ", 0), 0u) << r.err;
  r = run("run");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err.rfind("bristle: error: ", 0), 0u) << r.err;
  r = run("run x.toml --bogus");
  EXPECT_EQ(r.code, 2);
  r = run("frobnicate");
  EXPECT_EQ(r.code, 2);
  r = run("run missing.toml --out o");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "bristle: error: cannot read scenario missing.toml: No such file or directory\n");
  EXPECT_FALSE(fs::exists(dir_ / "o"));
}

TEST_F(Cli, SolverFailureExitsWith3AndWritesNothing) {
  write("fail.toml", scenario_with(kLaw, "[body1]\ntype = \"elastic\"\nk0 = 1e5\n",
                                   "[bench]\ndrive = \"velocity\"\ninput = 0.01\n", "[integrator]\nmax_steps = 5\n"));
  const CliResult r = run("run fail.toml --out o");
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_EQ(r.err.rfind("bristle: error: solver failed: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("max_steps"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "o"));
}

TEST_F(Cli, MissingGnuplotExitsWith1AndWritesNothing) {
  write("tiny.toml", kValid);
  fs::create_directory(dir_ / "o");
  const CliResult r = run("run tiny.toml --out o", "BRISTLE_GNUPLOT=/nonexistent/gnuplot");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("gnuplot"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::is_empty(dir_ / "o"));
  const CliResult f = run("run tiny.toml --out p", "BRISTLE_GNUPLOT=false");
  EXPECT_EQ(f.code, 1) << f.err;
  EXPECT_FALSE(fs::exists(dir_ / "p"));
}

// A directory where an output goes is refused before anything is written: its rename failed after the CSV had replaced
// the previous run's, and the clean-up then removed it (the previous o/t.csv was lost).
TEST_F(Cli, ADirectoryInTheWayCostsNoEarlierOutput) {
  write("tiny.toml", kValid);
  ASSERT_EQ(run("run tiny.toml --out o -q --no-plot").code, 0);
  const std::string csv = bristle::test::read_text(dir_ / "o" / "tiny.csv");
  fs::remove(dir_ / "o" / "tiny.json");
  fs::create_directories(dir_ / "o" / "tiny.json" / "x");
  const CliResult r = run("run tiny.toml --out o -q --no-plot");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("tiny.json: a directory of that name exists"), std::string::npos) << r.err;
  EXPECT_EQ(bristle::test::read_text(dir_ / "o" / "tiny.csv"), csv);
}

// SIGTERM (or Ctrl-C) while the outputs are written left their temporaries for good (a 128 MB partial CSV; with a
// slow gnuplot the CSV, JSON and script temporaries, and the orphaned gnuplot wrote its PNG temporary later). The
// handler removes them and the directory the run created, stops gnuplot, and ends the process by the signal.
TEST_F(Cli, ASignalWhileWritingLeavesNothingBehind) {
  write("tiny.toml", kValid);
  write("slow_gnuplot.sh", "#!/bin/sh\necho $$ > gnuplot.pid\nexec sleep 60\n");
  fs::permissions(dir_ / "slow_gnuplot.sh", fs::perms::owner_all);
  const std::string command = fmt::format(
      "cd '{}' && BRISTLE_GNUPLOT=./slow_gnuplot.sh '{}' run tiny.toml --out o -q > /dev/null 2>&1 & echo $! > '{}'",
      dir_.string(), BRISTLE_CLI_PATH, (dir_ / "bristle.pid").string());
  ASSERT_EQ(std::system(command.c_str()), 0);
  const auto wait_for = [](const std::function<bool()>& done) {
    for (int i = 0; i < 400 && !done(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    return done();
  };
  // gnuplot has started: the CSV, JSON and script temporaries are written
  ASSERT_TRUE(wait_for([&] { return fs::exists(dir_ / "gnuplot.pid") && fs::file_size(dir_ / "gnuplot.pid") > 0; }));
  const pid_t bristle = std::stoi(bristle::test::read_text(dir_ / "bristle.pid"));
  const pid_t gnuplot = std::stoi(bristle::test::read_text(dir_ / "gnuplot.pid"));
  EXPECT_FALSE(fs::is_empty(dir_ / "o"));
  ASSERT_EQ(::kill(bristle, SIGTERM), 0);
  // gone: the directory (created by the run) with every temporary in it, and gnuplot (not running: gone or a zombie)
  EXPECT_TRUE(wait_for([&] { return !fs::exists(dir_ / "o"); }));
  const auto running = [](pid_t pid) {
    const fs::path stat = fs::path("/proc") / std::to_string(pid) / "stat";
    if (!fs::exists(stat)) return false;
    const std::string s = bristle::test::read_text(stat);
    const std::size_t close = s.rfind(')');
    return close != std::string::npos && close + 2 < s.size() && s[close + 2] != 'Z';
  };
  EXPECT_TRUE(wait_for([&] { return !running(gnuplot); }));
  if (running(gnuplot)) ::kill(gnuplot, SIGKILL);
}

// A signal ignored when bristle starts (nohup, a background job of a script) stays ignored: the handlers above made
// SIGHUP end a nohup run.
TEST_F(Cli, AnIgnoredSignalStaysIgnored) {
  write("tiny.toml", kValid);
  // gnuplot: tells bristle's pid, waits for the signal to have been sent, exits without an image (exit 1)
  write("gnuplot.sh", "#!/bin/sh\necho $PPID > bristle.pid\nwhile [ ! -e sent ]; do sleep 0.05; done\nexit 0\n");
  fs::permissions(dir_ / "gnuplot.sh", fs::perms::owner_all);
  const std::string command =
      fmt::format("cd '{}' && (trap '' TERM; BRISTLE_GNUPLOT=./gnuplot.sh '{}' run tiny.toml --out o -q > /dev/null "
                  "2>&1; echo $? > rc) &",
                  dir_.string(), BRISTLE_CLI_PATH);
  ASSERT_EQ(std::system(command.c_str()), 0);
  const auto wait_for = [](const std::function<bool()>& done) {
    for (int i = 0; i < 400 && !done(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    return done();
  };
  ASSERT_TRUE(wait_for([&] { return fs::exists(dir_ / "bristle.pid") && fs::file_size(dir_ / "bristle.pid") > 0; }));
  ASSERT_EQ(::kill(std::stoi(bristle::test::read_text(dir_ / "bristle.pid")), SIGTERM), 0);
  write("sent", "");
  ASSERT_TRUE(wait_for([&] { return fs::exists(dir_ / "rc") && fs::file_size(dir_ / "rc") > 0; }));
  EXPECT_EQ(bristle::test::read_text(dir_ / "rc"), "1\n");  // gnuplot wrote no image; not 143 (killed by SIGTERM)
}

// ---------------------------------------------------------------------------------------------
// Every class of bad input: exit code 2, one error line naming the key, no output files.

struct BadInput {
  const char* label;
  std::string toml;
  std::string in_message;  // must appear in the error line
};

std::vector<BadInput> bad_inputs() {
  const std::string b1 = "[body1]\ntype = \"elastic\"\nk0 = 1e5\n";
  const std::string bench = "[bench]\ndrive = \"velocity\"\ninput = 0.01\n";
  const auto body = [&](const std::string& b) { return scenario_with(kLaw, b); };
  const auto table = [&](const std::string& file) {
    return scenario_with(kLaw, b1,
                         "[bench]\ndrive = \"velocity\"\n[bench.input]\ntype = \"table\"\nfile = \"" + file + "\"\n");
  };
  return {
      {"unknown_key", scenario_with(kLaw + "mu_z = 1\n"), "unknown key \"law.mu_z\"; did you mean \"law.mu_s\"?"},
      {"missing_key", kLaw + b1 + bench, "missing key \"time.t_end_s\""},
      {"wrong_type", scenario_with(kLaw + "mu_s = \"abc\"\n"), "law.mu_s = \"abc\": must be a number"},
      {"nan", scenario_with(kLaw + "mu_s = nan\n"), "law.mu_s = nan: must be finite"},
      {"inf", scenario_with(kLaw + "mu_s = inf\n"), "law.mu_s = inf: must be finite"},
      {"malformed", "[law\ntype = \"lugre\"\n", "malformed.toml:1:5: invalid TOML"},
      {"zero_stiffness", body("[body1]\ntype = \"elastic\"\nk0 = 0\n"), "body1.k0 = 0: must be > 0"},
      {"negative_damping", body("[body1]\ntype = \"gkv\"\nk0 = 1\nc = [-1]\ntau = [1]\n"), "body1.c[0] = -1"},
      {"zero_tau", body("[body1]\ntype = \"gkv\"\nk0 = 1\nc = [1]\ntau = [0]\n"), "body1.tau[0] = 0"},
      {"non_symmetric", body("[body1]\ntype = \"elastic\"\nk0 = [[1, 2], [0, 1]]\n"), "body1.k0"},
      {"not_positive_definite", body("[body1]\ntype = \"elastic\"\nk0 = [[1, 2], [2, 1]]\n"), "body1.k0"},
      {"pair_s_0", scenario_with(kLaw, b1, bench, "[pair]\ns = 0\n"), "pair.s = 0: must lie in (0, 1)"},
      {"pair_s_1", scenario_with(kLaw, b1, bench, "[pair]\ns = 1\n"), "pair.s = 1: must lie in (0, 1)"},
      {"pair_s_1_5", scenario_with(kLaw, b1, bench, "[pair]\ns = 1.5\n"), "pair.s = 1.5: must lie in (0, 1)"},
      {"unknown_law", scenario_with("[law]\ntype = \"lugree\"\n"), "law.type = \"lugree\""},
      {"unknown_drive", scenario_with(kLaw, b1, "[bench]\ndrive = \"velocty\"\ninput = 1\n"), "bench.drive"},
      {"unknown_rheology", body("[body1]\ntype = \"gkvv\"\nk0 = 1\n"), "body1.type = \"gkvv\""},
      {"mismatched_branches", body("[body1]\ntype = \"gkv\"\nk0 = 1\nc = [1, 2]\ntau = [1]\n"), "body1.tau"},
      {"unreadable_csv", table("missing.csv"), "bench.input.file = \"missing.csv\": cannot read"},
      {"bad_csv_cell", table("bad.csv"), "bad.csv:3:2: \"abc\" is not a number"},
  };
}

class CliBadInput : public Cli, public ::testing::WithParamInterface<BadInput> {};

TEST_P(CliBadInput, ExitsWith2NamingTheKeyAndWritesNothing) {
  const BadInput& bad = GetParam();
  write("bad.csv", "t_s,v\n0,0\n0.5,abc\n");
  write(std::string(bad.label) + ".toml", bad.toml);
  const CliResult r = run(fmt::format("run {}.toml --out out", bad.label));
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(r.err.rfind("bristle: error: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(bad.in_message), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_FALSE(fs::exists(dir_ / "out"));
  const CliResult check = run(fmt::format("check {}.toml", bad.label));
  EXPECT_EQ(check.code, 2) << check.err;
  EXPECT_EQ(check.err, r.err);
}

INSTANTIATE_TEST_SUITE_P(AllClasses, CliBadInput, ::testing::ValuesIn(bad_inputs()),
                         [](const ::testing::TestParamInfo<BadInput>& info) { return std::string(info.param.label); });

}  // namespace
