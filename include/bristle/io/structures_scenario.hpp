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

#include "bristle/core/schema.hpp"
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
  bool contact_by_default = false;  // a beam without contact_positions_m: the contact at l/2 (simply supported) or
                                    // at the tip l (cantilever), following length_m when it is set by key path

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
  std::optional<Sweep> sweep;         // [sweep]: one case per value of a numeric key (applied by key path)
  std::optional<double> sweep_value;  // this case's value of sweep->parameter

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
  std::optional<double> pair_s;        // [pair] s as given (body2.k0 derived from it)
  LumpedInputForm input_form;          // how the branches were written (key paths, io/key_path.hpp)
  bool modal = false;                  // model.type = "modal"
  long modes = 0;
  bool track_energy = false;
  structures::ReducedModelOptions reduced;
  double dt_s = 0.0;
  structures::StickSlipOptions run;
  OutputOptions output;
  std::optional<Sweep> sweep;         // [sweep]: one case per value of a numeric key (applied by key path)
  std::optional<double> sweep_value;  // this case's value of sweep->parameter

  /// The structure model for this scenario (reduced or modal), errors naming the TOML keys.
  std::unique_ptr<structures::ContactStepper> build_model(const structures::Structure& s) const;
};

// ---------------------------------------------------------------------------------------------
// The schema of the two kinds (core/schema.hpp): exactly the keys, defaults and rules the readers accept.
// Used for `bristle keys`, the docs tables, key paths (io/key_path.hpp), the reader (one walk with hooks:
// structures_scenario.cpp) and the JSON echo of the parameters.

/// [structure]: one key list for the four types (a key's storage is that of the type at hand).
template <class Archive, schema::Of<StructureSpec> Self>
void serialize(Archive& a, Self& p) {
  using schema::Type;
  using K = structures::StructureKind;
  const bool string = p.kind == K::taut_string, generic = p.kind == K::generic, beam = !string && !generic;
  a.choice(p.kind, {.key = "type", .type = Type::choice, .default_value = "required", .doc = "the structure",
              .equation = "paper 3, §II", .choices = "taut_string, cantilever, simply_supported_beam, generic"});
  // the keys of TautStringParams and BeamParams (structures::structure_keys), each once, stored in the type's struct
  namespace keys = structures::structure_keys;
  a.number(p.string.density_kg_per_m, keys::kDensity, string);
  a.number(p.beam.bending_stiffness_N_m2, keys::kBendingStiffness, beam);
  a.number(p.beam.mass_per_length_kg_per_m, keys::kMassPerLength, beam);
  a.number(string ? p.string.length_m : p.beam.length_m, keys::kLength, !generic);
  a.number(p.string.wave_speed_m_per_s, keys::kWaveSpeed, string);
  a.number(string ? p.string.damping_ratio : p.beam.damping_ratio, keys::kDampingRatio, !generic);
  a.declared(keys::kContactPositions, !generic);
  a.declared({.key = "frequencies_rad_per_s", .type = Type::number_list, .unit = "rad/s",
              .default_value = "required (or file)", .range = schema::positive(), .doc = "natural frequencies omega_k",
              .used_by = "generic", .log_scale = true},
             generic);
  a.declared({.key = "damping_ratios", .type = Type::number_list, .default_value = "0",
              .doc = "modal damping ratios D_k in [0, 1): 0 or >= 1e-6 (a number: every mode)", .used_by = "generic"},
             generic);
  a.declared({.key = "mode_values", .type = Type::number_list, .unit = "1/sqrt(kg)",
              .default_value = "required (or file)",
              .doc = "mass-normalised mode values n_k(chi_j): one row per mode, one column per contact",
              .used_by = "generic"},
             generic);
  a.text(p.file, {.key = "file", .type = Type::text, .default_value = "-",
                  .doc = "CSV of the modes: omega_rad_per_s, damping_ratio, one column per contact (not with the "
                         "inline keys)",
                  .used_by = "generic"},
         generic);
}

/// kind, name, description and [structure]: the head of both kinds.
template <class Archive, class Sc>
void serialize_structures_top(Archive& a, Sc& sc, std::string_view kind) {
  serialize_scenario_head(a, sc, kind);
  a.table({.key = "structure", .type = schema::Type::table, .default_value = "required", .doc = "the elastic structure"},
          [&](auto& b) { serialize(b, sc.structure); });
}

