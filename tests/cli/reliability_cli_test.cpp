// `bristle check` on the inputs of issue 17 that crashed it (SIGSEGV) or exhausted memory: exit 2 with
// one error line, as for any bad input.
#include <gtest/gtest.h>

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

}  // namespace
