#pragma once
// Scenario kinds of directional friction (paper 2; include/bristle/directional/, docs/directional.md):
//
//   kind = "directional_coefficients"  the limit coefficients mu_+- over the admissible range of the
//                                      slant: theta (slanted spring, eq. 3.14, Fig. 4) or theta_lim
//                                      (angular spring, eq. 3.24, Fig. 6). Columns: theta_rad (or
//                                      theta_lim_rad), mu_plus, mu_minus.
//   kind = "directional_loop"          force-displacement loops of one bristle pulled back and forth
//                                      through a horizontal spring (eqs. 3.1-3.3): the eps-systems (eq.
//                                      2.8) at the listed eps beside the limit (eq. 2.3). Long CSV with
//                                      the column epsilon_m first (0 for the limit).
//   kind = "directional_crawler"       a crawler with bristle feet (crawler.hpp): eps-systems and the
//                                      limit law, and the advance per cycle of each.
//
// Tables: [profile] (the surface w), [mechanism] (the bristle), and per kind [range]; [drive],
// [epsilon], [time], [integrator]; [crawler], [epsilon], [run]; [sweep] (one case per value of a numeric key,
// set by key path: io/key_path.hpp; the loop and crawler run every eps case at each value); and [output]. Every
// key, unit, default and range is documented in docs/directional.md ("Scenario files"). Unknown keys are errors
// that suggest the nearest key; every value is checked by the library with the TOML key in the message.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bristle/directional/crawler.hpp"
#include "bristle/directional/drive.hpp"
#include "bristle/directional/mechanism.hpp"
#include "bristle/directional/profile.hpp"
#include "bristle/integrate/ode.hpp"
#include "bristle/io/scenario.hpp"