template <class Archive, schema::Of<StructureKernelScenario> Self>
void serialize(Archive& a, Self& sc) {
  using schema::Type;
  serialize_structures_top(a, sc, "\"structure_kernel\"");
  a.table({.key = "kernel", .type = Type::table, .default_value = "required", .doc = "the kernel and its tau grid"},
          [&](auto& b) {
            b.choice(sc.quantity, {.key = "quantity", .type = Type::choice, .default_value = "displacement",
                        .doc = "displacement L1, velocity K, step S or step_oscillating S0", .equation = "paper 3, §II",
                        .choices = "displacement, velocity, step, step_oscillating"});
            b.integer(sc.i, {.key = "i", .type = Type::integer, .default_value = "0", .range = schema::at_least(0),
                             .doc = "contact index of the response, < the contact count"});
            b.integer(sc.j, {.key = "j", .type = Type::integer, .default_value = "0", .range = schema::at_least(0),
                             .doc = "contact index of the load, < the contact count"});
            // Stored as -1 when not given (the grid (0, tau_end_s]): a key path to it applies only when given.
            b.number(sc.tau_start_s, {.key = "tau_start_s", .unit = "s",
                                      .default_value = "the grid (0, tau_end_s] (required with log spacing)",
                                      .range = schema::non_negative(),
                                      .doc = "first delay, < tau_end_s (> 0 for log spacing or the velocity kernel)"},
                     sc.tau_start_s >= 0.0);
            b.number(sc.tau_end_s, {.key = "tau_end_s", .unit = "s", .default_value = "required",
                                    .range = schema::positive(), .doc = "last delay of the grid"});
            b.integer(sc.points, {.key = "points", .type = Type::integer, .default_value = "1000",
                                  .range = schema::integer_in(2, 1e6), .doc = "grid points"});
            b.declared({.key = "spacing", .type = Type::choice, .default_value = "linear", .doc = "grid spacing",
                        .choices = "linear, log"});
            b.declared({.key = "columns", .type = Type::text_list, .default_value = "the kernel's symbol",
                        .doc = "one CSV column per case (new names; not tau_s)"});
            b.declared({.key = "damping_ratios", .type = Type::number_list,
                        .default_value = "the structure's", .doc = "per column: the damping ratio of every mode, [0, 1)"});
            serialize(b, sc.kernel);
          });
  serialize_sweep_table(a, sc.sweep);
  serialize_output_table(a, sc, "tau_s", "the columns");
}

template <class Archive, schema::Of<StructureStickSlipScenario> Self>
void serialize(Archive& a, Self& sc) {
  using schema::Type;
  serialize_structures_top(a, sc, "\"structure_stick_slip\"");
  a.table({.key = "contact", .type = Type::table, .default_value = "required", .doc = "the belt contact"},
          [&](auto& b) { serialize(b, sc.contact); });
  a.table({.key = "friction", .type = Type::table, .default_value = "required (or [law])",
           .doc = "set-valued Coulomb-Stribeck friction (laws/coulomb_stribeck.hpp)", .equation = "paper 3, §III"},
          [&](auto& b) { serialize(b, sc.friction); }, !sc.dynamic);
  a.table({.key = "law", .type = Type::table, .default_value = "-",
           .doc = "a dynamic law of the core instead of [friction] (as lumped)"},
          [&](auto& b) { serialize(b, sc.law); }, sc.dynamic);
  a.table({.key = "body1", .type = Type::table, .default_value = "required with [law]",
           .doc = "the bristle's upper body (as lumped)"},
          [&](auto& b) { serialize(b, sc.body1); }, sc.dynamic);
  a.table({.key = "body2", .type = Type::table, .default_value = "rigid", .doc = "the substrate (as lumped)"},
          [&](auto& b) { serialize(b, sc.body2); }, sc.dynamic);
  a.table({.key = "pair", .type = Type::table, .default_value = "-", .doc = "the contact pair (as lumped)"},
          [&](auto& b) {
            b.declared({.key = "s", .default_value = "required in [pair]", .range = schema::open(0, 1),
                        .doc = "stiffness ratio s = k01/(k01 + k02); sets body2.k0 = body1.k0 (1 - s)/s",
                        .equation = "paper 1, errata §5"},
                       sc.pair_s.has_value());
          },
          sc.dynamic);
  a.table({.key = "model", .type = Type::table, .default_value = "-", .doc = "the structure's model"}, [&](auto& b) {
    b.declared({.key = "type", .type = Type::choice, .default_value = "reduced",
                .doc = "reduced equation with memory or truncated modal model", .equation = "paper 3, §III",
                .choices = "reduced, modal"});
    b.integer(sc.modes, {.key = "modes", .type = Type::integer, .default_value = "required (modal)",
                         .range = schema::integer_in(1, 100000), .doc = "modes of the truncated model",
                         .used_by = "modal"},
              sc.modal);
    b.flag(sc.track_energy, {.key = "track_energy", .type = Type::flag, .default_value = "false",
                             .doc = "the energy account (belt work, dissipation, stored energy)", .used_by = "modal"},
           sc.modal);
    serialize(b, sc.reduced, !sc.modal);
  });
  a.table({.key = "run", .type = Type::table, .default_value = "required", .doc = "the time stepping"}, [&](auto& b) {
    b.number(sc.dt_s, {.key = "dt_s", .unit = "s", .default_value = "required", .range = schema::positive(),
                       .doc = "time step (omega_1 dt_s <= 1000)", .log_scale = true, .numerics = true});
    serialize(b, sc.run);
  });
  serialize_sweep_table(a, sc.sweep);
  serialize_output_table(a, sc, "t_s", "[\"w_m\", \"v_mps\", \"F_N\"]");
}

