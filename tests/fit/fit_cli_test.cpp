// `bristle fit`: the [fit] table read from a scenario file with a data CSV, the four output files, the fitted
// scenario reproducing the fit under `bristle run`, and every class of bad input (exit 2, the key named,
// nothing written).
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "bristle/contact/bench.hpp"
#include "bristle/contact/contact_model.hpp"
#include "bristle/io/fit_scenario.hpp"
#include "bristle/io/key_path.hpp"
#include "bristle/io/scenario.hpp"
#include "fit_fixtures.hpp"
#include "support/test_support.hpp"

namespace {

namespace fs = std::filesystem;
using bristle::test::CliResult;

using bristle::test::fit::data_csv;
using bristle::test::fit::json_number;
const std::string& kModel = bristle::test::fit::kSineModel;
const char* const kFit = bristle::test::fit::kSineFit;

class FitCli : public bristle::test::CliTest {};

TEST_F(FitCli, AStringWithNewlinesAndTripleQuotesSurvivesIntoTheFittedScenario) {
  // The experiment's TOML is kept as text for <name>_fitted.toml; a string holding a newline and ''' was written as
  // a '''-string that did not read back, and the fit failed after its iterations ("fitted scenario:2:5: invalid TOML").
  write("d.csv", data_csv());
  write("sine.toml", std::string("description = \"a\\nb'''c\"\n") + kModel + kFit);  // a, newline, b'''c
  const CliResult r = run("fit sine.toml --out out --quiet --no-plot");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto fitted = bristle::io::load_scenario(dir_ / "out" / "sine_fitted.toml");
  EXPECT_NE(fitted->summary().find("description a\nb'''c"), std::string::npos) << fitted->summary();
}

TEST_F(FitCli, FitsWritesTheFourFilesAndTheFittedScenarioReproducesTheFit) {
  write("d.csv", data_csv());
  write("sine.toml", std::string(kModel) + kFit);
  const CliResult r = run("fit sine.toml --out out");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("bristle fit: iteration 0: cost"), std::string::npos) << r.err;  // progress on stderr
  for (const char* f : {"sine_fit.json", "sine_fit.csv", "sine_fit.png", "sine_fitted.toml"})
    EXPECT_TRUE(fs::exists(dir_ / "out" / f)) << f;
  const std::string json = bristle::test::read_text(dir_ / "out" / "sine_fit.json");
  EXPECT_NE(json.find("\"converged\": true"), std::string::npos) << json;
  for (const char* key : {"\"std_error\"", "\"ci95\"", "\"correlation\"", "\"rms_N\"", "\"aic\"", "\"bic\"",
                          "\"iterations\"", "\"evaluations\"", "\"warnings\"", "\"fit_seconds\""})
    EXPECT_NE(json.find(key), std::string::npos) << key;
  const double rms = json_number(json, "rms_N");
  EXPECT_NEAR(rms, 0.02, 0.005);
  const std::string csv = bristle::test::read_text(dir_ / "out" / "sine_fit.csv");
  EXPECT_EQ(csv.substr(0, csv.find('\n')), "t_s,F_N_measured,F_N_fitted,F_N_residual,x_m,v_mps,Fz_N");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 102);

  // The fitted scenario runs and its friction has the fit's RMS against the data (same 101 times).
  const CliResult again = run("run out/sine_fitted.toml --out rerun --quiet --no-plot");
  ASSERT_EQ(again.code, 0) << again.err;
  const std::string rerun = bristle::test::read_text(dir_ / "rerun" / "sine_fitted.csv");
  const std::string data = data_csv();
  std::istringstream a(rerun), b(data);
  std::string la, lb;
  std::getline(a, la);
  std::getline(b, lb);
  std::vector<std::string> header;
  {
    std::istringstream h(la);
    std::string c;
    while (std::getline(h, c, ',')) header.push_back(c);
  }
  const auto iF = static_cast<std::size_t>(std::find(header.begin(), header.end(), "F_N") - header.begin());
  double sum = 0.0;
  int n = 0;
  while (std::getline(a, la) && std::getline(b, lb)) {
    std::vector<double> ra, rb;
    std::istringstream sa(la), sb(lb);
    std::string c;
    while (std::getline(sa, c, ',')) ra.push_back(c.empty() ? 0.0 : std::stod(c));
    while (std::getline(sb, c, ',')) rb.push_back(std::stod(c));
    EXPECT_NEAR(ra[0], rb[0], 1e-12);
    sum += (ra[iF] - rb[2]) * (ra[iF] - rb[2]);
    ++n;
  }
  EXPECT_EQ(n, 101);
  EXPECT_NEAR(std::sqrt(sum / n), rms, 1e-6 * rms);
}