namespace bristle::io {

/// What every directional kind reads.
struct DirectionalBase {
  std::string name;  // default: the file stem
  std::string description;
  ScenarioSource source;
  directional::ProfileParams profile;
  std::string profile_file;  // [profile] file, when the table was read from a CSV file
  directional::MechanismParams mechanism;
  OutputOptions output;
  std::optional<Sweep> sweep;         // [sweep]: one case per value of a numeric key (applied by key path)
  std::optional<double> sweep_value;  // this case's value of sweep->parameter
};

/// kind = "directional_coefficients".
struct DirectionalCoefficientsScenario : DirectionalBase {
  int points = 60;
  double from_rad = 0.0, to_rad = 0.0;  // the sampled interval
  bool from_included = false;           // an end is sampled when it was given (range.from_rad / to_rad);
  bool to_included = false;             // a defaulted end is the admissible bound, which is excluded
  /// "theta_rad" (slanted) or "theta_lim_rad" (angular).
  std::string angle_column() const;
  /// The admissible open interval of the angle for this profile (eq. 3.9 or 3.17).
  std::pair<double, double> admissible() const;
  TimeSeries solve() const;
};

/// The eps list shared by the loop and crawler kinds.
struct EpsilonList {
  std::vector<double> values_m{1e-1, 1e-2, 1e-3};
  double gamma = 1.0;
  bool limit = true;  // add the limit as a case with epsilon_m = 0
  bool scalar = false;  // values_m was written as a number (messages name "epsilon.values_m", not "[i]")
  /// The eps cases: each of values_m, and the limit.
  std::size_t cases() const { return values_m.size() + (limit ? 1 : 0); }
};

/// kind = "directional_loop".
struct DirectionalLoopScenario : DirectionalBase {
  directional::DriveParams drive;
  double start_m = 0.0, amplitude_m = 0.5, period_s = 2.0, cycles = 1.5;  // triangle wave q(t)
  EpsilonList epsilon;
  int outputs = 2000;
  integrate::Options integrator = [] {  // rtol and max_steps; atol on z: atol_z_per_epsilon * eps
    integrate::Options o;
    o.rtol = 1e-10;
    o.max_steps = 200'000'000;
    return o;
  }();
  double atol_z_per_epsilon = 1e-7;
  directional::Loading driver() const;
  std::vector<double> times() const;
};

/// kind = "directional_crawler".
struct DirectionalCrawlerScenario : DirectionalBase {
  directional::CrawlerParams crawler;
  EpsilonList epsilon;
  int cycles = 3;
  int samples_per_cycle = 200;
  int limit_steps_per_cycle = 2000;
};

// ---- The schema of the directional kinds (core/schema.hpp). [profile], [mechanism], [drive] (the spring) and
// [crawler] are the library structs' serialize() (include/bristle/directional/); these are the scenarios' own.

template <class Archive, schema::Of<EpsilonList> Self>
void serialize(Archive& a, Self& e) {
  using schema::Type;
  a.declared({.key = "values_m", .type = Type::number_list, .unit = "m", .default_value = "[0.1, 0.01, 0.001]",
              .doc = "the periods eps of the wiggles, each > 0 and below the mechanism's epsilon_max; the wiggles "
                      "passed over, path / eps summed over the values, at most 1e5",
              .equation = "paper 2, eq. 3.4"});
  a.number(e.gamma, {.key = "gamma", .default_value = "1", .range = schema::finite(),
                     .doc = "viscosity eps^gamma, gamma > 0", .equation = "paper 2, eq. 2.7"});
  a.flag(e.limit, {.key = "limit", .type = Type::flag, .default_value = "true",
                   .doc = "add the limit (eq. 2.3) as a case with epsilon_m = 0"});
}

/// kind, name, description and [profile]: the head of every directional kind.
template <class Archive, class Sc>
void serialize_directional_head(Archive& a, Sc& sc, std::string_view kind) {
  serialize_scenario_head(a, sc, kind);
  a.table({.key = "profile", .type = schema::Type::table, .default_value = "required", .doc = "the surface profile w"},
          [&](auto& b) { serialize(b, sc.profile); });
}

template <class Archive, schema::Of<DirectionalCoefficientsScenario> Self>
void serialize(Archive& a, Self& sc) {
  using schema::Type;
  serialize_directional_head(a, sc, "\"directional_coefficients\"");
  a.table({.key = "mechanism", .type = Type::table, .default_value = "required",
           .doc = "the bristle: only its kind (mu_+- depend only on the slant and the surface)"},
          [&](auto& b) {
            b.choice(sc.mechanism.kind, {.key = "kind", .type = Type::choice, .default_value = "required",
                                         .doc = "the mechanism", .equation = "paper 2, eqs. 3.14, 3.24",
                                         .choices = "vertical, slanted, angular"});
          });
  a.table({.key = "range", .type = Type::table, .default_value = "-", .doc = "the sampled angles"}, [&](auto& b) {
    b.integer(sc.points, {.key = "points", .type = Type::integer, .default_value = "60",
                          .range = schema::integer_in(2, 1e6), .doc = "number of angles"});
    b.number(sc.from_rad, {.key = "from_rad", .unit = "rad", .default_value = "the admissible bound (not sampled)",
                           .range = schema::finite(), .doc = "first angle (sampled), inside the admissible interval",
                           .equation = "paper 2, eqs. 3.9, 3.17"});
    b.number(sc.to_rad, {.key = "to_rad", .unit = "rad", .default_value = "the admissible bound (not sampled)",
                         .range = schema::finite(), .doc = "last angle (sampled), > from_rad",
                         .equation = "paper 2, eqs. 3.9, 3.17"});
  });
  serialize_sweep_table(a, sc.sweep);
  serialize_output_table(a, sc, "theta_rad or theta_lim_rad", "[\"mu_plus\", \"mu_minus\"]");
}

template <class Archive, schema::Of<DirectionalLoopScenario> Self>
void serialize(Archive& a, Self& sc) {
  using schema::Type;
  serialize_directional_head(a, sc, "\"directional_loop\"");
  a.table({.key = "mechanism", .type = Type::table, .default_value = "required", .doc = "the bristle"},
          [&](auto& b) { serialize(b, sc.mechanism); });
  a.table({.key = "drive", .type = Type::table, .default_value = "-",
           .doc = "the horizontal spring and the triangle wave q(t) pulling it"},
          [&](auto& b) {
            serialize(b, sc.drive);
            b.number(sc.start_m, {.key = "start_m", .unit = "m", .default_value = "0", .range = schema::finite(),
                                  .doc = "q(0)"});
            b.number(sc.amplitude_m, {.key = "amplitude_m", .unit = "m", .default_value = "0.5",
                                      .range = schema::positive(), .doc = "amplitude of q"});
            b.number(sc.period_s, {.key = "period_s", .unit = "s", .default_value = "2", .range = schema::positive(),
                                   .doc = "period of q"});
            b.number(sc.cycles, {.key = "cycles", .default_value = "1.5", .range = schema::positive(),
                                 .doc = "periods of q, at most 10000"});
          });
  a.table({.key = "epsilon", .type = Type::table, .default_value = "-", .doc = "the eps-systems"},
          [&](auto& b) { serialize(b, sc.epsilon); });
  a.table({.key = "integrator", .type = Type::table, .default_value = "-", .doc = "the eps-systems' integrator"},
          [&](auto& b) {
            b.declared({.key = "method", .type = Type::choice, .default_value = "auto",
                        .doc = "auto or cvode_bdf (the eps-systems run cvode_bdf)"});
            b.number(sc.integrator.rtol, {.key = "rtol", .default_value = "1e-10", .range = schema::positive(),
                                          .doc = "relative tolerance", .log_scale = true, .numerics = true});
            b.number(sc.atol_z_per_epsilon, {.key = "atol_z_per_epsilon", .default_value = "1e-7",
                                             .range = schema::positive(),
                                             .doc = "absolute tolerance on z, per metre of eps",
                                             .log_scale = true, .numerics = true});
            b.integer(sc.integrator.max_steps, {.key = "max_steps", .type = Type::integer, .default_value = "200000000",
                                                .doc = "total step budget of each eps-system; at most 1e5 + 1000 "
                                                       "per wiggle passed over (Limits)"});
          });
  a.table({.key = "time", .type = Type::table, .default_value = "-", .doc = "the output grid"}, [&](auto& b) {
    b.integer(sc.outputs, {.key = "outputs", .type = Type::integer, .default_value = "2000",
                           .range = schema::integer_in(2, 1e6), .doc = "output times over the cycles"});
  });
  serialize_sweep_table(a, sc.sweep);
  serialize_output_table(a, sc, "\"q_m\"", "[\"F_N\"]");
}

template <class Archive, schema::Of<DirectionalCrawlerScenario> Self>
void serialize(Archive& a, Self& sc) {
  using schema::Type;
  serialize_directional_head(a, sc, "\"directional_crawler\"");
  a.table({.key = "mechanism", .type = Type::table, .default_value = "required", .doc = "the bristle of each foot"},
          [&](auto& b) { serialize(b, sc.mechanism); });
  a.table({.key = "crawler", .type = Type::table, .default_value = "-", .doc = "the crawler"},
          [&](auto& b) { serialize(b, sc.crawler); });
  a.table({.key = "epsilon", .type = Type::table, .default_value = "-", .doc = "the eps-systems"},
          [&](auto& b) { serialize(b, sc.epsilon); });
  a.table({.key = "run", .type = Type::table, .default_value = "-", .doc = "the run"}, [&](auto& b) {
    b.integer(sc.cycles, {.key = "cycles", .type = Type::integer, .default_value = "3",
                          .range = schema::integer_in(2, 1000), .doc = "gait cycles"});
    b.integer(sc.samples_per_cycle, {.key = "samples_per_cycle", .type = Type::integer, .default_value = "200",
                                     .range = schema::integer_in(4, 1e6), .doc = "output rows per cycle"});
    b.integer(sc.limit_steps_per_cycle, {.key = "limit_steps_per_cycle", .type = Type::integer,
                                         .default_value = "2000", .range = schema::integer_in(4, 1e6),
                                         .doc = "steps per cycle of the limit"});
  });
  serialize_sweep_table(a, sc.sweep);
  serialize_output_table(a, sc, "\"t_s\"", "[\"center_m\"]");
}

/// Parsers of TOML text (the kinds' registered parsers call them); every error is InvalidInput naming
/// the TOML key.
DirectionalCoefficientsScenario parse_directional_coefficients_string(std::string_view toml,
                                                                      std::string_view name = "scenario",
                                                                      const std::filesystem::path& directory = {});
DirectionalLoopScenario parse_directional_loop_string(std::string_view toml, std::string_view name = "scenario",
                                                      const std::filesystem::path& directory = {});
DirectionalCrawlerScenario parse_directional_crawler_string(std::string_view toml,
                                                            std::string_view name = "scenario",
                                                            const std::filesystem::path& directory = {});

class DirectionalCoefficientsStudy final : public Scenario {
 public:
  explicit DirectionalCoefficientsStudy(DirectionalCoefficientsScenario scenario);
  std::string_view kind() const override { return "directional_coefficients"; }
  const std::string& name() const override { return sc_.name; }
  std::size_t case_count() const override { return cases_.size(); }
  std::string summary() const override;
  RunResult run(const ProgressCallback& progress = {}) const override;
  const DirectionalCoefficientsScenario& scenario() const { return sc_; }
  /// One per [sweep] value (the scenario itself without a sweep).
  const std::vector<DirectionalCoefficientsScenario>& cases() const { return cases_; }

