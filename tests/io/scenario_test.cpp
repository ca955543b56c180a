// Scenario parsing: fields land in the library structs, and every kind of bad input gives the exact,
// one-line InvalidInput message that names the TOML key.
#include "bristle/io/scenario.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "bristle/contact/contact_model.hpp"
#include "bristle/core/error.hpp"
#include "support/test_support.hpp"

namespace bristle::io {
namespace {

namespace fs = std::filesystem;

const std::string kLaw = "[law]\ntype = \"lugre\"\nmu_s = 1.5\nmu_d = 1.0\nv_s = 0.001\n";
const std::string kBody1 = "[body1]\ntype = \"elastic\"\nk0 = 1e5\n";
const std::string kBench = "[bench]\ndrive = \"velocity\"\ninput = 0.01\n";
const std::string kTime = "[time]\nt_end_s = 0.1\n";

struct Parts {
  std::string top;
  std::string law = kLaw;
  std::string body1 = kBody1;
  std::string bench = kBench;
  std::string time = kTime;
  std::string extra;
  std::string text() const { return top + law + body1 + bench + time + extra; }
};

LumpedScenario parse_one(const std::string& toml, const fs::path& dir = {}) {
  const auto cases = parse_lumped_string(toml, "t", dir);
  EXPECT_EQ(cases.size(), 1u);
  return cases.front();
}

std::string error_of(const std::string& toml, const fs::path& dir = {}) {
  try {
    parse_lumped_string(toml, "t", dir);
  } catch (const InvalidInput& e) {
    return e.what();
  }
  return "(no error)";
}

using test::TempDir;

// ---------------------------------------------------------------------------------------------
// Fields

TEST(Scenario, MinimalScenarioGetsTheDocumentedDefaults) {
  const LumpedScenario s = parse_one(Parts{}.text());
  EXPECT_EQ(s.name, "t");
  EXPECT_EQ(s.description, "");
  EXPECT_EQ(s.law.kind, laws::LawKind::lugre);
  EXPECT_FALSE(s.law.M.anisotropic);
  EXPECT_DOUBLE_EQ(s.law.M.axis1.mu_s, 1.5);
  EXPECT_DOUBLE_EQ(s.law.M.axis1.mu_d, 1.0);
  EXPECT_DOUBLE_EQ(s.law.M.axis1.v_s, 0.001);
  EXPECT_DOUBLE_EQ(s.law.M.axis1.delta_s, 2.0);
  EXPECT_DOUBLE_EQ(s.law.M.axis1.mu_v, 0.0);
  EXPECT_DOUBLE_EQ(s.law.eps, 0.0);
  EXPECT_FALSE(s.law.sigma0.has_value());
  EXPECT_TRUE(s.law.sigma1.isZero());
  EXPECT_EQ(s.body1.kind, rheology::RheologyKind::elastic);
  EXPECT_TRUE(s.body1.k_elastic.isApprox(1e5 * Mat2::Identity()));
  EXPECT_EQ(s.body2.kind, rheology::RheologyKind::rigid);
  EXPECT_FALSE(s.pair_s.has_value());
  EXPECT_EQ(s.bench.drive, contact::DriveKind::velocity);
  EXPECT_EQ(s.bench.input_x.kind, contact::SignalKind::constant);
  EXPECT_DOUBLE_EQ(s.bench.input_x.value, 0.01);
  EXPECT_DOUBLE_EQ(s.bench.normal_load(0.0), 1.0);
  EXPECT_DOUBLE_EQ(s.time.t_start_s, 0.0);
  EXPECT_DOUBLE_EQ(s.time.t_end_s, 0.1);
  EXPECT_DOUBLE_EQ(s.time.output_dt_s, 1e-4);
  const auto times = s.time.times();
  ASSERT_EQ(times.size(), 1001u);
  EXPECT_EQ(times.front(), 0.0);
  EXPECT_EQ(times.back(), 0.1);
  EXPECT_EQ(s.integrator.method, integrate::Method::auto_);  // the default since issue 19 (was cvode_bdf)
  EXPECT_DOUBLE_EQ(s.integrator.rtol, 1e-8);
  EXPECT_DOUBLE_EQ(s.integrator.atol, 1e-12);
  EXPECT_EQ(s.integrator.max_steps, 50'000'000);
  EXPECT_FALSE(s.initial.steady);
  EXPECT_TRUE(s.initial.f.isZero());
  EXPECT_FALSE(s.sweep.has_value());
  EXPECT_FALSE(s.sweep_value.has_value());
  EXPECT_EQ(s.output.plot_x, "t_s");
  EXPECT_EQ(s.output.plot_y, std::vector<std::string>{"F_N"});
  EXPECT_EQ(s.output.title, "t");
}

TEST(Scenario, TopLevelKeys) {
  Parts p;
  p.top = "name = \"my_run\"\ndescription = \"a test\"\nkind = \"lumped\"\n";
  const LumpedScenario s = parse_one(p.text());
  EXPECT_EQ(s.name, "my_run");
  EXPECT_EQ(s.description, "a test");
  EXPECT_EQ(s.output.title, "my_run");
}

TEST(Scenario, LugreMatricesInAllThreeForms) {
  Parts p;
  p.law = kLaw + "eps = 1e-9\nmu_v = 0.1\ndelta_s = 1.5\nsigma0 = [[2e5, 1e4], [1e4, 3e5]]\nsigma1 = [300, 400]\nsigma2 = 0.4\n";
  const LumpedScenario s = parse_one(p.text());
  EXPECT_DOUBLE_EQ(s.law.eps, 1e-9);
  EXPECT_DOUBLE_EQ(s.law.M.axis1.mu_v, 0.1);
  EXPECT_DOUBLE_EQ(s.law.M.axis1.delta_s, 1.5);
  ASSERT_TRUE(s.law.sigma0.has_value());
  Mat2 sigma0;
  sigma0 << 2e5, 1e4, 1e4, 3e5;
  EXPECT_EQ(*s.law.sigma0, sigma0);
  EXPECT_EQ(s.law.sigma1, Mat2(Eigen::Vector2d(300, 400).asDiagonal()));
  EXPECT_EQ(s.law.sigma2, Mat2(0.4 * Mat2::Identity()));
}

TEST(Scenario, DahlTakesMuForBothCoefficients) {
  Parts p;
  p.law = "[law]\ntype = \"dahl\"\nmu = 0.7\n";
  LumpedScenario s = parse_one(p.text());
  EXPECT_EQ(s.law.kind, laws::LawKind::dahl);
  EXPECT_DOUBLE_EQ(s.law.M.axis1.mu_s, 0.7);
  EXPECT_DOUBLE_EQ(s.law.M.axis1.mu_d, 0.7);
  p.law = "[law]\ntype = \"dahl\"\nmu_d = 0.4\n";
  s = parse_one(p.text());
  EXPECT_DOUBLE_EQ(s.law.M.axis1.mu_s, 0.4);
  EXPECT_DOUBLE_EQ(s.law.M.axis1.mu_d, 0.4);
}

TEST(Scenario, AnisotropicLaw) {
  Parts p;
  p.law =
      "[law]\ntype = \"frbd\"\nangle_rad = 0.3\n[law.axis1]\nmu_s = 1.0\nmu_d = 0.8\nv_s = 0.05\n"
      "[law.axis2]\nmu_s = 0.6\nmu_d = 0.5\nv_s = 0.04\ndelta_s = 1\n";
  const LumpedScenario s = parse_one(p.text());
  EXPECT_TRUE(s.law.M.anisotropic);
  EXPECT_DOUBLE_EQ(s.law.M.angle_rad, 0.3);
  EXPECT_DOUBLE_EQ(s.law.M.axis1.mu_d, 0.8);
  EXPECT_DOUBLE_EQ(s.law.M.axis2.mu_s, 0.6);
  EXPECT_DOUBLE_EQ(s.law.M.axis2.v_s, 0.04);
  EXPECT_DOUBLE_EQ(s.law.M.axis2.delta_s, 1.0);
}

TEST(Scenario, BoucWenKeys) {
  Parts p;
  p.law = "[law]\ntype = \"bouc_wen\"\nA = 2\nbeta1 = 5e4\nbeta2 = 1e4\ngamma = -1e4\neps = 1e-12\n";
  const LumpedScenario s = parse_one(p.text());
  EXPECT_EQ(s.law.kind, laws::LawKind::bouc_wen);
  EXPECT_DOUBLE_EQ(s.law.A, 2.0);
  EXPECT_DOUBLE_EQ(s.law.beta1, 5e4);
  EXPECT_DOUBLE_EQ(s.law.beta2, 1e4);
  EXPECT_DOUBLE_EQ(s.law.gamma, -1e4);
  EXPECT_DOUBLE_EQ(s.law.eps, 1e-12);
}

TEST(Scenario, GkvBranchesFromDampingAndTau) {
  Parts p;
  p.body1 = "[body1]\ntype = \"gkv\"\nk0 = 1e4\nc = [2.0, [1.0, 3.0]]\ntau = [0.5, 0.1]\n";
  const LumpedScenario s = parse_one(p.text());
  EXPECT_EQ(s.body1.kind, rheology::RheologyKind::gkv);
  ASSERT_EQ(s.body1.branches.size(), 2u);
  EXPECT_TRUE(s.body1.branches[0].c.isApprox(2.0 * Mat2::Identity()));
  EXPECT_TRUE(s.body1.branches[0].k.isApprox(4.0 * Mat2::Identity()));  // k = c / tau
  EXPECT_TRUE(s.body1.branches[1].k.isApprox(Mat2(Eigen::Vector2d(10.0, 30.0).asDiagonal())));
}

TEST(Scenario, GkvBranchesFromDampingAndStiffnessAndMatrixTau) {
  Parts p;
  p.body1 = "[body1]\ntype = \"gkv\"\nk0 = 1e4\nc = [[2.0, 4.0]]\nk = [[[3.0, 1.0], [1.0, 3.0]]]\n";
  LumpedScenario s = parse_one(p.text());
  Mat2 k;
  k << 3.0, 1.0, 1.0, 3.0;
  EXPECT_EQ(s.body1.branches[0].k, k);
  EXPECT_EQ(s.body1.branches[0].c, Mat2(Eigen::Vector2d(2.0, 4.0).asDiagonal()));
  p.body1 = "[body1]\ntype = \"gkv\"\nk0 = 1e4\nc = [[2.0, 4.0]]\ntau = [[0.5, 2.0]]\n";
  s = parse_one(p.text());
  EXPECT_TRUE(s.body1.branches[0].k.isApprox(Mat2(Eigen::Vector2d(4.0, 2.0).asDiagonal())));
}

TEST(Scenario, GmBranches) {
  Parts p;
  p.body1 = "[body1]\ntype = \"gm\"\nk_inf = 1e4\nk = [100, 200]\ntau = [0.1, 0.01]\n";
  LumpedScenario s = parse_one(p.text());
  EXPECT_EQ(s.body1.kind, rheology::RheologyKind::gm);
  EXPECT_TRUE(s.body1.k_elastic.isApprox(1e4 * Mat2::Identity()));
  ASSERT_EQ(s.body1.branches.size(), 2u);
  EXPECT_TRUE(s.body1.branches[0].c.isApprox(10.0 * Mat2::Identity()));  // c = k tau
  EXPECT_TRUE(s.body1.branches[1].c.isApprox(2.0 * Mat2::Identity()));
  p.body1 = "[body1]\ntype = \"gm\"\nk_inf = 1e4\nk = 100\nc = 5\n";
  s = parse_one(p.text());
  ASSERT_EQ(s.body1.branches.size(), 1u);
  EXPECT_TRUE(s.body1.branches[0].c.isApprox(5.0 * Mat2::Identity()));
}

TEST(Scenario, PairSSetsTheSubstrateStiffness) {
  Parts p;
  p.extra = "[pair]\ns = 0.4\n";
  LumpedScenario s = parse_one(p.text());
  ASSERT_TRUE(s.pair_s.has_value());
  EXPECT_DOUBLE_EQ(*s.pair_s, 0.4);
  EXPECT_EQ(s.body2.kind, rheology::RheologyKind::elastic);  // [body2] absent: elastic
  EXPECT_TRUE(s.body2.k_elastic.isApprox(1e5 * 0.6 / 0.4 * Mat2::Identity()));
  p.extra = "[body2]\ntype = \"gkv\"\nc = [1]\ntau = [0.1]\n[pair]\ns = 0.25\n";
  s = parse_one(p.text());
  EXPECT_EQ(s.body2.kind, rheology::RheologyKind::gkv);
  EXPECT_TRUE(s.body2.k_elastic.isApprox(3e5 * Mat2::Identity()));
}

TEST(Scenario, SpringBenchWithEverySignalType) {
  Parts p;
  p.bench =
      "[bench]\ndrive = \"spring\"\nmass_kg = 2\nspring_N_per_m = 5\nx0_m = [0.1, 0.2]\nv0_mps = 0.3\n"
      "spring_end0_m = [1, 2]\n"
      "[bench.input]\ntype = \"ramp\"\nt0 = 0.5\nstart = 0.1\nrate = 2\nt_end = inf\n"
      "[bench.input_y]\ntype = \"sine\"\noffset = 1\namplitude = 2\nomega = 3\nphase = 4\n"
      "[bench.belt]\ntype = \"step\"\nt0 = 1\nbefore = 0\nafter = 0.5\n"
      "[bench.belt_y]\ntype = \"table\"\ntimes = [0, 1, 2]\nvalues = [0, 1, 0]\n"
      "[bench.normal_load]\ntype = \"constant\"\nvalue = 20\n";
  const LumpedScenario s = parse_one(p.text());
  const auto& b = s.bench;
  EXPECT_EQ(b.drive, contact::DriveKind::spring);
  EXPECT_DOUBLE_EQ(b.mass_kg, 2.0);
  EXPECT_DOUBLE_EQ(b.spring_N_per_m, 5.0);
  EXPECT_EQ(b.x0, Vec2(0.1, 0.2));
  EXPECT_EQ(b.v0, Vec2(0.3, 0.0));
  EXPECT_EQ(b.spring_end0, Vec2(1.0, 2.0));
  EXPECT_EQ(b.input_x.kind, contact::SignalKind::ramp);
  EXPECT_DOUBLE_EQ(b.input_x.t0, 0.5);
  EXPECT_DOUBLE_EQ(b.input_x.start, 0.1);
  EXPECT_DOUBLE_EQ(b.input_x.rate, 2.0);
  EXPECT_TRUE(std::isinf(b.input_x.t_end));
  EXPECT_EQ(b.input_y.kind, contact::SignalKind::sine);
  EXPECT_DOUBLE_EQ(b.input_y.offset, 1.0);
  EXPECT_DOUBLE_EQ(b.input_y.amplitude, 2.0);
  EXPECT_DOUBLE_EQ(b.input_y.omega, 3.0);
  EXPECT_DOUBLE_EQ(b.input_y.phase, 4.0);
  EXPECT_EQ(b.belt_x.kind, contact::SignalKind::step);
  EXPECT_DOUBLE_EQ(b.belt_x.after, 0.5);
  EXPECT_EQ(b.belt_y.kind, contact::SignalKind::table);
  EXPECT_EQ(b.belt_y.values, (std::vector<double>{0, 1, 0}));
  EXPECT_DOUBLE_EQ(b.normal_load(3.0), 20.0);
  EXPECT_EQ(s.output.plot_y, (std::vector<std::string>{"x_m", "v_mps", "F_N"}));
}

TEST(Scenario, ForceBenchDefaultsAndConstantLoad) {
  Parts p;
  p.bench = "[bench]\ndrive = \"force\"\nnormal_load_N = 9.81\n[bench.input]\ntype = \"constant\"\nvalue = 3\n";
  const LumpedScenario s = parse_one(p.text());
  EXPECT_DOUBLE_EQ(s.bench.mass_kg, 1.0);
  EXPECT_DOUBLE_EQ(s.bench.normal_load(0.0), 9.81);
  EXPECT_DOUBLE_EQ(s.bench.input_x(0.0), 3.0);
  EXPECT_EQ(s.output.plot_y, (std::vector<std::string>{"x_m", "F_N"}));
}

TEST(Scenario, TableSignalFromCsvFileRelativeToTheScenario) {
  TempDir dir;
  dir.write("drive.csv", "# measured\ntime, other, \"v\"\n0, 9, 0\n0.5, 9, 0.1\n\n1.0, 9, 0.2\n");
  Parts p;
  p.bench = "[bench]\ndrive = \"velocity\"\n[bench.input]\ntype = \"table\"\nfile = \"drive.csv\"\nvalue_column = \"v\"\n";
  const LumpedScenario s = parse_one(p.text(), dir.path());
  EXPECT_EQ(s.bench.input_x.times, (std::vector<double>{0.0, 0.5, 1.0}));
  EXPECT_EQ(s.bench.input_x.values, (std::vector<double>{0.0, 0.1, 0.2}));
  ASSERT_EQ(s.table_files.size(), 1u);
  EXPECT_EQ(s.table_files[0].key, "bench.input");
  EXPECT_EQ(s.table_files[0].time_column, "time");
  EXPECT_EQ(s.table_files[0].value_column, "v");
}

TEST(Scenario, TimeGridWithOutputsOrAShorterLastInterval) {
  Parts p;
  p.time = "[time]\nt_start_s = 1\nt_end_s = 2\noutputs = 11\n";
  LumpedScenario s = parse_one(p.text());
  auto t = s.time.times();
  ASSERT_EQ(t.size(), 11u);
  EXPECT_EQ(t.front(), 1.0);
  EXPECT_EQ(t.back(), 2.0);
  EXPECT_NEAR(t[5], 1.5, 1e-15);
  p.time = "[time]\nt_end_s = 1\noutput_dt_s = 0.3\n";
  s = parse_one(p.text());
  t = s.time.times();
  ASSERT_EQ(t.size(), 5u);  // 0, 0.3, 0.6, 0.9, 1
  EXPECT_NEAR(t[3], 0.9, 1e-15);
  EXPECT_EQ(t.back(), 1.0);
}

TEST(Scenario, IntegratorAndInitialAndOutput) {
  Parts p;
  p.extra =
      "[integrator]\nmethod = \"rk4\"\ndt_s = 1e-6\nmax_steps = 1000000\n[initial]\nf = [0.5, -0.25]\n"
      "[output]\nplot_x = \"vr_mps\"\nplot_y = \"f_x\"\ntitle = \"T\"\n";
  const LumpedScenario s = parse_one(p.text());
  EXPECT_EQ(s.integrator.method, integrate::Method::rk4);
  EXPECT_DOUBLE_EQ(s.integrator.dt_s, 1e-6);
  EXPECT_EQ(s.integrator.max_steps, 1000000);
  EXPECT_EQ(s.initial.f, Vec2(0.5, -0.25));
  EXPECT_EQ(s.output.plot_x, "vr_mps");
  EXPECT_EQ(s.output.plot_y, std::vector<std::string>{"f_x"});
  EXPECT_EQ(s.output.title, "T");
  p.extra = "[integrator]\nrtol = 1e-6\natol = 1e-10\nmax_dt_s = 0.01\ninitial_dt_s = 1e-9\n";
  const LumpedScenario a = parse_one(p.text());
  EXPECT_DOUBLE_EQ(a.integrator.rtol, 1e-6);
  EXPECT_DOUBLE_EQ(a.integrator.atol, 1e-10);
  EXPECT_DOUBLE_EQ(a.integrator.max_dt_s, 0.01);
  EXPECT_DOUBLE_EQ(a.integrator.initial_dt_s, 1e-9);
}

TEST(Scenario, SteadyInitialStateMatchesTheModel) {
  Parts p;
  p.extra = "[initial]\nsteady = true\n";
  const LumpedScenario s = parse_one(p.text());
  EXPECT_TRUE(s.initial.steady);
  const contact::ContactModel model(s.law, s.body1, s.body2);
  const VecX u0 = s.initial_contact_state(model);
  const VecX expected = model.steady_state(Vec2(0.01, 0.0));
  ASSERT_EQ(u0.size(), expected.size());
  EXPECT_TRUE(u0.isApprox(expected));
  EXPECT_LT(u0[0], -0.99);  // friction opposes v_r: f = -mu(v) at steady sliding
}

TEST(Scenario, SweepMakesOneValidatedCasePerValue) {
  Parts p;
  p.bench = "[bench]\ndrive = \"velocity\"\n[bench.input]\ntype = \"sine\"\namplitude = 0.01\nomega = 1\n";
  p.extra = "[sweep]\nparameter = \"bench.input.omega\"\nvalues = [1, 10, 25.5]\n";
  const auto cases = parse_lumped_string(p.text(), "t");
  ASSERT_EQ(cases.size(), 3u);
  EXPECT_DOUBLE_EQ(cases[0].bench.input_x.omega, 1.0);
  EXPECT_DOUBLE_EQ(cases[1].bench.input_x.omega, 10.0);
  EXPECT_DOUBLE_EQ(cases[2].bench.input_x.omega, 25.5);
  for (const auto& c : cases) {
    ASSERT_TRUE(c.sweep.has_value());
    EXPECT_EQ(c.sweep->parameter, "bench.input.omega");
    EXPECT_EQ(c.sweep->column, "omega");
    EXPECT_DOUBLE_EQ(c.bench.input_x.amplitude, 0.01);
  }
  EXPECT_EQ(cases[2].sweep_value, 25.5);
}

TEST(Scenario, SweepOverAnAbsentKeyAndAnArrayEntry) {
  Parts p;
  p.body1 = "[body1]\ntype = \"gkv\"\nk0 = 1e4\nc = [1.0, 2.0]\ntau = [0.1, 0.2]\n";
  p.extra = "[sweep]\nparameter = \"body1.c[1]\"\nvalues = [3, 4]\ncolumn = \"c2_s_per_m\"\n";
  auto cases = parse_lumped_string(p.text(), "t");
  ASSERT_EQ(cases.size(), 2u);
  EXPECT_TRUE(cases[1].body1.branches[1].c.isApprox(4.0 * Mat2::Identity()));
  EXPECT_EQ(cases[1].sweep->column, "c2_s_per_m");
  p = Parts{};
  p.bench = "[bench]\ndrive = \"force\"\ninput = 1\n";
  p.extra = "[sweep]\nparameter = \"bench.mass_kg\"\nvalues = [0.5, 2]\n";
  cases = parse_lumped_string(p.text(), "t");
  EXPECT_DOUBLE_EQ(cases[0].bench.mass_kg, 0.5);
  EXPECT_DOUBLE_EQ(cases[1].bench.mass_kg, 2.0);
}

TEST(Scenario, DispatcherAndFiles) {
  const auto scenario = parse_scenario_string(Parts{}.text(), "x");
  EXPECT_EQ(scenario->kind(), "lumped");
  EXPECT_EQ(scenario->name(), "x");
  EXPECT_EQ(scenario->case_count(), 1u);
  EXPECT_NE(scenario->summary().find("law        lugre"), std::string::npos);

  TempDir dir;
  dir.write("my_scenario.toml", Parts{}.text());
  const auto loaded = load_scenario(dir.path() / "my_scenario.toml");
  EXPECT_EQ(loaded->name(), "my_scenario");
  const auto cases = parse_lumped_file(dir.path() / "my_scenario.toml");
  EXPECT_EQ(cases.front().source.path, dir.path() / "my_scenario.toml");
  EXPECT_EQ(cases.front().source.directory, dir.path());
}

class DummyScenario final : public Scenario {
 public:
  std::string_view kind() const override { return "dummy"; }
  const std::string& name() const override { return name_; }
  std::size_t case_count() const override { return 1; }
  std::string summary() const override { return "dummy"; }
  RunResult run(const ProgressCallback&) const override { return {}; }

