// Model comparison (`bristle fit --compare`, [[fit.model]], fit.validation_window_s), `bristle check` / `run` of
// a fit scenario, and a multi-experiment fit recovering known parameters from several simulated experiments.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "bristle/core/error.hpp"
#include "bristle/fit/fit.hpp"
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

// The data: LuGre (mu_s = 0.6, mu_d = 0.4, v_s = 1 mm/s, k0 = 1e4) over 0..2 s, 201 samples, noise 0.02 N;
// fitted on 0..1 s, validated on 1..2 s (from the state matching the first sample of each window).
const char* kCompareFit = R"(
[fit]
data = "d.csv"
time_column = "t_s"
initial_state = "match_first_sample"
window_s = [0.0, 1.0]
validation_window_s = [1.0, 2.0]
[fit.targets]
F_N = "F_N"
[fit.parameters]
"law.mu_s" = { initial = 0.5, min = 0.05, max = 2.0 }
"law.mu_d" = { initial = 0.3, min = 0.05, max = 2.0 }
"body1.k0" = { initial = 5e3, min = 1e2, max = 1e7, scale = "log" }
)";

class FitCompare : public bristle::test::CliTest {};

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

std::vector<std::string> cells(const std::string& line) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = line.find(',', start);
    out.push_back(line.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) return out;
    start = comma + 1;
  }
}

TEST_F(FitCompare, TheTrueLawWinsOnFitValidationAndAicAndTheTableMapsParameters) {
  write("d.csv", data_csv(bristle::test::fit::kSineModel, 2.0, 201));
  write("sine.toml", std::string(bristle::test::fit::kSineModel) + kCompareFit);
  const CliResult r = run("fit sine.toml --compare dahl,lugre --out out");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("bristle fit: model dahl (1/2)"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("bristle fit: model lugre (2/2)"), std::string::npos) << r.err;
  for (const char* f : {"sine_compare.json", "sine_compare.csv", "sine_compare.png", "sine_compare_dahl_fitted.toml",
                        "sine_compare_lugre_fitted.toml"})
    EXPECT_TRUE(fs::exists(dir_ / "out" / f)) << f;
  EXPECT_FALSE(fs::exists(dir_ / "out" / "sine_fit.json"));

  // The table: one row per model; Dahl's one coefficient is law.mu (from law.mu_d), it has no mu_s / mu_d.
  const std::vector<std::string> csv = lines(bristle::test::read_text(dir_ / "out" / "sine_compare.csv"));
  ASSERT_EQ(csv.size(), 3u);
  EXPECT_EQ(csv[0], "model,converged,rms_N,validation_rms_N,aic,bic,iterations,body1.k0,law.mu,law.mu_d,law.mu_s");
  const std::vector<std::string> dahl = cells(csv[1]), lugre = cells(csv[2]);
  ASSERT_EQ(dahl.size(), 11u);
  ASSERT_EQ(lugre.size(), 11u);
  EXPECT_EQ(dahl[0], "0");
  EXPECT_EQ(lugre[0], "1");
  EXPECT_EQ(lugre[1], "1");              // converged
  EXPECT_FALSE(dahl[8].empty());          // law.mu
  EXPECT_TRUE(dahl[9].empty() && dahl[10].empty());
  EXPECT_TRUE(lugre[8].empty());
  // LuGre is the truth: its RMS is the noise on both windows and it recovers mu_s, mu_d, k0.
  const double lugre_rms = std::stod(lugre[2]), lugre_val = std::stod(lugre[3]);
  const double dahl_rms = std::stod(dahl[2]), dahl_val = std::stod(dahl[3]);
  EXPECT_NEAR(lugre_rms, 0.02, 0.004);
  EXPECT_NEAR(lugre_val, 0.02, 0.004);
  EXPECT_GT(dahl_rms, 2.0 * lugre_rms);
  EXPECT_GT(dahl_val, 2.0 * lugre_val);
  EXPECT_LT(std::stod(lugre[4]), std::stod(dahl[4]));  // AIC
  EXPECT_LT(std::stod(lugre[5]), std::stod(dahl[5]));  // BIC
  EXPECT_NEAR(std::stod(lugre[7]), 1e4, 0.05e4);
  EXPECT_NEAR(std::stod(lugre[9]), 0.4, 0.01);
  EXPECT_NEAR(std::stod(lugre[10]), 0.6, 0.03);

  // Each model's fitted scenario runs, with its fitted values.
  const std::string dahl_toml = bristle::test::read_text(dir_ / "out" / "sine_compare_dahl_fitted.toml");
  const auto fitted = bristle::io::parse_lumped_string(dahl_toml, "dahl", dir_ / "out");
  EXPECT_EQ(fitted.front().name, "sine_compare_dahl_fitted");
  EXPECT_EQ(fitted.front().law.kind, bristle::laws::LawKind::dahl);
  EXPECT_NEAR(bristle::io::get_number(fitted.front(), "law.mu"), std::stod(dahl[8]), 1e-12 * std::stod(dahl[8]));
  const CliResult rerun = run("run out/sine_compare_lugre_fitted.toml --out rerun --quiet --no-plot");
  EXPECT_EQ(rerun.code, 0) << rerun.err;

  const std::string json = bristle::test::read_text(dir_ / "out" / "sine_compare.json");
  for (const char* key : {"\"models\"", "\"label\": \"dahl\"", "\"label\": \"lugre\"", "\"law\": \"dahl\"",
                          "\"validation_rms_N\"", "\"validation_window_s\"", "\"ci95\"", "\"converged\""})
    EXPECT_NE(json.find(key), std::string::npos) << key;
  EXPECT_NEAR(json_number(json, "validation_rms_N", json.find("\"label\": \"lugre\"")), lugre_val, 1e-9 * lugre_val);
}

