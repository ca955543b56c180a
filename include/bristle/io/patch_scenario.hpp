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
  std::optional<Sweep> sweep;         // [sweep]: one case per value of a numeric key (applied by key path)
  std::optional<double> sweep_value;  // this case's value of sweep->parameter
  LumpedInputForm input_form;         // how the branches were written (key paths, io/key_path.hpp)

  /// The kinematics of one operating point (patch::rolling with v_y from the lateral axis).
  patch::PatchKinematics kinematics(double vx, double lateral, double spin) const;
  /// The axis along the rows (the first list among vx, lateral, spin; vx if none) and the axis of the
  /// cases (the second list, if any).
  const PatchAxis& row_axis() const;
  const PatchAxis* case_axis() const;
  std::vector<std::string> column_names() const;
};

/// The reader's checks of a parsed map beyond each key's own range (bodies, patch, every operating point):
/// what a key set by path (io/key_path.hpp) must pass.
void validate(const PatchMapScenario& sc);

// ---- The schema of the patch kinds (core/schema.hpp). [law], [body1], [body2], [pair] are the lumped
// kind's (LawParams, RheologyParams); [patch] is patch::PatchParams'.

template <class Archive>
void serialize_pair(Archive& a, bool given) {
  a.table({.key = "pair", .type = schema::Type::table, .default_value = "-", .doc = "the contact pair"}, [&](auto& b) {
    b.declared({.key = "s", .default_value = "required in [pair]", .range = schema::open(0, 1),
                .doc = "stiffness ratio s = k01/(k01 + k02); sets body2.k0 = body1.k0 (1 - s)/s",
                .equation = "paper 1, errata §5"},
               given);
  });
}

template <class Archive, class Sc>
void serialize_contact(Archive& a, Sc& sc) {
  using schema::Type;
  a.text(sc.name, {.key = "name", .type = Type::text, .default_value = "the file stem",
                   .doc = "names the output files <name>.csv/.json/.png"});
  a.text(sc.description, {.key = "description", .type = Type::text, .default_value = "\"\"",
                          .doc = "free text, copied into the JSON"});
  a.table({.key = "law", .type = Type::table, .default_value = "required", .doc = "the friction law (as lumped)"},
          [&](auto& b) { serialize(b, sc.law); });
  a.table({.key = "body1", .type = Type::table, .default_value = "required", .doc = "the upper body (as lumped)"},
          [&](auto& b) { serialize(b, sc.body1); });
  a.table({.key = "body2", .type = Type::table, .default_value = "rigid", .doc = "the substrate (as lumped)"},
          [&](auto& b) { serialize(b, sc.body2); });
  serialize_pair(a, sc.pair_s.has_value());
}

