#pragma once
// Helpers shared by the test suites of every module (tests/<module>/ include it as
// "support/test_support.hpp"; this directory holds no *_test.cpp, so it builds no executable).
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>

#include "bristle/core/error.hpp"

namespace bristle::test {

/// The message of the `Error` that `f()` throws, or "(no error)" when it returns normally.
template <class Error = InvalidInput, class F>
std::string message_of(F&& f) {
  try {
    std::forward<F>(f)();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

/// The whole content of a file ("" if it cannot be read).
inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// A fresh directory under the system temp dir, removed with everything in it at the end of its scope.
class TempDir {
 public:
  explicit TempDir(const std::string& prefix = "bristle_test") {
    std::string pattern = (std::filesystem::temp_directory_path() / (prefix + "_XXXXXX")).string();
    if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed for " + pattern);
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  /// Writes `text` to the file `name` in this directory.
  void write(const std::string& name, const std::string& text) const { std::ofstream(path_ / name) << text; }

 private:
  std::filesystem::path path_;
};

/// What a run of the `bristle` executable returned.
struct CliResult {
  int code = -1;  // exit status (-1: did not exit normally)
  std::string out, err;
};

/// Runs `bristle ARGS` (BRISTLE_CLI_PATH, set by tests/CMakeLists.txt) in `dir` with stdin from /dev/null,
/// after the environment assignments `env` (e.g. "PATH=/nowhere"); stdout and stderr are captured in
/// dir/.stdout and dir/.stderr.
inline CliResult run_cli(const std::filesystem::path& dir, const std::string& args, const std::string& env = "") {
  const std::string command =
      fmt::format("cd '{}' && {} '{}' {} > '{}' 2> '{}' < /dev/null", dir.string(), env, BRISTLE_CLI_PATH, args,
                  (dir / ".stdout").string(), (dir / ".stderr").string());
  const int status = std::system(command.c_str());
  CliResult r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = read_text(dir / ".stdout");
  r.err = read_text(dir / ".stderr");
  return r;
}

/// A test with its own working directory for the command line.
class CliTest : public ::testing::Test {
 protected:
  void write(const std::string& name, const std::string& text) const { temp_.write(name, text); }
  CliResult run(const std::string& args, const std::string& env = "") const { return run_cli(dir_, args, env); }

  TempDir temp_{"bristle_cli"};
  const std::filesystem::path dir_ = temp_.path();  // the working directory of every run
};

/// True in the AddressSanitizer + UndefinedBehaviorSanitizer suite (scripts/test.sh runs it with
/// BRISTLE_SANITIZED=1).
inline bool sanitized_build() {
  const char* e = std::getenv("BRISTLE_SANITIZED");
  return e != nullptr && std::string(e) == "1";
}

}  // namespace bristle::test

/// Skips a long numerical study in the sanitizer suite, where it runs about ten times slower (-O1 with ASan +
/// UBSan): a recovery over 20 seeds of fits, a convergence or settling study on refined grids. The Release suite
/// runs it in full; under the sanitizers its code paths run in the shorter tests of the same module. `what` names
/// the study in the skip message.
#define BRISTLE_SKIP_LONG_STUDY_UNDER_SANITIZERS(what)                                                       \
  if (::bristle::test::sanitized_build())                                                                  \
  GTEST_SKIP() << what << ": a long study, run in the Release suite; its code paths are sanitized by the "  \
                  "shorter tests of the same module"