TEST_F(FitCompare, FitModelEntriesNameTheirLawAndParameters) {
  write("d.csv", data_csv(bristle::test::fit::kSineModel, 2.0, 201));
  write("sine.toml", std::string(bristle::test::fit::kSineModel) + kCompareFit +
                         "[[fit.model]]\nlabel = \"coulomb_dahl\"\nlaw = { type = \"dahl\", mu = 0.5 }\n"
                         "parameters = { \"law.mu\" = { initial = 0.5, min = 0.05, max = 2.0 } }\n"
                         "[[fit.model]]\nlabel = \"truth_law\"\n");
  const auto comparison = bristle::io::load_fit_comparison(dir_ / "sine.toml");
  ASSERT_EQ(comparison.models.size(), 2u);
  EXPECT_EQ(comparison.models[0].label, "coulomb_dahl");
  ASSERT_EQ(comparison.models[0].scenario.parameters.size(), 1u);
  EXPECT_EQ(comparison.models[0].scenario.parameters[0].key, "law.mu");
  EXPECT_EQ(comparison.models[1].scenario.parameters.size(), 3u);  // the scenario's law and [fit.parameters]
  EXPECT_EQ(comparison.models[0].scenario.validation.size(), 1u);
  EXPECT_EQ(comparison.models[0].scenario.validation[0].times.size(), 101u);  // 1..2 s
  // --compare picks labels and bare law names.
  const auto picked = bristle::io::load_fit_comparison(dir_ / "sine.toml", {"truth_law", "frbd"});
  ASSERT_EQ(picked.models.size(), 2u);
  EXPECT_EQ(picked.models[1].label, "frbd");
  EXPECT_EQ(picked.models[1].scenario.parameters.size(), 3u);  // mu_s, mu_d, k0 all apply to FrBD
  const CliResult c = run("check sine.toml");
  EXPECT_EQ(c.code, 0) << c.err;
  EXPECT_NE(c.out.find("models to compare: coulomb_dahl, truth_law"), std::string::npos) << c.out;
}

struct BadCompare {
  const char* label;
  std::string extra;  // appended to the scenario
  std::string args;   // after "fit bad.toml --out out"
  const char* in_message;
};

std::vector<BadCompare> bad_compares() {
  return {
      {"unknown_law_name", "", " --compare dahl,lugr", "--compare: unknown model \"lugr\"; did you mean \"lugre\"?"},
      {"model_listed_twice", "", " --compare dahl,dahl", "--compare: model \"dahl\" is listed twice"},
      {"empty_model_name", "", " --compare dahl,", "an empty model name"},
      {"unknown_law_type_in_model", "[[fit.model]]\nlabel = \"x\"\nlaw = { type = \"dahll\" }\n", "",
       "fit.model[0] (\"x\"): law.type = \"dahll\""},
      {"parameter_the_law_has_not",
       "[[fit.model]]\nlabel = \"d\"\nlaw = { type = \"dahl\", mu = 0.5 }\n"
       "parameters = { \"law.v_s\" = { initial = 1e-3, min = 1e-5, max = 1.0 } }\n",
       "", "fit.model[0] (\"d\"): fit.parameters.\"law.v_s\": key \"law.v_s\" does not apply to law.type = \"dahl\""},
      {"unknown_model_key", "[[fit.model]]\nlabel = \"d\"\nlaws = { type = \"dahl\" }\n", "",
       "unknown key \"fit.model[0].laws\""},
      {"label_not_a_file_name", "[[fit.model]]\nlabel = \"a/b\"\n", "",
       "fit.model[0].label = \"a/b\": must be letters, digits, '_' or '-'"},
      {"two_models_one_label", "[[fit.model]]\nlabel = \"d\"\n[[fit.model]]\nlabel = \"d\"\n", "",
       "fit.model[1].label = \"d\": two models have this label"},
  };
}

