#pragma once
// Scenario kinds of the line contact (paper 1, §5; transport/line_contact.hpp):
//
//   kind = "line_steady"     steady force maps F_x(V) of sliding (eq. 54) or rolling (eq. 60) contact,
//                            one transport::steady_state solve per velocity (Figs. 5, 6, 8)
//   kind = "line_transient"  a transient run of transport::LineContact from an unloaded contact, with
//                            forces, energy and fields over xi (Figs. 7, 9)
//
// Both read [law], [body1], [body2], [pair] exactly as kind = "lumped" does, plus [line] and
// [kinematics] (and [time] for the transient kind). A study is a list of cases: the [[case]] tables
// (each overriding keys of the file) times the Cartesian product of the [sweep] lists over s, n, n1,
// n2, tau1 and tau2. Every case is parsed and validated on its own. Every key, unit, default and
// range is documented in docs/scenarios.md ("Line contact") and docs/line_contact.md.
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bristle/contact/contact_model.hpp"
#include "bristle/io/scenario.hpp"
#include "bristle/transport/line_contact.hpp"

namespace bristle::io {

/// How the material velocities along xi are given (errata §5.2):
///   sliding  V1 = 0,   V2 = V_x                   (eq. 54; v_r = V_x)
///   rolling  V1 = V_r, V2 = V_x                   (eq. 60; v_r = v_x = V_x - V_r)
///   general  V1(t), V2(t) given directly          (transient kind only)
enum class LineMode { sliding, rolling, general };
std::string_view to_string(LineMode mode);

/// The parts common to both kinds: the contact model and the line, for one case.
struct LineCaseBase {
  std::string name;  // default: the file stem
  std::string description;
  ScenarioSource source;

  std::size_t case_index = 0;  // 0-based, in the order cases are run
  std::size_t case_count = 1;
  std::string label;  // e.g. "s = 0.4, n2 = 1" (the legend entry), "" for a single case
  /// The case parameters written as CSV columns (in this order): s, n1, n2, then n, tau1, tau2 when
  /// swept and `case` (1-based [[case]] number) when the file has [[case]] tables.
  std::vector<std::pair<std::string, double>> columns;

  laws::LawParams law;
  rheology::RheologyParams body1;
  rheology::RheologyParams body2 = rheology::rigid();
  std::optional<double> pair_s;  // [pair] s, when given
  bool body2_c_eq58 = false;     // body2.c = "eq58" (c_i,2 = tau_i,2 k01 (1 - s)/s)
  double s = 0.0;                // k01/(k01 + k02) of the pair, in (0, 1)
  int n1 = 0, n2 = 0;            // branch counts

  LineMode mode = LineMode::sliding;
  bool allow_reversal = false;
  /// L, F_z, pressure; for the transient kind also cells, cfl, dt_s, max_dt_s, limiter, V1, V2.
  transport::LineContactParams line;
  OutputOptions output;
  bool log_x = false;  // logarithmic velocity axis in the plot
};

/// kind = "line_steady": one case of a steady force map.
struct LineSteadyScenario : LineCaseBase {
  /// sliding: the speeds V_x (m/s); rolling: the rigid relative velocities v_x = V_x - V_r (m/s).
  std::vector<double> velocities;
  double Vr_mps = 0.0;  // rolling only
  /// The CSV columns of this kind (the case columns first).
  std::vector<std::string> column_names() const;
  /// Solves every velocity: the rows of the CSV.
  TimeSeries solve(const contact::ContactModel& model) const;
};

/// kind = "line_transient": one case of a transient run.
struct LineTransientScenario : LineCaseBase {
  std::vector<TableFile> table_files;
  TimeGrid time;
  std::vector<double> field_times;  // time.field_times_s
  /// The output times: the [time] grid merged with the field times.
  std::vector<double> output_times() const;
};

/// Parsing: one entry per case (see above). Throw InvalidInput naming the TOML key.
std::vector<LineSteadyScenario> parse_line_steady_string(std::string_view toml, std::string_view name = "scenario",
                                                         const std::filesystem::path& directory = {});
std::vector<LineTransientScenario> parse_line_transient_string(std::string_view toml,
                                                               std::string_view name = "scenario",
                                                               const std::filesystem::path& directory = {});

/// The kinds as Scenarios (what load_scenario returns for them).
class LineSteadyStudy final : public Scenario {
 public:
  explicit LineSteadyStudy(std::vector<LineSteadyScenario> cases);
  std::string_view kind() const override { return "line_steady"; }
  const std::string& name() const override { return cases_.front().name; }
  std::size_t case_count() const override { return cases_.size(); }
  std::string summary() const override;
  RunResult run(const ProgressCallback& progress = {}) const override;
  const std::vector<LineSteadyScenario>& cases() const { return cases_; }

 private:
  std::vector<LineSteadyScenario> cases_;
};

class LineTransientStudy final : public Scenario {
 public:
  explicit LineTransientStudy(std::vector<LineTransientScenario> cases);
  std::string_view kind() const override { return "line_transient"; }
  const std::string& name() const override { return cases_.front().name; }
  std::size_t case_count() const override { return cases_.size(); }
  std::string summary() const override;
  /// Also fills RunResult::extra_files with "_fields.csv" when time.field_times_s is given.
  RunResult run(const ProgressCallback& progress = {}) const override;
  const std::vector<LineTransientScenario>& cases() const { return cases_; }

 private:
  std::vector<LineTransientScenario> cases_;
};

/// The registered parsers (ScenarioParser signature).
std::unique_ptr<Scenario> parse_line_steady_scenario(std::string_view toml, std::string_view name,
                                                     const ScenarioSource& source);
std::unique_ptr<Scenario> parse_line_transient_scenario(std::string_view toml, std::string_view name,
                                                        const ScenarioSource& source);

}  // namespace bristle::io