template <class Archive, schema::Of<PatchMapScenario> Self>
void serialize(Archive& a, Self& sc) {
  using schema::Type;
  a.declared({.key = "kind", .type = Type::text, .default_value = "required", .doc = "\"patch_steady_map\""});
  serialize_contact(a, sc);
  a.table({.key = "patch", .type = Type::table, .default_value = "required", .doc = "the contact patch"}, [&](auto& b) {
    serialize(b, sc.patch, true);
    b.integer(sc.threads, {.key = "threads", .type = Type::integer, .default_value = "0 (every core)",
                           .range = schema::integer_in(0, 1024),
                           .doc = "workers of solve_steady_map (the results do not depend on it)"});
  });
  const bool angle = sc.lateral.column == "slip_angle_deg";
  a.table({.key = "kinematics", .type = Type::table, .default_value = "required", .doc = "the operating points"},
          [&](auto& b) {
            b.declared({.key = "mode", .type = Type::text, .default_value = "\"rolling\"", .doc = "the only mode"});
            b.number(sc.Vr_mps, {.key = "Vr_mps", .unit = "m/s", .default_value = "required",
                                 .range = schema::non_negative(), .doc = "rolling speed V_r (0: pivoting)",
                                 .equation = "paper 1, §4"});
            const auto axis = [&](const PatchAxis& ax, std::string_view key, std::string_view unit, std::string_view doc,
                                  bool applies) {
              b.declared({.key = key, .type = Type::number_list, .unit = unit, .default_value = "0",
                          .range = schema::finite(), .doc = doc},
                         applies && !ax.list);
            };
            axis(sc.vx, "vx_mps", "m/s", "longitudinal creep v_x: a number, a list or { from, to, points, spacing }",
                 true);
            axis(sc.lateral, "vy_mps", "m/s", "lateral slip v_y (not with slip_angle_deg)", !angle);
            axis(sc.lateral, "slip_angle_deg", "deg", "slip angle alpha in (-89, 89): v_y = (V_r + v_x) tan alpha",
                 angle);
            axis(sc.spin, "spin_radps", "rad/s", "spin omega of body 1 about z", true);
            b.flag(sc.s_corrections, {.key = "s_corrections", .type = Type::flag, .default_value = "true",
                                      .doc = "the S-terms of the relative velocity", .equation = "paper 1, eq. 29"});
          });
  serialize_sweep_table(a, sc.sweep);
  a.table({.key = "output", .type = Type::table, .default_value = "-", .doc = "what the plot shows"}, [&](auto& b) {
    b.text(sc.output.plot_x, {.key = "plot_x", .type = Type::text, .default_value = "the row axis",
                              .doc = "an output column"});
    b.declared({.key = "plot_y", .type = Type::text_list, .default_value = "[\"Fx_N\", \"Fy_N\", \"Mz_Nm\"]",
                .doc = "output columns, at least one"});
    b.text(sc.output.title, {.key = "title", .type = Type::text, .default_value = "the scenario name",
                             .doc = "the plot title"});
    b.declared({.key = "columns", .type = Type::text_list, .default_value = "[]",
                .doc = "extra columns: Mz_no_phi_Nm, W_J, P_supplied_W, P_dissipated_W, P_outflow_W, "
                       "P_compression_W, P_residual_W, sweeps"});
  });
}

PatchMapScenario parse_patch_steady_map_string(std::string_view toml, std::string_view name = "scenario",
                                               const ScenarioSource& source = {});

/// The cases of a map: the scenario itself, or with a [sweep] one copy per value with the value applied by
/// key path (set_number, io/key_path.hpp); an error names the case ("sweep case 2 of 3 (pair.s = 2): ...").
std::vector<PatchMapScenario> patch_steady_map_cases(const PatchMapScenario& sc);

class PatchSteadyMapStudy final : public Scenario {
 public:
  explicit PatchSteadyMapStudy(PatchMapScenario sc);
  std::string_view kind() const override { return "patch_steady_map"; }
  const std::string& name() const override { return sc_.name; }
  std::size_t case_count() const override;
  std::string summary() const override;
  RunResult run(const ProgressCallback& progress = {}) const override;
  const PatchMapScenario& scenario() const { return sc_; }
  /// One per [sweep] value (the scenario itself without a sweep).
  const std::vector<PatchMapScenario>& cases() const { return cases_; }

 private:
  std::vector<PatchMapScenario> cases_;
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
  /// false only where the reader took F_z(t) = patch.normal_load_N (no load.Fz_N): then a key path set of the
  /// reference load moves the load too. A scenario built in code sets Fz_N itself.
  bool Fz_N_given = true;
  std::vector<TableFile> table_files;
  bool s_corrections = true;
  TimeGrid time;
  OutputOptions output;
  std::optional<Sweep> sweep;         // [sweep]: one case per value of a numeric key (applied by key path)
  std::optional<double> sweep_value;  // this case's value of sweep->parameter
  LumpedInputForm input_form;  // how the branches and the output grid were written (io/key_path.hpp)
  patch::PatchKinematics kinematics(double t) const;
  static std::vector<std::string> column_names();
};

/// The reader's checks of a parsed transient beyond each key's own range (bodies, patch, every output time).
void validate(const PatchTransientScenario& sc);