 private:
  std::string name_ = "dummy";
};

TEST(Scenario, NewKindsPlugIntoTheDispatcher) {
  register_scenario_kind("dummy", [](std::string_view, std::string_view, const ScenarioSource&) {
    return std::unique_ptr<Scenario>(std::make_unique<DummyScenario>());
  });
  const auto s = parse_scenario_string("kind = \"dummy\"\nwhatever = 1\n");
  EXPECT_EQ(s->kind(), "dummy");
  const auto kinds = scenario_kinds();
  EXPECT_NE(std::find(kinds.begin(), kinds.end(), "lumped"), kinds.end());
}

// ---------------------------------------------------------------------------------------------
// Exact error messages

TEST(ScenarioErrors, UnknownKeyWithSuggestion) {
  Parts p;
  p.law = kLaw + "mu_z = 1\n";
  EXPECT_EQ(error_of(p.text()), "unknown key \"law.mu_z\"; did you mean \"law.mu_s\"?");
  p = Parts{};
  p.top = "titel = \"x\"\n";
  EXPECT_EQ(error_of(p.text()), "unknown key \"titel\"; did you mean \"time\"?");
  p.top = "something_else = \"x\"\n";
  EXPECT_EQ(error_of(p.text()), "unknown key \"something_else\" (valid keys: name, description, kind, law, body1, body2, "
                                "pair, bench, time, integrator, initial, sweep, output)");
  p = Parts{};
  p.bench = kBench + "[bench.input_z]\ntype = \"constant\"\nvalue = 1\n";
  EXPECT_EQ(error_of(p.text()), "unknown key \"bench.input_z\"; did you mean \"bench.input_y\"?");
  p = Parts{};
  p.extra = "[integrator]\nrtoll = 1e-6\n";
  EXPECT_EQ(error_of(p.text()), "unknown key \"integrator.rtoll\"; did you mean \"integrator.rtol\"?");
}

TEST(ScenarioErrors, KeyThatDoesNotApplyToTheType) {
  Parts p;
  p.law = "[law]\ntype = \"frbd\"\nsigma1 = 1\n";
  EXPECT_EQ(error_of(p.text()), "key \"law.sigma1\" does not apply to law.type = \"frbd\" (valid keys here: type, "
                                "eps, mu_s, mu_d, v_s, delta_s, mu_v, axis1, axis2, angle_rad)");
  p = Parts{};
  p.bench = kBench + "mass_kg = 2\n";
  EXPECT_EQ(error_of(p.text()), "key \"bench.mass_kg\" does not apply to bench.drive = \"velocity\" (valid keys "
                                "here: drive, normal_load_N, normal_load, input, input_y, x0_m)");
}

TEST(ScenarioErrors, MissingKey) {
  Parts p;
  p.time = "[time]\noutput_dt_s = 0.1\n";
  EXPECT_EQ(error_of(p.text()), "missing key \"time.t_end_s\" (required: end time of the run, s)");
  p.time = "";
  EXPECT_EQ(error_of(p.text()), "missing key \"time.t_end_s\" (required: end time of the run, s)");
  p = Parts{};
  p.body1 = "";
  EXPECT_EQ(error_of(p.text()),
            "missing key \"body1.type\" (required: rheology of the upper body: rigid, elastic, gkv or gm)");
  p = Parts{};
  p.bench = "[bench]\ndrive = \"velocity\"\n";
  EXPECT_EQ(error_of(p.text()), "missing key \"bench.input\" (required: the drive input: relative velocity v_r(t), m/s)");
  p = Parts{};
  p.extra = "[integrator]\nmethod = \"rk4\"\n";
  EXPECT_EQ(error_of(p.text()), "missing key \"integrator.dt_s\" (required: the fixed step of method \"rk4\", s)");
}

TEST(ScenarioErrors, WrongType) {
  Parts p;
  p.law = "[law]\ntype = \"lugre\"\nmu_s = \"abc\"\n";
  EXPECT_EQ(error_of(p.text()), "law.mu_s = \"abc\": must be a number");
  p.law = "[law]\ntype = 3\n";
  EXPECT_EQ(error_of(p.text()), "law.type = 3: must be a string");
  p = Parts{};
  p.body1 = "[body1]\ntype = \"elastic\"\nk0 = [1, 2, 3]\n";
  EXPECT_EQ(error_of(p.text()),
            "body1.k0 = [1, 2, 3]: must be a number k (k I), [a, b] (diag(a, b)) or [[a, b], [c, d]]");
  p = Parts{};
  p.extra = "[initial]\nsteady = 1\n";
  EXPECT_EQ(error_of(p.text()), "initial.steady = 1: must be true or false");
  p = Parts{};
  p.extra = "[integrator]\nmax_steps = 2.5\n";
  EXPECT_EQ(error_of(p.text()), "integrator.max_steps = 2.5: must be an integer");
}

TEST(ScenarioErrors, NanAndInfinity) {
  Parts p;
  p.law = "[law]\ntype = \"lugre\"\nmu_s = nan\n";
  EXPECT_EQ(error_of(p.text()), "law.mu_s = nan: must be finite");
  p.law = "[law]\ntype = \"lugre\"\nmu_s = inf\n";
  EXPECT_EQ(error_of(p.text()), "law.mu_s = inf: must be finite");
  p = Parts{};
  p.time = "[time]\nt_end_s = -inf\n";
  EXPECT_EQ(error_of(p.text()), "time.t_end_s = -inf: must be finite");
  p = Parts{};
  p.law = kLaw + "sigma0 = [[1, nan], [0, 1]]\n";
  EXPECT_EQ(error_of(p.text()), "law.sigma0 = [[1, nan], [0, 1]]: must be finite");
}

TEST(ScenarioErrors, MalformedToml) {
  EXPECT_EQ(error_of("[law\ntype = \"lugre\"\n"),
            "<string>:1:5: invalid TOML: Error while parsing table header: expected ']', saw '\\n'");
  EXPECT_EQ(error_of("[law]\ntype = \"lugre\"\ntype = \"dahl\"\n"),
            "<string>:3:8: invalid TOML: Error while parsing key-value pair: cannot redefine existing string "
            "'type'");
  // toml++ garbles a quoted key in this message ('"lalaw.mu" ', '"a"a".b'): the key as the line writes it.
  EXPECT_EQ(error_of("[fit.parameters]\n\"law.mu\" = { initial = 1 }\n  \"law.mu\" = { initial = 2 }\n"),
            "<string>:3:14: invalid TOML: Error while parsing key-value pair: cannot redefine existing table "
            "'\"law.mu\"'");
  EXPECT_EQ(error_of("\"a\".b = 1\n\"a\".b = 2\n"),
            "<string>:2:9: invalid TOML: Error while parsing key-value pair: cannot redefine existing integer "
            "'\"a\".b'");
  EXPECT_EQ(error_of("x = { \"a\" = 1, \"a\" = 2 }\n"),
            "<string>:1:22: invalid TOML: Error while parsing key-value pair: cannot redefine existing integer "
            "'\"a\"'");
  EXPECT_EQ(error_of("[a]\nb = 1\n[ \"a\" ]\n"),
            "<string>:3:1: invalid TOML: Error while parsing table header: cannot redefine existing table '\"a\"'");
  // toml++'s columns count code points; a row of an array is no header; a dotted key's own position (helper-54)
  EXPECT_EQ(error_of("x = { s = \"\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\", a = 1, a = 2 }\n"),
            "<string>:1:34: invalid TOML: Error while parsing key-value pair: cannot redefine existing integer 'a'");
  EXPECT_EQ(error_of("x = [\n[{a=1, a=2}]\n]\n"),
            "<string>:2:10: invalid TOML: Error while parsing key-value pair: cannot redefine existing integer 'a'");
  EXPECT_EQ(error_of("x = { a = 1, a.b = 2 }\n"),
            "<string>:1:14: invalid TOML: Error while parsing key-value pair: cannot redefine existing integer as dotted key-value "
            "pair ('a.b')");
  EXPECT_EQ(error_of("law = { type = \"dahl\", mu = 0.5 }\nlaw.mu = 0.6\n"),
            "<string>:2:1: invalid TOML: Error while parsing key-value pair: cannot redefine existing table as dotted "
            "key-value pair ('law.mu')");
}

TEST(ScenarioErrors, AControlCharacterInAKeyIsEscapedNotCutOff) {
  // helper-53: a NUL ended the message where it was printed (what() is a C string: `unknown key "law.mu`), a newline
  // split it; every InvalidInput escapes them (core/error.hpp, escape_controls).
  EXPECT_EQ(error_of("[law]\ntype = \"dahl\"\n\"mu\\u0000x\" = 0.6\n"),
            "unknown key \"law.mu\\u0000x\"; did you mean \"law.mu\"?");
  EXPECT_EQ(error_of("[law]\ntype = \"dahl\"\n\"m\\nu\" = 0.6\n"), "unknown key \"law.m\\nu\"; did you mean \"law.mu\"?");
  EXPECT_EQ(std::string(InvalidInput(std::string("a\0b\tc\x7f", 6)).what()), "a\\u0000b\\tc\\u007f");
}

TEST(ScenarioErrors, NonPositiveStiffnessDampingTau) {
  Parts p;
  p.body1 = "[body1]\ntype = \"elastic\"\nk0 = 0\n";
  EXPECT_EQ(error_of(p.text()), "body1.k0 = 0: must be > 0");
  p.body1 = "[body1]\ntype = \"gkv\"\nk0 = 1\nc = [1, -1]\ntau = [1, 1]\n";
  EXPECT_EQ(error_of(p.text()), "body1.c[1] = -1: must be > 0");
  p.body1 = "[body1]\ntype = \"gkv\"\nk0 = 1\nc = [[1, -2]]\ntau = [1]\n";
  EXPECT_EQ(error_of(p.text()), "body1.c[0] = [[1, 0], [0, -2]]: must be positive definite");
  p.body1 = "[body1]\ntype = \"gkv\"\nk0 = 1\nc = [1]\ntau = [0]\n";
  EXPECT_EQ(error_of(p.text()), "body1.tau[0] = 0: must be > 0");
  p.body1 = "[body1]\ntype = \"gm\"\nk_inf = -5\nk = [1]\ntau = [1]\n";
  EXPECT_EQ(error_of(p.text()), "body1.k_inf = -5: must be > 0");
  p = Parts{};
  p.extra = "[body2]\ntype = \"elastic\"\nk0 = -1\n";
  EXPECT_EQ(error_of(p.text()), "body2.k0 = -1: must be > 0");
}

TEST(ScenarioErrors, MatricesMustBeSymmetricPositiveDefinite) {
  Parts p;
  p.body1 = "[body1]\ntype = \"elastic\"\nk0 = [[1, 2], [0, 1]]\n";
  EXPECT_EQ(error_of(p.text()), "body1.k0 = [[1, 2], [0, 1]]: must be symmetric");
  p.body1 = "[body1]\ntype = \"elastic\"\nk0 = [[1, 2], [2, 1]]\n";
  EXPECT_EQ(error_of(p.text()), "body1.k0 = [[1, 2], [2, 1]]: must be positive definite");
  p = Parts{};
  p.law = kLaw + "sigma1 = [[1, 2], [2, 1]]\n";
  EXPECT_EQ(error_of(p.text()), "law.sigma1 = [[1, 2], [2, 1]]: must be positive semidefinite");
}

TEST(ScenarioErrors, PairSOutsideTheOpenUnitInterval) {
  Parts p;
  for (const char* s : {"0", "1", "1.5"}) {
    p.extra = std::string("[pair]\ns = ") + s + "\n";
    EXPECT_EQ(error_of(p.text()), std::string("pair.s = ") + s + ": must lie in (0, 1)");
  }
  p.extra = "[body2]\ntype = \"elastic\"\nk0 = 1\n[pair]\ns = 0.5\n";
  EXPECT_EQ(error_of(p.text()), "pair.s = 0.5: body2.k0 is given too; give either pair.s or body2.k0");
  p = Parts{};
  p.body1 = "[body1]\ntype = \"elastic\"\nk0 = [1, 2]\n";
  p.extra = "[pair]\ns = 0.5\n";
  EXPECT_EQ(error_of(p.text()), "pair.s = 0.5: needs an isotropic body1.k0 (a single number), not [[1, 0], [0, 2]]");
  p = Parts{};
  p.extra = "[body2]\ntype = \"rigid\"\n[pair]\ns = 0.5\n";
  EXPECT_EQ(error_of(p.text()),
            "pair.s = 0.5: sets body2.k0, but body2.type = \"rigid\" has none (use \"elastic\" or \"gkv\")");
}

TEST(ScenarioErrors, UnknownNamesWithSuggestion) {
  Parts p;
  p.law = "[law]\ntype = \"lugree\"\n";
  EXPECT_EQ(error_of(p.text()), "law.type = \"lugree\": unknown friction law (valid: dahl, lugre, frbd, bouc_wen, "
                                "frictionless); did you mean \"lugre\"?");
  p = Parts{};
  p.bench = "[bench]\ndrive = \"sprung\"\ninput = 1\n";
  EXPECT_EQ(error_of(p.text()),
            "bench.drive = \"sprung\": unknown drive (valid: velocity, force, spring); did you mean \"spring\"?");
  p = Parts{};
  p.body1 = "[body1]\ntype = \"elastc\"\nk0 = 1\n";
  EXPECT_EQ(error_of(p.text()), "body1.type = \"elastc\": unknown rheology (valid: rigid, elastic, gkv, gm); did "
                                "you mean \"elastic\"?");
  p = Parts{};
  p.bench = "[bench]\ndrive = \"velocity\"\n[bench.input]\ntype = \"sin\"\n";
  EXPECT_EQ(error_of(p.text()), "bench.input.type = \"sin\": unknown signal (valid: constant, step, ramp, sine, "
                                "table); did you mean \"sine\"?");
  p = Parts{};
  p.extra = "[integrator]\nmethod = \"rk45\"\n";
  EXPECT_EQ(error_of(p.text()), "integrator.method = \"rk45\": unknown method (valid: auto, cvode_bdf, rodas4, "
                                "rodas5p, sdirk2, implicit_euler, rk4); did you mean \"rk4\"?");
  p.extra = "[integrator]\nmethod = \"rodas5\"\n";
  EXPECT_EQ(error_of(p.text()), "integrator.method = \"rodas5\": unknown method (valid: auto, cvode_bdf, rodas4, "
                                "rodas5p, sdirk2, implicit_euler, rk4); did you mean \"rodas5p\"?");
  EXPECT_EQ(error_of("kind = \"lumpd\"\n"), "kind = \"lumpd\": this parser reads kind = \"lumped\"");
  try {
    parse_scenario_string("kind = \"lumpd\"\n");
    FAIL() << "no error";
  } catch (const InvalidInput& e) {
    EXPECT_EQ(std::string(e.what()).rfind("kind = \"lumpd\": unknown scenario kind (valid: lumped", 0), 0u) << e.what();
    EXPECT_NE(std::string(e.what()).find("did you mean \"lumped\"?"), std::string::npos) << e.what();
  }
}

TEST(ScenarioErrors, MismatchedBranchArrays) {
  Parts p;
  p.body1 = "[body1]\ntype = \"gkv\"\nk0 = 1\nc = [1, 2]\ntau = [0.1]\n";
  EXPECT_EQ(error_of(p.text()), "body1.tau has 1 entry but body1.c has 2; give one per branch");
  p.body1 = "[body1]\ntype = \"gm\"\nk_inf = 1\nk = [1]\nc = [1, 2, 3]\n";
  EXPECT_EQ(error_of(p.text()), "body1.c has 3 entries but body1.k has 1; give one per branch");
  p.body1 = "[body1]\ntype = \"gkv\"\nk0 = 1\nc = [1]\ntau = [0.1]\nk = [1]\n";
  EXPECT_EQ(error_of(p.text()),
            "key \"body1.k\" cannot be combined with body1.tau; give either tau or k for the branches");
}

TEST(ScenarioErrors, TableCsvFiles) {
  TempDir dir;
  const std::string d = dir.path().string();
  dir.write("bad.csv", "t_s,v\n0,0\n0.5,abc\n");
  dir.write("short.csv", "t_s,v\n0,0\n0.5\n");
  dir.write("ok.csv", "t_s,v\n0,0\n1,1\n");
  Parts p;
  const auto with_file = [&](const std::string& file, const std::string& more = "") {
    p.bench = "[bench]\ndrive = \"velocity\"\n[bench.input]\ntype = \"table\"\nfile = \"" + file + "\"\n" + more;
    return error_of(p.text(), dir.path());
  };
  EXPECT_EQ(with_file("missing.csv"), "bench.input.file = \"missing.csv\": cannot read " + d +
                                          "/missing.csv: No such file or directory");
  EXPECT_EQ(with_file("bad.csv"),
            "bench.input.file = \"bad.csv\": " + d + "/bad.csv:3:2: \"abc\" is not a number (column \"v\")");
  EXPECT_EQ(with_file("short.csv"),
            "bench.input.file = \"short.csv\": " + d + "/short.csv:3: 1 cell(s), but the header (line 1) has 2 column(s)");
  EXPECT_EQ(with_file("ok.csv", "value_column = \"F\"\n"),
            "bench.input.value_column = \"F\": " + d + "/ok.csv:1: no such column (header: t_s, v)");
  EXPECT_EQ(with_file("ok.csv", "times = [0, 1]\n"),
            "key \"bench.input.times\" cannot be combined with bench.input.file; give the table inline or as a file");
  EXPECT_EQ(with_file("ok.csv"), "(no error)");
}

TEST(ScenarioErrors, OtherRanges) {
  Parts p;
  p.time = "[time]\nt_start_s = 1\nt_end_s = 1\n";
  EXPECT_EQ(error_of(p.text()), "time.t_end_s = 1: must be > time.t_start_s = 1");
  p = Parts{};
  p.extra = "[integrator]\nrtol = 2\n";
  EXPECT_EQ(error_of(p.text()), "integrator.rtol = 2: must be < 1");
  p = Parts{};
  p.bench = "[bench]\ndrive = \"force\"\nmass_kg = 0\ninput = 1\n";
  EXPECT_EQ(error_of(p.text()), "bench.mass_kg = 0: must be > 0");
  p = Parts{};
  p.bench = kBench + "normal_load_N = -2\n";
  EXPECT_EQ(error_of(p.text()), "bench.normal_load_N = -2: must be > 0");
  p = Parts{};
  p.law = "[law]\ntype = \"lugre\"\nmu_s = -1\n";
  EXPECT_EQ(error_of(p.text()), "law.mu_s = -1: must be > 0");
  p = Parts{};
  p.extra = "[output]\nplot_y = [\"F_N\", \"F_n\"]\n";
  EXPECT_EQ(error_of(p.text()).rfind("output.plot_y[1] = \"F_n\": unknown column; did you mean \"F_N\"?", 0), 0u);
  p = Parts{};
  p.extra = "[sweep]\nparameter = \"law.type\"\nvalues = [1]\n";
  EXPECT_EQ(error_of(p.text()), "sweep.parameter = \"law.type\": law.type is a string, not a number");
  p = Parts{};
  p.extra = "[sweep]\nparameter = \"law.mu_s\"\nvalues = [1, -1]\n";
  EXPECT_EQ(error_of(p.text()), "sweep case 2 of 2 (law.mu_s = -1): law.mu_s = -1: must be > 0");
}

}  // namespace
}  // namespace bristle::io
