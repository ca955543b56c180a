#pragma once
// Key paths as an API: read and change one numeric parameter of a parsed scenario by the dotted TOML key
// that sets it ("law.mu_s", "body1.tau[1]", "bench.input.omega"), with the reader's own checks.
//
//   get_number(sc, "law.mu_s")           the value a file would have given (the TOML value after parse)
//   set_number(sc, "body1.k0", 2e5)      applies the value to the parsed structs (no TOML text, no re-parse),
//                                        keeps derived quantities consistent and validates like the reader
//   numeric_keys(sc)                     every key path set_number accepts for this scenario
//   key_info(sc, "law.mu_s")             unit, doc, paper equation, default and range of a key
//
// set_number(sc, key, v) then a run gives what parsing the file with `key = v` gives (bitwise the same CSV):
// - derived quantities follow the value as the reader derives them: a branch given by tau keeps its tau
//   (gkv K_i = C_i / tau_i, gm C_i = K_i tau_i, paper 1 eqs. 8 and 10), pair.s and body1.k0 set
//   body2.k0 = body1.k0 (1 - s)/s (paper 1 errata §5), a grid given by time.outputs keeps its count, a beam's
//   default contact follows its length, a patch_transient without load.Fz_N has F_z(t) = patch.normal_load_N;
// - the value is checked with the reader's rule and message, naming the key path as given
//   ("law.mu_s = -1: must be > 0"), then the table's own cross-checks run (law, bench, signals); NaN and
//   infinities (a ramp's t_end may be inf, as in TOML), magnitudes above 1e150, subnormals and integers beyond
//   their storage are refused as the reader refuses them; on any error the scenario is unchanged;
// - an unknown path is an InvalidInput with the nearest valid key ("unknown key \"law.mu_z\"; did you mean
//   \"law.mu_s\"?"); a key of another law/body/drive type says it does not apply; a derived key (body2.k0
//   under pair.s, body1.k of a gkv body given by tau) says which key to set instead.
// Matrix keys (k0, c, k, tau, sigma0..2) are numbers k meaning k I: only an isotropic value can be read or
// set as a number. Vector keys take an index ("bench.x0_m[1]"); without one, the number is the x component
// and y becomes 0, as in TOML. A constant signal is "bench.input" or "bench.input.value".
//
// Cost: get/set walk the kind's serialize() once with a Finder (no TOML, no re-parse, no copy of the
// scenario) and touch the structs in place; after a law or bench key the table's own validate() runs
// (LawParams/BenchParams::validate, which build a few short key strings), after any key the kind's
// cross-checks (patch kinds: validate(sc); lumped: validate() with a steady initial state); a constant
// signal given by its name builds "<name>.value". Meant to be called once per parameter per residual
// evaluation of a fit (not benchmarked yet).
#include <concepts>
#include <string>
#include <string_view>
#include <vector>

#include "bristle/io/scenario.hpp"

