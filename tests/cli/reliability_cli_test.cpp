// `bristle check` on the inputs of issue 17 that crashed it (SIGSEGV) or exhausted memory: exit 2 with
// one error line, as for any bad input.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "support/test_support.hpp"

namespace {

using bristle::test::CliResult;

class ReliabilityCli : public bristle::test::CliTest {};

TEST_F(ReliabilityCli, CheckExitsTwoOnInputsThatCrashedIt) {
  std::string deep;
  for (int i = 0; i < 60000; ++i) deep += "a.";
  write("deep.toml", deep + "a = 1\n");
  const CliResult r = run("check deep.toml");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(r.err,
            "bristle: error: deep.toml:1:128: nested deeper than 64 levels (tables, dotted keys, arrays and inline "
            "tables together); see Limits in docs/scenarios.md\n");
  const CliResult zero = run("check /dev/zero");
  EXPECT_EQ(zero.code, 2);
  EXPECT_EQ(zero.err, "bristle: error: cannot read scenario /dev/zero: not a regular file (a device, FIFO or socket)\n");
  EXPECT_EQ(zero.out, "");
}

// An unknown command named itself and a typo its nearest command (CLI11 said "A subcommand is required");
// --out "" wrote into the current directory without saying so.
TEST_F(ReliabilityCli, UnknownCommandsAndAnEmptyOutDirectoryAreNamed) {
  const char* commands = "(commands: run, fit, check, keys; see 'bristle --help')\n";
  CliResult r = run("frobnicate");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, std::string("bristle: error: unknown command 'frobnicate' ") + commands);
  r = run("chek x.toml");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, std::string("bristle: error: unknown command 'chek'; did you mean 'check'? ") + commands);
  r = run("scenario.toml");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err,
            std::string("bristle: error: unknown command 'scenario.toml'; did you mean 'bristle run scenario.toml'? ") +
                commands);
  write("s.toml", "[law]\ntype = \"dahl\"\nmu = 0.5\n[body1]\ntype = \"elastic\"\nk0 = 1e4\n"
                  "[bench]\ndrive = \"velocity\"\ninput = 0.1\n[time]\nt_end_s = 0.01\noutput_dt_s = 0.001\n");
  for (const char* args : {"run s.toml --out ''", "fit s.toml -o ''"}) {
    r = run(args);
    EXPECT_EQ(r.code, 2) << args;
    EXPECT_EQ(r.err, "bristle: error: --out: empty; give a directory (default: the current directory) (see 'bristle "
                     "--help')\n")
        << args;
  }
  EXPECT_FALSE(std::filesystem::exists(dir_ / "s.csv"));
  EXPECT_EQ(run("run s.toml --no-plot -q").code, 0);  // the scenario itself runs
  EXPECT_TRUE(std::filesystem::exists(dir_ / "s.csv"));
}

// helper-39: body1.k0 = 1e-200 (accepted by its rule, > 0) failed at t = 0 with a non-finite right-hand side that
// named no key; the CLI now lists the scenario's numbers of extreme magnitude after a solver failure.
TEST_F(ReliabilityCli, ASolverFailureNamesTheNumbersOfExtremeMagnitude) {
  write("k.toml", "[law]\ntype = \"lugre\"\nmu_s = 1.5\nmu_d = 1.0\nv_s = 0.001\n[body1]\ntype = \"elastic\"\n"
                  "k0 = 1e-200\n[bench]\ndrive = \"velocity\"\ninput = 0.1\n[time]\nt_end_s = 0.01\n"
                  "output_dt_s = 0.001\n");
  const CliResult r = run("run k.toml --no-plot -q");
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_NE(r.err.find("solver failed: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(" (the scenario has numbers of extreme magnitude: body1.k0 = 1e-200)\n"), std::string::npos)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir_ / "k.csv"));
}

}  // namespace
