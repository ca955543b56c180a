// Key tables generated from the parameter schema: `bristle keys`, and the committed key tables of
// docs/scenarios.md equal what the schema generates (regenerate them with scripts/update_docs_keys.sh).
#include "bristle/io/keys.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

#include "bristle/core/error.hpp"
#include "bristle/io/structures_scenario.hpp"
#include "bristle/io/line_scenario.hpp"
#include "support/test_support.hpp"

namespace bristle::io {
namespace {

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(Keys, EveryLumpedTableHasItsSchemaKeys) {
  const auto law = key_rows("lumped", "law");
  const auto find = [&](const std::vector<schema::KeyRow>& rows, std::string_view key) -> const schema::KeyRow* {
    for (const auto& r : rows)
      if (r.path == key) return &r;
    return nullptr;
  };
  const schema::KeyRow* mu_s = find(law, "mu_s");
  ASSERT_NE(mu_s, nullptr);
  EXPECT_EQ(mu_s->field.unit, "-");
  EXPECT_EQ(mu_s->field.default_value, "1");
  EXPECT_EQ(mu_s->field.range.text(), "> 0");
  EXPECT_EQ(mu_s->field.equation, "paper 1, eq. 53");
  for (const char* k : {"type", "mu", "mu_d", "v_s", "delta_s", "mu_v", "eps", "sigma0", "sigma1", "sigma2", "A",
                        "beta1", "beta2", "gamma", "angle_rad", "axis1", "axis2"})
    EXPECT_NE(find(law, k), nullptr) << k;
  for (const char* k : {"type", "k0", "k_inf", "c", "k", "tau"}) EXPECT_NE(find(key_rows("lumped", "body2"), k), nullptr) << k;
  for (const char* k : {"drive", "input", "input_y", "normal_load_N", "normal_load", "x0_m", "mass_kg", "v0_mps",
                        "belt", "belt_y", "spring_N_per_m", "spring_end0_m"})
    EXPECT_NE(find(key_rows("lumped", "bench"), k), nullptr) << k;
  for (const char* k : {"t_start_s", "t_end_s", "output_dt_s", "outputs"}) EXPECT_NE(find(key_rows("lumped", "time"), k), nullptr) << k;
  for (const char* k : {"method", "rtol", "atol", "max_dt_s", "initial_dt_s", "dt_s", "max_steps"})
    EXPECT_NE(find(key_rows("lumped", "integrator"), k), nullptr) << k;
  for (const char* k : {"type", "value", "t0", "before", "after", "start", "rate", "t_end", "offset", "amplitude",
                        "omega", "phase", "times", "values", "file", "time_column", "value_column"})
    EXPECT_NE(find(key_rows("lumped", "signal"), k), nullptr) << k;
  EXPECT_EQ(find(key_rows("lumped", "law.axis1"), "sigma1"), nullptr);  // the axis tables hold Stribeck keys only
  EXPECT_NE(find(key_rows("lumped", "law.axis1"), "v_s"), nullptr);
}

TEST(Keys, KindsNotOnTheSchemaAndUnknownSectionsAreErrors) {
  try {
    // Every built-in kind is on the schema: a kind registered without one (register_scenario_kind) is not.
    (void)keys_markdown("my_kind");
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_STREQ(e.what(), "kind = \"my_kind\": its keys are not on the parameter schema yet (kinds on the "
                           "schema: lumped, line_steady, line_transient, patch_steady_map, patch_transient, "
                           "structure_kernel, structure_stick_slip, directional_coefficients, directional_loop, "
                           "directional_crawler); see docs/scenarios.md");
  }
  try {
    (void)keys_markdown_section("lumped", "bnech");
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_EQ(std::string(e.what()).rfind("section \"bnech\": not a table of kind \"lumped\" (tables: law, ", 0), 0u)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("did you mean \"bench\"?"), std::string::npos) << e.what();
  }
}

// The key tables of docs/scenarios.md are blocks
//   <!-- keys KIND SECTION: generated ... -->  ...  <!-- end keys -->
// each equal to `bristle keys KIND --section SECTION`.
TEST(Keys, CommittedDocsEqualTheGeneratedTables) {
  const std::string docs = read(std::string(BRISTLE_SOURCE_DIR) + "/docs/scenarios.md");
  // Blocks found by hand: std::regex is avoided (GCC 12 warns inside <regex>, -Wmaybe-uninitialized, in
  // the sanitizer build).
  int blocks = 0;
  std::vector<std::string> sections;
  const std::string open = "<!-- keys ", end_marker = "<!-- end keys -->";
  for (std::size_t at = docs.find(open); at != std::string::npos; at = docs.find(open, at + 1)) {
    const std::size_t close = docs.find("-->\n", at);
    ASSERT_NE(close, std::string::npos) << "docs/scenarios.md: unterminated key block at " << at;
    // "<!-- keys KIND SECTION: ..." -> KIND, SECTION
    const std::string head = docs.substr(at + open.size(), close - at - open.size());
    const std::size_t space = head.find(' '), colon = head.find(':');
    ASSERT_TRUE(space != std::string::npos && colon != std::string::npos && space < colon) << head;
    const std::string kind = head.substr(0, space);
    const std::string section_name = head.substr(space + 1, colon - space - 1);
    const std::string section = section_name == "top" ? "" : section_name;
    const std::size_t body = close + 4;
    const std::size_t end = docs.find(end_marker, body);
    ASSERT_NE(end, std::string::npos) << "docs/scenarios.md: no end marker after " << head;
    EXPECT_EQ(docs.substr(body, end - body), keys_markdown_section(kind, section))
        << "docs/scenarios.md: the table of " << kind << " [" << section
        << "] differs from the schema; run scripts/update_docs_keys.sh";
    sections.push_back(kind + " " + section);
    ++blocks;
  }
  // Every table of every kind on the schema is in the docs; a table of another kind that is not is the
  // lumped kind's table of the same name (law, body1, pair, time, signal: documented once), key for key.
  std::vector<std::string> all;
  for (const std::string& kind : schema_kinds())
    for (const std::string& section : key_sections(kind)) {
      if (kind == "lumped" || std::find(sections.begin(), sections.end(), kind + " " + section) != sections.end()) {
        all.push_back(kind + " " + section);
        continue;
      }
      const std::vector<std::string> lumped = key_sections("lumped");
      ASSERT_NE(std::find(lumped.begin(), lumped.end(), section), lumped.end())
          << kind << " [" << section << "] is neither in docs/scenarios.md nor a table of the lumped kind";
      // Less the lumped kind's own sub-table [law.textbook] (textbook units: lumped only, documented so).
      std::string lumped_table = keys_markdown_section("lumped", section);
      if (const std::size_t row = lumped_table.find("| `[law.textbook]`"); row != std::string::npos)
        lumped_table.erase(row, lumped_table.find('\n', row) + 1 - row);
      EXPECT_EQ(keys_markdown_section(kind, section), lumped_table)
          << kind << " [" << section << "] differs from the lumped table it is documented by";
    }
  std::sort(sections.begin(), sections.end());
  std::sort(all.begin(), all.end());
  EXPECT_EQ(sections, all);
  EXPECT_GT(blocks, 20);
}

TEST(Keys, PatchKindsListTheirOwnTables) {
  const auto rows = key_rows("patch_steady_map", "patch");
  const auto find = [&](const std::vector<schema::KeyRow>& rs, std::string_view key) -> const schema::KeyRow* {
    for (const auto& r : rs)
      if (r.path == key) return &r;
    return nullptr;
  };
  const schema::KeyRow* load = find(rows, "normal_load_N");
  ASSERT_NE(load, nullptr);
  EXPECT_EQ(load->field.unit, "N");
  EXPECT_EQ(load->field.range.text(), "> 0");
  for (const char* k : {"shape", "length_m", "width_m", "pressure", "peak_pressure_Pa", "nx", "ny", "tolerance",
                        "max_sweeps", "threads"})
    EXPECT_NE(find(rows, k), nullptr) << k;
  for (const char* k : {"mode", "Vr_mps", "vx_mps", "vy_mps", "slip_angle_deg", "spin_radps", "s_corrections"})
    EXPECT_NE(find(key_rows("patch_steady_map", "kinematics"), k), nullptr) << k;
  for (const char* k : {"size_exponent", "width_exponent"})
    EXPECT_NE(find(key_rows("patch_transient", "patch"), k), nullptr) << k;
  for (const char* k : {"cfl", "max_dt_s", "source_scheme"})
    EXPECT_NE(find(key_rows("patch_transient", "transient"), k), nullptr) << k;
  EXPECT_NE(find(key_rows("patch_transient", "load"), "Fz_N"), nullptr);
  const auto sections = key_sections("patch_steady_map");
  EXPECT_EQ(std::find(sections.begin(), sections.end(), "signal"), sections.end());  // no signal in a map
  test::TempDir dir("bristle_keys_patch");
  const test::CliResult md = test::run_cli(dir.path(), "keys patch_transient");
  EXPECT_EQ(md.code, 0) << md.err;
  EXPECT_EQ(md.out, keys_markdown("patch_transient"));
  const test::CliResult json = test::run_cli(dir.path(), "keys patch_steady_map --format json");
  EXPECT_EQ(json.code, 0) << json.err;
  EXPECT_NE(json.out.find("\"key\": \"patch.normal_load_N\""), std::string::npos);
}

TEST(Keys, StructuresKindsListTheirOwnTables) {
  const auto find = [](const std::vector<schema::KeyRow>& rs, std::string_view key) -> const schema::KeyRow* {
    for (const auto& r : rs)
      if (r.path == key) return &r;
    return nullptr;
  };
  EXPECT_EQ(key_sections("structure_kernel"), (std::vector<std::string>{"", "structure", "kernel", "sweep", "output"}));
  EXPECT_EQ(key_sections("structure_stick_slip"),
            (std::vector<std::string>{"", "structure", "contact", "friction", "law", "law.axis1", "law.axis2", "body1",
                                      "body2", "pair", "model", "run", "sweep", "output"}));
  // [friction] is laws::CoulombStribeckParams' schema, with its defaults (the struct's: 0.5, 0.3, 0.1, 2, 0)
  const auto friction = key_rows("structure_stick_slip", "friction");
  const schema::KeyRow* mu_s = find(friction, "mu_s");
  ASSERT_NE(mu_s, nullptr);
  EXPECT_EQ(mu_s->field.default_value, "0.5");
  EXPECT_EQ(mu_s->field.range.text(), "> 0");
  const StructureStickSlipScenario sc;
  EXPECT_EQ(sc.friction.mu.mu_s, 0.5);
  EXPECT_EQ(find(friction, "v_s")->field.unit, "m/s");
  // the four structure types share one table; each key says which types use it
  const auto structure = key_rows("structure_kernel", "structure");
  EXPECT_EQ(find(structure, "wave_speed_m_per_s")->field.used_by, "taut_string");
  EXPECT_EQ(find(structure, "bending_stiffness_N_m2")->field.used_by, "cantilever, simply_supported_beam");
  EXPECT_EQ(find(structure, "file")->field.used_by, "generic");
  for (const char* k : {"quantity", "i", "j", "tau_start_s", "tau_end_s", "points", "spacing", "columns",
                        "damping_ratios", "max_modes", "relative_tolerance"})
    EXPECT_NE(find(key_rows("structure_kernel", "kernel"), k), nullptr) << k;
  for (const char* k : {"type", "modes", "track_energy", "window_steps", "far_tolerance"})
    EXPECT_NE(find(key_rows("structure_stick_slip", "model"), k), nullptr) << k;
  EXPECT_EQ(find(key_rows("structure_stick_slip", "model"), "modes")->field.used_by, "modal");
  EXPECT_EQ(find(key_rows("structure_stick_slip", "run"), "dt_s")->field.default_value, "required");
}

// The line kinds' schema lists exactly the keys their reader accepts, table by table and mode by mode: the
// reader's "valid keys in [table]: ..." for an unknown key equals the keys of that table that apply to the
// parsed scenario (an archive over the scenario's serialize()).
class ApplyingKeys {
 public:
  explicit ApplyingKeys(std::string table) : table_(std::move(table)) {}
  std::vector<std::string> keys;
  template <class T> void number(T&, const schema::Field& f, bool applies = true) { add(f, applies); }
  template <class T> void integer(T&, const schema::Field& f, bool applies = true) { add(f, applies); }
  template <class T> void matrix(T&, const schema::Field& f, bool applies = true) { add(f, applies); }
  template <class T> void vector(T&, const schema::Field& f, bool applies = true) { add(f, applies); }
  template <class T> void text(T&, const schema::Field& f, bool applies = true) { add(f, applies); }
  template <class T> void flag(T&, const schema::Field& f, bool applies = true) { add(f, applies); }
  template <class T> void choice(T&, const schema::Field& f, bool applies = true) { add(f, applies); }
  void declared(const schema::Field& f, bool applies = true) { add(f, applies); }
  template <class Visit>
  void table(const schema::Field& f, Visit&& visit, bool applies = true) {
    if (path_ == table_) return add(f, applies);
    const std::string saved = path_;
    path_ = path_.empty() ? std::string(f.key) : path_ + "." + std::string(f.key);
    if (table_.rfind(path_, 0) == 0) visit(*this);
    path_ = saved;
  }