namespace bristle::io {

struct PatchMapScenario;  // io/patch_scenario.hpp
struct PatchTransientScenario;
struct LineSteadyScenario;  // io/line_scenario.hpp
struct LineTransientScenario;
struct StructureKernelScenario;  // io/structures_scenario.hpp
struct StructureStickSlipScenario;
struct DirectionalCoefficientsScenario;  // io/directional_scenario.hpp
struct DirectionalLoopScenario;
struct DirectionalCrawlerScenario;

/// The scenario kinds with key paths (every kind): the four functions below exist for each (io/key_path.cpp).
template <class Sc>
concept WithKeyPaths =
    std::same_as<Sc, LumpedScenario> || std::same_as<Sc, PatchMapScenario> || std::same_as<Sc, PatchTransientScenario> ||
    std::same_as<Sc, LineSteadyScenario> || std::same_as<Sc, LineTransientScenario> ||
    std::same_as<Sc, StructureKernelScenario> || std::same_as<Sc, StructureStickSlipScenario> ||
    std::same_as<Sc, DirectionalCoefficientsScenario> || std::same_as<Sc, DirectionalLoopScenario> ||
    std::same_as<Sc, DirectionalCrawlerScenario>;

template <WithKeyPaths Sc>
double get_number(const Sc& sc, std::string_view key_path);  // e.g. "law.mu_s"
template <WithKeyPaths Sc>
void set_number(Sc& sc, std::string_view key_path, double value);  // the reader's validation
template <WithKeyPaths Sc>
std::vector<std::string> numeric_keys(const Sc& sc);  // every settable numeric path

struct KeyInfo {
  std::string key;            // the key path asked for, e.g. "body1.tau[1]"
  std::string unit;           // SI unit, "-" for a pure number
  std::string doc;            // one line
  std::string equation;       // where it enters, e.g. "paper 1, eq. 53"
  std::string default_value;  // "1", "required", "the pair's static stiffness K_static", ...
  std::string range;          // "> 0", ">= 0", "(0, 1)", "finite", ">= 1 (integer)"
  double min = 0.0;           // bounds of the range (open or closed as `range` says); +-inf when unbounded
  double max = 0.0;
  bool log_scale = false;     // the parameter spans decades (stiffness, damping, times, tolerances)
  bool integer = false;       // an integer key (a count, an index, a step budget): not a continuous parameter
  bool numerics = false;      // a setting of the method, not of the model (schema::Field::numerics)
  schema::Range rule;         // the reader's rule (schema::Range::check gives its message)
};
template <WithKeyPaths Sc>
KeyInfo key_info(const Sc& sc, std::string_view key_path);  // log_scale: spans decades

// What the four functions set and check, kind by kind.
// ---- The patch kinds: the same rules, by the same mechanism (io/key_path.cpp walks the
// kind's serialize() with the schema's Finder, for every kind alike). [law], [body1], [body2], [pair] (and
// [time]) behave exactly as in the lumped kind (same derivations: tau kept, pair.s; same messages); the
// kind's own keys are set in place, checked with the schema's range (the reader's message, naming the key
// path), then the reader's cross-checks run (validate(sc) of the kind: bodies, patch, every operating point /
// output time). A list-valued key (e.g. a kinematics axis given as a list) is not a number: it does not apply.

// ---- kind = "structure_stick_slip" (io/structures_scenario.hpp): the same four functions and rules. [law],
// [body1], [body2], [pair] as in the lumped kind (when the scenario has a dynamic [law]); [friction],
// [structure] (its numbers: a built-in structure's rho, c, l, EI, rho A, damping_ratio; not the generic arrays),
// [contact], [model], [run] set in place with the schema's range, then io::validate(sc) runs the reader's
// cross-checks (structure, contact index, model against structure and step, admittance).

// ---- The directional kinds (io/directional_scenario.hpp): the same four functions and rules, by the same mechanism.
// Their numbers ([profile] amplitude, asymmetry; [mechanism] k, height_m, rest_length_m, theta_rad, length_m,
// theta_rest_rad as the kind applies them; [range] points, from_rad, to_rad; [drive], [crawler], [time], [integrator]
// rtol, atol_z_per_epsilon, max_steps; [epsilon] gamma; [run]) are set in place with the schema's range, then
// io::validate(sc) runs the reader's cross-checks (profile, mechanism, each eps against the mechanism and the wiggles
// limit, drive, crawler, the admissible range of the angle). range.from_rad / to_rad set counts as given (sampled);
// one not given follows the admissible bound of the profile and mechanism at hand, as the reader derives it (set to
// that bound, it stays not given). Lists
// (epsilon.values_m, a fourier or table profile's points) are not numbers.

// ---- kind = "structure_kernel" (io/structures_scenario.hpp): the same four functions and rules. [structure] (as in
// structure_stick_slip; a simply supported beam's default contact at l/2 follows length_m) and [kernel] (i, j,
// tau_start_s when given, tau_end_s, points, max_modes, relative_tolerance) set in place with the schema's range,
// then io::validate(sc) runs the reader's cross-checks (structure and damping, contact indices, grid, work limits).

// ---- The line kinds (io/line_scenario.hpp): the same four functions and rules, by the same mechanism. The kind's
// own numbers (line.L_m, line.normal_load_N, kinematics.Vr_mps, line.cells, line.cfl, line.dt_s, a constant signal
// kinematics.Vx / its keys, [time], and kinematics.V_mps / vx_mps of a map with one velocity) are set in place and
// checked with the schema's range; then rederive_and_validate(sc) re-derives s, n1, n2 and the case columns and runs
// the reader's cross-checks (pair, line and pressure, reversal, negative speeds of the map, CFL of a fixed step).

// ---- A parsed Scenario (load_scenario, parse_scenario_string) of a kind with key paths: lumped,
// patch_steady_map, patch_transient, line_steady, line_transient, structure_kernel, structure_stick_slip,
// directional_coefficients, directional_loop, directional_crawler (every kind). A line study's
// cases must agree on a value read; set applies it to every case (an error names the case) and refuses a key that
// its [sweep] varies (pair.s under sweep.s, body<i>.tau under sweep.tau<i>). A key-path [sweep] (parameter, values) of
// every kind is these functions too: the file is parsed once, each case a copy with the value
// set by set_number (the lumped kind included: no TOML re-writing). get reads the value (a lumped
// study's cases must agree: the parameter of a [sweep] differs between them); set applies it to every case
// with the same checks and rebuilds the study in place (a patch map's sweep cases again, each validated;
// the sweep's own parameter is refused); on any error the scenario is unchanged. A parsed Scenario keeps its origin
// (Scenario::origin(): the TOML text, shared by its copies) and the key paths set since (Scenario::origin_sets(), in
// order; a set of the key set last replaces its value), so that a copy made from the origin (pickling) sets them again.
double get_number(const Scenario& sc, std::string_view key_path);
void set_number(Scenario& sc, std::string_view key_path, double value);
std::vector<std::string> numeric_keys(const Scenario& sc);
KeyInfo key_info(const Scenario& sc, std::string_view key_path);

}  // namespace bristle::io
