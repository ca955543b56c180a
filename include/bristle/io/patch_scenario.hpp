#pragma once
// Scenario kind of the two-dimensional contact patch (paper 1, §4; patch/patch.hpp):
//
//   kind = "patch_steady_map"  steady forces F_x, F_y and moment M_z of a rolling patch over a grid
//                              of operating points (longitudinal creep v_x, lateral slip v_y or slip
//                              angle, spin), one patch::PatchSolver solve per point
//
//   kind = "patch_transient"   a transient run of patch::PatchTransient from an unloaded contact:
//                              forces, moment, load, patch scale and the energy account (eq. 85) over
//                              time, with time-varying kinematics and load (App. A.1)
//
// Both read [law], [body1], [body2], [pair] exactly as kind = "lumped" does, plus [patch] (shape, size,
// pressure, grid), [kinematics] (rolling speed and the operating points) and [output]. Every
// operating point is checked when the file is read (finite velocities, a leading edge for every
// moving family), so that a bad file writes nothing. Keys, units and ranges: docs/patch.md.
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bristle/io/scenario.hpp"
#include "bristle/contact/signal.hpp"
#include "bristle/patch/patch.hpp"
#include "bristle/patch/transient.hpp"

namespace bristle::io {

/// One axis of the operating-point grid: a number, a list or { from, to, points }.
struct PatchAxis {
  std::string column;  // CSV column, e.g. "vx_mps"
  std::vector<double> values{0.0};
  bool list = false;  // given as a list or a grid (varies), not a single number
};

struct PatchMapScenario {
  std::string name;
  std::string description;
  ScenarioSource source;

  laws::LawParams law;
  rheology::RheologyParams body1;
  rheology::RheologyParams body2 = rheology::rigid();
  std::optional<double> pair_s;

  patch::PatchParams patch;
  int threads = 0;       // [patch] threads: workers of patch::solve_steady_map (0: every core)
  double Vr_mps = 16.0;  // rolling speed V_r
  /// v_x (m/s); the lateral axis: v_y (m/s) or the slip angle alpha (deg) with v_y = (V_r + v_x) tan alpha;
  /// spin omega of body 1 about the vertical axis (rad/s).
  PatchAxis vx{"vx_mps"}, lateral{"vy_mps"}, spin{"spin_radps"};
  bool s_corrections = true;
  std::vector<std::string> extra_columns;  // [output] columns beyond Fx_N, Fy_N, Mz_Nm
  OutputOptions output;

  /// The kinematics of one operating point (patch::rolling with v_y from the lateral axis).
  patch::PatchKinematics kinematics(double vx, double lateral, double spin) const;
  /// The axis along the rows (the first list among vx, lateral, spin; vx if none) and the axis of the
  /// cases (the second list, if any).
  const PatchAxis& row_axis() const;
  const PatchAxis* case_axis() const;
  std::vector<std::string> column_names() const;
};

PatchMapScenario parse_patch_steady_map_string(std::string_view toml, std::string_view name = "scenario",
                                               const ScenarioSource& source = {});

class PatchSteadyMapStudy final : public Scenario {
 public:
  explicit PatchSteadyMapStudy(PatchMapScenario sc) : sc_(std::move(sc)) {}
  std::string_view kind() const override { return "patch_steady_map"; }
  const std::string& name() const override { return sc_.name; }
  std::size_t case_count() const override;
  std::string summary() const override;
  RunResult run(const ProgressCallback& progress = {}) const override;
  const PatchMapScenario& scenario() const { return sc_; }

 private:
  PatchMapScenario sc_;
};

/// kind = "patch_transient": signals for V_r, v_x, v_y, spin (rolling kinematics) and F_z(t).
struct PatchTransientScenario {
  std::string name;
  std::string description;
  ScenarioSource source;
  laws::LawParams law;
  rheology::RheologyParams body1;
  rheology::RheologyParams body2 = rheology::rigid();
  std::optional<double> pair_s;
  patch::PatchTransientParams transient;  // [patch] (reference patch at normal_load_N) + [transient]
  contact::Signal Vr_mps, vx_mps, vy_mps, spin_radps, Fz_N;
  std::vector<TableFile> table_files;
  bool s_corrections = true;
  TimeGrid time;
  OutputOptions output;
  patch::PatchKinematics kinematics(double t) const;
  static std::vector<std::string> column_names();
};

PatchTransientScenario parse_patch_transient_string(std::string_view toml, std::string_view name = "scenario",
                                                    const ScenarioSource& source = {});

class PatchTransientStudy final : public Scenario {
 public:
  explicit PatchTransientStudy(PatchTransientScenario sc) : sc_(std::move(sc)) {}
  std::string_view kind() const override { return "patch_transient"; }
  const std::string& name() const override { return sc_.name; }
  std::size_t case_count() const override { return 1; }
  std::string summary() const override;
  RunResult run(const ProgressCallback& progress = {}) const override;
  const PatchTransientScenario& scenario() const { return sc_; }

 private:
  PatchTransientScenario sc_;
};

/// The registered parsers (ScenarioParser signature).
std::unique_ptr<Scenario> parse_patch_steady_map_scenario(std::string_view toml, std::string_view name,
                                                          const ScenarioSource& source);
std::unique_ptr<Scenario> parse_patch_transient_scenario(std::string_view toml, std::string_view name,
                                                         const ScenarioSource& source);

}  // namespace bristle::io