 private:
  std::vector<DirectionalCoefficientsScenario> cases_;
  DirectionalCoefficientsScenario sc_;
};

class DirectionalLoopStudy final : public Scenario {
 public:
  explicit DirectionalLoopStudy(DirectionalLoopScenario scenario);
  std::string_view kind() const override { return "directional_loop"; }
  const std::string& name() const override { return sc_.name; }
  /// Every [sweep] case runs every eps (and the limit).
  std::size_t case_count() const override {
    return cases_.size() * sc_.epsilon.cases();
  }
  std::string summary() const override;
  RunResult run(const ProgressCallback& progress = {}) const override;
  const DirectionalLoopScenario& scenario() const { return sc_; }
  /// One per [sweep] value (the scenario itself without a sweep).
  const std::vector<DirectionalLoopScenario>& cases() const { return cases_; }

 private:
  std::vector<DirectionalLoopScenario> cases_;
  DirectionalLoopScenario sc_;
};

class DirectionalCrawlerStudy final : public Scenario {
 public:
  explicit DirectionalCrawlerStudy(DirectionalCrawlerScenario scenario);
  std::string_view kind() const override { return "directional_crawler"; }
  const std::string& name() const override { return sc_.name; }
  /// Every [sweep] case runs every eps (and the limit).
  std::size_t case_count() const override {
    return cases_.size() * sc_.epsilon.cases();
  }
  std::string summary() const override;
  RunResult run(const ProgressCallback& progress = {}) const override;
  const DirectionalCrawlerScenario& scenario() const { return sc_; }
  /// One per [sweep] value (the scenario itself without a sweep).
  const std::vector<DirectionalCrawlerScenario>& cases() const { return cases_; }