struct BadFit {
  const char* label;
  std::string toml;     // the [fit] part (the model is kModel)
  const char* in_message;
};

std::string fit_with(const std::string& from, const std::string& to) {
  std::string s = kFit;
  const std::size_t at = s.find(from);
  if (at == std::string::npos) throw std::runtime_error("fit_with: no " + from);
  return s.replace(at, from.size(), to);
}

std::vector<BadFit> bad_fits() {
  return {
      {"no_fit_table", "", "missing table [fit]"},
      {"missing_data", fit_with("data = \"d.csv\"", "data = \"none.csv\""),
       "fit.data = \"none.csv\": cannot read "},
      {"unreadable_data", fit_with("data = \"d.csv\"", "data = \"sub\""), "fit.data = \"sub\": cannot read "},
      {"no_such_column", fit_with("F_N = \"F_N\"", "F_N = \"F\""), "fit.targets.F_N = \"F\": "},
      {"no_such_time_column", fit_with("time_column = \"t_s\"", "time_column = \"t\""),
       "fit.time_column = \"t\": "},
      {"non_increasing_times", fit_with("data = \"d.csv\"", "data = \"dec.csv\""),
       "dec.csv:4:1: time 0.1 is not greater than the previous time 0.2"},
      {"duplicate_times", fit_with("data = \"d.csv\"", "data = \"dup.csv\""),
       "dup.csv:4:1: time 0.1 is not greater than the previous time 0.1"},
      {"nan_cell", fit_with("data = \"d.csv\"", "data = \"nan.csv\""), "nan.csv:3:3: \"nan\" is not a number (column \"F_N\")"},
      {"inf_cell", fit_with("data = \"d.csv\"", "data = \"inf.csv\""), "inf.csv:3:3: \"inf\" is not a number (column \"F_N\")"},
      {"hex_cell", fit_with("data = \"d.csv\"", "data = \"hex.csv\""), "hex.csv:3:2: \"0x10\" is not a number (column \"v_mps\")"},
      {"duplicate_column", fit_with("data = \"d.csv\"", "data = \"dupcol.csv\""),
       "dupcol.csv:1:4: duplicate column name \"F_N\" (also column 3)"},
      {"window_outside_data", fit_with("window_s = [0.0, 1.0]", "window_s = [0.5, 2.0]"),
       "fit.window_s = [0.5, 2]: outside the data's times [0, 1]"},
      {"window_too_few_samples", fit_with("window_s = [0.0, 1.0]", "window_s = [0.5, 0.51]"),
       "fit.window_s = [0.5, 0.51]: the window holds 2 sample(s)"},
      {"unknown_key_path", fit_with("\"law.mu_d\"", "\"law.mu_z\""),
       "fit.parameters.\"law.mu_z\": unknown key \"law.mu_z\"; did you mean"},
      {"non_numeric_key_path", fit_with("\"law.mu_d\"", "\"law.type\""),
       "fit.parameters.\"law.type\": not a numeric key: the scenario has law.type = \"lugre\""},
      {"min_not_below_max", fit_with("min = 0.05, max = 1.0", "min = 1.0, max = 1.0"),
       "fit.parameters.\"law.mu_d\".min = 1: must be < max = 1"},
      {"initial_outside_bounds", fit_with("initial = 0.3", "initial = 3"),
       "fit.parameters.\"law.mu_d\".initial = 3: must lie in [min, max] = [0.05, 1]"},
      {"parameter_listed_twice", std::string(kFit) + "law.mu_d = { initial = 0.3, min = 0.1, max = 1.0 }\n",
       "fit.parameters.\"law.mu_d\": listed twice"},
      {"target_not_an_output", fit_with("F_N = \"F_N\"", "G_N = \"F_N\""),
       "fit.targets.G_N: the model does not output a column \"G_N\""},
      {"unknown_fit_key", fit_with("window_s", "windows"), "unknown key \"fit.windows\"; did you mean"},
      // helper-44: an integer key ended in the solver (exit 3, "Residual and Jacobian evaluation failed"); bounds
      // outside the key's range or the law's limits (law.eps <= 1) let the optimiser step where the reader refuses.
      {"integer_key", std::string(kFit) + "\"integrator.max_steps\" = { initial = 1000, min = 10, max = 2000 }\n",
       "fit.parameters.\"integrator.max_steps\": integrator.max_steps is an integer key (>= 1 (integer)); a fit "
       "varies its parameters continuously: set it in the scenario (or sweep it)"},
      {"min_outside_range", fit_with("min = 0.05, max = 1.0", "min = -2.0, max = 1.0"),
       "fit.parameters.\"law.mu_d\".min = -2: must be > 0"},
      {"max_beyond_a_law_limit", std::string(kFit) + "\"law.eps\" = { initial = 0.5, min = 0.0, max = 5.0 }\n",
       "fit.parameters.\"law.eps\".max = 5: a value the scenario refuses: law.eps = 5: must be <= 1 m^2/s^2"},
      {"output_count_key", std::string(kFit) + "\"time.outputs\" = { initial = 100, min = 10, max = 200 }\n",
       "fit.parameters.\"time.outputs\": time.outputs is an integer key"},
      // helper-48: a fitted time.t_end_s did nothing (the data's times replace [time]) and integrator.dt_s went to its
      // bound, both "converged".
      {"initial_key", std::string(kFit) + "\"initial.f[0]\" = { initial = 0.1, min = -1.0, max = 1.0 }\n",
       "fit.parameters.\"initial.f[0]\": the keys of [initial] are not model parameters: the fit starts each window "
       "from fit.initial_state (\"rest\", \"match_first_sample\" or \"steady\"), not from [initial]"},
      {"time_key", std::string(kFit) + "\"time.t_end_s\" = { initial = 1.0, min = 0.5, max = 2.0 }\n",
       "fit.parameters.\"time.t_end_s\": the keys of [time] are not model parameters (the fit takes the times from the "
       "data); set them in the scenario"},
      {"integrator_key", std::string(kFit) + "\"integrator.rtol\" = { initial = 1e-8, min = 1e-10, max = 1e-6 }\n",
       "fit.parameters.\"integrator.rtol\": the keys of [integrator] are not model parameters (the integrator's "
       "settings are numerics); set them in the scenario"},
      // A weight of 1e-200 underflowed every squared residual: the cost was 0 and the fit "converged" at its start.
      {"weight_underflows", fit_with("F_N = \"F_N\"", "F_N = { column = \"F_N\", weight = 1e-200 }"),
       "fit.targets.F_N.weight = 1e-200: must be in [1e-100, 1e+100] (beyond, the squared weighted residuals under- "
       "or overflow)"},
      // Each bound alone allowed 1e8 trust-region iterations.
      {"too_many_iterations", fit_with("window_s", "multi_start = 1000\nmax_iterations = 10000\nwindow_s"),
       "fit.multi_start = 1000 with fit.max_iterations = 10000: 10000000 iterations in all; at most 1000000"},
      // A component of a vector the file leaves at its default has no place in <name>_fitted.toml: the fit failed only
      // after all its iterations ("cannot write the fitted value"; helper-48).
      {"unwritten_vector", std::string(kFit) + "\"bench.x0_m[0]\" = { initial = 0.0, min = -1.0, max = 1.0 }\n",
       "fit.parameters.\"bench.x0_m[0]\": the scenario does not write bench.x0_m, so the fitted value has no place in "
       "the fitted scenario; fit a key the file writes, or write bench.x0_m in the file (all its components)"},
      // One parameter under two key paths: "listed twice" compared the paths only (helper-49).
      {"alias_listed_twice", std::string(kFit) + "\"bench.normal_load_N\" = { initial = 10.0, min = 1.0, max = 100.0 }\n"
                                                 "\"bench.normal_load.value\" = { initial = 10.0, min = 1.0, max = 100.0 }\n",
       "fit.parameters.\"bench.normal_load_N\": the same parameter as fit.parameters.\"bench.normal_load.value\" "
       "(setting either sets the other); fit it once"},
      {"alias_in_set", std::string(kFit) + "\"bench.normal_load_N\" = { initial = 10.0, min = 1.0, max = 100.0 }\n"
                                           "[[fit.experiment]]\ndata = \"d.csv\"\nset = { \"bench.normal_load.value\" = 12.0 }\n",
       "fit.experiment[0].set: \"bench.normal_load.value\" is the fitted parameter \"bench.normal_load_N\" under another "
       "key path (setting either sets the other); the fit gives its value in every experiment: remove it from set or "
       "from fit.parameters"},
      // helper-50: two aliases in one `set` passed and the fit wrote a <name>_fitted.toml that did not read back.
      {"aliases_in_one_set", std::string(kFit) + "[[fit.experiment]]\ndata = \"d.csv\"\nset = { \"bench.normal_load_N\" = 3.0, "
                                                 "\"bench.normal_load.value\" = 7.0 }\n",
       "fit.experiment[0].set: \"bench.normal_load.value\" = 7 and \"bench.normal_load_N\" = 3 are one parameter under "
       "two key paths (setting either sets the other): give one"},
      // helper-51: a `set` of the whole list of a fitted component was overwritten by the fitted value without a word.
      {"set_of_a_fitted_components_list",
       std::string(kFit) + "\"bench.x0_m[0]\" = { initial = 0.0, min = -1.0, max = 1.0 }\n[[fit.experiment]]\ndata = "
                           "\"d.csv\"\nset = { \"bench.x0_m\" = [0.0, 0.0] }\n",
       "fit.experiment[0].set: \"bench.x0_m[0]\" is a fitted parameter (fit.parameters); the fit gives its value in every "
       "experiment: remove it from set or from fit.parameters"},
      // helper-50: the `set` alias check used the first experiment's scenario for every experiment: an experiment that
      // sets a Dahl law (one coefficient: mu_s and mu_d are one parameter) and its mu_s while mu_d is fitted passed.
      {"alias_in_the_experiments_own_scenario",
       std::string(kFit) + "[[fit.experiment]]\ndata = \"d.csv\"\n[[fit.experiment]]\ndata = \"d.csv\"\nset = { law = { "
                           "type = \"dahl\", mu_s = 0.4 } }\n",
       "fit.experiment[1].set: \"law.mu_s\" is the fitted parameter \"law.mu_d\" under another key path"},
      // Two experiments given one label made the report ambiguous (without labels, two experiments may share a data
      // file, and so its name as their label: tests/fit/fit_experiment_set_test.cpp).
      {"duplicate_label", std::string(kFit) + "[[fit.experiment]]\ndata = \"d.csv\"\nlabel = \"a\"\n[[fit.experiment]]\n"
                                              "data = \"d.csv\"\nlabel = \"a\"\nset = { \"bench.normal_load_N\" = 12.0 }\n",
       "fit.experiment[1].label = \"a\": the label of fit.experiment[0] (a label names an experiment in the report and the "
       "plots): give each experiment a label of its own"},
  };
}

