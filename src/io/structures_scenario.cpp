// kind = "structure_kernel" and "structure_stick_slip": elastic structures with frictional point contacts
// (paper 3) as scenario files. Keys and units: docs/structures.md, "Scenario files". Everything is
// validated at parse time (the structures and models are built once), so a bad file fails before
// anything is solved or written.
#include "bristle/io/structures_scenario.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <limits>
#include <functional>
#include <optional>
#include <sstream>
#include <system_error>

#include "bristle/contact/contact_model.hpp"
#include "bristle/core/error.hpp"
#include "bristle/structures/modal_model.hpp"
#include "csv_table.hpp"
#include "input_file.hpp"
#include "scenario_internal.hpp"
#include "schema_json.hpp"
#include "schema_reader.hpp"
#include "study.hpp"

// The schema choices of the structure kinds (found by argument-dependent lookup, schema_reader.hpp).
namespace bristle::structures {
static void choice_from_string(std::string_view key, std::string_view name, StructureKind& out) {
  out = structure_kind_from_string(key, name);
}
}  // namespace bristle::structures

namespace bristle::io {

static std::string_view to_string(StructureKernelScenario::Quantity q) {
  constexpr std::string_view names[] = {"displacement", "velocity", "step", "step_oscillating"};
  return names[static_cast<int>(q)];
}
static void choice_from_string(std::string_view key, std::string_view name, StructureKernelScenario::Quantity& out) {
  const std::vector<std::string> names = {"displacement", "velocity", "step", "step_oscillating"};
  const auto it = std::find(names.begin(), names.end(), name);
  if (it == names.end())
    throw InvalidInput(fmt::format("{} = {}: unknown kernel (valid: {}){}", key, json_quote(name),
                                   fmt::join(names, ", "), detail::suggestion(name, names)));
  out = static_cast<StructureKernelScenario::Quantity>(it - names.begin());
}

namespace {

using detail::JsonWriter;
using detail::ReaderHooks;
using detail::Section;
using Keys = std::vector<std::string>;
namespace st = bristle::structures;

std::string q(std::string_view s) { return json_quote(s); }

/// Most modes of the truncated modal model (its state has 2 per mode, its output a column each).
constexpr std::int64_t kMaxModes = 100'000;
/// Work of a modal run: modes x steps (~5 ns each here: 1e10 ~ 1 min).
constexpr double kMaxModeSteps = 1e10;
// Mode terms of a beam's kernel (points x columns x max_modes; ~90 ns each here, the cantilever's mode
// shapes: 1e9 ~ 90 s; examples/cantilever_kernel.toml counts 2.1e8 and runs in 9 s).
constexpr double kMaxKernelTerms = 1e9;

// ---------------------------------------------------------------------------------------------
// [structure]

/// A modes table: header row, then one row per mode: omega_rad_per_s, damping_ratio, n at each contact.
/// Read by the shared strict CSV reader; every value is checked here, at its file:line:column, so that
/// no message names a structure.* key that is not in the scenario.
void read_modes_csv(const std::string& file, const std::filesystem::path& path, st::GenericModalParams& g) {
  const std::string where = fmt::format("structure.file = {}", q(file));
  const std::string shown = path.string();
  const detail::CsvNumbers csv = detail::read_csv_numbers(where, path);
  const std::vector<std::string>& header = csv.header;
  if (header.size() < 3 || header[0] != "omega_rad_per_s" || header[1] != "damping_ratio")
    throw InvalidInput(fmt::format("{}: {}:{}: the header must be omega_rad_per_s, damping_ratio, then one column of "
                                   "mode values per contact point",
                                   where, shown, csv.header_line));
  if (csv.rows.empty())
    throw InvalidInput(fmt::format("{}: {} has no data rows; one row per mode is expected", where, shown));
  for (std::size_t r = 0; r < csv.rows.size(); ++r) {
    const std::span<const double> row = csv.rows[r];
    const auto at = [&](std::size_t c) {
      return fmt::format("{}: {}:{}:{}: {} = {}", where, shown, csv.row_lines[r], c + 1, header[c],
                         format_value(row[c]));
    };
    if (!(row[0] > 0.0)) throw InvalidInput(at(0) + ": must be > 0");
    if (!(row[1] >= 0.0 && row[1] < 1.0)) throw InvalidInput(at(1) + ": must lie in [0, 1) (every mode underdamped)");
    g.frequencies_rad_per_s.push_back(row[0]);
    g.damping_ratios.push_back(row[1]);
    g.mode_values.emplace_back(row.begin() + 2, row.end());
  }
}

/// The structure's checks beyond one key: its damping ratios (0 or >= st::kMinDampingRatio, the reduced model's
/// limit), then the structure itself (StructureSpec::build, under "structure"). The reader's and set_number's
/// (validate of both kinds).
void validate_structure(const StructureSpec& spec) {
  // A tiny positive damping ratio makes the memory kernels decay over 1/(D omega), the window the reduced
  // model keeps: D = 1e-200 exhausted memory in `check`. 0 (undamped) is exact; otherwise D >= kMinDamping.
  const auto require_damping = [](const std::string& key, double d) {
    if (d > 0.0 && d < st::kMinDampingRatio)
      throw InvalidInput(fmt::format("{} = {}: must be 0 or >= {} (Limits in docs/scenarios.md)", key,
                                     format_value(d), format_value(st::kMinDampingRatio)));
  };
  if (spec.kind == st::StructureKind::taut_string) require_damping("structure.damping_ratio", spec.string.damping_ratio);
  if (spec.kind == st::StructureKind::cantilever || spec.kind == st::StructureKind::simply_supported_beam)
    require_damping("structure.damping_ratio", spec.beam.damping_ratio);
  if (spec.kind == st::StructureKind::generic)
    for (std::size_t i = 0; i < spec.generic.damping_ratios.size(); ++i)
      require_damping(spec.file.empty() ? fmt::format("structure.damping_ratios[{}]", i)
                                        : fmt::format("structure.file (mode {} of {})", i + 1, q(spec.file)),
                      spec.generic.damping_ratios[i]);
  spec.build();  // validates under "structure"
}

/// The reader hooks of [structure] (StructureSpec's schema): the contact points (a beam without them touches at l/2,
/// simply supported, or at its tip l), the generic modes inline or from a CSV file; the damping ratio's [0, 1) is
/// the library's check (validate_structure).
void add_structure_hooks(ReaderHooks& h, StructureSpec& spec, const ScenarioSource& source) {
  h.check["structure.damping_ratio"] = [](const Section&) {};
  h.declared["structure.contact_positions_m"] = [&spec](const Section& s) {
    const bool beam = spec.kind != st::StructureKind::taut_string;
    std::vector<double>& chi = beam ? spec.beam.contact_positions_m : spec.string.contact_positions_m;
    if (beam) chi = {spec.kind == st::StructureKind::simply_supported_beam ? 0.5 * spec.beam.length_m : spec.beam.length_m};
    spec.contact_by_default = beam && !s.has("contact_positions_m");
    if (const auto v = s.numbers("contact_positions_m", true)) chi = *v;
  };
  h.declared["structure.frequencies_rad_per_s"] = [&spec, &source](const Section& s) {  // and the other mode keys
    st::GenericModalParams& g = spec.generic;
    if (s.has("file")) {
      for (const char* k : {"frequencies_rad_per_s", "damping_ratios", "mode_values"})
        if (s.has(k))
          throw InvalidInput(fmt::format("key \"{}\" cannot be combined with {}; give the modes either inline or in "
                                         "the file",
                                         s.key(k), s.key("file")));
      spec.file = *s.string("file");
      return read_modes_csv(spec.file, source.resolve(spec.file), g);
    }
    if (!s.has("frequencies_rad_per_s")) s.missing("frequencies_rad_per_s", "the natural frequencies, rad/s");
    if (!s.has("mode_values"))
      s.missing("mode_values", "the mass-normalised mode values at the contact points, one row per mode");
    g.frequencies_rad_per_s = *s.numbers("frequencies_rad_per_s", true);
    const std::size_t n = g.frequencies_rad_per_s.size();
    if (const auto d = s.numbers("damping_ratios", true))
      g.damping_ratios = (d->size() == 1 && s.node("damping_ratios")->is_number()) ? std::vector<double>(n, d->front())
                                                                                     : *d;
    else
      g.damping_ratios.assign(n, 0.0);
    const toml::array* rows = s.node("mode_values")->as_array();
    if (!rows) s.wrong_type("mode_values", "an array of rows (one array of numbers per mode)");
    for (std::size_t k = 0; k < rows->size(); ++k) {
      const toml::array* row = rows->get(k)->as_array();
      if (!row)
        throw InvalidInput(fmt::format("structure.mode_values[{}] = {}: must be an array of numbers (one per "
                                       "contact point)",
                                       k, detail::format_node(*rows->get(k))));
      std::vector<double> values;
      for (std::size_t c = 0; c < row->size(); ++c) {
        const toml::node* v = row->get(c);
        if (!v->is_number())
          throw InvalidInput(fmt::format("structure.mode_values[{}][{}] = {}: must be a number", k, c,
                                         detail::format_node(*v)));
        values.push_back(v->is_integer() ? static_cast<double>(v->as_integer()->get()) : v->as_floating_point()->get());
      }
      g.mode_values.push_back(std::move(values));
    }
  };
}

/// [structure] as used: its schema's walk (the string's tension after its wave speed, the generic modes' count and
/// file before them), then the contact points, static compliance and first natural frequencies.
Json structure_json(const StructureSpec& spec, const st::Structure& s) {
  const bool string = spec.kind == st::StructureKind::taut_string, generic = spec.kind == st::StructureKind::generic;
  JsonWriter::Hooks h;
  h["wave_speed_m_per_s"] = [&](Json& j) {
    if (!string) return;
    j["wave_speed_m_per_s"] = spec.string.wave_speed_m_per_s;
    j["tension_N"] = spec.string.tension_N();
  };
  h["contact_positions_m"] = [&](Json& j) {
    if (!generic) j["contact_positions_m"] = Json(string ? spec.string.contact_positions_m : spec.beam.contact_positions_m);
  };
  h["frequencies_rad_per_s"] = [&](Json& j) {
    if (!generic) return;
    if (!spec.file.empty()) j["file"] = spec.file;
    j["modes"] = static_cast<long>(spec.generic.frequencies_rad_per_s.size());
    j["frequencies_rad_per_s"] = Json(spec.generic.frequencies_rad_per_s);
  };
  h["damping_ratios"] = [&](Json& j) { if (generic) j["damping_ratios"] = Json(spec.generic.damping_ratios); };
  h["file"] = [](Json&) {};
  Json j = JsonWriter::write(spec, h, "structure");
  j["contact_points"] = s.contact_count();
  Json g = Json::array();
  for (int a = 0; a < s.contact_count(); ++a) {
    std::vector<double> row;
    for (int b = 0; b < s.contact_count(); ++b) row.push_back(s.static_compliance()(a, b));
    g.push_back(Json(row));
  }
  j["static_compliance_m_per_N"] = g;
  std::vector<double> omegas;
  const st::ModeTable t = s.modes(std::min<long>(s.mode_count(), 5));
  for (long k = 0; k < t.size(); ++k) omegas.push_back(t.omega[k]);
  j["first_frequencies_rad_per_s"] = Json(omegas);
  return j;
}

std::string structure_summary(const StructureSpec& spec, const st::Structure& s) {
  std::string out = fmt::format("structure  {} with {} contact point{}", st::to_string(spec.kind), s.contact_count(),
                                s.contact_count() == 1 ? "" : "s");
  if (s.finite()) out += fmt::format(", {} modes{}", s.mode_count(), spec.file.empty() ? "" : " from " + spec.file);
  out += fmt::format(", D = {}, G = {} m/N\n", format_value(s.min_damping_ratio()),
                     format_value(s.static_compliance()(0, 0)));
  return out;
}

/// The JSON hooks of the "parameters" of both kinds: [structure] as used; the root's own keys and [output] are
/// reported elsewhere.
JsonWriter::Hooks parameter_hooks(const StructureSpec& spec) {
  JsonWriter::Hooks h;
  for (const char* key : {"name", "description", "sweep", "output"}) h[key] = [](Json&) {};
  h["structure"] = [&spec](Json& j) { j["structure"] = structure_json(spec, spec.build()); };
  return h;
}

// ---------------------------------------------------------------------------------------------
// structure_kernel

std::string quantity_symbol(StructureKernelScenario::Quantity q) {
  constexpr std::string_view symbols[] = {"L1", "K", "S", "S0"};
  return std::string(symbols[static_cast<int>(q)]);
}

StructureKernelScenario parse_kernel(const Section& root, std::string_view name, const ScenarioSource& source) {
  StructureKernelScenario sc;
  sc.output.plot_x = "tau_s";
  ReaderHooks h;
  add_structure_hooks(h, sc.structure, source);
  h.check["kernel.i"] = h.check["kernel.j"] = [](const Section&) {};  // contact indices: validate()
  h.declared["kernel.spacing"] = [&sc](const Section& k) {
    const std::string spacing = k.string("spacing").value_or("linear");
    if (spacing != "linear" && spacing != "log")
      throw InvalidInput(fmt::format("kernel.spacing = {}: must be \"linear\" or \"log\"{}", q(spacing),
                                     detail::suggestion(spacing, {"linear", "log"})));
    sc.log_spacing = spacing == "log";
  };
  h.declared["kernel.damping_ratios"] = [&sc](const Section& k) {  // and kernel.columns
    const auto columns = k.strings("columns", true);
    const auto damping = k.numbers("damping_ratios", true);
    if (damping && columns && damping->size() != columns->size())
      throw InvalidInput(fmt::format("kernel.damping_ratios has {} entries but kernel.columns has {}: one damping "
                                     "ratio per column",
                                     damping->size(), columns->size()));
    if (damping && !columns && damping->size() > 1)
      k.missing("columns", "one column name per entry of kernel.damping_ratios");
    sc.columns = columns ? *columns : Keys{quantity_symbol(sc.quantity)};
    if (sc.columns.empty()) throw InvalidInput("kernel.columns = []: must name at least one column");
    for (std::size_t c = 0; c < sc.columns.size(); ++c) {
      const std::string& col = sc.columns[c];
      bool ok = detail::csv_column_name(col) && col != "tau_s";
      for (std::size_t d = 0; d < c; ++d) ok = ok && sc.columns[d] != col;
      if (!ok)
        throw InvalidInput(fmt::format("kernel.columns[{}] = {}: must be a new CSV column name (not empty, not "
                                       "\"tau_s\", no commas, quotes or repeats)",
                                       c, q(col)));
    }
    sc.damping_ratios.assign(sc.columns.size(), std::nullopt);
    for (std::size_t c = 0; damping && c < damping->size(); ++c) {
      const std::string key = damping->size() == 1 && !columns ? "kernel.damping_ratios"
                                                               : fmt::format("kernel.damping_ratios[{}]", c);
      const double d = (*damping)[c];
      require_finite(key, d);
      if (!(d >= 0.0 && d < 1.0))
        throw InvalidInput(fmt::format("{} = {}: must lie in [0, 1) (every mode underdamped)", key, format_value(d)));
      sc.damping_ratios[c] = d;
    }
  };
  detail::read_scenario(root, sc, "structure_kernel", name, source, h);
  const Section k = root.table("kernel");
  if (!k.has("tau_start_s")) {  // the grid (0, tau_end]: tau_end k / points, k = 1..points
    if (sc.log_spacing) k.missing("tau_start_s", "the first delay of a logarithmic grid, s (> 0)");
    sc.tau_start_s = -1.0;
  }
  if (sc.output.plot_y.empty()) sc.output.plot_y = sc.columns;
  validate(sc);
  Keys all{"tau_s"};
  all.insert(all.end(), sc.columns.begin(), sc.columns.end());
  detail::check_plot_columns(sc.output, all);
  sc.sweep = detail::read_key_path_sweep(root, all);
  return sc;
}

// ---------------------------------------------------------------------------------------------
// structure_stick_slip

const Keys kStickColumns = {"t_s", "w_m", "v_mps", "vr_mps", "F_N", "stick"};
const Keys kEnergyColumns = {"E_belt_J", "D_friction_J", "D_modal_J", "dE_stored_J", "energy_residual_J"};

StructureStickSlipScenario parse_stick_slip(const Section& root, std::string_view name, const ScenarioSource& source) {
  StructureStickSlipScenario sc;
  sc.output.plot_x = "t_s";
  sc.output.plot_y = {"w_m", "v_mps", "F_N"};
  // What the walk's tables apply to: [friction] (Coulomb-Stribeck) or [law] with [body1] (a dynamic law, read after
  // the walk as the lumped kind reads it), and the model's type.
  root.check_keys(detail::schema_keys(sc));
  const Section f = root.table("friction");
  sc.dynamic = root.has("law");
  if (f.present() && sc.dynamic)
    throw InvalidInput("key \"law\" cannot be combined with [friction]; give [friction] for Coulomb-Stribeck friction "
                       "or [law] (with [body1]) for a dynamic law of the core");
  if (!f.present() && !sc.dynamic)
    root.missing("friction", "the friction: [friction] (Coulomb-Stribeck: mu_s, mu_d, v_s, delta_s, mu_v) or [law] "
                             "with [body1] for a dynamic law (LuGre, FrBD, ...)");
  for (const char* t : {"body1", "body2", "pair"})
    if (f.present() && root.has(t))
      throw InvalidInput(fmt::format("key \"{}\" does not apply to [friction] (Coulomb-Stribeck); it belongs to a "
                                     "dynamic [law]",
                                     t));
  sc.modal = root.table("model").string("type") == "modal";
  ReaderHooks h;
  add_structure_hooks(h, sc.structure, source);
  h.check["contact.contact_index"] = h.check["model.window_steps"] = [](const Section&) {};  // validate()'s messages
  h.declared["friction.type"] = [](const Section& f) {
    if (const auto t = f.string("type"); t && *t != "coulomb_stribeck")
      throw InvalidInput(fmt::format("friction.type = {}: must be \"coulomb_stribeck\" (dynamic laws go in [law]){}",
                                     q(*t), detail::suggestion(*t, {"coulomb_stribeck"})));
  };
  h.before["model"] = [&sc](const Section& m) {
    const std::string type = m.string("type").value_or("reduced");
    if (type != "reduced" && type != "modal")
      throw InvalidInput(fmt::format("model.type = {}: must be \"reduced\" or \"modal\"{}", q(type),
                                     detail::suggestion(type, {"reduced", "modal"})));
    m.check_keys(detail::schema_keys(sc, "model", type), detail::schema_keys(sc, "model"), "model.type = " + q(type));
    if (sc.modal && !m.has("modes")) m.missing("modes", "the number of modes of the truncated model");
  };
  h.check["model.modes"] = [](const Section& m) {
    if (const auto n = *m.integer("modes"); n < 1 || n > kMaxModes)
      throw InvalidInput(fmt::format("{} = {}: must be a whole number in [1, {}] (Limits in docs/scenarios.md)",
                                     m.key("modes"), n, kMaxModes));
  };
  h.skip = {"law", "body1", "body2", "pair"};
  detail::read_scenario(root, sc, "structure_stick_slip", name, source, h);
  if (sc.dynamic) {
    sc.law = detail::read_law(root);
    detail::Body b1 = detail::read_body(root, "body1", true), b2 = detail::read_body(root, "body2", false);
    detail::read_pair(root, b1, b2, sc.pair_s);
    sc.input_form.body_tau[0] = b1.tau;
    sc.input_form.body_tau[1] = b2.tau;
    sc.body1 = b1.params;
    sc.body2 = b2.present ? b2.params : rheology::rigid();
  }
  validate(sc);
  Keys columns = kStickColumns;
  if (sc.modal && sc.track_energy) columns.insert(columns.end(), kEnergyColumns.begin(), kEnergyColumns.end());
  if (sc.dynamic) columns.emplace_back("f_state");
  detail::check_plot_columns(sc.output, columns);
  sc.sweep = detail::read_key_path_sweep(root, columns);
  return sc;
}

/// The output rows of a stick-slip run, as structures::run_stick_slip writes them: t = 0, every run.output_every-th
/// of its max(1, round(t_end / dt)) steps, and the last.
double output_rows(const StructureStickSlipScenario& sc) {
  const double steps = std::max(1.0, std::round(sc.run.t_end_s / sc.dt_s));
  return std::ceil(steps / static_cast<double>(sc.run.output_every)) + 1.0;
}

}  // namespace

// ---------------------------------------------------------------------------------------------

void validate(const StructureStickSlipScenario& sc) {
  validate_structure(sc.structure);
  const st::Structure s = sc.structure.build();  // validates under "structure"
  sc.contact.validate("contact", s.contact_count());  // the contact index against the structure's points
  if (sc.dynamic) {
    const contact::ContactModel check(sc.law, sc.body1, sc.body2);  // validates the law and the pair
    (void)check;
  } else {
    sc.friction.validate("friction");
  }
  if (!sc.modal) sc.reduced.validate("model");
  sc.run.validate("run");
  require_positive("run.dt_s", sc.dt_s);
  if (sc.run.t_end_s / sc.dt_s > st::kMaxStickSlipSteps)
    throw InvalidInput(fmt::format("run.t_end_s = {}: more than {} steps of run.dt_s = {}", format_value(sc.run.t_end_s),
                                   format_value(st::kMaxStickSlipSteps), format_value(sc.dt_s)));
  // Output rows, held in memory and written as CSV (the lumped kind's limit: ~470 bytes a row at the peak):
  // t_end_s = 1e5 at dt = 0.1 ms with output_every = 10 asked for 1e8 rows, std::bad_alloc (mutation run).
  const double rows = output_rows(sc);
  if (rows > static_cast<double>(detail::kMaxOutputTimes))
    throw InvalidInput(fmt::format("run.output_every = {}: run.t_end_s / run.dt_s / run.output_every gives {:.4g} "
                                   "output rows; at most {} (Limits in docs/scenarios.md)",
                                   sc.run.output_every, rows, detail::kMaxOutputTimes));
  if (sc.modal && static_cast<double>(sc.modes) * (sc.run.t_end_s / sc.dt_s) > kMaxModeSteps)
    throw InvalidInput(fmt::format("model.modes = {}: {} modes x {} steps (run.t_end_s / run.dt_s) = {} mode "
                                   "updates; at most {} (Limits in docs/scenarios.md)",
                                   sc.modes, sc.modes, format_value(sc.run.t_end_s / sc.dt_s),
                                   format_value(static_cast<double>(sc.modes) * (sc.run.t_end_s / sc.dt_s)),
                                   format_value(kMaxModeSteps)));

  // The step must see the structure move: omega_1 dt bounded (a string of wave speed 1e8 m/s at dt = 1 ms,
  // omega_1 dt = 3e5, gave a negative admittance from the reduced model's cancellations).
  {
    double omega_1 = 0.0, damping_1 = 0.0;
    std::vector<double> values(static_cast<std::size_t>(s.contact_count()));
    Eigen::Index slowest = 0;  // a generic structure's frequencies need not be sorted
    if (s.finite()) omega_1 = s.modes(s.mode_count()).omega.minCoeff(&slowest);
    else s.mode(1, omega_1, damping_1, values.data());
    if (!(omega_1 * sc.dt_s <= st::kMaxOmegaDt)) {
      // The keys omega_1 comes from, as the user wrote them (a wave speed of 1e10 named only run.dt_s).
      const StructureSpec& spec = sc.structure;
      std::string source;
      switch (spec.kind) {
        case st::StructureKind::taut_string:
          source = fmt::format("pi structure.wave_speed_m_per_s / structure.length_m = pi x {} / {}",
                               format_value(spec.string.wave_speed_m_per_s), format_value(spec.string.length_m));
          break;
        case st::StructureKind::cantilever:
        case st::StructureKind::simply_supported_beam:
          source = fmt::format("from structure.bending_stiffness_N_m2 = {}, mass_per_length_kg_per_m = {} and "
                               "length_m = {}",
                               format_value(spec.beam.bending_stiffness_N_m2),
                               format_value(spec.beam.mass_per_length_kg_per_m), format_value(spec.beam.length_m));
          break;
        case st::StructureKind::generic:
          source = spec.file.empty() ? fmt::format("structure.frequencies_rad_per_s[{}]", slowest)
                                     : fmt::format("omega_rad_per_s of mode {} of structure.file = {}", slowest + 1,
                                                   q(spec.file));
          break;
      }
      throw InvalidInput(fmt::format(
          "run.dt_s = {}: the structure's slowest mode (omega_1 = {} rad/s: {}) turns omega_1 x run.dt_s = {} rad "
          "per step; at most {} (Limits in docs/scenarios.md): a smaller step or a softer structure",
          format_value(sc.dt_s), format_value(omega_1), source, format_value(omega_1 * sc.dt_s),
          format_value(st::kMaxOmegaDt)));
    }
  }
  // validates the model against the structure (damping, step, modes), and friction must be able to act
  const auto model = sc.build_model(s);
  if (const double a = model->admittance()(sc.contact.contact_index, sc.contact.contact_index); !(a > 0.0))
    throw InvalidInput(fmt::format("contact.contact_index = {}: the structure's admittance there over one step of "
                                   "run.dt_s = {} is {} (a node of every mode?); friction cannot act",
                                   sc.contact.contact_index, format_value(sc.dt_s), format_value(a)));
}

void validate(const StructureKernelScenario& sc) {
  using Q = StructureKernelScenario::Quantity;
  validate_structure(sc.structure);
  const st::Structure s = sc.structure.build();
  const int M = s.contact_count();
  for (const auto& [key, index] : {std::pair{"kernel.i", sc.i}, std::pair{"kernel.j", sc.j}})
    if (index < 0 || index >= M)
      throw InvalidInput(fmt::format("{} = {}: must be a contact index in [0, {}]", key, index, M - 1));
  require_positive("kernel.tau_end_s", sc.tau_end_s);
  if (sc.tau_start_s >= 0.0) {  // given (-1: the grid (0, tau_end_s])
    if (sc.log_spacing || sc.quantity == Q::velocity) require_positive("kernel.tau_start_s", sc.tau_start_s);
    if (!(sc.tau_start_s < sc.tau_end_s))
      throw InvalidInput(fmt::format("kernel.tau_start_s = {}: must be < kernel.tau_end_s = {}",
                                     format_value(sc.tau_start_s), format_value(sc.tau_end_s)));
  }
  // The report lists the jumps of an undamped string's kernel up to kernel.tau_end_s, 4 per round trip
  // (tau_end_s = 1e12 s asked for ~1e12 of them: std::bad_alloc at the run; mutation run).
  for (std::size_t c = 0; c < sc.columns.size() && sc.structure.kind == st::StructureKind::taut_string; ++c) {
    const double jumps = st::kernel_jump_candidates(sc.structure.build(sc.damping_ratios[c]), sc.tau_end_s);
    if (!(jumps <= st::kMaxKernelJumps))
      throw InvalidInput(fmt::format(
          "kernel.tau_end_s = {}: the undamped string's kernel (column {}) jumps 4 times per round trip 2 "
          "structure.length_m / structure.wave_speed_m_per_s = {} s, {} jumps to list; at most {} (Limits in "
          "docs/scenarios.md)",
          format_value(sc.tau_end_s), q(sc.columns[c]),
          format_value(2.0 * sc.structure.string.length_m / sc.structure.string.wave_speed_m_per_s), format_value(jumps),
          format_value(st::kMaxKernelJumps)));
  }
  sc.kernel.validate("kernel");
  // Work of a beam's kernel (direct mode sums, no closed form): up to kernel.max_modes terms per sample and
  // column (the undamped tail is O(1/K), so at the default tolerance every sample takes them all).
  if (sc.structure.kind == st::StructureKind::cantilever || sc.structure.kind == st::StructureKind::simply_supported_beam) {
    const double terms = static_cast<double>(sc.points) * static_cast<double>(sc.columns.size()) *
                         static_cast<double>(sc.kernel.max_modes);
    if (terms > kMaxKernelTerms)
      throw InvalidInput(fmt::format("kernel.points = {}: {} points x {} column{} x kernel.max_modes = {} give {} mode "
                                     "terms of a beam's kernel; at most {} (Limits in docs/scenarios.md): fewer points "
                                     "or a smaller kernel.max_modes",
                                     sc.points, sc.points, sc.columns.size(), sc.columns.size() == 1 ? "" : "s",
                                     sc.kernel.max_modes, format_value(terms), format_value(kMaxKernelTerms)));
  }
  if (sc.quantity == Q::velocity && sc.structure.kind != st::StructureKind::taut_string &&
      sc.structure.kind != st::StructureKind::generic)
    for (std::size_t c = 0; c < sc.columns.size(); ++c) {
      const double d = sc.damping_ratios[c].value_or(s.min_damping_ratio());
      if (!(d > 0.0))
        throw InvalidInput(fmt::format("{} = 0: the velocity kernel of an undamped {} is not a function (its mode "
                                       "series diverges); give a damping ratio > 0",
                                       sc.damping_ratios[c] ? fmt::format("kernel.damping_ratios[{}]", c)
                                                            : std::string("structure.damping_ratio"),
                                       st::to_string(sc.structure.kind)));
    }
}

st::Structure StructureSpec::build(std::optional<double> damping) const {
  return st::Structure::of_kind(kind, string, beam, generic, damping);
}

std::vector<double> StructureKernelScenario::taus() const {
  std::vector<double> t;
  t.reserve(static_cast<std::size_t>(points));
  if (log_spacing) {
    const double a = std::log(tau_start_s), b = std::log(tau_end_s);
    for (int k = 0; k < points; ++k) t.push_back(std::exp(a + (b - a) * k / (points - 1)));
    t.back() = tau_end_s;
  } else if (tau_start_s < 0.0) {
    for (int k = 1; k <= points; ++k) t.push_back(tau_end_s * k / points);
  } else {
    for (int k = 0; k < points; ++k) t.push_back(tau_start_s + (tau_end_s - tau_start_s) * k / (points - 1));
  }
  return t;
}

std::unique_ptr<st::ContactStepper> StructureStickSlipScenario::build_model(const st::Structure& s) const {
  if (modal) {  // the library's messages name the TOML keys
    st::ModalModelOptions o;
    o.track_energy = track_energy;
    o.modes_key = "model.modes";
    o.dt_key = "run.dt_s";
    return std::make_unique<st::ModalModel>(s, modes, dt_s, o);
  }
  st::ReducedModelOptions o = reduced;
  o.dt_key = "run.dt_s";
  return st::make_reduced_model(s, dt_s, o);
}

StructureKernelScenario parse_structure_kernel_string(std::string_view toml, std::string_view name,
                                                      const std::filesystem::path& directory) {
  return detail::parse_text(toml, name, ScenarioSource::of_text(directory), parse_kernel);
}

StructureStickSlipScenario parse_structure_stick_slip_string(std::string_view toml, std::string_view name,
                                                             const std::filesystem::path& directory) {
  return detail::parse_text(toml, name, ScenarioSource::of_text(directory), parse_stick_slip);
}

StructureStickSlipScenario detail::parse_structure_stick_slip(const toml::table& root, std::string_view name,
                                                              const ScenarioSource& source) {
  return parse_stick_slip(Section(&root, ""), name, source);
}

std::string StructureKernelStudy::summary() const {
  const st::Structure s = sc_.structure.build();
  std::string out = fmt::format("scenario   {} (kind = \"structure_kernel\", {})\n", sc_.name, sc_.source.display_name());
  if (!sc_.description.empty()) out += fmt::format("description {}\n", sc_.description);
  out += structure_summary(sc_.structure, s);
  const auto t = sc_.taus();
  out += fmt::format("kernel     {} ({}) of contacts ({}, {}) at {} delays in [{}, {}] s ({} spacing)\n",
                     to_string(sc_.quantity), quantity_symbol(sc_.quantity), sc_.i, sc_.j, sc_.points,
                     format_value(t.front()), format_value(t.back()), sc_.log_spacing ? "log" : "linear");
  for (std::size_t c = 0; c < sc_.columns.size(); ++c)
    out += fmt::format("column     {}: damping ratio {}\n", sc_.columns[c],
                       sc_.damping_ratios[c] ? format_value(*sc_.damping_ratios[c]) : "of the structure");
  out += detail::sweep_summary(sc_.sweep, cases_.size());
  out += fmt::format("plot       {} against {}\n", fmt::join(sc_.output.plot_y, ", "), sc_.output.plot_x);
  return out;
}

StructureKernelStudy::StructureKernelStudy(StructureKernelScenario scenario)
    : cases_(detail::sweep_cases(scenario)), sc_(std::move(scenario)) {
  detail::count_swept_rows(cases_, [](const StructureKernelScenario& c) { return c.points; });
}

RunResult StructureKernelStudy::run(const ProgressCallback& progress) const {
  using Q = StructureKernelScenario::Quantity;
  Keys names{"tau_s"};
  names.insert(names.end(), sc_.columns.begin(), sc_.columns.end());
  // Case i (the scenario itself without a [sweep]): its kernel columns on its tau grid, each column's entry.
  struct Solved {
    TimeSeries series;
    Json columns = Json::array();
  };
  const auto solve = [&](std::size_t i, const std::function<void(double)>& on_progress) {
    const StructureKernelScenario& sc = cases_[i];
    const std::vector<double> tau = sc.taus();
    Solved solved{TimeSeries(names)};
    solved.series.columns[0] = tau;
    for (std::size_t c = 0; c < sc.columns.size(); ++c) {
      if (on_progress) on_progress(static_cast<double>(c) / static_cast<double>(sc.columns.size()));
      const st::Structure s = sc.structure.build(sc.damping_ratios[c]);
      st::KernelSamples k;
      switch (sc.quantity) {
        case Q::displacement: k = st::displacement_kernel(s, sc.i, sc.j, tau, sc.kernel); break;
        case Q::velocity: k = st::velocity_kernel(s, sc.i, sc.j, tau, sc.kernel); break;
        case Q::step: k = st::step_response(s, sc.i, sc.j, tau, sc.kernel); break;
        case Q::step_oscillating: k = st::step_response_oscillating(s, sc.i, sc.j, tau, sc.kernel); break;
      }
      solved.series.columns[c + 1] = k.value;
      Json j = Json::object();
      j["column"] = sc.columns[c];
      j["damping_ratio"] = s.min_damping_ratio();
      j["method"] = k.method;
      j["max_error_bound"] = k.max_error_bound();
      j["max_modes_summed"] = k.modes.empty() ? 0L : *std::max_element(k.modes.begin(), k.modes.end());
      j["right_limit_L1_0plus"] = st::right_limit(s, sc.i, sc.j);
      j["static_compliance_m_per_N"] = s.static_compliance()(sc.i, sc.j);
      if ((s.kind() == st::StructureKind::cantilever || s.kind() == st::StructureKind::simply_supported_beam) &&
          sc.i == sc.j)
        j["sqrt_law_coefficient"] = st::sqrt_law_coefficient(s, sc.i);
      Json jumps = Json::array();
      for (const st::KernelJump& jp : st::kernel_jumps(s, sc.i, sc.j, tau.back())) {
        Json e = Json::object();
        e["tau_s"] = jp.tau_s;
        e["jump"] = jp.jump;
        jumps.push_back(std::move(e));
      }
      j["jumps"] = jumps;
      solved.columns.push_back(std::move(j));
    }
    return solved;
  };
  // Without a [sweep] the column entries are the report's "cases"; with one, each case's entry holds them
  // under "kernels".
  Json unswept = Json::array();
  const auto describe = [&](std::size_t i, Solved& solved, Json& entry) {
    if (sc_.sweep) {
      entry[sc_.sweep->column] = *cases_[i].sweep_value;
      entry["label"] = fmt::format("{} = {}", sc_.sweep->parameter, format_value(*cases_[i].sweep_value));
      entry["kernels"] = std::move(solved.columns);
    } else {
      unswept = std::move(solved.columns);
    }
    return std::move(solved.series);
  };
  detail::StudyRun run = detail::run_study(kind(), sc_, detail::study_cases(sc_, cases_), solve, describe, progress);
  RunResult& result = run.result;
  result.log_x = sc_.log_spacing;

  Json& r = result.report;
  JsonWriter::Hooks h = parameter_hooks(sc_.structure);
  h["kernel.tau_start_s"] = [&](Json& k) { k["tau_first_s"] = sc_.taus().front(); };
  h["kernel.spacing"] = [&](Json& k) { k["spacing"] = sc_.log_spacing ? "log" : "linear"; };
  h["kernel.columns"] = [&](Json& k) { k["columns"] = Json(sc_.columns); };
  r["parameters"] = JsonWriter::write(sc_, h, "");
  r["columns"] = Json(names);
  detail::report_swept(r, sc_.sweep, run.entries);
  if (!sc_.sweep) r["cases"] = std::move(unswept);
  return result;
}

std::string StructureStickSlipStudy::summary() const {
  const st::Structure s = sc_.structure.build();
  std::string out =
      fmt::format("scenario   {} (kind = \"structure_stick_slip\", {})\n", sc_.name, sc_.source.display_name());
  if (!sc_.description.empty()) out += fmt::format("description {}\n", sc_.description);
  out += structure_summary(sc_.structure, s);
  out += fmt::format("contact    point {} on a belt at {} m/s under {} N\n", sc_.contact.contact_index,
                     format_value(sc_.contact.belt_speed_m_per_s), format_value(sc_.contact.normal_load_N));
  if (sc_.dynamic)
    out += fmt::format("friction   dynamic law {} (contact model of the core)\n", laws::to_string(sc_.law.kind));
  else
    out += fmt::format("friction   Coulomb-Stribeck: mu_s = {}, mu_d = {}, v_S = {} m/s, delta_S = {}, mu_v = {} s/m\n",
                       format_value(sc_.friction.mu.mu_s), format_value(sc_.friction.mu.mu_d),
                       format_value(sc_.friction.mu.v_s), format_value(sc_.friction.mu.delta_s),
                       format_value(sc_.friction.mu.mu_v));
  const auto model = sc_.build_model(s);
  out += fmt::format("model      {}\n", model->description());
  out += fmt::format("run        dt = {} s to {} s, every {} step(s) recorded\n", format_value(sc_.dt_s),
                     format_value(sc_.run.t_end_s), sc_.run.output_every);
  out += detail::sweep_summary(sc_.sweep, cases_.size());
  out += fmt::format("plot       {} against {}\n", fmt::join(sc_.output.plot_y, ", "), sc_.output.plot_x);
  return out;
}

StructureStickSlipStudy::StructureStickSlipStudy(StructureStickSlipScenario scenario)
    : cases_(detail::sweep_cases(scenario)), sc_(std::move(scenario)) {
  detail::count_swept_rows(cases_, output_rows);
}

namespace {

/// A case's results in the report: steps, admittance, well-posedness, stick extremes, limit cycle, intervals and
/// energy account (under a [sweep] in each case's entry, else at the top).
void stick_slip_json(Json& r, const st::StickSlipResult& out, const StructureStickSlipScenario& sc) {
  r["steps"] = out.steps;
  r["admittance_m_per_N_s"] = out.admittance_m_per_N_s;
  r["well_posed"] = out.well_posed;
  r["max_stick_velocity_mps"] = out.max_stick_velocity_mps;
  if (!sc.dynamic) r["max_stick_force_ratio"] = out.max_stick_force_ratio;
  Json lc = Json::object();
  lc["found"] = out.cycle.found;
  lc["cycles"] = out.cycle.cycles;
  lc["cycles_used"] = out.cycle.cycles_used;
  lc["breakaways_per_cycle"] = out.cycle.breakaways_per_cycle;
  lc["period_s"] = out.cycle.period_s;
  lc["period_spread_s"] = out.cycle.period_spread_s;
  lc["amplitude_w_m"] = out.cycle.amplitude_w_m;
  lc["amplitude_v_mps"] = out.cycle.amplitude_v_mps;
  lc["mean_w_m"] = out.cycle.mean_w_m;
  lc["force_min_N"] = out.cycle.force_min_N;
  lc["force_max_N"] = out.cycle.force_max_N;
  lc["stick_fraction"] = out.cycle.stick_fraction;
  r["limit_cycle"] = lc;
  long sticks = 0;
  for (const auto& iv : out.intervals) sticks += iv.stick ? 1 : 0;
  Json iv = Json::object();
  iv["count"] = static_cast<long>(out.intervals.size());
  iv["stick_count"] = sticks;
  iv["file"] = sc.name + "_intervals.csv";
  r["intervals"] = iv;
  if (out.energy.available) {
    Json e = Json::object();
    e["belt_work_J"] = out.energy.belt_work_J;
    e["friction_dissipation_J"] = out.energy.friction_dissipation_J;
    e["modal_damping_J"] = out.energy.modal_damping_J;
    e["stored_energy_change_J"] = out.energy.stored_energy_change_J;
    e["residual_J"] = out.energy.residual_J();
    r["energy"] = e;
  }
}

}  // namespace

RunResult StructureStickSlipStudy::run(const ProgressCallback& progress) const {
  // Case i's run (the scenario itself without a [sweep]), with its model's description.
  struct Solved {
    st::StickSlipResult out;
    std::string model_description;
    long history_terms = 0;
    double dt_s = 0.0;
  };
  const auto solve = [&](std::size_t i, const std::function<void(double)>& on_progress) {
    const StructureStickSlipScenario& sc = cases_[i];
    const st::Structure s = sc.structure.build();
    const auto model = sc.build_model(s);
    Solved solved{st::StickSlipResult(), model->description(), model->history_terms(), model->step_s()};
    if (sc.dynamic) {
      const contact::ContactModel cm(sc.law, sc.body1, sc.body2);
      solved.out = st::run_stick_slip(*model, sc.contact, cm, sc.run, on_progress);
    } else {
      solved.out = st::run_stick_slip(*model, sc.contact, sc.friction, sc.run, on_progress);
    }
    return solved;
  };
  // The intervals of every case (the sweep column first under a [sweep]); case 0's results for an unswept report.
  std::string intervals = sc_.sweep ? sc_.sweep->column + ",t_start_s,t_end_s,stick\n" : "t_start_s,t_end_s,stick\n";
  std::optional<Solved> first;
  const auto describe = [&](std::size_t i, Solved& solved, Json& entry) {
    const st::StickSlipResult& out = solved.out;
    const std::string prefix = sc_.sweep ? fmt::format("{},", *cases_[i].sweep_value) : std::string();
    for (const auto& x : out.intervals)
      intervals += fmt::format("{}{},{},{}\n", prefix, x.t_start_s, x.t_end_s, x.stick ? 1 : 0);
    if (sc_.sweep) {
      entry[sc_.sweep->column] = *cases_[i].sweep_value;
      entry["label"] = fmt::format("{} = {}", sc_.sweep->parameter, format_value(*cases_[i].sweep_value));
      stick_slip_json(entry, out, cases_[i]);
    }
    TimeSeries series = std::move(solved.out.series);
    if (i == 0) first = std::move(solved);
    return series;
  };
  detail::StudyRun run = detail::run_study(kind(), sc_, detail::study_cases(sc_, cases_), solve, describe, progress);
  RunResult& result = run.result;

  Json& r = result.report;
  JsonWriter::Hooks h = parameter_hooks(sc_.structure);
  if (sc_.dynamic) {
    h["law"] = [&, sigma0 = contact::ContactModel(sc_.law, sc_.body1, sc_.body2).law().sigma0()](Json& j) {
      j["law"] = detail::law_to_json(sc_.law, sigma0);
    };
    h["body1"] = [&](Json& j) { j["body1"] = detail::body_to_json(sc_.body1); };
    h["body2"] = [&](Json& j) { j["body2"] = detail::body_to_json(sc_.body2); };
  }
  h["pair"] = [](Json&) {};
  h["friction.type"] = [](Json& f) { f["type"] = "coulomb_stribeck"; };
  h["model.type"] = [&](Json& m) { m["type"] = sc_.modal ? "modal" : "reduced"; };
  h["model.far_tolerance"] = [&](Json& m) {  // then the model as built (the first case's)
    if (!sc_.modal) m["far_tolerance"] = sc_.reduced.far_tolerance;
    m["description"] = first->model_description;
    m["history_terms_per_step"] = first->history_terms;
  };
  h["run.dt_s"] = [&](Json& rn) { rn["dt_s"] = first->dt_s; };
  r["parameters"] = JsonWriter::write(sc_, h, "");
  if (!sc_.sweep) stick_slip_json(r, first->out, sc_);
  r["columns"] = Json(result.cases.front().series.names);
  detail::report_swept(r, sc_.sweep, run.entries,
                       "parameters are those of the file (the model: the first case's); each case sets the swept key "
                       "to its value");
  result.extra_files.push_back(ExtraFile{"_intervals.csv", std::move(intervals)});
  return result;
}

std::unique_ptr<Scenario> parse_structure_kernel_scenario(std::string_view toml, std::string_view name,
                                                          const ScenarioSource& source) {
  return std::make_unique<StructureKernelStudy>(detail::parse_text(toml, name, source, parse_kernel));
}

std::unique_ptr<Scenario> parse_structure_stick_slip_scenario(std::string_view toml, std::string_view name,
                                                              const ScenarioSource& source) {
  return std::make_unique<StructureStickSlipStudy>(detail::parse_text(toml, name, source, parse_stick_slip));
}

}  // namespace bristle::io
