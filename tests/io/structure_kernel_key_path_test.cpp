// Key paths and [sweep] of kind = "structure_kernel" (io/key_path.hpp, issue 15 item 4): set then run equals parsing
// the file with the value (bitwise the same CSV and parameter echo) for the keys of [structure] and [kernel]; bad
// paths and values are errors naming the key that leave the scenario unchanged; a [sweep] runs one case per value,
// each case bitwise the file with that value.
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "bristle/core/error.hpp"
#include "bristle/io/key_path.hpp"
#include "bristle/io/output.hpp"
#include "bristle/io/structures_scenario.hpp"
#include "io/key_path_test_support.hpp"

namespace bristle::io {
namespace {

using ::testing::HasSubstr;

// A damped taut string touched at two points: the displacement kernel L1 at the first, at 200 delays of (0, 3] s.
const std::string kString = R"(
kind = "structure_kernel"
[structure]
type = "taut_string"
wave_speed_m_per_s = 1.0
damping_ratio = 0.05
contact_positions_m = [0.3, 0.6]
[kernel]
quantity = "displacement"
i = 0
j = 0
tau_end_s = 3.0
points = 200
)";

// A simply supported beam touched at mid-span by default (l/2), its step response on a grid from tau_start_s.
const std::string kBeam = R"(
kind = "structure_kernel"
[structure]
type = "simply_supported_beam"
bending_stiffness_N_m2 = 2.0
length_m = 1.0
damping_ratio = 0.02
[kernel]
quantity = "step"
tau_start_s = 0.01
tau_end_s = 0.5
points = 40
max_modes = 500
)";

using test::edited;

StructureKernelScenario parse(const std::string& toml) { return parse_structure_kernel_string(toml, "k"); }
RunResult run(const StructureKernelScenario& sc) { return StructureKernelStudy(sc).run(); }

using Case = test::KeyCase;

void check_cases(const std::string& text, const std::vector<Case>& cases) {
  test::check_set_equals_file(text, cases, parse, [](const StructureKernelScenario& sc) { return run(sc); },
                              {"parameters", "cases"});
}

TEST(StructureKernelKeyPath, SetThenRunEqualsParsingTheFileWithThatValue) {
  check_cases(kString, {{"structure.wave_speed_m_per_s", 1.5, "wave_speed_m_per_s = 1.5", "wave_speed_m_per_s ="},
                        {"structure.damping_ratio", 0.2, "damping_ratio = 0.2", "damping_ratio ="},
                        {"structure.length_m", 1.2, "[structure]\nlength_m = 1.2", "[structure]"},
                        {"structure.density_kg_per_m", 2.0, "[structure]\ndensity_kg_per_m = 2.0", "[structure]"},
                        {"kernel.j", 1, "j = 1", "j ="},
                        {"kernel.tau_end_s", 2.5, "tau_end_s = 2.5", "tau_end_s ="},
                        {"kernel.points", 150, "points = 150", "points ="}});
  // the beam's contact at l/2 follows its length (the reader's default position)
  check_cases(kBeam, {{"structure.length_m", 1.5, "length_m = 1.5", "length_m ="},
                      {"structure.bending_stiffness_N_m2", 3.0, "bending_stiffness_N_m2 = 3.0", "bending_stiffness_N_m2 ="},
                      {"kernel.tau_start_s", 0.05, "tau_start_s = 0.05", "tau_start_s ="},
                      {"kernel.max_modes", 20, "max_modes = 20", "max_modes ="}});
}

TEST(StructureKernelKeyPath, NumericKeysAreThoseOfTheStructureAndGridAtHand) {
  const StructureKernelScenario s = parse(kString), b = parse(kBeam);
  const std::vector<std::string> sk = numeric_keys(s), bk = numeric_keys(b);
  const auto has = [](const std::vector<std::string>& keys, const std::string& k) {
    return std::find(keys.begin(), keys.end(), k) != keys.end();
  };
  for (const char* k : {"structure.wave_speed_m_per_s", "structure.damping_ratio", "kernel.i", "kernel.j",
                        "kernel.tau_end_s", "kernel.points", "kernel.max_modes", "kernel.relative_tolerance"})
    EXPECT_TRUE(has(sk, k)) << k;
  EXPECT_FALSE(has(sk, "kernel.tau_start_s"));  // not given: the grid (0, tau_end_s]
  EXPECT_FALSE(has(sk, "structure.bending_stiffness_N_m2"));
  EXPECT_FALSE(has(sk, "kernel.damping_ratios"));  // a list
  for (const char* k : {"structure.bending_stiffness_N_m2", "structure.mass_per_length_kg_per_m", "kernel.tau_start_s"})
    EXPECT_TRUE(has(bk, k)) << k;
  EXPECT_FALSE(has(bk, "structure.wave_speed_m_per_s"));
  for (const auto* sc : {&s, &b})  // every listed key reads and sets its own value
    for (const std::string& k : numeric_keys(*sc)) {
      StructureKernelScenario copy = *sc;
      set_number(copy, k, get_number(*sc, k));
      EXPECT_EQ(get_number(copy, k), get_number(*sc, k)) << k;
    }
  EXPECT_EQ(get_number(b, "kernel.tau_start_s"), 0.01);
  EXPECT_EQ(get_number(s, "kernel.points"), 200.0);
  EXPECT_EQ(key_info(s, "kernel.tau_end_s").unit, "s");
  EXPECT_EQ(key_info(s, "structure.damping_ratio").range, ">= 0");
}