 private:
  void add(const schema::Field& f, bool applies) {
    if (path_ == table_ && applies) keys.emplace_back(f.key);
  }
  std::string table_, path_;
};

template <class Sc>
void expect_reader_keys_are_the_schema_keys(const std::string& toml, const std::vector<Sc>& parsed,
                                            const std::string& table, const std::string& kind) {
  ApplyingKeys walk(table);
  serialize(walk, parsed.front());
  // [line.pressure_table] is a valid key of [line] whatever line.pressure (the reader then refuses it unless
  // line.pressure = "table", with its own message).
  if (table == "line" && std::find(walk.keys.begin(), walk.keys.end(), "pressure_table") == walk.keys.end())
    walk.keys.insert(walk.keys.begin() + 3, "pressure_table");
  // The same file with an unknown key appended to `table` (each table is the file's last one here).
  try {
    (void)parse_scenario_string(toml + "bogus_key = 1\n", "keys_check");
    ADD_FAILURE() << kind << " [" << table << "]: the bogus key was accepted";
  } catch (const InvalidInput& e) {
    EXPECT_EQ(std::string(e.what()),
              fmt::format("unknown key \"{}.bogus_key\" (valid keys in [{}]: {})", table, table, fmt::join(walk.keys, ", ")))
        << kind;
  }
}

TEST(Keys, LineKindsListExactlyTheKeysTheReaderAccepts) {
  const std::string model = "[law]\ntype = \"frbd\"\n[body1]\ntype = \"elastic\"\nk0 = 240.0\n[body2]\ntype = \"gkv\"\n"
                            "c = \"eq58\"\ntau = [0.1]\n[pair]\ns = 0.4\n[output]\ntitle = \"t\"\n";
  const std::string line = "[line]\nL_m = 0.2\nnormal_load_N = 10.0\n";
  const std::string sliding = "[kinematics]\nmode = \"sliding\"\nV_mps = [0.1, 1.0]\n";
  const std::string rolling = "[kinematics]\nmode = \"rolling\"\nVr_mps = 1.0\nvx_mps = [0.1, 0.2]\n";
  for (const std::string& kin : {sliding, rolling}) {
    const std::string steady = "kind = \"line_steady\"\n" + model + line + kin;
    const auto parsed = parse_line_steady_string(steady);
    expect_reader_keys_are_the_schema_keys("kind = \"line_steady\"\n" + model + kin + line, parsed, "line", "line_steady");
    expect_reader_keys_are_the_schema_keys(steady, parsed, "kinematics", "line_steady " + kin);
  }
  const std::string time = "[time]\nt_end_s = 0.5\n";
  for (const std::string& kin : {std::string("[kinematics]\nmode = \"sliding\"\nVx = 0.3\n"),
                                 std::string("[kinematics]\nmode = \"rolling\"\nVr = 1.0\nVx = 1.1\n"),
                                 std::string("[kinematics]\nmode = \"general\"\nV1 = 0.2\nV2 = 0.5\n")}) {
    const std::string transient = "kind = \"line_transient\"\n" + model + line + time + kin;
    const auto parsed = parse_line_transient_string(transient);
    expect_reader_keys_are_the_schema_keys("kind = \"line_transient\"\n" + model + kin + time + line, parsed, "line",
                                           "line_transient");
    expect_reader_keys_are_the_schema_keys("kind = \"line_transient\"\n" + model + kin + line + time, parsed, "time",
                                           "line_transient");
    expect_reader_keys_are_the_schema_keys(transient, parsed, "kinematics", "line_transient " + kin);
  }
  const auto steady = parse_line_steady_string("kind = \"line_steady\"\n" + model + line + sliding);
  // The top level (its unknown keys are reported without a table).
  ApplyingKeys top("");
  serialize(top, steady.front());
  try {
    (void)parse_scenario_string("bogus_key = 1\nkind = \"line_steady\"\n" + model + line + sliding, "k");
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_EQ(std::string(e.what()), fmt::format("unknown key \"bogus_key\" (valid keys: {})", fmt::join(top.keys, ", ")));
  }
  // Defaults and ranges as the reader applies them.
  const auto find = [](const std::vector<schema::KeyRow>& rows, std::string_view key) {
    for (const auto& r : rows)
      if (r.path == key) return r;
    ADD_FAILURE() << key;
    return schema::KeyRow{};
  };
  const transport::LineContactParams defaults;
  const auto rows = key_rows("line_transient", "line");
  EXPECT_EQ(find(rows, "cells").field.default_value, fmt::format("{}", defaults.cells));
  EXPECT_EQ(find(rows, "cfl").field.default_value, fmt::format("{}", defaults.cfl));
  EXPECT_EQ(find(rows, "cfl").field.range.text(), "(0, 1]");
  EXPECT_EQ(find(rows, "cells").field.range.text(), ">= 2 (integer)");
  EXPECT_EQ(find(rows, "L_m").field.unit, "m");
  EXPECT_EQ(find(key_rows("line_steady", "line"), "cells").field.used_by, "line_transient");
  test::TempDir dir("bristle_keys_line");
  const test::CliResult md = test::run_cli(dir.path(), "keys line_transient");
  EXPECT_EQ(md.code, 0) << md.err;
  EXPECT_EQ(md.out, keys_markdown("line_transient"));
  const test::CliResult json = test::run_cli(dir.path(), "keys line_steady --format json");
  EXPECT_EQ(json.code, 0) << json.err;
  EXPECT_NE(json.out.find("\"key\": \"kinematics.Vr_mps\""), std::string::npos);
  EXPECT_NE(json.out.find("\"key\": \"line.pressure_table.xi_m\""), std::string::npos);
}

TEST(Keys, CommandLineListsMuSWithUnitDefaultAndRange) {
  test::TempDir dir("bristle_keys");
  const test::CliResult md = test::run_cli(dir.path(), "keys lumped");
  EXPECT_EQ(md.code, 0) << md.err;
  EXPECT_NE(md.out.find("### [law]"), std::string::npos);
  EXPECT_NE(md.out.find("| `mu_s` | number | - | 1 | > 0 | static friction coefficient (paper 1, eq. 53) | "
                        "dahl, lugre, frbd |"),
            std::string::npos)
      << md.out;
  EXPECT_EQ(md.out, keys_markdown("lumped"));
  const test::CliResult json = test::run_cli(dir.path(), "keys lumped --format json");
  EXPECT_EQ(json.code, 0) << json.err;
  EXPECT_NE(json.out.find("\"key\": \"law.mu_s\",\n    \"section\": \"law\",\n    \"type\": \"number\",\n    \"unit\": \"-\",\n"
                          "    \"default\": \"1\",\n    \"range\": \"> 0\",\n    \"min\": 0,\n    \"max\": null"),
            std::string::npos)
      << json.out.substr(0, 2000);
  // a setting of the method is marked (schema::Field::numerics; a fit refuses it), a model parameter is not
  EXPECT_NE(json.out.find("\"log_scale\": false,\n    \"numerics\": false\n"), std::string::npos);
  const std::size_t rtol = json.out.find("\"key\": \"integrator.rtol\"");
  ASSERT_NE(rtol, std::string::npos);
  EXPECT_NE(json.out.find("\"numerics\": true", rtol), std::string::npos);
  EXPECT_LT(json.out.find("\"numerics\": true", rtol), json.out.find("\"key\"", rtol + 5));
  const test::CliResult section = test::run_cli(dir.path(), "keys lumped --section time");
  EXPECT_EQ(section.out, keys_markdown_section("lumped", "time"));
  // The directional kinds are on the schema too (their [drive] spring is directional::DriveParams').
  const test::CliResult other = test::run_cli(dir.path(), "keys directional_loop");
  EXPECT_EQ(other.code, 0) << other.err;
  EXPECT_EQ(other.out, keys_markdown("directional_loop"));
  EXPECT_NE(other.out.find("| `k_h_N_per_m` | number | N/m | 1 |"), std::string::npos) << other.out;
  const test::CliResult unknown = test::run_cli(dir.path(), "keys lumpd");
  EXPECT_EQ(unknown.code, 2);
  EXPECT_NE(unknown.err.find("kind = \"lumpd\": unknown kind"), std::string::npos) << unknown.err;
}

}  // namespace
}  // namespace bristle::io