template <class Archive, schema::Of<PatchTransientScenario> Self>
void serialize(Archive& a, Self& sc) {
  using schema::Type;
  a.declared({.key = "kind", .type = Type::text, .default_value = "required", .doc = "\"patch_transient\""});
  serialize_contact(a, sc);
  a.table({.key = "patch", .type = Type::table, .default_value = "required",
           .doc = "the reference patch at normal_load_N"},
          [&](auto& b) {
            serialize(b, sc.transient.patch, false);
            serialize_scaling(b, sc.transient);
          });
  a.table({.key = "transient", .type = Type::table, .default_value = "-", .doc = "the transient solver"},
          [&](auto& b) { serialize(b, sc.transient); });
  const auto signal = [](auto& b, auto& s, std::string_view key, std::string_view unit, std::string_view def,
                         std::string_view doc) {
    b.table({.key = key, .type = Type::signal, .unit = unit, .default_value = def, .doc = doc},
            [&](auto& c) { serialize(c, s); });
  };
  a.table({.key = "kinematics", .type = Type::table, .default_value = "required", .doc = "the rolling kinematics"},
          [&](auto& b) {
            b.declared({.key = "mode", .type = Type::text, .default_value = "\"rolling\"", .doc = "the only mode"});
            signal(b, sc.Vr_mps, "Vr_mps", "m/s", "required", "rolling speed V_r(t) >= 0");
            signal(b, sc.vx_mps, "vx_mps", "m/s", "0", "longitudinal creep v_x(t)");
            signal(b, sc.vy_mps, "vy_mps", "m/s", "0", "lateral slip v_y(t)");
            signal(b, sc.spin_radps, "spin_radps", "rad/s", "0", "spin omega(t) of body 1 about z");
            b.flag(sc.s_corrections, {.key = "s_corrections", .type = Type::flag, .default_value = "true",
                                      .doc = "the S-terms of the relative velocity", .equation = "paper 1, eq. 29"});
          });
  a.table({.key = "load", .type = Type::table, .default_value = "-", .doc = "the normal load"},
          [&](auto& b) { signal(b, sc.Fz_N, "Fz_N", "N", "patch.normal_load_N", "normal load F_z(t), in (0, 1e9] N"); });
  a.table({.key = "time", .type = Type::table, .default_value = "required", .doc = "the output grid"},
          [&](auto& b) { serialize(b, sc.time); });
  serialize_sweep_table(a, sc.sweep);
  a.table({.key = "output", .type = Type::table, .default_value = "-", .doc = "what the plot shows"}, [&](auto& b) {
    b.text(sc.output.plot_x, {.key = "plot_x", .type = Type::text, .default_value = "\"t_s\"",
                              .doc = "an output column"});
    b.declared({.key = "plot_y", .type = Type::text_list,
                .default_value = "[\"Fz_N\", \"Fx_N\", \"Fy_N\", \"Mz_Nm\"]", .doc = "output columns, at least one"});
    b.text(sc.output.title, {.key = "title", .type = Type::text, .default_value = "the scenario name",
                             .doc = "the plot title"});
  });
}

PatchTransientScenario parse_patch_transient_string(std::string_view toml, std::string_view name = "scenario",
                                                    const ScenarioSource& source = {});

class PatchTransientStudy final : public Scenario {
 public:
  explicit PatchTransientStudy(PatchTransientScenario sc);
  std::string_view kind() const override { return "patch_transient"; }
  const std::string& name() const override { return sc_.name; }
  std::size_t case_count() const override { return cases_.size(); }
  std::string summary() const override;
  RunResult run(const ProgressCallback& progress = {}) const override;
  const PatchTransientScenario& scenario() const { return sc_; }
  /// One per [sweep] value (the scenario itself without a sweep).
  const std::vector<PatchTransientScenario>& cases() const { return cases_; }

 private:
  std::vector<PatchTransientScenario> cases_;
  PatchTransientScenario sc_;
};

/// The registered parsers (ScenarioParser signature).
std::unique_ptr<Scenario> parse_patch_steady_map_scenario(std::string_view toml, std::string_view name,
                                                          const ScenarioSource& source);
std::unique_ptr<Scenario> parse_patch_transient_scenario(std::string_view toml, std::string_view name,
                                                         const ScenarioSource& source);

}  // namespace bristle::io