class FitCliBadInput : public bristle::test::CliTest, public ::testing::WithParamInterface<BadFit> {};

TEST_P(FitCliBadInput, ExitsWith2NamingTheKeyAndWritesNothing) {
  const BadFit& bad = GetParam();
  write("d.csv", data_csv());
  write("dec.csv", "t_s,v_mps,F_N\n0,0,0\n0.2,0,0\n0.1,0,0\n");
  write("dup.csv", "t_s,v_mps,F_N\n0,0,0\n0.1,0,0\n0.1,0,0\n");
  write("nan.csv", "t_s,v_mps,F_N\n0,0,0\n0.1,0,nan\n0.2,0,0\n");
  write("inf.csv", "t_s,v_mps,F_N\n0,0,0\n0.1,0,inf\n0.2,0,0\n");
  write("hex.csv", "t_s,v_mps,F_N\n0,0,0\n0.1,0x10,0\n0.2,0,0\n");
  write("dupcol.csv", "t_s,v_mps,F_N,F_N\n0,0,0,0\n0.1,0,0,0\n0.2,0,0,0\n");
  fs::create_directory(dir_ / "sub");
  write("bad.toml", std::string(kModel) + bad.toml);
  bristle::test::fit::expect_bad_input(run("fit bad.toml --out out"), bad.in_message, dir_ / "out");
}

