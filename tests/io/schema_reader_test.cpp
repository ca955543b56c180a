// The schema-driven reader (src/io/schema_reader.hpp) on the schemas of integrate::Options, TimeGrid,
// contact::Signal and laws::LawParams: values land in the structs, defaults stay, and each rule of the
// walk gives its exact message naming the dotted key path.
#include "schema_reader.hpp"

#include <gtest/gtest.h>

#include <string>

#include "bristle/core/error.hpp"
#include "bristle/io/scenario.hpp"

namespace bristle::io::detail {
namespace {

/// Reads [<table>] of `toml` into `p` with `hooks`.
template <class T>
void read_table(const std::string& toml, const std::string& table, T& p, const ReaderHooks& hooks = {}) {
  const toml::table root = parse_toml(toml, "test.toml");
  SchemaReader(Section(&root, "").table(table), hooks).read(p);
}

template <class T>
std::string error_of(const std::string& toml, const std::string& table, const ReaderHooks& hooks = {}) {
  T p{};
  try {
    read_table(toml, table, p, hooks);
  } catch (const InvalidInput& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(SchemaReader, ReadsPresentFieldsAndKeepsTheDefaults) {
  integrate::Options o;
  read_table("[integrator]\nmethod = \"rodas4\"\nrtol = 1e-6\nmax_steps = 12\n", "integrator", o);
  EXPECT_EQ(o.method, integrate::Method::rodas4);
  EXPECT_EQ(o.rtol, 1e-6);
  EXPECT_EQ(o.max_steps, 12);
  EXPECT_EQ(o.atol, integrate::Options{}.atol);  // absent: the default
  integrate::Options fixed;
  read_table("[integrator]\nmethod = \"rk4\"\ndt_s = 0.25\n", "integrator", fixed);
  EXPECT_EQ(fixed.dt_s, 0.25);
  TimeGrid g;
  read_table("[time]\nt_start_s = -1\nt_end_s = 3\n", "time", g);
  EXPECT_EQ(g.t_start_s, -1.0);
  EXPECT_EQ(g.t_end_s, 3.0);
}

TEST(SchemaReader, RangesAreCheckedUnderTheKeyPath) {
  EXPECT_EQ(error_of<integrate::Options>("[integrator]\natol = -1\n", "integrator"),
            "integrator.atol = -1: must be > 0");
  EXPECT_EQ(error_of<integrate::Options>("[integrator]\nrtol = 2\n", "integrator"),
            "integrator.rtol = 2: must be < 1");
  EXPECT_EQ(error_of<integrate::Options>("[integrator]\nmax_steps = 0\n", "integrator"),
            "integrator.max_steps = 0: must be >= 1");
  EXPECT_EQ(error_of<laws::LawParams>("[law]\ntype = \"frbd\"\nv_s = 0\n", "law"), "law.v_s = 0: must be > 0");
  // An infinity only where the range allows it (a ramp's t_end), never NaN.
  contact::Signal ramp;
  read_table("[s]\ntype = \"ramp\"\nrate = 2\nt_end = inf\n", "s", ramp);
  EXPECT_TRUE(std::isinf(ramp.t_end));
  EXPECT_EQ(error_of<contact::Signal>("[s]\ntype = \"ramp\"\nrate = inf\n", "s"), "s.rate = inf: must be finite");
  EXPECT_EQ(error_of<contact::Signal>("[s]\ntype = \"ramp\"\nrate = 1\nt_end = nan\n", "s"),
            "s.t_end = nan: must be finite");
}

TEST(SchemaReader, TypesAreChecked) {
  EXPECT_EQ(error_of<integrate::Options>("[integrator]\nrtol = \"small\"\n", "integrator"),
            "integrator.rtol = \"small\": must be a number");
  EXPECT_EQ(error_of<integrate::Options>("[integrator]\nmax_steps = 1.5\n", "integrator"),
            "integrator.max_steps = 1.5: must be an integer");
  EXPECT_EQ(error_of<integrate::Options>("[integrator]\nmethod = 4\n", "integrator"),
            "integrator.method = 4: must be a string");
  EXPECT_EQ(error_of<laws::LawParams>("[law]\ntype = \"lugre\"\nsigma1 = [1, 2, 3]\n", "law").rfind("law.sigma1", 0),
            0u);
}

TEST(SchemaReader, UnknownKeysGetTheNearestValidKey) {
  EXPECT_EQ(error_of<integrate::Options>("[integrator]\nrtoll = 1e-6\n", "integrator"),
            "unknown key \"integrator.rtoll\"; did you mean \"integrator.rtol\"?");
  EXPECT_EQ(error_of<TimeGrid>("[time]\nt_end_s = 1\nzzzzzzzz = 1\n", "time"),
            "unknown key \"time.zzzzzzzz\" (valid keys in [time]: t_start_s, t_end_s, output_dt_s, outputs)");
}

TEST(SchemaReader, KeysThatDoNotApplyNameTheChoice) {
  EXPECT_EQ(error_of<integrate::Options>("[integrator]\nmethod = \"rodas4\"\ndt_s = 0.1\n", "integrator"),
            "key \"integrator.dt_s\" does not apply to integrator.method = \"rodas4\" (valid keys here: method, "
            "rtol, atol, max_dt_s, initial_dt_s, max_steps)");
  EXPECT_EQ(error_of<integrate::Options>("[integrator]\ndt_s = 0.1\n", "integrator"),
            "key \"integrator.dt_s\" does not apply to integrator.method = \"auto\" (the default) (valid keys "
            "here: method, rtol, atol, max_dt_s, initial_dt_s, max_steps)");
  EXPECT_EQ(error_of<contact::Signal>("[s]\ntype = \"step\"\nafter = 1\nomega = 2\n", "s"),
            "key \"s.omega\" does not apply to s.type = \"step\" (valid keys here: type, t0, before, after)");
  EXPECT_EQ(error_of<integrate::Options>("[integrator]\nmethod = \"rk5\"\n", "integrator"),
            [] {
              try {
                integrate::method_from_string("integrator.method", "rk5");
              } catch (const InvalidInput& e) {
                return std::string(e.what());
              }
              return std::string("(no error)");
            }());
}

TEST(SchemaReader, RequiredFieldsAreMissingKeys) {
  EXPECT_EQ(error_of<TimeGrid>("[time]\n", "time"), "missing key \"time.t_end_s\" (required: end time of the run, s)");
  EXPECT_EQ(error_of<TimeGrid>("", "time"), "missing key \"time.t_end_s\" (required: end time of the run, s)");
  EXPECT_EQ(error_of<contact::Signal>("[s]\ntype = \"sine\"\namplitude = 1\n", "s"),
            "missing key \"s.omega\" (required: the angular frequency of the sine, rad/s)");
  EXPECT_EQ(error_of<contact::Signal>("[s]\nvalue = 1\n", "s"),
            "missing key \"s.type\" (required: signal type: constant, step, ramp, sine or table)");
  ReaderHooks hooks;
  hooks.required["integrator.dt_s"] = [] { return std::string("the fixed step, s"); };
  EXPECT_EQ(error_of<integrate::Options>("[integrator]\nmethod = \"rk4\"\n", "integrator", hooks),
            "missing key \"integrator.dt_s\" (required: the fixed step, s)");
}

TEST(SchemaReader, SignalsAreANumberOrATable) {
  contact::BenchParams b;
  read_table("[bench]\ndrive = \"force\"\ninput = 2.5\nbelt = { type = \"sine\", amplitude = 1, omega = 3 }\n",
             "bench", b);
  EXPECT_EQ(b.drive, contact::DriveKind::force);
  EXPECT_EQ(b.input_x.kind, contact::SignalKind::constant);
  EXPECT_EQ(b.input_x.value, 2.5);
  EXPECT_EQ(b.belt_x.kind, contact::SignalKind::sine);
  EXPECT_EQ(b.belt_x.omega, 3.0);
  EXPECT_EQ(b.belt_x.phase, 0.0);
  EXPECT_EQ(error_of<contact::BenchParams>("[bench]\ndrive = \"velocity\"\ninput = \"fast\"\n", "bench"),
            "bench.input = \"fast\": must be a number (a constant) or a signal table with a type");
  EXPECT_EQ(error_of<contact::BenchParams>("[bench]\ndrive = \"velocity\"\ninput = nan\n", "bench"),
            "bench.input = nan: must be finite");
  EXPECT_EQ(error_of<contact::BenchParams>("[bench]\ndrive = \"velocity\"\n[bench.input]\ntype = \"sine\"\n"
                                           "amplitude = 1\nomega = 1\nphse = 0\n",
                                           "bench"),
            "unknown key \"bench.input.phse\"; did you mean \"bench.input.phase\"?");
}

TEST(SchemaReader, DeclaredFieldsGoThroughTheirHooksAndFormsWidenTheValidKeys) {
  laws::LawParams law;
  ReaderHooks hooks;
  int sigma0_calls = 0;
  hooks.declared["law.sigma0"] = [&](const Section& s) {
    ++sigma0_calls;
    if (const auto m = s.matrix("sigma0", MatrixRule::spd)) law.sigma0 = m->m;
  };
  read_table("[law]\ntype = \"lugre\"\nsigma0 = 7\n", "law", law, hooks);
  ASSERT_TRUE(law.sigma0.has_value());
  EXPECT_EQ((*law.sigma0)(1, 1), 7.0);
  EXPECT_EQ(sigma0_calls, 1);
  // Not applying: the hook is not called (frbd has no sigma0).
  laws::LawParams frbd;
  read_table("[law]\ntype = \"frbd\"\n", "law", frbd, hooks);
  EXPECT_EQ(sigma0_calls, 1);
  // Anisotropic friction is a form of [law]: without the forms hook, axis1 does not apply to an isotropic law.
  const std::string aniso = "[law]\ntype = \"frbd\"\n[law.axis1]\nmu_s = 2\n[law.axis2]\nmu_s = 3\n";
  EXPECT_EQ(error_of<laws::LawParams>(aniso, "law").rfind("key \"law.axis1\" does not apply", 0), 0u);
  laws::LawParams p;
  ReaderHooks forms;
  forms.before["law"] = [&](const Section& s) { p.M.anisotropic = s.has("axis1") || s.has("axis2"); };
  forms.forms["law"] = {2, [&, saved = false](int i) mutable {
                          if (i == 0) saved = p.M.anisotropic;
                          p.M.anisotropic = i < 0 ? saved : i == 1;
                        }};
  read_table(aniso, "law", p, forms);
  EXPECT_TRUE(p.M.anisotropic);
  EXPECT_EQ(p.M.axis1.mu_s, 2.0);
  EXPECT_EQ(p.M.axis2.mu_s, 3.0);
  EXPECT_EQ(p.M.axis2.v_s, laws::StribeckParams{}.v_s);
}

}  // namespace
}  // namespace bristle::io::detail