 private:
  std::vector<DirectionalCrawlerScenario> cases_;
  DirectionalCrawlerScenario sc_;
};

/// The reader's checks of a parsed directional scenario that involve more than one key, with the reader's messages:
/// what io::set_number runs after changing a key (io/key_path.hpp). Coefficients: the mechanism is slanted or angular,
/// the profile admits an angle, an end of [range] not given follows the admissible bound (re-derived here) and a
/// given one lies inside it, from_rad < to_rad, the plot's columns. Loop: the profile, mechanism, drive (at most
/// 10,000 cycles), each eps against the mechanism and the wiggles limit, the integrator, the plot's columns. Crawler:
/// the profile, mechanism, crawler, each eps and the wiggles limit, the plot's columns.
void validate(DirectionalCoefficientsScenario& sc);
void validate(const DirectionalLoopScenario& sc);
void validate(const DirectionalCrawlerScenario& sc);

/// The registered parsers (ScenarioParser signature).
std::unique_ptr<Scenario> parse_directional_coefficients_scenario(std::string_view toml, std::string_view name,
                                                                  const ScenarioSource& source);
std::unique_ptr<Scenario> parse_directional_loop_scenario(std::string_view toml, std::string_view name,
                                                          const ScenarioSource& source);
std::unique_ptr<Scenario> parse_directional_crawler_scenario(std::string_view toml, std::string_view name,
                                                             const ScenarioSource& source);

}  // namespace bristle::io
