// Reliability of the scenario readers (issue 17): each test is the smallest input of a class that once
// crashed, hung or exhausted memory, and pins the exact InvalidInput message that replaced it.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "bristle/core/error.hpp"
#include "bristle/directional/epsilon_system.hpp"
#include "bristle/io/fit_scenario.hpp"
#include "bristle/io/key_path.hpp"
#include "bristle/io/output.hpp"
#include "bristle/io/scenario.hpp"
#include "support/test_support.hpp"

namespace bristle::io {
namespace {

namespace fs = std::filesystem;
using test::message_of;
using test::TempDir;

std::string example(const std::string& name) { return test::read_text(fs::path(BRISTLE_SOURCE_DIR) / "examples" / name); }

/// The message of parsing `toml` as a scenario of any kind ("(no error)" if it parses).
std::string error_of(const std::string& toml) {
  return message_of([&] { (void)parse_scenario_string(toml, "t"); });
}

/// The first line of `text` that reads `key *= ...` and ends with a newline: the position of the match
/// (including the newline before the line, if any), its length and that leading newline ("" at the start).
/// std::regex is avoided: GCC 12 warns inside <regex> (-Wmaybe-uninitialized) in the sanitizer build.
struct KeyLine {
  std::size_t position = 0, length = 0;
  std::string lead;
};
std::optional<KeyLine> find_key_line(const std::string& text, const std::string& key) {
  for (std::size_t start = 0; start < text.size();) {
    const std::size_t newline = text.find('\n', start);
    if (newline == std::string::npos) break;
    if (text.compare(start, key.size(), key) == 0) {
      std::size_t i = start + key.size();
      while (i < newline && text[i] == ' ') ++i;
      if (i < newline && text[i] == '=') {
        KeyLine m;
        m.position = start == 0 ? 0 : start - 1;
        m.lead = start == 0 ? "" : "\n";
        m.length = newline + 1 - m.position;
        return m;
      }
    }
    start = newline + 1;
  }
  return std::nullopt;
}

/// `text` with the first line that starts with `key =` replaced by `line` (or removed when empty).
std::string with_line(std::string text, const std::string& key, const std::string& line) {
  const auto m = find_key_line(text, key);
  if (!m) throw std::runtime_error("no line " + key);
  return text.replace(m->position, m->length, m->lead + (line.empty() ? "" : line + "\n"));
}

/// `text` with `key = value` in [section]: its line `key = ...` replaced, or the key added under the
/// section's header (section "" = the top, before any table; a missing section is appended).
std::string with_key(std::string text, const std::string& section, const std::string& key, const std::string& value) {
  const std::string header = "\n[" + section + "]\n";
  std::size_t begin = 0;
  if (!section.empty()) {
    begin = text.find(header);
    if (begin == std::string::npos) return text + header + key + " = " + value + "\n";
    begin += header.size();
  }
  const std::size_t end = std::min(text.find("\n[", begin), text.size());
  const std::string body = text.substr(begin, end - begin);
  if (const auto m = find_key_line(body, key))
    return text.replace(begin + m->position, m->length, m->lead + key + " = " + value + "\n");
  return text.insert(begin, key + " = " + value + "\n");
}

/// A TOML array of `n` copies of `entry`.
std::string list_of(std::size_t n, const std::string& entry) {
  std::string out = "[";
  for (std::size_t i = 0; i < n; ++i) out += (i ? ", " : "") + entry;
  return out + "]";
}

// ---- 1. crash fixes -------------------------------------------------------------------------------

// A dotted key 60,000 components deep overflowed toml++'s recursion (SIGSEGV in `check`); the depth is
// now counted before toml++ sees the text, for keys, [headers], arrays and inline tables alike.
TEST(Reliability, NestingDeeperThanTheLimitIsRefusedBeforeParsing) {
  std::string deep_key;
  for (int i = 0; i < 60000; ++i) deep_key += "a.";
  EXPECT_EQ(error_of(deep_key + "a = 1\n"),
            "<string>:1:128: nested deeper than 64 levels (tables, dotted keys, arrays and inline tables together); "
            "see Limits in docs/scenarios.md");
  EXPECT_EQ(error_of("x = 1\n[" + deep_key + "a]\n").substr(0, 40), "<string>:2:129: nested deeper than 64 le");
  EXPECT_EQ(error_of("x = " + std::string(300, '[') + std::string(300, ']') + "\n").substr(0, 38),
            "<string>:1:68: nested deeper than 64 l");
  // 63 levels (a header of 31 components and a key of 32) are within the limit: toml++ reads them.
  std::string header, key;
  for (int i = 0; i < 30; ++i) header += "h.";
  for (int i = 0; i < 31; ++i) key += "k.";
  EXPECT_EQ(error_of("[" + header + "h]\n" + key + "k = 1\n"), "unknown key \"h\"; did you mean \"law\"?");
  // Dots and brackets inside strings and comments are not nesting.
  EXPECT_EQ(error_of("name = \"" + deep_key + "\" # " + std::string(100, '[') + "\nq = '''" + deep_key + "'''\n"),
            "unknown key \"q\"; did you mean \"law\"?");
}

// patch_transient with a [kinematics] lacking Vr_mps (or empty) dereferenced a missing node.
TEST(Reliability, PatchTransientWithoutRollingSpeedNamesTheKey) {
  const std::string text = example("patch_load_step.toml");
  const std::string message = "missing key \"kinematics.Vr_mps\" (required: the rolling speed V_r, m/s: a number or a "
                              "signal table)";
  EXPECT_EQ(error_of(with_line(text, "Vr_mps", "")), message);
  std::string empty = text;
  for (const char* k : {"mode", "Vr_mps", "vx_mps", "vy_mps", "spin_radps"}) empty = with_line(empty, k, "");
  EXPECT_EQ(error_of(empty), message);
}

// Scenario files: regular files only (/dev/zero was read to 2 GB, bad_alloc), and at most 4 MiB.
TEST(Reliability, ScenarioFilesAreRegularAndBounded) {
  EXPECT_EQ(message_of([] { (void)load_scenario("/dev/zero"); }),
            "cannot read scenario /dev/zero: not a regular file (a device, FIFO or socket)");
  const TempDir dir;
  EXPECT_EQ(message_of([&] { (void)load_scenario(dir.path()); }),
            "cannot read scenario " + dir.path().string() + ": is a directory, not a regular file");
  const fs::path fifo = dir.path() / "fifo.toml";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);  // no writer: opening it must not block
  EXPECT_EQ(message_of([&] { (void)load_scenario(fifo); }),
            "cannot read scenario " + fifo.string() + ": not a regular file (a device, FIFO or socket)");
  // A 48 MB array under an unknown key hung toml++ for minutes; the size is refused before reading.
  const fs::path big = dir.path() / "big.toml";
  {
    std::ofstream out(big);
    out << example("lugre_stick_slip.toml") << "\nzzz = [";
    for (int i = 0; i < 1'200'000; ++i) out << "1.25, ";
    out << "1]\n";
  }
  EXPECT_EQ(message_of([&] { (void)load_scenario(big); }),
            "cannot read scenario " + big.string() + ": " + fmt::format("{:.1f}", fs::file_size(big) / 1048576.0) +
                " MiB is larger than the limit of 4 MiB for this file");
}

// Table files likewise: a device or a directory is "not a regular file", never read.
TEST(Reliability, TableFilesAreRegular) {
  const std::string lumped =
      "[law]\ntype = \"lugre\"\n[body1]\ntype = \"elastic\"\nk0 = 1e5\n[bench]\ndrive = \"velocity\"\n"
      "input = { type = \"table\", file = \"/dev/zero\" }\n[time]\nt_end_s = 0.1\n";
  EXPECT_EQ(error_of(lumped), "bench.input.file = \"/dev/zero\": cannot read /dev/zero: not a regular file (a device, "
                              "FIFO or socket)");
  const TempDir dir;
  std::string in_dir = lumped;
  in_dir.replace(in_dir.find("/dev/zero"), 9, dir.path().string());
  EXPECT_EQ(error_of(in_dir), "bench.input.file = \"" + dir.path().string() + "\": cannot read " +
                                  dir.path().string() + ": is a directory, not a regular file");
  const std::string modal = "kind = \"structure_kernel\"\n[structure]\ntype = \"generic\"\nfile = \"/dev/zero\"\n";
  EXPECT_EQ(error_of(modal),
            "structure.file = \"/dev/zero\": cannot read /dev/zero: not a regular file (a device, FIFO or socket)");
}

// ---- 2. sizes and magnitudes -----------------------------------------------------------------------

const std::string kSubnormal = "a subnormal number; give 0 or a magnitude of at least 2.2250738585072014e-308 (the "
                               "smallest normal double)";

/// Whether `message` is `expected`, possibly after a "case i of n (...): " prefix of a multi-case kind.
::testing::AssertionResult is_message(const std::string& message, const std::string& expected) {
  if (message == expected) return ::testing::AssertionSuccess();
  const auto at = message.find("): " + expected);
  if (message.rfind("case ", 0) == 0 && at != std::string::npos && at + 3 + expected.size() == message.size())
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "message: " << message << "\nexpected: " << expected;
}

const std::string kHuge = "magnitude above 1e+150; no scenario quantity is that large (products of two such would "
                          "overflow to inf or NaN)";

struct Case {
  const char* example;
  const char* section;
  const char* key;
  std::string value;
  std::string message;
};

// Each case of issue 17's list, refused by `check` with the key, the value and the limit or range.
TEST(Reliability, ImpliedSizesAndDegenerateMagnitudesAreRefusedByCheck) {
  const std::vector<Case> cases = {
      // denormal magnitudes (bad_alloc, hangs, inf in the output): every scenario number
      {"structures_string_stick_slip.toml", "structure", "damping_ratio", "5e-324",
       "structure.damping_ratio = 5e-324: " + kSubnormal},
      // a tiny damping ratio: bad_alloc in `check` (found by the mutation run of docs/validation.md)
      {"structures_string_lugre.toml", "structure", "damping_ratio", "1e-200",
       "structure.damping_ratio = 1e-200: must be 0 or >= 1e-06 (Limits in docs/scenarios.md)"},
      {"fig7_sliding_transient.toml", "line", "dt_s", "5e-324", "line.dt_s = 5e-324: " + kSubnormal},
      {"fig7_sliding_transient.toml", "line", "cfl", "5e-324", "line.cfl = 5e-324: " + kSubnormal},
      {"string_kernel.toml", "structure", "density_kg_per_m", "5e-324", "structure.density_kg_per_m = 5e-324: " + kSubnormal},
      {"fig7_sliding_transient.toml", "line", "normal_load_N", "5e-324", "line.normal_load_N = 5e-324: " + kSubnormal},
      // tiny normal values whose derived matrices overflow: blamed on the key written (helper-39: they named
      // body1.branches[0].k and body2.k0, keys the file does not have)
      // a reference load far below the load scaled the patch by 5.5e101 and wrote Mz ~ -5.6e103 N m, exit 0
      {"patch_load_step.toml", "patch", "normal_load_N", "1e-170",
       "patch.normal_load_N = 1e-170: the reference load F_z0 of the scaling (F_z/F_z0)^gamma is "
       "3.0000000000000003e+173 times below the load F_z(0) = 3000 N; at most 1e+06 (a reference load meant for "
       "another contact?)"},
      {"patch_slip_spin_map.toml", "body1", "tau", "[1e-200]",
       "body1.tau[0] = 1e-200: gives with body1.c[0] = 72 the branch stiffness k = c / tau = 7.200000000000001e+201, above "
       "1e+150"},
      {"fig7_sliding_transient.toml", "pair", "s", "1e-200",
       "pair.s = 1e-200: gives the substrate stiffness k02 = k01 (1 - s) / s = 2.4e+202 (k01 = 240), above 1e+150"},
      // absurd but normal magnitudes: from the work they imply
      {"fig7_sliding_transient.toml", "line", "dt_s", "1e-200", "line.dt_s = 1e-200: the run takes 3e+200 steps of 1e-200 s over line.cells = 200, 5.999999999999999e+202 "
       "cell updates; at most 2000000000 (Limits in docs/scenarios.md)"},
      {"fig7_sliding_transient.toml", "line", "cfl", "1e-200", "line.cfl = 1e-200: the run takes 2.9999999999999997e+202 steps of 1e-202 s over line.cells = 200, "
       "6e+204 cell updates; at most 2000000000 (Limits in docs/scenarios.md)"},
      {"patch_load_step.toml", "patch", "normal_load_N", "1e12",
       "patch.normal_load_N = 1000000000000: must be in (0, 1000000000] N (Limits in docs/scenarios.md)"},
      {"patch_load_step.toml", "patch", "normal_load_N", "1e300", "patch.normal_load_N = 1e+300: " + kHuge},
      {"structures_string_stick_slip.toml", "structure", "wave_speed_m_per_s", "1e300",
       "structure.wave_speed_m_per_s = 1e+300: " + kHuge},
      // a spin of 2^31 rad/s passed check and ran for minutes (the mutation run of docs/validation.md)
      {"patch_tyre_load_step.toml", "kinematics", "spin_radps", "2147483648",
       "kinematics: the run takes 13392663811.364727 CFL steps (the smallest 3.1605966039028915e-12 s, at t = 0.02 "
       "s: transient.cfl x cell size / the largest transport speed, from kinematics.Vr_mps, vx_mps, vy_mps and "
       "spin_radps x the patch radius) over patch.nx x patch.ny = 720 cells, 9642717944182.604 cell updates; at "
       "most 40000000 (Limits in docs/scenarios.md)"},
      // a wave speed of 1e8 m/s passed check and failed at the run with a negative admittance
      {"structures_string_stick_slip.toml", "structure", "wave_speed_m_per_s", "1e8",
       "run.dt_s = 0.001: the structure's slowest mode (omega_1 = 314159265.3589793 rad/s: pi "
       "structure.wave_speed_m_per_s / structure.length_m = pi x 100000000 / 1) turns omega_1 x run.dt_s = "
       "314159.2653589793 rad per step; at most 1000 (Limits in docs/scenarios.md): a smaller step or a softer "
       "structure"},
      // ... and so do 1e10 .. 1e100 m/s (below the 1e150 of every number), by the same limit
      {"structures_string_stick_slip.toml", "structure", "wave_speed_m_per_s", "1e100",
       "run.dt_s = 0.001: the structure's slowest mode (omega_1 = 3.141592653589793e+100 rad/s: pi "
       "structure.wave_speed_m_per_s / structure.length_m = pi x 1e+100 / 1) turns omega_1 x run.dt_s = "
       "3.1415926535897932e+97 rad per step; at most 1000 (Limits in docs/scenarios.md): a smaller step or a softer "
       "structure"},
      // an undamped string's kernel to tau = 1e12 s listed ~1e12 jumps: std::bad_alloc at the run (mutation run)
      {"string_kernel.toml", "kernel", "tau_end_s", "1e12",
       "kernel.tau_end_s = 1000000000000: the undamped string's kernel (column \"L1_undamped\") jumps 4 times per "
       "round trip 2 structure.length_m / structure.wave_speed_m_per_s = 2 s, 2000000000004 jumps to list; at most "
       "100000 (Limits in docs/scenarios.md)"},
      // a swept sine frequency of 2^62 rad/s ran for minutes into the step budget (mutation run)
      {"lugre_frictional_lag.toml", "sweep", "values", "[4611686018427387904]",
       "sweep case 1 of 1 (bench.input.omega = 4.611686018427388e+18): bench.input.omega = 4.611686018427388e+18: "
       "the run (time.t_start_s .. time.t_end_s) spans 1.3835058055282164e+19 of its periods; at most 1000000 "
       "(Limits in docs/scenarios.md)"},
      // implied sizes
      // 1e8 output rows of a cantilever on a belt: std::bad_alloc in the same run
      {"cantilever_stick_slip.toml", "run", "t_end_s", "50000",
       "run.output_every = 50: run.t_end_s / run.dt_s / run.output_every gives 1e+07 output rows; at most 2000001 "
       "(Limits in docs/scenarios.md)"},
      // 4.3e6 output rows took 2.0 GB and std::bad_alloc under the mutation run's 2 GiB limit (2026-12-04)
      {"lugre_stick_slip.toml", "time", "t_end_s", "21474",
       "time.output_dt_s = 0.005: gives 4294801 output times; at most 2000001 are allowed (Limits in "
       "docs/scenarios.md)"},
      {"structures_string_modal_energy.toml", "model", "modes", "4611686018427387904", "model.modes = 4611686018427387904: must be a whole number in [1, 100000] (Limits in docs/scenarios.md)"},
      {"directional_loop_slanted.toml", "drive", "cycles", "1e6",
       "drive.cycles = 1000000: at most 10000 cycles (Limits in docs/scenarios.md)"},
      // the issue's own input (1e6 above is the limit's own message)
      {"directional_loop_slanted.toml", "drive", "cycles", "1e300", "drive.cycles = 1e+300: " + kHuge},
      // a steady map point sweeps the grid up to patch.max_sweeps (<= 1e5) times, the map had no bound
      {"patch_slip_spin_map.toml", "patch", "max_sweeps", "100000",
       "patch.max_sweeps = 100000: 147 operating points x patch.nx x patch.ny = 60 x 30 cells x 100000 sweeps = "
       "2.65e+10 cell sweeps at most; at most 4e+09 (Limits in docs/scenarios.md; fewer points, a coarser grid or "
       "fewer sweeps)"},
      // law.eps = 2^62 m^2/s^2 in a 10 x 10 patch ran for more than a minute (mutation run of 2026-12-04;
      // fuzz/corpus/scenario_patch_transient/regression_law_eps_2e62.toml)
      {"patch_load_step.toml", "law", "eps", "4611686018427387904",
       "law.eps = 4.611686018427388e+18: must be <= 1 m^2/s^2 (a regularisation: sqrt(eps) is the speed below which "
       "||v|| is smoothed; a larger one makes z relax at sqrt(eps) / (the stiffness's length scale) and the run "
       "stiff; Limits in docs/scenarios.md)"},
      // eps = 1e-12 m: the loop's eps-system resolves every wiggle passed over, and ran for more than a minute
      // (mutation run of 2026-12-04; fuzz/corpus/scenario_directional_loop/regression_eps_1e-12.toml); the same limit
      // holds for the crawler
      {"directional_loop_slanted.toml", "epsilon", "values_m", "[1e-12, 8.268648e-01, 0.001]",
       "epsilon.values_m = [1e-12, 0.8268648, 0.001]: the eps-systems would resolve 4.8e+12 wiggles (the drive's "
       "path 4 drive.amplitude_m drive.cycles = 4.8 m, over each eps, summed): at most 100000 (Limits in "
       "docs/scenarios.md; a larger eps or fewer cycles)"},
      {"directional_crawler_2_feet.toml", "epsilon", "values_m", "[1e-5]",
       "epsilon.values_m = [1e-05]: the eps-systems would resolve 2.4e+05 wiggles (the feet's path 2 crawler.feet "
       "crawler.stroke_m run.cycles = 2.4 m, over each eps, summed): at most 100000 (Limits in docs/scenarios.md; a "
       "larger eps or fewer cycles)"},
      {"fig7_sliding_transient.toml", "time", "field_times_s", "FIELDS", "time.field_times_s has 60000 entries: 60000 snapshots x line.cells = 200 give 12000000 rows of fields; "
       "at most 10000000 (Limits in docs/scenarios.md)"},
  };
  for (const Case& c : cases) {
    std::string value = c.value;
    if (value == "FIELDS") {
      value = "[";
      for (int i = 0; i < 60000; ++i) value += (i ? ", " : "") + std::to_string(i * 1e-6);
      value += "]";
    }
    EXPECT_TRUE(is_message(error_of(with_key(example(c.example), c.section, c.key, value)), c.message))
        << c.example << " " << c.key;
  }
}

// Lists: 10^5 rheology branches (a dense Jacobian of 4e10 entries) and 10^5 sweep values (lumped had no
// case limit, and each case copies the TOML table) are refused by count.
TEST(Reliability, ListLengthsAreBounded) {
  std::string branches = example("lugre_stick_slip.toml");
  branches = with_key(branches, "body1", "type", "\"gkv\"");
  branches = with_key(branches, "body1", "c", list_of(100'000, "1.0"));
  branches = with_key(branches, "body1", "tau", list_of(100'000, "0.1"));
  EXPECT_EQ(error_of(branches), "body1.c has 100000 entries: at most 100 branches (Limits in docs/scenarios.md)");
  // The input: 10^5 entries of body2.tau (fig7's substrate, c = "eq58"), in a line kind.
  std::string substrate = example("fig7_sliding_transient.toml");
  const std::string tau2 = "tau = [0.1, 0.1]    # replaced by each sweep value of tau2";
  ASSERT_NE(substrate.find(tau2), std::string::npos);
  substrate.replace(substrate.find(tau2), tau2.size(), "tau = " + list_of(100'000, "0.1"));
  EXPECT_TRUE(is_message(error_of(substrate), "body2.tau has 100000 entries: at most 100 branches (Limits in "
                                              "docs/scenarios.md)"));
  // ... and of time.field_times_s (a list within the 100,000-entry limit, refused by the rows it implies)
  std::string times = "[";
  for (int i = 0; i < 100'000; ++i) times += (i ? ", " : "") + std::to_string(i * 1e-6);
  EXPECT_TRUE(is_message(error_of(with_key(example("fig7_sliding_transient.toml"), "time", "field_times_s", times + "]")),
                         "time.field_times_s has 100000 entries: 100000 snapshots x line.cells = 200 give 20000000 "
                         "rows of fields; at most 10000000 (Limits in docs/scenarios.md)"));
  const std::string sweep = example("lugre_stick_slip.toml") + "\n[sweep]\nparameter = \"law.mu_s\"\nvalues = " +
                            list_of(100'000, "1.5") + "\n";
  EXPECT_EQ(error_of(sweep), "sweep.values has 100000 entries: at most 10000 cases (Limits in docs/scenarios.md)");
  EXPECT_EQ(error_of(with_key(example("lugre_stick_slip.toml"), "output", "plot_y", list_of(100'001, "\"F_N\""))),
            "output.plot_y has 100001 entries: at most 100000 strings (Limits in docs/scenarios.md)");
}

TEST(Reliability, KeyPathsAreBoundedAndLongKeysShortenedInMessages) {
  // A key path of 40,003 bytes was echoed whole, twice, in a message of 80 kB (sweep.parameter, a [[case]]'s quoted
  // key, fit.parameters; the set API); a key path is refused beyond 200 bytes where it enters, shown by 40 bytes.
  std::string deep = "law";
  for (int i = 0; i < 20'000; ++i) deep += ".x";
  const std::string shown = "\"law.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x....\" is 40003 bytes long; at most 200 (Limits in "
                            "docs/scenarios.md)";
  const std::string lumped = example("lugre_presliding.toml");
  EXPECT_EQ(error_of(lumped + "\n[sweep]\nparameter = \"" + deep + "\"\nvalues = [1.0]\n"),
            "sweep.parameter: key path " + shown);
  EXPECT_EQ(error_of(example("fig7_sliding_transient.toml") + "\n[[case]]\n\"" + deep + "\" = 1.0\n"),
            "case[2]: key path " + shown);
  const std::string fit = example("fit_tribometer_lugre.toml");
  const std::string with_parameter =
      std::string(fit).replace(fit.find("[fit.parameters]\n"), 17, "[fit.parameters]\n\"" + deep +
                                                                       "\" = { initial = 1.0, min = 0.1, max = 2.0 }\n");
  EXPECT_EQ(message_of([&] {
              (void)parse_fit_string(with_parameter, "t", fs::path(BRISTLE_SOURCE_DIR) / "examples");
            }),
            "fit.parameters: key path " + shown);
  std::unique_ptr<Scenario> scenario = parse_scenario_string(lumped, "t");
  EXPECT_EQ(message_of([&] { set_number(*scenario, deep, 1.0); }), "key path " + shown);
  EXPECT_EQ(message_of([&] { (void)get_number(*scenario, deep); }), "key path " + shown);
  // 200 bytes is a key path (here an unknown one), 201 is not
  const std::string key200 = "law." + std::string(196, 'y');
  EXPECT_EQ(message_of([&] { (void)get_number(*scenario, key200 + "y"); }),
            "key path \"law.yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy...\" is 201 bytes long; at most 200 (Limits in "
            "docs/scenarios.md)");
  const auto starts = [](const std::string& message, const std::string& head) {
    return message.substr(0, head.size()) == head ? ::testing::AssertionSuccess()
                                                  : ::testing::AssertionFailure() << "message: " << message;
  };
  EXPECT_TRUE(starts(message_of([&] { (void)get_number(*scenario, key200); }), "unknown key \"" + key200 + "\""));
  // A key of a table is shown by its first 40 bytes in any message (whole UTF-8 characters: "é" is 2 bytes).
  const std::string textbook = "[law]\n" + std::string(100'000, 'z') + " = 1\n[law.textbook]\n";
  EXPECT_EQ(error_of(std::string(lumped).replace(lumped.find("[law]\n"), 6, textbook)),
            "key \"law.zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz...\" cannot be combined with [law.textbook]; give the law "
            "either in textbook units or normalised");
  EXPECT_TRUE(starts(error_of(with_key(lumped, "law", std::string(100'000, 'z'), "1")),
                     "unknown key \"law.zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz...\" (valid keys in [law]: "));
  std::string accents;
  for (int i = 0; i < 150; ++i) accents += "\u00e9";
  EXPECT_TRUE(starts(error_of(with_key(lumped, "law", "\"a" + accents + "\"", "1")),
                     "unknown key \"law.a" + accents.substr(0, 34) + "...\" (valid keys in [law]: "));
}

TEST(Reliability, AStudyHoldsAtMostTheRowsOfOneCase) {
  // A run holds every case's rows until it writes them, and each case was bounded but not the study: 7 swept cases
  // of 506,215 output times each took 2.1 GB and ended in std::bad_alloc under the mutation run's 2 GiB limit
  // (2026-12-06). The lumped kind counts before it runs ...
  std::string lumped = with_key(example("lugre_presliding.toml"), "time", "output_dt_s", "1e-5");
  lumped += "\n[sweep]\nparameter = \"bench.mass_kg\"\nvalues = [1.0, 2.0, 3.0, 4.0]\n";
  EXPECT_EQ(error_of(lumped), "sweep.values has 4 entries: the study's output is 2100003 rows after case 3 of 4; at "
                              "most 2000001 rows for all cases together, as for one (Limits in docs/scenarios.md): "
                              "give fewer cases, output times or points");
  // ... and so does every kind (here 1,000,000 points of a directional map twice, then 3 more): `check` refuses what
  // the run would refuse after solving the first cases ...
  const std::string too_many = "the study's output is {} rows after case {} of {}; at most 2000001 rows for all cases "
                               "together, as for one (Limits in docs/scenarios.md): give fewer cases, output times or "
                               "points";
  const auto sweep = [](const std::string& key, std::size_t n, const std::string& value) {
    return "\n[sweep]\nparameter = \"" + key + "\"\nvalues = " + list_of(n, value) + "\n";
  };
  std::string map = with_key(example("fig4_slanted_spring.toml"), "range", "points", "1000000");
  map += "\n[sweep]\nparameter = \"range.points\"\nvalues = [1000000, 1000000, 3]\n";
  EXPECT_EQ(error_of(map), "sweep.values has 3 entries: " + fmt::format(fmt::runtime(too_many), 2000003, 3, 3));
  // (a loop or crawler: each of the 4 eps cases of a sweep case; a crawler samples t = 0 and every cycle, its limit
  // case here every one of its 3 x 2,000 steps)
  const std::string loop = with_key(example("directional_loop_angular.toml"), "time", "outputs", "300001");
  EXPECT_EQ(error_of(loop + sweep("drive.k_h_N_per_m", 2, "1.0")),
            "sweep.values has 2 entries: " + fmt::format(fmt::runtime(too_many), 2400008, 2, 2));
  const std::string crawler = with_key(example("directional_crawler_2_feet.toml"), "run", "samples_per_cycle", "100000");
  EXPECT_EQ(error_of(crawler + sweep("crawler.k_a_N_per_m", 3, "1.0")),
            "sweep.values has 3 entries: " + fmt::format(fmt::runtime(too_many), 2718012, 3, 3));
  const std::string stick = with_key(example("cantilever_stick_slip.toml"), "run", "output_every", "1");
  EXPECT_EQ(error_of(stick + sweep("contact.belt_speed_m_per_s", 7, "0.1")),
            "sweep.values has 7 entries: " + fmt::format(fmt::runtime(too_many), 2100007, 7, 7));
  // (a stick-slip run writes t = 0, every output_every-th step and the last: 1 + ceil(2,999,999 / 3) rows here,
  // one more than floor(t_end / dt / output_every) + 1, which let this sweep pass check and fail at the run)
  std::string last = with_key(with_key(example("cantilever_stick_slip.toml"), "run", "dt_s", "1e-3"), "run",
                              "t_end_s", "2999.999");
  EXPECT_EQ(error_of(with_key(last, "run", "output_every", "3") + sweep("contact.belt_speed_m_per_s", 2, "0.1")),
            "sweep.values has 2 entries: " + fmt::format(fmt::runtime(too_many), 2000002, 2, 2));
  // (a patch transient on a 4 x 4 grid: 1,200,001 output times a case)
  const std::string patch_run = with_key(with_key(with_key(example("patch_load_step.toml"), "patch", "nx", "4"), "patch",
                                                  "ny", "4"), "time", "output_dt_s", "5e-8");
  EXPECT_EQ(error_of(patch_run + sweep("kinematics.vx_mps", 2, "0.5")),
            "sweep.values has 2 entries: " + fmt::format(fmt::runtime(too_many), 2400002, 2, 2));
  // (the run steps to every output time: on the file's 80 x 20 grid these are 1.9e9 cell updates, where check took
  // minutes at a stencil build per output time and passed)
  EXPECT_EQ(error_of(with_key(example("patch_load_step.toml"), "time", "output_dt_s", "5e-8")),
            "time: the run steps to each of its 1200001 output times (0 .. 0.06 s) over patch.nx x patch.ny = 1600 "
            "cells, at least 1920000000 cell updates; at most 40000000 (Limits in docs/scenarios.md)");
  // (the line kinds' cases come from [[case]] tables and a [sweep]: 12 and 8 here)
  // (line_transient: 1,000,001 output times and the field times 0.1 and 0.5, off that grid, a case)
  EXPECT_EQ(error_of(with_key(example("fig5_sliding_steady.toml"), "kinematics", "V_mps",
                              "{ from = 0.01, to = 30.0, points = 200000, spacing = \"log\" }")),
            "the [[case]] tables and [sweep] give 12 cases: " + fmt::format(fmt::runtime(too_many), 2200000, 11, 12));
  EXPECT_EQ(error_of(with_key(example("fig7_sliding_transient.toml"), "time", "output_dt_s", "3e-6")),
            "the [[case]] tables and [sweep] give 8 cases: " + fmt::format(fmt::runtime(too_many), 2000006, 2, 8));
  // (a field time off the output grid adds a row: 4 output times and 99,999 field times between them, 100,003 rows a
  // case; 11 [[case]] tables x the 4 sweep cases)
  std::string fields = "[";
  for (int i = 1; i < 100'000; ++i) fields += fmt::format("{}{}", i > 1 ? ", " : "", 3.0 * i / 100'000 + 1e-6);
  std::string line = with_key(with_key(with_key(example("fig7_sliding_transient.toml"), "time", "output_dt_s", "1.0"),
                                       "time", "field_times_s", fields + "]"),
                              "line", "cells", "2");
  for (int i = 0; i < 9; ++i) line += fmt::format("\n[[case]]\nlabel = \"c{}\"\nkinematics.Vx = 0.2\n", i);
  EXPECT_EQ(error_of(line), "the [[case]] tables and [sweep] give 44 cases: " +
                                fmt::format(fmt::runtime(too_many), 2000060, 20, 44));
  // (a crawler's limit case thinned to the samples, or every step when they do not divide it)
  const std::string limit = with_key(with_key(example("directional_crawler_2_feet.toml"), "run", "samples_per_cycle",
                                              "7"), "run", "limit_steps_per_cycle", "400000");
  EXPECT_EQ(error_of(limit + sweep("crawler.k_a_N_per_m", 2, "1.0")),
            "sweep.values has 2 entries: " + fmt::format(fmt::runtime(too_many), 2400134, 2, 2));
  // ... the patch_steady_map study, whose run is its own, counts its operating points before it runs ...
  std::string patch = with_key(example("patch_slip_spin_map.toml"), "kinematics", "spin_radps", "0.0");
  patch = with_key(patch, "kinematics", "slip_angle_deg", "{ from = -10.0, to = 10.0, points = 201 }");
  patch += "\n[sweep]\nparameter = \"kinematics.Vr_mps\"\nvalues = " + list_of(10'000, "10.0") + "\n";
  EXPECT_EQ(error_of(patch), "sweep.values has 10000 entries: the study's output is 2010000 rows after case 10000 of "
                             "10000; at most 2000001 rows for all cases together, as for one (Limits in "
                             "docs/scenarios.md): give fewer cases, output times or points");
  // ... and the fields of the line kind's cases are bounded together (8 cases of 200 cells: 6,300 snapshots each
  // give 1.008e7 rows, 1.26e6 per case)
  std::string times = "[";
  for (int i = 1; i <= 6'300; ++i) times += fmt::format("{}{}", i > 1 ? ", " : "", 3.0 * i / 6'300);
  EXPECT_TRUE(is_message(error_of(with_key(example("fig7_sliding_transient.toml"), "time", "field_times_s", times + "]")),
                         "time.field_times_s has 6300 entries: over the 8 cases they give 10080000 rows of fields; at "
                         "most 10000000 for all cases together, as for one (Limits in docs/scenarios.md)"));
}

// ---- 3. messages name the key the user wrote ---------------------------------------------------------

TEST(Reliability, MessagesNameTheKeyPath) {
  // The loop's drive keys are amplitude_m and period_s (the library's triangle said drive.amplitude).
  const std::string loop = example("directional_loop_slanted.toml");
  EXPECT_EQ(error_of(with_key(loop, "drive", "amplitude_m", "0")), "drive.amplitude_m = 0: must be > 0");
  EXPECT_EQ(error_of(with_key(loop, "drive", "period_s", "0")), "drive.period_s = 0: must be > 0");
  // A stiffness of 1e300 gave "S1 = [[nan, nan], ...]: must be symmetric", an internal quantity.
  EXPECT_EQ(error_of(with_key(example("patch_load_step.toml"), "body1", "k0", "1e300")), "body1.k0 = 1e+300: " + kHuge);
  // A swept key's base value must be a finite number (a string, table, list, bool or NaN was accepted).
  const std::string lumped = example("lugre_stick_slip.toml");
  const std::string sweep = "\n[sweep]\nparameter = \"law.mu_s\"\nvalues = [1.2, 1.5]\n";
  for (const auto& [base, message] : std::vector<std::pair<std::string, std::string>>{
           {"\"1.5\"", "sweep.parameter = \"law.mu_s\": law.mu_s is a string, not a number"}, {"{ a = 1 }", "sweep.parameter = \"law.mu_s\": law.mu_s is a table, not a number"}, {"[1.5]", "sweep.parameter = \"law.mu_s\": law.mu_s is an array, not a number"}, {"true", "sweep.parameter = \"law.mu_s\": law.mu_s is a boolean, not a number"}, {"nan", "sweep.parameter = \"law.mu_s\": law.mu_s = nan: the swept key's base value must be a finite number"}})
    EXPECT_EQ(error_of(with_key(lumped, "law", "mu_s", base) + sweep), message) << base;
  // A 100,000-character name passed `check` and failed at the write.
  EXPECT_EQ(error_of(with_key(lumped, "", "name", "\"" + std::string(100'000, 'x') + "\"")),
            "name = \"xxxxxxxxxxxxxxxxxxxx...\": 100000 bytes long; at most 200 (it names the output files)");
}

// ---- 4. one strict number parser for every CSV reader ---------------------------------------------------

/// The messages of a table signal read from `csv` and of modal data read from `modes_csv` (each written
/// to a file of its own in `dir`).
std::string signal_error(const TempDir& dir, const std::string& csv) {
  dir.write("s.csv", csv);
  const std::string toml =
      "[law]\ntype = \"lugre\"\n[body1]\ntype = \"elastic\"\nk0 = 1e5\n[bench]\ndrive = \"velocity\"\n"
      "input = { type = \"table\", file = \"s.csv\" }\n[time]\nt_end_s = 0.1\n";
  return message_of([&] { (void)parse_scenario_string(toml, "t", dir.path()); });
}
std::string modes_error(const TempDir& dir, const std::string& csv) {
  dir.write("m.csv", csv);
  const std::string toml = "kind = \"structure_kernel\"\n[structure]\ntype = \"generic\"\nfile = \"m.csv\"\n"
                           "[kernel]\nquantity = \"displacement\"\ntau_end_s = 1.0\npoints = 50\n";
  return message_of([&] { (void)parse_scenario_string(toml, "t", dir.path()); });
}

TEST(Reliability, CsvReadersShareOneStrictNumberParser) {
  const TempDir dir;
  const std::string s = "bench.input.file = \"s.csv\": " + (dir.path() / "s.csv").string();
  const std::string m = "structure.file = \"m.csv\": " + (dir.path() / "m.csv").string();
  const std::string modes_header = "omega_rad_per_s,damping_ratio,n1\n";
  // Decimal only: the modes reader (strtod) read 0x10 as 16; inf and nan are not numbers either.
  EXPECT_EQ(modes_error(dir, modes_header + "0x10,0.01,1\n"), m + ":2:1: \"0x10\" is not a number (column \"omega_rad_per_s\")");
  EXPECT_EQ(signal_error(dir, "t,v\n0,0\n1,inf\n"), s + ":3:2: \"inf\" is not a number (column \"v\")");
  EXPECT_EQ(signal_error(dir, "t,v\n0,0\n1,nan\n"), s + ":3:2: \"nan\" is not a number (column \"v\")");
  EXPECT_EQ(signal_error(dir, "t,v\n0,0\n1,1e\n"), s + ":3:2: \"1e\" is not a number (column \"v\")");
  EXPECT_EQ(signal_error(dir, "t,v\n0,0\n1,.\n"), s + ":3:2: \".\" is not a number (column \"v\")");
  // Overflow is an error (it was reported as inf), and so is underflow of a non-zero value.
  EXPECT_EQ(modes_error(dir, modes_header + "1e400,0.01,1\n"),
            m + ":2:1: 1e400 is out of the range of normal doubles (column \"omega_rad_per_s\")");
  EXPECT_EQ(signal_error(dir, "t,v\n0,0\n1,-1e-400\n"),
            s + ":3:2: -1e-400 is out of the range of normal doubles (column \"v\")");
  // What the grammar accepts: signs, a leading or trailing point, exponents, 0 written as 0e999.
  EXPECT_EQ(signal_error(dir, "t,v\n0,+1.\n.5,-2.5E-3\n1e0,0e999\n"), "(no error)");
  // A directory is not a regular file (it was reported as "empty").
  fs::create_directory(dir.path() / "d.csv");
  const std::string toml = "kind = \"structure_kernel\"\n[structure]\ntype = \"generic\"\nfile = \"d.csv\"\n";
  EXPECT_EQ(message_of([&] { (void)parse_scenario_string(toml, "t", dir.path()); }),
            "structure.file = \"d.csv\": cannot read " + (dir.path() / "d.csv").string() +
                ": is a directory, not a regular file");
  // Duplicate column names and ragged rows (extra cells were accepted).
  EXPECT_EQ(signal_error(dir, "t,v,v\n0,0,0\n1,1,1\n"), s + ":1:3: duplicate column name \"v\" (also column 2)");
  EXPECT_EQ(signal_error(dir, "t,v\n0,0\n1,1,7\n"), s + ":3: 3 cell(s), but the header (line 1) has 2 column(s)");
  EXPECT_EQ(modes_error(dir, modes_header + "1,0.01\n"), m + ":2: 2 cell(s), but the header (line 1) has 3 column(s)");
  // Values of the modes file are checked at their place in the file: the message names no
  // structure.frequencies_rad_per_s[i] key, which is not in the scenario.
  EXPECT_EQ(modes_error(dir, modes_header + "10,0.01,1\n-3,0.01,1\n"),
            m + ":3:1: omega_rad_per_s = -3: must be > 0");
  EXPECT_EQ(modes_error(dir, modes_header + "10,1.5,1\n"),
            m + ":2:2: damping_ratio = 1.5: must lie in [0, 1) (every mode underdamped)");
  EXPECT_EQ(modes_error(dir, "# no modes\n" + modes_header), m + " has no data rows; one row per mode is expected");
  EXPECT_EQ(modes_error(dir, "\xEF\xBB\xBF" + modes_header + "10,0.01,1\n20,0.01,-1\n"), "(no error)");
}

TEST(Reliability, AnOutputNeverReplacesAnInputOfTheRun) {
  // drive.toml (named by its stem) with its drive table drive.csv wrote its output over the table, and the next run
  // read its own output as the drive (x_m as v_mps), exit 0. The files read are known by device and inode.
  const TempDir dir;
  const std::string table = "t_s,v_mps\n0,0.1\n1,0.1\n";
  dir.write("drive.csv", table);
  const std::string toml =
      "[law]\ntype = \"lugre\"\n[body1]\ntype = \"elastic\"\nk0 = 1e5\n[bench]\ndrive = \"velocity\"\n"
      "input = { type = \"table\", file = \"drive.csv\" }\n[time]\nt_end_s = 0.1\n";
  refuse_to_replace_inputs();  // as the CLI does at its start (a library may write a file it read earlier)
  const RunResult result = parse_scenario_string(toml, "drive", dir.path())->run();
  const std::string csv = (dir.path() / "drive.csv").string();
  EXPECT_EQ(message_of([&] { (void)write_outputs(result, dir.path(), {.plot = false, .gnuplot = {}}); }),
            csv + " was read as an input of this run (a data or scenario file): the output would replace it; give "
                  "another output directory (--out) or another name");
  EXPECT_EQ(test::read_text(dir.path() / "drive.csv"), table);
  EXPECT_FALSE(fs::exists(dir.path() / "drive.json"));  // nothing written
  fs::create_directory(dir.path() / "out");  // elsewhere, as before
  EXPECT_EQ(write_outputs(result, dir.path() / "out", {.plot = false, .gnuplot = {}}).size(), 2u);
}

TEST(Reliability, CsvTablesAreBoundedAndKeepTheirFirstRow) {
  const TempDir dir;
  const std::string s = "bench.input.file = \"s.csv\": " + (dir.path() / "s.csv").string();
  // A file without a header row (or numpy's savetxt header, a '#' comment) lost its first data row to the header:
  // the table began at t = 1 and v(0) was its value there, exit 0.
  EXPECT_EQ(signal_error(dir, "0,0.5\n1,1\n2,1\n"),
            s + ":1:1: 0 is a number, not a column name: the first row that is not blank or a '#' comment is the "
                "header, which names the columns");
  EXPECT_EQ(signal_error(dir, "# t_s,v_mps\n0,0.5\n1,1\n2,1\n"),
            s + ":2:1: 0 is a number, not a column name: the first row that is not blank or a '#' comment is the "
                "header, which names the columns");
  // A number of the file is bounded as one of the scenario (a time of -1.7e308 overflowed the table's span: v = 0).
  EXPECT_EQ(signal_error(dir, "t,v\n-1.7e308,0\n1,1\n"),
            s + ":2:1 (column \"t\") = -1.7e+308: " + kHuge);
  // Rows: at most 4,000,000 (33 million one-character rows of a 64 MiB file took 2.2 GB, one vector a row).
  std::string rows = "t\n";
  for (int i = 0; i < 4'000'001; ++i) rows += "0\n";
  EXPECT_EQ(signal_error(dir, rows), s + ":4000002: more than 4000000 data rows (Limits in docs/scenarios.md)");
  // A long cell or column name is shown by its first 40 bytes (a 10 MB cell filled the message).
  const std::string cell(300, '7');
  EXPECT_EQ(signal_error(dir, "t,v\n0,0\n1,x" + cell + "\n"),
            s + ":3:2: \"x" + cell.substr(0, 39) + "...\" is not a number (column \"v\")");
  // Many columns: the duplicate-name check is linear (200,000 columns took 32 s; 10^6 hit the 120 s timeout).
  std::string header = "t,v";
  for (int i = 0; i < 200'000; ++i) header += fmt::format(",c{}", i);
  std::string zeros;
  for (int i = 0; i < 200'001; ++i) zeros += ",0";
  EXPECT_EQ(signal_error(dir, header + ",c7\n"), s + ":1:200003: duplicate column name \"c7\" (also column 10)");
  EXPECT_EQ(signal_error(dir, header + "\n0" + zeros + "\n1" + zeros + "\n"), "(no error)");
  // A NUL ends the path the system sees: "s.csv\u0000x" read s.csv.
  const std::string toml = "[law]\ntype = \"lugre\"\n[body1]\ntype = \"elastic\"\nk0 = 1e5\n[bench]\ndrive = "
                           "\"velocity\"\ninput = { type = \"table\", file = \"s.csv\\u0000x\" }\n[time]\nt_end_s = 0.1\n";
  dir.write("s.csv", "t,v\n0,0\n1,1\n");
  EXPECT_EQ(message_of([&] { (void)parse_scenario_string(toml, "t", dir.path()); }),
            "bench.input.file = \"s.csv\\u0000x\": cannot read \"" + (dir.path() / "s.csv").string() +
                "\\u0000x\": a path may not contain a NUL character");
}

// A degenerate eps-system that check cannot see in advance ends at its step budget, exit 3, instead of
// running for hours: epsilon.gamma = 13 (a viscosity eps^gamma of 1e-40 at eps = 1 mm) with a drive spring
// of rest length 2^62 m, and a spring stretched 1e12 times its rest length, ran or projected hours in the
// mutation run of 2026-12-04; both with that run's reduced cycles (drive.cycles = 0.015).
TEST(Reliability, DegenerateEpsilonSystemsEndAtTheirStepBudget) {
  std::string loop = with_key(example("directional_loop_vertical.toml"), "drive", "cycles", "0.015");
  loop = with_key(loop, "time", "outputs", "300");
  loop = with_key(loop, "drive", "rest_length_m", "4611686018427387904");  // the finding's two edits
  const auto viscous = parse_scenario_string(with_key(loop, "epsilon", "gamma", "13.2841"), "t");
  const std::string message = message_of<SolverError>([&] { (void)viscous->run({}); });
  EXPECT_NE(message.find("step budget exhausted"), std::string::npos) << message;
  // The budget that ran out is named by its rule, not as integrator.max_steps (which the user did not set).
  EXPECT_NE(message.find(": the eps-system's budget (the smaller of integrator.max_steps and 100000 + 1000 steps "
                         "per wiggle passed over; Limits in docs/scenarios.md) = "),
            std::string::npos)
      << message;
  EXPECT_EQ(message.find("integrator.max_steps ="), std::string::npos) << message;
  std::string slanted = with_key(example("directional_loop_slanted.toml"), "drive", "cycles", "0.015");
  slanted = with_key(with_key(slanted, "time", "outputs", "300"), "mechanism", "height_m", "1e12");
  const auto scenario = parse_scenario_string(slanted, "t");
  EXPECT_NE(message_of<SolverError>([&] { (void)scenario->run({}); }).find("step budget exhausted"), std::string::npos);
  // The budget: 1e5 steps plus 1000 per wiggle (the examples take 145-195).
  EXPECT_EQ(directional::WigglySystem::step_budget(4.8, 1e-3), 100'000 + 4'800'000);
}

TEST(Reliability, AVeryStiffBristleOnAPatchCostsWhatAnyOtherDoes) {
  // Mutation run of 2026-12-05: body1.k0 = 1e12 made the patch transient's exact source step integrate
  // phi1 by a quadrature of |J dt| ~ 1e7 panels per cell (still running after 300 s of CPU). phi1 is now in
  // closed form (patch::exp_phi1_2x2); the run takes milliseconds and every bristle slides at once.
  std::string toml = with_key(example("patch_load_step.toml"), "body1", "k0", "1e12");
  toml = with_key(with_key(toml, "patch", "nx", "10"), "patch", "ny", "10");
  toml = with_key(toml, "time", "t_end_s", "6e-4");
  const RunResult r = parse_scenario_string(toml, "t")->run({});
  const TimeSeries& series = r.cases.at(0).series;
  ASSERT_EQ(series.column("t_s").size(), 3u);  // 0, 5e-4 (output_dt_s) and t_end_s
  const double Fx = series.column("Fx_N")[1], Fy = series.column("Fy_N")[1], Fz = series.column("Fz_N")[1];
  ASSERT_TRUE(std::isfinite(Fx) && std::isfinite(Fy));
  // Sliding everywhere: |F| between mu_d Fz and mu_s Fz of the example's FrBD law (0.7 and 1.2).
  EXPECT_GT(std::hypot(Fx, Fy), 0.7 * Fz);
  EXPECT_LT(std::hypot(Fx, Fy), 1.2 * Fz);
  // The same run's other slow input (293 s of CPU): a reference load of 1e-12 N scales the patch to 5.5e6 m,
  // and the spin's slip there (4 rad/s x 5e6 m) makes every cell's source as stiff. It ran in milliseconds
  // since; a load ratio F_z / F_z0 above 1e6 is now refused before the run (helper-39: 1e-170 N wrote
  // Mz ~ -5.6e103 N m with exit 0), and the stiff source is still fast just below it.
  std::string huge = with_key(with_key(toml, "body1", "k0", "12342.32"), "patch", "normal_load_N", "1e-12");
  EXPECT_EQ(message_of([&] { parse_scenario_string(huge, "t")->run({}); }),
            "patch.normal_load_N = 1e-12: the reference load F_z0 of the scaling (F_z/F_z0)^gamma is 3000000000000000 "
            "times below the load F_z(0) = 3000 N; at most 1e+06 (a reference load meant for another contact?)");
  const std::string large = with_key(huge, "patch", "normal_load_N", "0.003");  // ratio 1e6, the largest taken
  const RunResult h = parse_scenario_string(large, "t")->run({});
  for (const char* column : {"Fx_N", "Fy_N", "Mz_Nm"})
    for (double v : h.cases.at(0).series.column(column)) EXPECT_TRUE(std::isfinite(v)) << column;
}

}  // namespace
}  // namespace bristle::io