// helper-45: each bound was tried with the other parameters at the file's values: a Bouc-Wen box valid everywhere
// (beta1 >= 1e8 with gamma >= 0 from its start 0) was refused because the file's gamma = -1e9 breaks beta1 + gamma > 0
// at beta1 = 1e8. The bounds are tried at the other parameters' starting values.
TEST_F(FitCli, ABoundIsTriedAtTheOtherParametersStartingValues) {
  write("d.csv", data_csv());
  std::string model = kModel;
  const std::string lugre = "type = \"lugre\"\nmu_s = 0.6\nmu_d = 0.4\nv_s = 1e-3";
  model.replace(model.find(lugre), lugre.size(), "type = \"bouc_wen\"\nA = 1.0\nbeta1 = 1.6e9\ngamma = -1.0e9");
  const std::string fit(kFit);  // its [fit] with these parameters
  write("bw.toml", model + fit.substr(0, fit.find("\"law.mu_d\"")) +
                       "\"law.beta1\" = { initial = 1.6e9, min = 1e8, max = 1e14, scale = \"log\" }\n"
                       "\"law.gamma\" = { initial = 0.0, min = 0.0, max = 1e9 }\n");
  const CliResult r = run("check bw.toml");
  EXPECT_EQ(r.code, 0) << r.err;
}