std::string set_error(const StructureKernelScenario& sc, const std::string& key, double value) {
  return test::set_error_of(sc, key, value, [](const StructureKernelScenario& s) { return run(s); });
}

TEST(StructureKernelKeyPath, BadPathsAndValuesAreErrorsNamingTheKeyAndLeaveTheScenarioUnchanged) {
  const StructureKernelScenario s = parse(kString), b = parse(kBeam);
  EXPECT_EQ(set_error(s, "kernel.tau_end", 2.0), "unknown key \"kernel.tau_end\"; did you mean \"kernel.tau_end_s\"?");
  EXPECT_THAT(set_error(s, "kernel.tau_start_s", 0.1),
              HasSubstr("key \"kernel.tau_start_s\" does not apply to a grid without kernel.tau_start_s"));
  EXPECT_THAT(set_error(s, "structure.bending_stiffness_N_m2", 1.0),
              HasSubstr("does not apply to structure.type = \"taut_string\""));
  EXPECT_EQ(set_error(s, "kernel.j", 2), "kernel.j = 2: must be a contact index in [0, 1]");
  EXPECT_EQ(set_error(s, "kernel.tau_end_s", -1.0), "kernel.tau_end_s = -1: must be > 0");
  EXPECT_EQ(set_error(b, "kernel.tau_start_s", 0.5), "kernel.tau_start_s = 0.5: must be < kernel.tau_end_s = 0.5");
  EXPECT_EQ(set_error(b, "kernel.tau_end_s", 0.005), "kernel.tau_start_s = 0.01: must be < kernel.tau_end_s = 0.005");
  // the reader's damping limit (a tiny ratio exhausted memory), not only the schema's range
  EXPECT_THAT(set_error(s, "structure.damping_ratio", 1e-9), HasSubstr("structure.damping_ratio = 1e-09: must be 0 or >= 1e-06"));
  EXPECT_THAT(set_error(b, "kernel.max_modes", 1e8), HasSubstr("mode terms of a beam's kernel"));
  EXPECT_THAT(set_error(s, "kernel.points", 2.5), HasSubstr("kernel.points = 2.5"));
  EXPECT_THAT(set_error(s, "kernel.quantity", 1.0), HasSubstr("kernel.quantity: is a string, not a number"));
  EXPECT_THAT(set_error(s, "structure.wave_speed_m_per_s", std::nan("")), HasSubstr("structure.wave_speed_m_per_s"));
  // the reader gives the same messages
  EXPECT_THROW(
      {
        try {
          parse(edited(kString, "j =", "j = 2"));
        } catch (const InvalidInput& e) {
          EXPECT_STREQ(e.what(), "kernel.j = 2: must be a contact index in [0, 1]");
          throw;
        }
      },
      InvalidInput);
  // a parsed Scenario (load_scenario) takes them too
  std::unique_ptr<Scenario> sc = parse_scenario_string(kString, "k");
  set_number(*sc, "structure.wave_speed_m_per_s", 2.0);
  EXPECT_EQ(get_number(*sc, "structure.wave_speed_m_per_s"), 2.0);
  EXPECT_EQ(csv_text(sc->run()), csv_text(run(parse(edited(kString, "wave_speed_m_per_s =", "wave_speed_m_per_s = 2.0")))));
}

const std::string kSweep = "[sweep]\nparameter = \"structure.wave_speed_m_per_s\"\nvalues = [0.8, 1.25]\ncolumn = \"c_mps\"\n";

TEST(StructureKernelSweep, EachCaseIsTheFileWithItsValueBitwise) {
  std::unique_ptr<Scenario> study = parse_scenario_string(kString + kSweep, "k");
  ASSERT_EQ(study->case_count(), 2u);
  const RunResult swept = study->run();
  EXPECT_EQ(swept.sweep_column, "c_mps");
  const std::string csv = csv_text(swept);
  EXPECT_EQ(csv.substr(0, csv.find('\n')), "c_mps,tau_s,L1");
  ASSERT_NE(swept.report.find("sweep"), nullptr);
  EXPECT_THAT(swept.report.find("sweep")->dump(), HasSubstr("\"structure.wave_speed_m_per_s\""));
  // each case's kernels in its entry are the file's "cases" (compared without the layout's whitespace)
  const auto squeezed = [](std::string text) {
    text.erase(std::remove_if(text.begin(), text.end(), [](char ch) { return ch == ' ' || ch == '\n'; }), text.end());
    return text;
  };
  const std::string entries = squeezed(swept.report.find("cases")->dump());
  const std::vector<std::string> lines = {"wave_speed_m_per_s = 0.8", "wave_speed_m_per_s = 1.25"};
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const RunResult one = run(parse(edited(kString, "wave_speed_m_per_s =", lines[i])));
    ASSERT_EQ(swept.cases[i].series.names, one.cases[0].series.names);
    for (std::size_t c = 0; c < one.cases[0].series.columns.size(); ++c)
      EXPECT_TRUE(swept.cases[i].series.columns[c] == one.cases[0].series.columns[c]) << lines[i] << ", column " << c;
    EXPECT_THAT(entries, HasSubstr("\"kernels\":" + squeezed(one.report.find("cases")->dump()) + ",\"solve_seconds\"")) << lines[i];
  }
  EXPECT_FALSE(swept.cases[0].series.columns[1] == swept.cases[1].series.columns[1]);
  // set() refuses the swept key and applies any other key to every case
  EXPECT_THAT([&] {
    try {
      set_number(*study, "structure.wave_speed_m_per_s", 1.0);
    } catch (const InvalidInput& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  }(), HasSubstr("structure.wave_speed_m_per_s: is the parameter of the sweep"));
  set_number(*study, "kernel.tau_end_s", 2.0);
  EXPECT_EQ(study->run().cases[1].series.columns[0].back(), 2.0);
}

