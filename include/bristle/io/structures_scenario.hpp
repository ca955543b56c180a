#pragma once
// Scenario kinds of elastic structures with frictional point contacts (paper 3; include/bristle/structures/,
// docs/structures.md "Scenario files"):
//
//   kind = "structure_kernel"     memory kernels of a structure on a tau grid: one column per case
//                                 (e.g. L1_undamped, L1_damped: the same structure with different
//                                 damping ratios). Columns: tau_s, then the case columns.
//   kind = "structure_stick_slip" a contact point pressed against a moving belt, Coulomb-Stribeck
//                                 ([friction]) or a dynamic law of the core ([law] + [body1]), through
//                                 the reduced model or the truncated modal model ([model]). Columns:
//                                 those of structures::StickSlipResult::series; stick and slip intervals
//                                 go to <name>_intervals.csv.
//
// Tables: [structure] (type = "taut_string", "cantilever", "simply_supported_beam" or "generic", with
// inline arrays or a CSV file of modes), [kernel]; [contact], [friction] or [law]/[body1]/[body2],
// [model], [run]; [output]. Unknown keys are errors that suggest the nearest key; every value is checked
// by the library with the TOML key in the message.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bristle/io/scenario.hpp"
#include "bristle/laws/coulomb_stribeck.hpp"
#include "bristle/laws/friction_law.hpp"
#include "bristle/rheology/rheology.hpp"
#include "bristle/structures/kernels.hpp"
#include "bristle/structures/modal_structure.hpp"
#include "bristle/structures/reduced_model.hpp"
#include "bristle/structures/stick_slip.hpp"

namespace bristle::io {

/// [structure] as read: the built-in parameters or the generic modal data.
struct StructureSpec {
  structures::StructureKind kind = structures::StructureKind::taut_string;
  structures::TautStringParams string;
  structures::BeamParams beam;
  structures::GenericModalParams generic;
  std::string file;  // generic: the CSV file the modes came from (empty if inline)

  /// The structure, with every mode's damping ratio replaced by `damping` when given.
  structures::Structure build(std::optional<double> damping = std::nullopt) const;
};

/// kind = "structure_kernel".
struct StructureKernelScenario {
  std::string name, description;
  ScenarioSource source;
  StructureSpec structure;
  enum class Quantity { displacement, velocity, step, step_oscillating } quantity = Quantity::displacement;
  int i = 0, j = 0;
  double tau_start_s = 0.0, tau_end_s = 0.0;
  int points = 1000;
  bool log_spacing = false;
  std::vector<std::string> columns;
  std::vector<std::optional<double>> damping_ratios;  // per column; nullopt: the structure's own
  structures::KernelOptions kernel;
  OutputOptions output;

  std::vector<double> taus() const;
};

/// kind = "structure_stick_slip".
struct StructureStickSlipScenario {
  std::string name, description;
  ScenarioSource source;
  StructureSpec structure;
  structures::BeltParams contact;
  bool dynamic = false;                // [law] given: a dynamic law of the core
  laws::CoulombStribeckParams friction;  // [friction]: the set-valued law (laws/coulomb_stribeck.hpp)
  laws::LawParams law;
  rheology::RheologyParams body1 = rheology::elastic(1e4), body2 = rheology::rigid();
  bool modal = false;                  // model.type = "modal"
  long modes = 0;
  bool track_energy = false;
  structures::ReducedModelOptions reduced;
  double dt_s = 0.0;
  structures::StickSlipOptions run;
  OutputOptions output;

  /// The structure model for this scenario (reduced or modal), errors naming the TOML keys.
  std::unique_ptr<structures::ContactStepper> build_model(const structures::Structure& s) const;
};

StructureKernelScenario parse_structure_kernel_string(std::string_view toml, std::string_view name = "scenario",
                                                      const std::filesystem::path& directory = {});
StructureStickSlipScenario parse_structure_stick_slip_string(std::string_view toml, std::string_view name = "scenario",
                                                             const std::filesystem::path& directory = {});

class StructureKernelStudy final : public Scenario {
 public:
  explicit StructureKernelStudy(StructureKernelScenario scenario) : sc_(std::move(scenario)) {}
  std::string_view kind() const override { return "structure_kernel"; }
  const std::string& name() const override { return sc_.name; }
  std::size_t case_count() const override { return 1; }
  std::string summary() const override;
  RunResult run(const ProgressCallback& progress = {}) const override;
  const StructureKernelScenario& scenario() const { return sc_; }

 private:
  StructureKernelScenario sc_;
};

class StructureStickSlipStudy final : public Scenario {
 public:
  explicit StructureStickSlipStudy(StructureStickSlipScenario scenario) : sc_(std::move(scenario)) {}
  std::string_view kind() const override { return "structure_stick_slip"; }
  const std::string& name() const override { return sc_.name; }
  std::size_t case_count() const override { return 1; }
  std::string summary() const override;
  RunResult run(const ProgressCallback& progress = {}) const override;
  const StructureStickSlipScenario& scenario() const { return sc_; }

 private:
  StructureStickSlipScenario sc_;
};

/// The registered parsers (ScenarioParser signature).
std::unique_ptr<Scenario> parse_structure_kernel_scenario(std::string_view toml, std::string_view name,
                                                          const ScenarioSource& source);
std::unique_ptr<Scenario> parse_structure_stick_slip_scenario(std::string_view toml, std::string_view name,
                                                              const ScenarioSource& source);

}  // namespace bristle::io