class FitCompareBadInput : public bristle::test::CliTest, public ::testing::WithParamInterface<BadCompare> {};

TEST_P(FitCompareBadInput, ExitsWith2NamingTheModelAndWritesNothing) {
  const BadCompare& bad = GetParam();
  write("d.csv", data_csv(bristle::test::fit::kSineModel, 2.0, 201));
  write("bad.toml", std::string(bristle::test::fit::kSineModel) + kCompareFit + bad.extra);
  bristle::test::fit::expect_bad_input(run("fit bad.toml --out out" + bad.args), bad.in_message, dir_ / "out");
}

TEST_F(FitCompare, TheFittedScenariosNamesAreWithinTheNameLimitWhenChecked) {
  // <name>_fitted.toml holds name = "<name>_fitted" (and a compared model's <name>_compare_<label>_fitted): a
  // name of 200 bytes passed check and the fitted scenario it wrote was refused by `bristle run`.
  write("d.csv", data_csv(bristle::test::fit::kSineModel, 2.0, 201));
  const auto named = [&](std::size_t bytes, const std::string& extra) {
    std::string model = bristle::test::fit::kSineModel;
    model.replace(model.find("name = \"sine\""), 13, "name = \"" + std::string(bytes, 'n') + "\"");
    write("n.toml", model + kCompareFit + extra);
    return run("check n.toml");
  };
  EXPECT_EQ(named(193, "").code, 0) << named(193, "").err;
  bristle::test::fit::expect_bad_input(named(194, ""),
                                       "name = \"nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn", dir_ / "out");
  EXPECT_NE(named(194, "").err.find("\": 194 bytes long; at most 193 in a fit (the fitted scenario is named "
                                    "<name>_fitted, at most 200 bytes)\n"),
            std::string::npos);
  // 160 + "_compare_" + 25 = 194 bytes
  const CliResult label = named(160, "[[fit.model]]\nlabel = \"" + std::string(25, 'L') + "\"\n");
  bristle::test::fit::expect_bad_input(label, "fit.model[0] (\"LLLLLLLLLLLLLLLLLLLLLLLLL\"): the compared model's name "
                                              "<name>_compare_<label>: name = \"nnnn", dir_ / "out");
  EXPECT_NE(label.err.find("n_compare_LLLLLLLLLLLLLLLLLLLLLLLLL\": 194 bytes long; at most 193 in a fit"),
            std::string::npos)
      << label.err;
  EXPECT_EQ(named(160, "[[fit.model]]\nlabel = \"" + std::string(24, 'L') + "\"\n").code, 0);
}

INSTANTIATE_TEST_SUITE_P(AllCases, FitCompareBadInput, ::testing::ValuesIn(bad_compares()),
                         [](const ::testing::TestParamInfo<BadCompare>& info) { return std::string(info.param.label); });

TEST_F(FitCompare, ValidationWindowOutsideTheDataIsAnError) {
  write("d.csv", data_csv(bristle::test::fit::kSineModel, 2.0, 201));
  std::string fit = kCompareFit;
  fit.replace(fit.find("[1.0, 2.0]"), 10, "[1.5, 3.0]");
  write("bad.toml", std::string(bristle::test::fit::kSineModel) + fit);
  bristle::test::fit::expect_bad_input(run("fit bad.toml --compare lugre --out out"),
                                       "fit.validation_window_s = [1.5, 3]: outside the data's times [0, 2]",
                                       dir_ / "out");
}

TEST_F(FitCompare, AValidationWindowOfOneSampleIsRefusedForWhatItIs) {
  // It said "fitting 2 parameter(s) needs more residuals than parameters": a validation window fits nothing
  // (helper-53). Two samples are a validation window.
  write("d.csv", data_csv(bristle::test::fit::kSineModel, 2.0, 201));
  std::string fit = kCompareFit;
  fit.replace(fit.find("[1.0, 2.0]"), 10, "[1.995, 2.0]");
  write("bad.toml", std::string(bristle::test::fit::kSineModel) + fit);
  bristle::test::fit::expect_bad_input(run("check bad.toml"),
                                       "fit.validation_window_s = [1.995, 2]: the window holds 1 sample(s) of ", {});
  const CliResult r = run("check bad.toml");
  EXPECT_NE(r.err.find("; a validation window needs at least 2"), std::string::npos) << r.err;
  fit.replace(fit.find("[1.995, 2.0]"), 12, "[1.99, 2.0]");
  write("ok.toml", std::string(bristle::test::fit::kSineModel) + fit);
  EXPECT_EQ(run("check ok.toml").code, 0);
}