/// kModel with a Dahl law written as `law_keys` ("mu = 0.4", "mu_s = 0.4\nmu_d = 0.4").
std::string dahl_model(const std::string& law_keys) {
  std::string model = kModel;
  const std::string lugre = "type = \"lugre\"\nmu_s = 0.6\nmu_d = 0.4\nv_s = 1e-3";
  return model.replace(model.find(lugre), lugre.size(), "type = \"dahl\"\n" + law_keys);
}

// helper-51, helper-52: a `set` under another key path of a parameter the file writes (law.mu_d beside a Dahl law's mu:
// valid by key path, not as the file's TOML) gave a <name>_fitted.toml that did not read back, then was refused; it is
// written where the file writes the parameter, as the fitted values are. The dotted keys law.mu_d, unquoted, are the
// table law = { mu_d } once parsed: that table was merged as given, mu_d beside mu (the same file failed).
TEST_F(FitCli, ASetIsWrittenWhereTheFileWritesItsParameter) {
  write("d.csv", data_csv());
  const std::string fit(kFit);
  for (const std::string set : {"\"law.mu_d\" = 0.45", "law.mu_d = 0.45", "law.mu_d = 0.45, law.eps = 2e-3"}) {
    SCOPED_TRACE(set);
    write("dahl.toml", dahl_model("mu = 0.4") + fit.substr(0, fit.find("\"law.mu_d\"")) +
                           "\"body1.k0\" = { initial = 5e3, min = 1e2, max = 1e7, scale = \"log\" }\n"
                           "[[fit.experiment]]\ndata = \"d.csv\"\nset = { " + set + " }\n");
    fs::remove_all(dir_ / "out");
    const CliResult r = run("fit dahl.toml --out out --quiet --no-plot");
    ASSERT_EQ(r.code, 0) << r.err;
    const std::string text = bristle::test::read_text(dir_ / "out" / "sine_fitted.toml");
    EXPECT_NE(text.find("\nmu = 0.45"), std::string::npos) << text;
    EXPECT_EQ(text.find("mu_d"), std::string::npos) << text;
    EXPECT_EQ(text.find("eps = 0.002") == std::string::npos, set.find("eps") == std::string::npos) << text;
    const CliResult again = run("check out/sine_fitted.toml");
    EXPECT_EQ(again.code, 0) << again.err;
  }
}

