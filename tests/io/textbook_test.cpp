// [law.textbook] of the lumped kind (io/scenario.hpp): textbook LuGre/Dahl units in TOML, mapped by the
// same contact::textbook_model as Contact::lugre / dahl (and Python's Contact.lugre), its errors.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "bristle/contact/contact.hpp"
#include "bristle/core/error.hpp"
#include "bristle/io/scenario.hpp"

namespace bristle::io {
namespace {

// Canudas de Wit et al. (1995), forces x 10 (the issue's -10.04 N case).
const std::string kTextbook =
    "[law]\ntype = \"lugre\"\n[law.textbook]\nFc_N = 10.0\nFs_N = 15.0\nvs_mps = 1e-3\nsigma0_N_per_m = 1e5\n"
    "sigma1_Ns_per_m = 316.22776601683796\nsigma2_Ns_per_m = 0.4\n";
const std::string kRest = "[time]\nt_end_s = 0.2\n";

std::string bench(double Fz) {
  return "[bench]\ndrive = \"velocity\"\ninput = 0.1\nnormal_load_N = " + std::to_string(Fz) + "\n";
}

std::string error_of(const std::string& toml) {
  try {
    parse_lumped_string(toml, "t");
  } catch (const InvalidInput& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(Textbook, TomlFormStepsBitwiseAsContactLugre) {
  const LumpedScenario sc = parse_lumped_string(kTextbook + bench(1.0) + kRest, "t").front();
  ASSERT_TRUE(sc.textbook.has_value());
  EXPECT_EQ(sc.textbook->Fs_N, 15.0);
  contact::Contact from_toml(sc.law, sc.body1, sc.body2, sc.bench.normal_load.value);
  contact::Contact textbook = contact::Contact::lugre(10.0, 15.0, 1e-3, 1e5, 316.22776601683796, 0.4);
  double F = 0.0;
  for (int i = 0; i < 2000; ++i) {
    const double v = i < 1000 ? 0.1 * std::sin(0.01 * i) : 0.1;
    F = from_toml.step(1e-4, v);
    ASSERT_EQ(F, textbook.step(1e-4, v)) << "step " << i;
  }
  EXPECT_NEAR(F, -10.04, 1e-10);  // -(Fc + (Fs - Fc) e^-(v/vs)^2 + sigma2 v): the textbook force, not -10.40
}

TEST(Textbook, AnyNormalLoadGivesTheSameForces) {
  // The normalised parameters scale with 1/F_z and the force with F_z: equal to rounding.
  const LumpedScenario sc = parse_lumped_string(kTextbook + bench(250.0) + kRest, "t").front();
  EXPECT_DOUBLE_EQ(sc.law.M.axis1.mu_d, 10.0 / 250.0);
  EXPECT_DOUBLE_EQ(sc.body1.k_elastic(0, 0), 1e5 / 250.0);
  contact::Contact loaded(sc.law, sc.body1, sc.body2, 250.0);
  contact::Contact textbook = contact::Contact::lugre(10.0, 15.0, 1e-3, 1e5, 316.22776601683796, 0.4);
  for (int i = 0; i < 1000; ++i) {
    const double v = 2e-3 * std::sin(0.01 * i);
    const double F = textbook.step(1e-4, v);
    EXPECT_NEAR(loaded.step(1e-4, v), F, 1e-12 * 15.0) << "step " << i;
  }
}

TEST(Textbook, DahlFormAndTheJsonEcho) {
  const LumpedScenario sc = parse_lumped_string(
      "[law]\ntype = \"dahl\"\n[law.textbook]\nFc_N = 2.0\nsigma0_N_per_m = 1e4\n" + bench(1.0) + kRest, "t").front();
  contact::Contact from_toml(sc.law, sc.body1, sc.body2, 1.0), dahl = contact::Contact::dahl(2.0, 1e4);
  for (int i = 0; i < 500; ++i) ASSERT_EQ(from_toml.step(1e-3, 1e-2), dahl.step(1e-3, 1e-2));
  // The JSON report echoes the form given beside the normalised parameters it was mapped to.
  const std::string json = parse_scenario_string("[law]\ntype = \"dahl\"\n[law.textbook]\nFc_N = 2.0\n"
                                                 "sigma0_N_per_m = 1e4\n" + bench(4.0) + kRest, "t")
                               ->run()
                               .report.dump(0);
  const std::size_t textbook = json.find("\"textbook\"");
  ASSERT_NE(textbook, std::string::npos) << json.substr(0, 2000);
  EXPECT_NE(json.find("\"textbook\": {\"Fc_N\": 2, \"sigma0_N_per_m\": 10000}", textbook), std::string::npos) << json.substr(textbook, 200);
  EXPECT_NE(json.find("\"mu_d\": 0.5"), std::string::npos);  // Fc_N / F_z
}

TEST(Textbook, BadInputNamesTheKey) {
  const std::string b = bench(1.0) + kRest;
  EXPECT_EQ(error_of("[law]\ntype = \"lugre\"\n[law.textbook]\nFc_N = -1.0\nFs_N = 15.0\nvs_mps = 1e-3\n"
                     "sigma0_N_per_m = 1e5\n" + b),
            "law.textbook.Fc_N = -1: must be > 0");
  EXPECT_EQ(error_of("[law]\ntype = \"lugre\"\n[law.textbook]\nFc_N = 1.0\nvs_mps = 1e-3\nsigma0_N_per_m = 1e5\n" + b),
            "missing key \"law.textbook.Fs_N\" (required: static force F_s, N)");
  EXPECT_EQ(error_of("[law]\ntype = \"dahl\"\n[law.textbook]\nFc_N = 1.0\nFs_N = 2.0\nsigma0_N_per_m = 1e5\n" + b),
            "key \"law.textbook.Fs_N\" does not apply to law.type = \"dahl\" (valid keys here: Fc_N, sigma0_N_per_m)");
  EXPECT_EQ(error_of("[law]\ntype = \"lugre\"\n[law.textbook]\nFc_N = 1.0\nFs_N = 2.0\nvs_mps = 1e-3\n"
                     "sigma0_N_per_m = 1e5\nsigma9_Ns_per_m = 1.0\n" + b),
            "unknown key \"law.textbook.sigma9_Ns_per_m\"; did you mean \"law.textbook.sigma1_Ns_per_m\"?");
  EXPECT_EQ(error_of("[law]\ntype = \"lugre\"\nmu_s = 2.0\n[law.textbook]\nFc_N = 1.0\n" + b),
            "key \"law.mu_s\" cannot be combined with [law.textbook]; give the law either in textbook units or "
            "normalised");
  EXPECT_EQ(error_of(kTextbook + "[body1]\ntype = \"elastic\"\nk0 = 1e5\n" + b),
            "key \"body1\" cannot be combined with [law.textbook]; the textbook form sets body1 elastic with k0 = "
            "sigma0_N_per_m / F_z and body2 rigid");
  EXPECT_EQ(error_of("[law]\ntype = \"frbd\"\n[law.textbook]\nFc_N = 1.0\n" + b),
            "law.type = \"frbd\": [law.textbook] is for lugre or dahl");
  EXPECT_EQ(error_of(kTextbook + "[bench]\ndrive = \"velocity\"\ninput = 0.1\n[bench.normal_load]\ntype = \"sine\"\n"
                                 "offset = 1.0\namplitude = 0.5\nomega = 1.0\n" + kRest),
            "[law.textbook]: needs a constant load bench.normal_load_N (the textbook forces are per newton of it), "
            "not a [bench.normal_load] signal");
}

}  // namespace
}  // namespace bristle::io