StructureKernelScenario parse_structure_kernel_string(std::string_view toml, std::string_view name = "scenario",
                                                      const std::filesystem::path& directory = {});
StructureStickSlipScenario parse_structure_stick_slip_string(std::string_view toml, std::string_view name = "scenario",
                                                             const std::filesystem::path& directory = {});

class StructureKernelStudy final : public Scenario {
 public:
  explicit StructureKernelStudy(StructureKernelScenario scenario);
  std::string_view kind() const override { return "structure_kernel"; }
  const std::string& name() const override { return sc_.name; }
  std::size_t case_count() const override { return cases_.size(); }
  std::string summary() const override;
  RunResult run(const ProgressCallback& progress = {}) const override;
  const StructureKernelScenario& scenario() const { return sc_; }
  /// One per [sweep] value (the scenario itself without a sweep).
  const std::vector<StructureKernelScenario>& cases() const { return cases_; }

 private:
  std::vector<StructureKernelScenario> cases_;
  StructureKernelScenario sc_;
};

class StructureStickSlipStudy final : public Scenario {
 public:
  explicit StructureStickSlipStudy(StructureStickSlipScenario scenario);
  std::string_view kind() const override { return "structure_stick_slip"; }
  const std::string& name() const override { return sc_.name; }
  std::size_t case_count() const override { return cases_.size(); }
  std::string summary() const override;
  RunResult run(const ProgressCallback& progress = {}) const override;
  const StructureStickSlipScenario& scenario() const { return sc_; }
  /// One per [sweep] value (the scenario itself without a sweep).
  const std::vector<StructureStickSlipScenario>& cases() const { return cases_; }

 private:
  std::vector<StructureStickSlipScenario> cases_;
  StructureStickSlipScenario sc_;
};

/// The reader's checks of a parsed structure_stick_slip scenario that involve more than one key (the structure,
/// contact index, friction or law with its bodies, model against structure and step, step and mode counts, the
/// admittance at the contact), with the reader's messages: what io::set_number runs after changing a key.
void validate(const StructureStickSlipScenario& sc);

/// The reader's checks of a parsed structure_kernel scenario that involve more than one key (the structure and its
/// damping, contact indices i and j, the tau grid against the quantity, the undamped string's jumps, a beam's mode
/// terms, the velocity kernel of an undamped beam), with the reader's messages: what io::set_number runs.
void validate(const StructureKernelScenario& sc);

/// The registered parsers (ScenarioParser signature).
std::unique_ptr<Scenario> parse_structure_kernel_scenario(std::string_view toml, std::string_view name,
                                                          const ScenarioSource& source);
std::unique_ptr<Scenario> parse_structure_stick_slip_scenario(std::string_view toml, std::string_view name,
                                                              const ScenarioSource& source);

}  // namespace bristle::io