// helper-50, helper-51: a fitted key whose parameter the file writes under another key path is written there, so that
// <name>_fitted.toml reads back with the fitted value: Dahl's law.mu_d into mu_s and mu_d both (mu_s = mu_d in the
// file: mu_d alone made mu_s != mu_d), and bench.normal_load.value into normal_load_N (it was written as a
// [bench.normal_load] table beside normal_load_N).
TEST_F(FitCli, AParameterIsWrittenWhereTheFileWritesIt) {
  write("d.csv", data_csv());
  write("dahl.toml", dahl_model("mu_s = 0.4\nmu_d = 0.4") + kFit);
  std::string load = std::string(kModel) + kFit;
  load.replace(load.find("\"body1.k0\""), 0, "\"bench.normal_load.value\" = { initial = 10.0, min = 5.0, max = 20.0 }\n");
  write("load.toml", load);
  for (const char* name : {"dahl", "load"}) {
    const CliResult r = run(fmt::format("fit {}.toml --out out_{} --quiet --no-plot", name, name));
    ASSERT_EQ(r.code, 0) << r.err;
    const CliResult again = run(fmt::format("check out_{}/sine_fitted.toml", name));
    EXPECT_EQ(again.code, 0) << name << ": " << again.err;
  }
  const std::string dahl = bristle::test::read_text(dir_ / "out_dahl" / "sine_fitted.toml");
  const auto fitted = bristle::io::load_scenario(dir_ / "out_dahl" / "sine_fitted.toml");
  const double mu_d = bristle::io::get_number(*fitted, "law.mu_d");
  EXPECT_NE(mu_d, 0.4) << dahl;  // the fitted value, written to both keys of the file
  for (const char* key : {"\nmu_s = ", "\nmu_d = "}) {
    const std::size_t at = dahl.find(key);
    ASSERT_NE(at, std::string::npos) << dahl;
    EXPECT_EQ(std::stod(dahl.substr(at + std::string(key).size())), mu_d) << key;
  }
}

// helper-52: a log-scale parameter that ends at its lower bound was reported and written one unit in the last place
// below it (exp(ln 2e4) = 19999.99999999998): outside its own bounds.
TEST_F(FitCli, AParameterAtItsBoundIsReportedAtTheBoundNotBeyond) {
  write("d.csv", data_csv());  // k0 = 1e4: the fit goes to the lower bound 2e4
  std::string fit = kFit;
  fit.replace(fit.find("initial = 5e3, min = 1e2"), 24, "initial = 3e4, min = 2e4");
  write("b.toml", std::string(kModel) + fit);
  const CliResult r = run("fit b.toml --out out --quiet --no-plot");
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string json = bristle::test::read_text(dir_ / "out" / "sine_fit.json");
  EXPECT_EQ(json_number(json, "value", json.find("\"body1.k0\"")), 2e4) << json;
  const auto fitted = bristle::io::load_scenario(dir_ / "out" / "sine_fitted.toml");
  EXPECT_EQ(bristle::io::get_number(*fitted, "body1.k0"), 2e4);
}

// A constant signal written as a number takes its fitted "<signal>.value" as that number: the check writes the start
// into the fitted scenario and reads it back (it was refused as "does not write").
TEST_F(FitCli, AConstantSignalWrittenAsANumberIsFittedByItsValueKey) {
  write("d.csv", data_csv());
  std::string model = kModel;
  const std::string sine = "[bench.input]\ntype = \"sine\"\namplitude = 4e-3\nomega = 6.283185307179586\n";
  model.replace(model.find(sine), sine.size(), "");
  model.replace(model.find("normal_load_N = 10.0\n"), 21, "normal_load_N = 10.0\ninput = 1e-3\n");
  write("c.toml", model + kFit + "\"bench.input.value\" = { initial = 1e-3, min = 1e-4, max = 1e-2 }\n");
  const CliResult r = run("check c.toml");
  EXPECT_EQ(r.code, 0) << r.err;
  // and one the file leaves at its default (helper-52: written as a table of the value alone, which lacks its type)
  write("y.toml", model + kFit + "\"bench.input_y.value\" = { initial = 1e-3, min = 0.0, max = 1e-2 }\n");
  const CliResult y = run("check y.toml");
  EXPECT_EQ(y.code, 0) << y.err;
}

