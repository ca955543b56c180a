// issue 17, "exit 0 with non-finite results": the smallest inputs that showed it, run through the command
// line. A result that is not finite is never written: exit 3, one error line naming the file, column, time
// (and case), no file left. (If the scenario reader refuses such a degenerate input first, exit 2 is the
// clean outcome: the library-level tests of io/output_test.cpp pin the check itself on values that reach
// the writer.)
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "support/test_support.hpp"

namespace {

namespace fs = std::filesystem;
using bristle::test::CliResult;

/// `text` with the value of the first line `key = ...` replaced.
std::string with(std::string text, const std::string& key, const std::string& value) {
  const std::size_t at = text.find("\n" + key + " = ");
  EXPECT_NE(at, std::string::npos) << key;
  const std::size_t end = text.find('\n', at + 1);
  return text.substr(0, at + 1) + key + " = " + value + text.substr(end);
}

std::string example(const std::string& name) {
  return bristle::test::read_text(fs::path(BRISTLE_SOURCE_DIR) / "examples" / name);
}

class NonFiniteCli : public bristle::test::CliTest {
 protected:
  /// Runs `file`; returns stderr after checking the clean-failure contract.
  std::string run_failing(const std::string& file) {
    const CliResult r = run("run " + file + " --out out --no-plot --quiet");
    EXPECT_TRUE(r.code == 3 || r.code == 2) << "exit " << r.code << ": " << r.err;
    EXPECT_FALSE(fs::exists(dir_ / "out")) << "files left behind";
    EXPECT_EQ(r.err.rfind("bristle: error: ", 0), 0u) << r.err;
    return r.code == 3 ? r.err : std::string();
  }
};

// A denormal string density made the kernel CSV full of inf.
TEST_F(NonFiniteCli, DenormalStringDensityKernel) {
  write("k.toml", with(example("string_kernel.toml"), "density_kg_per_m", "5e-324"));
  const std::string err = run_failing("k.toml");
  if (!err.empty()) {
    EXPECT_EQ(err, "bristle: error: solver failed: non-finite output: string_kernel.csv column L1_undamped = inf at "
                   "tau_s = 0.005; nothing written\n");
  }
}

// A denormal normal load in a line transient gave null final forces.
TEST_F(NonFiniteCli, DenormalNormalLoadLineTransient) {
  std::string text = with(example("fig7_sliding_transient.toml"), "normal_load_N", "5e-324");
  text = with(with(text, "t_end_s", "0.05"), "field_times_s", "[0.05]");
  write("l.toml", text);
  const std::string err = run_failing("l.toml");
  if (!err.empty()) {
    EXPECT_EQ(err, "bristle: error: solver failed: non-finite output: fig7_sliding_transient.csv column Fx_N = nan at "
                   "t_s = 0.005 (case V_x = 0.1 m/s, s = 0.4, tau2 = 0.1); nothing written\n");
  }
}

}  // namespace