std::string parse_error(const std::string& text) {
  try {
    parse_scenario_string(text, "k");
  } catch (const InvalidInput& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(StructureKernelSweep, TheSummaryOfCheckNamesTheSweep) {
  // `bristle check` prints the study's summary: a swept kernel (and stick-slip, patch transient) says what it sweeps.
  const std::unique_ptr<Scenario> study = parse_scenario_string(kString + kSweep, "k");
  EXPECT_THAT(study->summary(), ::testing::HasSubstr("sweep      structure.wave_speed_m_per_s = "));
  EXPECT_THAT(parse_scenario_string(kString, "k")->summary(), ::testing::Not(::testing::HasSubstr("sweep ")));
}

TEST(StructureKernelSweep, BadSweepsAreErrorsNamingTheCaseAndKey) {
  EXPECT_EQ(parse_error(kString + "[sweep]\nparameter = \"structure.wave_speed_m_per_s\"\nvalues = [1, -1]\n"),
            "sweep case 2 of 2 (structure.wave_speed_m_per_s = -1): structure.wave_speed_m_per_s = -1: must be > 0");
  EXPECT_EQ(parse_error(kString + "[sweep]\nparameter = \"kernel.j\"\nvalues = [0, 2]\n"),
            "sweep case 2 of 2 (kernel.j = 2): kernel.j = 2: must be a contact index in [0, 1]");
  EXPECT_THAT(parse_error(kString + "[sweep]\nparameter = \"kernel.quantity\"\nvalues = [1]\n"),
              HasSubstr("kernel.quantity: is a string, not a number"));
  EXPECT_THAT(parse_error(kString + "[sweep]\nparameter = \"kernel.tau_end\"\nvalues = [1]\n"),
              HasSubstr("did you mean \"kernel.tau_end_s\"?"));
  EXPECT_THAT(parse_error(kString + "[sweep]\nparameter = \"kernel.tau_end_s\"\nvalues = [1]\ncolumn = \"L1\"\n"),
              HasSubstr("sweep.column = \"L1\": clashes with an output column"));
}

TEST(StructureKernelKeyPath, AnIndexBeyondIntIsRefusedWithItsOwnRange) {
  // The reader's storage check names the field's range within int ([0, ...], not [-2147483648, ...]: an index is
  // >= 0); the structread branch's first form suggested negative indices.
  const auto error = [](const std::string& from, const std::string& to) {
    try {
      parse(edited(kString, from, to));
    } catch (const InvalidInput& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  EXPECT_EQ(error("i = 0", "i = 3000000000"), "kernel.i = 3000000000: must be in [0, 2147483647]");
  EXPECT_EQ(error("j = 0", "j = -3000000000"), "kernel.j = -3000000000: must be in [0, 2147483647]");
  // By key path: the same range.
  StructureKernelScenario sc = parse(kString);
  EXPECT_EQ(test::set_error_of(sc, "kernel.i", 3e9, run), "kernel.i = 3000000000: must be in [0, 2147483647]");
}

TEST(StructureKernelKeyPath, ACantileverTouchesAtItsTipByDefaultAndTheTipFollowsItsLength) {
  // docs/structures.md: contact_positions_m defaults to the tip l for a cantilever (it was the fixed 1.0 m).
  const std::string cantilever = R"(
kind = "structure_kernel"
[structure]
type = "cantilever"
bending_stiffness_N_m2 = 2.0
length_m = 2.0
damping_ratio = 0.02
[kernel]
quantity = "step"
tau_start_s = 0.01
tau_end_s = 0.5
points = 40
max_modes = 50
)";
  StructureKernelScenario sc = parse(cantilever);
  EXPECT_EQ(sc.structure.beam.contact_positions_m, std::vector<double>{2.0});
  set_number(sc, "structure.length_m", 1.5);
  EXPECT_EQ(sc.structure.beam.contact_positions_m, std::vector<double>{1.5});
  check_cases(cantilever, {{"structure.length_m", 1.5, "length_m = 1.5", "length_m ="}});
}

}  // namespace
}  // namespace bristle::io