// A fixed step over the data's span is within the step budget at check: data times 0 .. 1e8 s at sdirk2's dt_s = 1
// passed check, and the fit's step grid (formed before the first step) took 3.1 GB and ended in std::bad_alloc.
class FitCliStepBudget : public bristle::test::CliTest {};

TEST_F(FitCliStepBudget, AFixedStepOverTheDataSpanIsWithinTheStepBudget) {
  write("long.csv", "t_s,v_mps,F_N\n0,0,0\n0.1,0,0\n0.2,0,0\n100000000,0,0\n");
  const std::string model = bristle::test::fit::kLugreVelocityBench +
                            "[bench.input]\ntype = \"constant\"\nvalue = 1e-3\n[integrator]\nmethod = \"sdirk2\"\n"
                            "dt_s = 1.0\n";
  std::string fit = fit_with("data = \"d.csv\"", "data = \"long.csv\"");
  fit.replace(fit.find("window_s = [0.0, 1.0]"), 21, "window_s = [0.0, 1e8]");
  write("bad.toml", model + fit);
  bristle::test::fit::expect_bad_input(run("fit bad.toml --out out"),
                                       "fit: experiment long.csv: integrator.dt_s = 1 over the data's 100000000 s (0 .. "
                                       "100000000 s) takes 100000000 steps; integrator.max_steps = 50000000",
                                       dir_ / "out");
}

// More samples than a run has output times are refused naming the data, not the key time.outputs (which the user did
// not write: the window's samples are the run's output times).
TEST_F(FitCliStepBudget, TheSamplesFittedAreBoundedByTheirDataFile) {
  std::string rows = "t_s,v_mps,F_N\n";
  for (int i = 0; i < 2'000'002; ++i) rows += fmt::format("{},0,0\n", i);
  write("big.csv", rows);
  std::string fit = fit_with("data = \"d.csv\"", "data = \"big.csv\"");
  fit.replace(fit.find("window_s = [0.0, 1.0]\n"), 22, "");
  write("bad.toml", bristle::test::fit::kLugreVelocityBench + "[bench.input]\ntype = \"constant\"\nvalue = 1e-3\n" + fit);
  bristle::test::fit::expect_bad_input(run("fit bad.toml --out out"),
                                       "big.csv; at most 2000001 are fitted, one output time of the model's run each "
                                       "(Limits in docs/scenarios.md)",
                                       dir_ / "out");
}

// helper-48: a model that cannot be solved at the start printed glog's "Logging before InitGoogleLogging()" and Ceres'
// "Terminating: Residual and Jacobian evaluation failed" (exit 3): now one line with the model's own message.
TEST_F(FitCliStepBudget, AModelThatFailsAtTheStartIsReportedByItsOwnMessageAlone) {
  write("d.csv", data_csv());
  write("bad.toml", bristle::test::fit::kLugreVelocityBench +
                        "[bench.input]\ntype = \"constant\"\nvalue = 1e-3\n[integrator]\nmethod = \"rodas4\"\n"
                        "max_steps = 3\n" + kFit);
  const CliResult r = run("fit bad.toml --out out");
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_EQ(r.err.rfind("bristle: error: solver failed: fit: the model cannot be solved at the initial values: rodas4: "
                        "step budget exhausted", 0),
            0u)
      << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "out"));
}

INSTANTIATE_TEST_SUITE_P(AllCases, FitCliBadInput, ::testing::ValuesIn(bad_fits()),
                         [](const ::testing::TestParamInfo<BadFit>& info) { return std::string(info.param.label); });

}  // namespace
