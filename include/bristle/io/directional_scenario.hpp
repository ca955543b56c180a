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
// [epsilon], [time], [integrator]; [crawler], [epsilon], [run]; and [output]. Every key, unit, default
// and range is documented in docs/directional.md ("Scenario files"). Unknown keys are errors that
// suggest the nearest key; every value is checked by the library with the TOML key in the message.
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
};

/// kind = "directional_loop".
struct DirectionalLoopScenario : DirectionalBase {
  directional::DriveParams drive;
  double start_m = 0.0, amplitude_m = 0.5, period_s = 2.0, cycles = 1.5;  // triangle wave q(t)
  EpsilonList epsilon;
  int outputs = 2000;
  integrate::Options integrator;  // atol on z: atol_z_per_epsilon * eps
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
  explicit DirectionalCoefficientsStudy(DirectionalCoefficientsScenario scenario) : sc_(std::move(scenario)) {}
  std::string_view kind() const override { return "directional_coefficients"; }
  const std::string& name() const override { return sc_.name; }
  std::size_t case_count() const override { return 1; }
  std::string summary() const override;
  RunResult run(const ProgressCallback& progress = {}) const override;
  const DirectionalCoefficientsScenario& scenario() const { return sc_; }

 private:
  DirectionalCoefficientsScenario sc_;
};

class DirectionalLoopStudy final : public Scenario {
 public:
  explicit DirectionalLoopStudy(DirectionalLoopScenario scenario) : sc_(std::move(scenario)) {}
  std::string_view kind() const override { return "directional_loop"; }
  const std::string& name() const override { return sc_.name; }
  std::size_t case_count() const override { return sc_.epsilon.values_m.size() + (sc_.epsilon.limit ? 1 : 0); }
  std::string summary() const override;
  RunResult run(const ProgressCallback& progress = {}) const override;
  const DirectionalLoopScenario& scenario() const { return sc_; }

 private:
  DirectionalLoopScenario sc_;
};

class DirectionalCrawlerStudy final : public Scenario {
 public:
  explicit DirectionalCrawlerStudy(DirectionalCrawlerScenario scenario) : sc_(std::move(scenario)) {}
  std::string_view kind() const override { return "directional_crawler"; }
  const std::string& name() const override { return sc_.name; }
  std::size_t case_count() const override { return sc_.epsilon.values_m.size() + (sc_.epsilon.limit ? 1 : 0); }
  std::string summary() const override;
  RunResult run(const ProgressCallback& progress = {}) const override;
  const DirectionalCrawlerScenario& scenario() const { return sc_; }

 private:
  DirectionalCrawlerScenario sc_;
};

/// The registered parsers (ScenarioParser signature).
std::unique_ptr<Scenario> parse_directional_coefficients_scenario(std::string_view toml, std::string_view name,
                                                                  const ScenarioSource& source);
std::unique_ptr<Scenario> parse_directional_loop_scenario(std::string_view toml, std::string_view name,
                                                          const ScenarioSource& source);
std::unique_ptr<Scenario> parse_directional_crawler_scenario(std::string_view toml, std::string_view name,
                                                             const ScenarioSource& source);

}  // namespace bristle::io
