// Scenario files of the structures kinds (include/bristle/io/structures_scenario.hpp): inline TOML parsed
// with the exact error messages, and the command line: the examples' columns, and bad input that exits
// with code 2 and writes nothing.
#include "bristle/io/structures_scenario.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "bristle/core/error.hpp"
#include "bristle/io/keys.hpp"
#include "support/test_support.hpp"

namespace bristle::io {
namespace {

namespace fs = std::filesystem;

const std::string kStructure = "[structure]\ntype = \"taut_string\"\ndamping_ratio = 0.1\ncontact_positions_m = [0.3]\n";
const std::string kBelt = "[contact]\nnormal_load_N = 1.0\nbelt_speed_m_per_s = 0.1\n";
const std::string kFriction = "[friction]\nmu_s = 0.5\nmu_d = 0.3\nv_s = 0.1\n";
const std::string kRun = "[run]\ndt_s = 2e-3\nt_end_s = 40.0\n";

std::string stick(const std::string& structure = kStructure, const std::string& belt = kBelt,
                  const std::string& friction = kFriction, const std::string& extra = "",
                  const std::string& run = kRun) {
  return "kind = \"structure_stick_slip\"\n" + structure + belt + friction + run + extra;
}

void expect_error(const std::string& toml, const std::string& message) {
  try {
    parse_scenario_string(toml, "case");
    FAIL() << "expected InvalidInput: " << message;
  } catch (const InvalidInput& e) {
    EXPECT_EQ(std::string(e.what()), message);
  }
}

TEST(StructuresScenario, KernelKindRunsAndReportsTheClosedForms) {
  const std::string toml =
      "kind = \"structure_kernel\"\n" + kStructure +
      "[kernel]\ntau_end_s = 2.0\npoints = 40\ncolumns = [\"L1_undamped\", \"L1_damped\"]\ndamping_ratios = [0.0, 0.1]\n";
  const auto sc = parse_scenario_string(toml, "k");
  EXPECT_EQ(sc->kind(), "structure_kernel");
  const RunResult r = sc->run();
  const TimeSeries& t = r.cases.at(0).series;
  ASSERT_EQ(t.names, (std::vector<std::string>{"tau_s", "L1_undamped", "L1_damped"}));
  EXPECT_DOUBLE_EQ(t.column("tau_s").front(), 0.05);
  EXPECT_DOUBLE_EQ(t.column("tau_s").back(), 2.0);
  EXPECT_NEAR(t.column("L1_undamped")[0], 0.5, 1e-15);
  EXPECT_NEAR(t.column("L1_damped")[0], 0.4705, 2e-3);
  const Json* cases = r.report.find("cases");
  ASSERT_NE(cases, nullptr);
  EXPECT_NE(r.report.dump().find("\"right_limit_L1_0plus\": 0.5"), std::string::npos);
}

TEST(StructuresScenario, StickSlipKindRunsTheReducedAndTheModalModel) {
  int inside = 0;  // progress reports from inside the stick-slip run, not only its ends
  const RunResult reduced = parse_scenario_string(stick(), "s")->run([&](const Progress& p) {
    if (p.fraction > 0.0 && p.fraction < 1.0) ++inside;
  });
  EXPECT_GE(inside, 100);
  EXPECT_EQ(reduced.plot_y, (std::vector<std::string>{"w_m", "v_mps", "F_N"}));
  EXPECT_NE(reduced.report.dump().find("\"found\": true"), std::string::npos);
  ASSERT_EQ(reduced.extra_files.size(), 1u);
  EXPECT_EQ(reduced.extra_files[0].suffix, "_intervals.csv");
  EXPECT_EQ(reduced.extra_files[0].text.rfind("t_start_s,t_end_s,stick\n0,", 0), 0u);
  const RunResult modal =
      parse_scenario_string(stick(kStructure, kBelt, kFriction, "[model]\ntype = \"modal\"\nmodes = 50\ntrack_energy = true\n"),
                            "m")
          ->run();
  const TimeSeries& t = modal.cases.at(0).series;
  ASSERT_TRUE(t.has("energy_residual_J"));
  EXPECT_LT(std::abs(t.column("energy_residual_J").back()), 1e-11 * t.column("E_belt_J").back());
}

TEST(StructuresScenario, BadInputNamesTheTomlKey) {
  // non-positive frequencies, D < 0, contact outside, mismatched mode counts
  const std::string generic = "[structure]\ntype = \"generic\"\nfrequencies_rad_per_s = [3.0, -1.0]\n"
                              "damping_ratios = [0.1, 0.1]\nmode_values = [[1.0], [0.5]]\n";
  expect_error(stick(generic), "structure.frequencies_rad_per_s[1] = -1: must be > 0");
  expect_error(stick("[structure]\ntype = \"generic\"\nfrequencies_rad_per_s = [3.0, 5.0]\ndamping_ratios = [0.1]\n"
                     "mode_values = [[1.0], [0.5]]\n"),
               "structure.damping_ratios has 1 entries but structure.frequencies_rad_per_s has 2: one damping ratio "
               "per mode is needed");
  expect_error(stick("[structure]\ntype = \"generic\"\nfrequencies_rad_per_s = [3.0, 5.0]\nmode_values = [[1.0]]\n"),
               "structure.mode_values has 1 rows but structure.frequencies_rad_per_s has 2: one row of contact-point "
               "values per mode is needed");
  expect_error(stick("[structure]\ntype = \"taut_string\"\ndamping_ratio = -0.1\n"),
               "structure.damping_ratio = -0.1: must lie in [0, 1) (every mode underdamped)");
  expect_error(stick("[structure]\ntype = \"cantilever\"\ndamping_ratio = 0.05\ncontact_positions_m = 1.2\n"),
               "structure.contact_positions_m[0] = 1.2: must lie in (0, 1] (inside the beam)");
  // belt speed and load non-finite (TOML allows nan and inf)
  expect_error(stick(kStructure, "[contact]\nnormal_load_N = 1.0\nbelt_speed_m_per_s = nan\n"),
               "contact.belt_speed_m_per_s = nan: must be finite");
  expect_error(stick(kStructure, "[contact]\nnormal_load_N = inf\nbelt_speed_m_per_s = 0.1\n"),
               "contact.normal_load_N = inf: must be finite");
  expect_error(stick(kStructure, "[contact]\nnormal_load_N = 0\nbelt_speed_m_per_s = 0.1\n"),
               "contact.normal_load_N = 0: must be > 0");
  // unknown keys suggest the nearest one
  expect_error(stick(kStructure, kBelt, "[friction]\nmu_z = 0.5\n"),
               "unknown key \"friction.mu_z\"; did you mean \"friction.mu_s\"?");
  // [friction] is laws::CoulombStribeckParams read through its schema: type, ranges, types, with the key path
  expect_error(stick(kStructure, kBelt, "[friction]\ntype = \"lugre\"\n"),
               "friction.type = \"lugre\": must be \"coulomb_stribeck\" (dynamic laws go in [law])");
  expect_error(stick(kStructure, kBelt, "[friction]\nmu_s = -1\n"), "friction.mu_s = -1: must be > 0");
  expect_error(stick(kStructure, kBelt, "[friction]\ndelta_s = nan\n"), "friction.delta_s = nan: must be finite");
  expect_error(stick(kStructure, kBelt, "[friction]\nv_s = \"fast\"\n"),
               "friction.v_s = \"fast\": must be a number");
  // the model against the structure
  expect_error(stick("[structure]\ntype = \"cantilever\"\n"),
               "structure.damping_ratio = 0: the kernel of an undamped cantilever never decays, so its memory cannot "
               "be truncated; give damping_ratio > 0");
  expect_error(stick("[structure]\ntype = \"taut_string\"\n", kBelt, kFriction, "", "[run]\ndt_s = 3e-3\nt_end_s = 1\n"),
               fmt::format("run.dt_s = 0.003: must divide 2 l / c = 2 s for the neutral delay form (e.g. run.dt_s = {})",
                           format_value(2.0 / 667.0)));
}

// The schema of the two kinds (serialize() in io/structures_scenario.hpp) lists exactly what the readers take:
// every key it lists for a table and a form is accepted there with a valid value, alone beside the base.
TEST(StructuresScenario, EverySchemaKeyIsAcceptedByTheReader) {
  using Table = std::vector<std::pair<std::string, std::string>>;
  const std::map<std::string, std::string> value = {
      {"density_kg_per_m", "1.0"}, {"length_m", "1.0"}, {"wave_speed_m_per_s", "1.0"}, {"damping_ratio", "0.1"},
      {"contact_positions_m", "[0.3]"}, {"bending_stiffness_N_m2", "1.0"}, {"mass_per_length_kg_per_m", "1.0"},
      {"normal_load_N", "1.0"}, {"belt_speed_m_per_s", "0.1"}, {"contact_index", "0"}, {"mu_s", "0.5"},
      {"mu_d", "0.3"}, {"v_s", "0.1"}, {"delta_s", "2.0"}, {"mu_v", "0.01"}, {"modes", "3"},
      {"track_energy", "true"}, {"window_steps", "0"}, {"far_tolerance", "1e-9"}, {"dt_s", "2e-3"},
      {"t_end_s", "1.0"}, {"output_every", "2"}, {"stick_tolerance_m_per_s", "1e-4"}, {"cycles", "3"},
      {"quantity", "\"displacement\""}, {"i", "0"}, {"j", "0"}, {"tau_start_s", "0.1"}, {"tau_end_s", "2.0"},
      {"points", "10"}, {"spacing", "\"linear\""}, {"columns", "[\"a\"]"}, {"damping_ratios", "[0.1]"},
      {"max_modes", "1000"}, {"relative_tolerance", "1e-10"}, {"plot_x", "\"t_s\""}, {"plot_y", "[\"F_N\"]"},
      {"title", "\"t\""}};
  const auto toml = [](const std::vector<std::pair<std::string, Table>>& tables) {
    std::string out;
    for (const auto& [name, keys] : tables) {
      if (!name.empty()) out += "[" + name + "]\n";
      for (const auto& [k, v] : keys) out += k + " = " + v + "\n";
    }
    return out;
  };
  const auto check = [&](const std::string& kind, std::vector<std::pair<std::string, Table>> base,
                         const std::string& section, const std::string& form) {
    int tested = 0;
    for (const schema::KeyRow& row : key_rows(kind, section)) {
      const std::string used(row.field.used_by);
      if (row.table || row.path == "type" || (!used.empty() && used.find(form) == std::string::npos)) continue;
      auto tables = base;
      for (auto& [name, keys] : tables) {
        if (name != section) continue;
        std::erase_if(keys, [&](const auto& kv) { return kv.first == row.path; });
        ASSERT_TRUE(value.count(row.path)) << row.path;
        keys.emplace_back(row.path, value.at(row.path));
      }
      const std::string text = toml(tables);
      EXPECT_NO_THROW(parse_scenario_string(text, "case")) << section << "." << row.path << "\n" << text;
      ++tested;
    }
    EXPECT_GT(tested, 0) << section << " " << form;
  };
  const Table string = {{"type", "\"taut_string\""}, {"damping_ratio", "0.1"}};
  const Table beam = {{"type", "\"cantilever\""}, {"damping_ratio", "0.05"}};
  const auto stick_slip = [&](const Table& structure, const Table& model) {
    return std::vector<std::pair<std::string, Table>>{
        {"", {{"kind", "\"structure_stick_slip\""}}},
        {"structure", structure},
        {"contact", {{"normal_load_N", "1.0"}, {"belt_speed_m_per_s", "0.1"}}},
        {"friction", {{"type", "\"coulomb_stribeck\""}}},
        {"model", model},
        {"run", {{"dt_s", "2e-3"}, {"t_end_s", "1.0"}}},
        {"output", {}}};
  };
  const Table reduced = {{"type", "\"reduced\""}}, modal = {{"type", "\"modal\""}, {"modes", "3"}};
  check("structure_stick_slip", stick_slip(string, reduced), "structure", "taut_string");
  check("structure_stick_slip", stick_slip(beam, reduced), "structure", "cantilever");
  for (const char* t : {"contact", "friction", "run", "output"})
    check("structure_stick_slip", stick_slip(string, reduced), t, "");
  check("structure_stick_slip", stick_slip(string, reduced), "model", "reduced");
  check("structure_stick_slip", stick_slip(string, modal), "model", "modal");
  const std::vector<std::pair<std::string, Table>> kernel = {
      {"", {{"kind", "\"structure_kernel\""}}}, {"structure", string}, {"kernel", {{"tau_end_s", "2.0"}}},
      {"output", {{"plot_x", "\"tau_s\""}}}};
  check("structure_kernel", kernel, "kernel", "");
}

TEST(StructuresScenario, KernelBadInput) {
  const std::string head = "kind = \"structure_kernel\"\n" + kStructure;
  expect_error(head + "[kernel]\ntau_end_s = 2.0\ncolumns = [\"a\", \"b\"]\ndamping_ratios = [0.1]\n",
               "kernel.damping_ratios has 1 entries but kernel.columns has 2: one damping ratio per column");
  expect_error(head + "[kernel]\ntau_end_s = 2.0\nquantity = \"velocty\"\n",
               "kernel.quantity = \"velocty\": unknown kernel (valid: displacement, velocity, step, step_oscillating); "
               "did you mean \"velocity\"?");
  expect_error(head + "[kernel]\ntau_end_s = -1\n", "kernel.tau_end_s = -1: must be > 0");
  expect_error("kind = \"structure_kernel\"\n[structure]\ntype = \"cantilever\"\n[kernel]\ntau_end_s = 1\n"
               "quantity = \"velocity\"\ntau_start_s = 0.1\n",
               "structure.damping_ratio = 0: the velocity kernel of an undamped cantilever is not a function (its "
               "mode series diverges); give a damping ratio > 0");
}

// ---------------------------------------------------------------------------------------------
// The command line

class StructuresCli : public test::CliTest {
 protected:
  /// The exit code of `bristle ARGS`.
  int run_code(const std::string& args) const { return run(args).code; }
  std::string stderr_text() const { return test::read_text(dir_ / ".stderr"); }
};

TEST_F(StructuresCli, StringKernelExampleWritesItsColumns) {
  ASSERT_EQ(run_code(fmt::format("run '{}/examples/string_kernel.toml' --out out --no-plot -q", BRISTLE_SOURCE_DIR)), 0)
      << stderr_text();
  std::ifstream csv(dir_ / "out" / "string_kernel.csv");
  std::string header, first;
  std::getline(csv, header);
  std::getline(csv, first);
  EXPECT_EQ(header, "tau_s,L1_undamped,L1_damped");
  EXPECT_EQ(first.rfind("0.005,0.5,", 0), 0u);
  long rows = 1;
  std::string line, last;
  while (std::getline(csv, line)) {
    ++rows;
    last = line;
  }
  EXPECT_EQ(rows, 1200);
  EXPECT_EQ(last.rfind("6,", 0), 0u);  // tau covers (0, 6]
  EXPECT_TRUE(fs::exists(dir_ / "out" / "string_kernel.json"));
}

TEST_F(StructuresCli, BadInputExitsWithCode2AndWritesNothing) {
  std::ofstream(dir_ / "bad.toml") << stick(kStructure, "[contact]\nnormal_load_N = 1.0\nbelt_speed_m_per_s = inf\n");
  EXPECT_EQ(run_code("run bad.toml --out out --no-plot"), 2);
  EXPECT_NE(stderr_text().find("bristle: error: contact.belt_speed_m_per_s = inf: must be finite"), std::string::npos);
  EXPECT_FALSE(fs::exists(dir_ / "out"));
  std::ofstream(dir_ / "bad2.toml") << stick("[structure]\ntype = \"generic\"\nfrequencies_rad_per_s = [0.0]\n"
                                             "mode_values = [[1.0]]\n");
  EXPECT_EQ(run_code("run bad2.toml --out out --no-plot"), 2);
  EXPECT_NE(stderr_text().find("structure.frequencies_rad_per_s[0] = 0: must be > 0"), std::string::npos);
  EXPECT_FALSE(fs::exists(dir_ / "out"));
}

}  // namespace
}  // namespace bristle::io