TEST_F(FitCompare, CheckValidatesTheFitTableAndRunRefusesAFitScenario) {
  write("d.csv", data_csv());
  write("sine.toml", std::string(bristle::test::fit::kSineModel) + bristle::test::fit::kSineFit);
  const CliResult ok = run("check sine.toml");
  EXPECT_EQ(ok.code, 0) << ok.err;
  EXPECT_NE(ok.out.find("fit of sine: 2 parameter(s) (body1.k0, law.mu_d) to F_N over 1 experiment(s), 101 samples"),
            std::string::npos)
      << ok.out;
  EXPECT_NE(ok.out.find("sine.toml: valid"), std::string::npos) << ok.out;
  std::string bad = bristle::test::fit::kSineFit;
  bad.replace(bad.find("\"law.mu_d\""), 10, "\"law.mu_z\"");
  write("bad.toml", std::string(bristle::test::fit::kSineModel) + bad);
  bristle::test::fit::expect_bad_input(run("check bad.toml"),
                                       "fit.parameters.\"law.mu_z\": unknown key \"law.mu_z\"; did you mean",
                                       dir_ / "out");
  bristle::test::fit::expect_bad_input(run("run sine.toml --out out"),
                                       "[fit]: a fit scenario is run by `bristle fit sine.toml`", dir_ / "out");
}

TEST_F(FitCompare, CheckAcceptsEveryShippedFitExample) {
  int checked = 0;
  for (const auto& e : fs::directory_iterator(fs::path(BRISTLE_SOURCE_DIR) / "examples")) {
    const std::string file = e.path().filename().string();
    if (file.rfind("fit_", 0) != 0 || e.path().extension() != ".toml") continue;
    const CliResult r = run("check " + e.path().string());
    EXPECT_EQ(r.code, 0) << file << ": " << r.err;
    EXPECT_NE(r.out.find(": valid (fit scenario"), std::string::npos) << file << ": " << r.out;
    ++checked;
  }
  EXPECT_GE(checked, 3);  // fit_tribometer_lugre, fit_tribometer_compare, fit_seal
}

TEST(FitMultiExperiment, OneParameterSetOverSeveralNormalLoadsIsRecovered) {
  // Three experiments of one LuGre contact at F_z = 5, 10 and 20 N (as the seal's pressures), noise 0.02 N:
  // the joint fit of mu_s, mu_d, v_s and k0 recovers the truth within 4 standard errors and its RMS is the noise.
  namespace bf = bristle::fit;
  const auto base =
      bristle::io::parse_lumped_string(std::string(bristle::test::fit::kSineModel) + "[time]\nt_end_s = 1.0\n").front();
  std::vector<bf::Experiment> experiments;
  unsigned seed = 7;
  for (const double load : {5.0, 10.0, 20.0}) {
    bf::Experiment e;
    e.label = fmt::format("F_z = {} N", load);
    e.scenario = base;
    bristle::io::set_number(e.scenario, "bench.normal_load_N", load);
    e.times = bristle::test::fit::sample_times(1.0, 101);
    bf::Target t;
    t.output = "F_N";
    t.data_column = "F_N";
    t.values = bristle::test::fit::with_noise(bristle::test::fit::simulate_F(e.scenario, e.times), 0.02, seed++);
    e.targets.push_back(t);
    experiments.push_back(std::move(e));
  }
  const std::vector<bf::ParameterSpec> parameters = {{"law.mu_s", 0.5, 0.05, 2.0, bf::Scale::linear},
                                                     {"law.mu_d", 0.3, 0.05, 2.0, bf::Scale::linear},
                                                     {"law.v_s", 2e-3, 1e-5, 1e-1, bf::Scale::log},
                                                     {"body1.k0", 6e3, 1e2, 1e7, bf::Scale::log}};
  const bf::Result r = bf::fit(experiments, parameters);
  ASSERT_TRUE(r.converged) << r.termination;
  ASSERT_EQ(r.experiments.size(), 3u);
  EXPECT_EQ(r.residual_count, 303u);
  const std::vector<double> truth = {0.6, 0.4, 1e-3, 1e4};
  for (std::size_t j = 0; j < truth.size(); ++j) {
    EXPECT_LT(std::abs(r.parameters[j].value - truth[j]), 4.0 * r.parameters[j].std_error) << r.parameters[j].key;
    EXPECT_LT(std::abs(r.parameters[j].value - truth[j]), 0.05 * truth[j]) << r.parameters[j].key;
  }
  ASSERT_TRUE(r.rms_N);
  EXPECT_NEAR(*r.rms_N, 0.02, 0.003);
}

}  // namespace
