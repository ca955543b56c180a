// bristle: the command line of the bristle friction library.
//
//   bristle run FILE.toml [--out DIR] [--no-plot] [--quiet] [--repeat N]
//   bristle fit FILE.toml [--out DIR] [--no-plot] [--quiet]   (kind lumped, line_steady, line_transient,
//                                                              patch_steady_map, patch_transient,
//                                                              structure_stick_slip)
//   bristle check FILE.toml
//   bristle --version | --help
//
// Exit codes: 0 success, 2 invalid input (scenario or command line), 3 solver failure or a non-finite
// output value, 1 anything else.
#include <fmt/format.h>
#include <glog/logging.h>
#include <malloc.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "bristle/contact/bench.hpp"
#include "bristle/contact/contact_model.hpp"
#include "bristle/core/error.hpp"
#include "bristle/fit/fit.hpp"
#include "bristle/fit/steady_map.hpp"
#include "bristle/io/fit_map_scenario.hpp"
#include "bristle/io/fit_scenario.hpp"
#include "bristle/io/key_path.hpp"
#include "bristle/io/keys.hpp"
#include "bristle/io/output.hpp"
#include "bristle/io/scenario.hpp"
#include "bristle/rheology/rheology.hpp"

namespace {

constexpr int kExitOk = 0;
constexpr int kExitOther = 1;
constexpr int kExitInvalidInput = 2;
constexpr int kExitSolver = 3;

/// The columns of a lumped run, from the library itself, wrapped to `width` after `indent` spaces.
std::string lumped_columns(std::size_t indent, std::size_t width) {
  const bristle::contact::ContactModel model(bristle::laws::LawParams{}, bristle::rheology::elastic(1.0),
                                             bristle::rheology::rigid());
  const bristle::contact::Bench bench(model, bristle::contact::BenchParams{});
  const auto names = bench.column_names();
  std::string out(indent, ' ');
  std::size_t line = indent;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::string word = names[i] + (i + 1 < names.size() ? "," : ".");
    if (line > indent && line + 1 + word.size() > width) {
      out += '\n';
      out.append(indent, ' ');
      line = indent;
    } else if (line > indent) {
      out += ' ';
      ++line;
    }
    out += word;
    line += word.size();
  }
  return out;
}

std::string one_line(std::string message) {
  std::replace(message.begin(), message.end(), '\n', ' ');
  return message;
}

/// --out: "" would write into the current directory without saying so.
std::string non_empty_directory(const std::string& dir) {
  return dir.empty() ? "empty; give a directory (default: the current directory)" : "";
}

/// After a solver failure: the scenario's numbers of extreme magnitude (|x| < 1e-100 or > 1e100, at most three),
/// which the rules of their keys accept but whose products the solver cannot hold (body1.k0 = 1e-200 failed at
/// t = 0 with a non-finite right-hand side that named no key). "" when there are none.
std::string extreme_values(const bristle::io::Scenario& scenario) {
  std::vector<std::string> found;
  std::vector<std::string> keys;
  try {
    keys = bristle::io::numeric_keys(scenario);
  } catch (const std::exception&) {  // a diagnostic: never in the way of the solver's own message
    return {};
  }
  for (const std::string& key : keys) {
    try {
      const double v = bristle::io::get_number(scenario, key);
      if (v != 0.0 && std::isfinite(v) && (std::abs(v) < 1e-100 || std::abs(v) > 1e100))
        found.push_back(fmt::format("{} = {}", key, bristle::format_value(v)));
    } catch (const std::exception&) {  // a key without a value here (law.sigma0 unset)
    }
  }
  if (found.empty()) return {};
  if (found.size() > 3) found.resize(3);
  std::string list;
  for (const std::string& f : found) list += (list.empty() ? "" : ", ") + f;
  return fmt::format(" (the scenario has numbers of extreme magnitude: {})", list);
}

int fail(const std::string& message, int code) {
  fmt::print(stderr, "bristle: error: {}\n", one_line(message));
  return code;
}

/// Progress on stderr: only once a case has run for more than 1 s, at most 2 lines per second.
class ProgressPrinter {
 public:
  void operator()(const bristle::io::Progress& p) {
    const auto now = Clock::now();
    if (p.case_index != current_) {
      current_ = p.case_index;
      case_start_ = now;
    }
    if (now - case_start_ < std::chrono::seconds(1)) return;
    if (printed_ && now - last_print_ < std::chrono::milliseconds(500)) return;
    printed_ = true;
    last_print_ = now;
    std::string which;
    if (p.case_count > 1)
      which = fmt::format("case {}/{}{}: ", p.case_index + 1, p.case_count,
                          p.label.empty() ? "" : fmt::format(" ({})", p.label));
    fmt::print(stderr, "bristle: {}{:5.1f}% ({:.1f} s)\n", which, 100.0 * p.fraction,
               std::chrono::duration<double>(now - case_start_).count());
  }

 private:
  using Clock = std::chrono::steady_clock;
  std::size_t current_ = static_cast<std::size_t>(-1);
  Clock::time_point case_start_{}, last_print_{};
  bool printed_ = false;
};

const char* kExitCodes =
    "Exit codes:\n"
    "  0  success\n"
    "  2  invalid input: a scenario error (TOML syntax, unknown or missing key, wrong type, value out of\n"
    "     range, unreadable table file) or a command-line error\n"
    "  3  solver failure (step-size collapse, non-finite state, step budget integrator.max_steps exhausted)\n"
    "     or a non-finite value in an output (named with its column, time and case; nothing is written)\n"
    "  1  anything else (e.g. the output directory cannot be written, gnuplot missing or failing)\n"
    "Errors are printed as one line: \"bristle: error: <message>\" on stderr.\n";

const char* kKeysDoc =
    "Scenario keys (every key with its unit, default and range) are documented in docs/scenarios.md of the\n"
    "bristle sources; 'bristle keys lumped' prints them (generated from the parameter schema).\n";

const char* kKinds =
    "Scenario kinds (top-level key `kind`):\n"
    "  lumped (default)          one contact point on a mechanical bench (velocity, force or spring drive)\n"
    "  line_steady               steady force maps of the line contact (sliding or rolling), exact solver\n"
    "  line_transient            transient line contact (finite volumes); fields in DIR/<name>_fields.csv\n"
    "  patch_steady_map          steady forces and moment of a 2-D contact patch over slip/spin grids\n"
    "  patch_transient           transient 2-D contact patch (e.g. a load step)\n"
    "  directional_coefficients  directional-friction thresholds rho+- and coefficients mu+- (paper 2)\n"
    "  directional_loop          the epsilon-system and its limit play law driven through a loop\n"
    "  directional_crawler       a two- or three-foot crawler on a nap\n"
    "  structure_kernel          memory kernels L1(tau) of a modal structure (paper 3)\n"
    "  structure_stick_slip      a structure against a moving belt: reduced (memory) or modal model\n\n";

}  // namespace

int main(int argc, char** argv) {
  // Ceres logs through glog: a fit whose model fails at a trial point printed "Logging before InitGoogleLogging()" and
  // "Terminating: Residual and Jacobian evaluation failed" above the CLI's own one-line error (helper-48). The CLI
  // reports every outcome itself (messages and exit codes), so glog keeps only FATAL.
  FLAGS_minloglevel = google::GLOG_FATAL;
  bristle::io::remove_temporaries_on_signal();  // Ctrl-C or SIGTERM while writing leaves no partial file
  bristle::io::refuse_to_replace_inputs();      // an output never replaces the scenario's data
  CLI::App app{"bristle " BRISTLE_VERSION
               " - dynamic friction modelling: runs scenario files (TOML) of the friction laws (Dahl, LuGre,\n"
               "FrBD, Bouc-Wen) on viscoelastic contact pairs: lumped benches, sliding and rolling line contacts,\n"
               "2-D contact patches, directional friction of bristles (paper 2) and elastic structures with friction\n"
               "contacts (paper 3).",
               "bristle"};
  app.set_version_flag("--version", "bristle " BRISTLE_VERSION, "Print the version and exit");
  app.require_subcommand(1);
  app.footer(std::string("\nExamples:\n"
                         "  bristle check scenario.toml            validate and summarise a scenario\n"
                         "  bristle run scenario.toml --out out    solve it; write out/<name>.csv, .json, .png\n"
                         "  bristle fit scenario.toml --out out    fit its [fit] parameters to measured data\n\n") +
             kKinds + kExitCodes + kKeysDoc + "Run 'bristle run --help' for the output files and their columns.");

  std::string run_file, check_file, out_dir = ".";
  bool no_plot = false, quiet = false;
  int repeat = 1;

  CLI::App* run = app.add_subcommand("run", "Solve a scenario and write DIR/<name>.csv, .json and .png");
  run->add_option("FILE", run_file, "Scenario file (TOML); keys documented in docs/scenarios.md")
      ->required()
      ->type_name("FILE.toml");
  run->add_option("--out,-o", out_dir, "Output directory, created if missing (default: the current directory)")
      ->check(non_empty_directory)
      ->type_name("DIR");
  run->add_flag("--no-plot", no_plot, "Do not render <name>.png (gnuplot is then not needed)");
  run->add_flag("--quiet,-q", quiet, "No progress messages and no list of written files");
  run->add_option("--repeat", repeat,
                  "Solve N times in this process, for timing (default 1): files of the last solve, JSON "
                  "solve_seconds = the best of the N (see below)")
      ->type_name("N")
      ->check(CLI::Range(1, 1000000));
  run->footer(fmt::format(
      "\nOutputs (<name> is the scenario's `name`, default the file stem). For kind = \"lumped\":\n"
      "  DIR/<name>.csv   header row, then one row per output time (time.t_start_s .. time.t_end_s every\n"
      "                   time.output_dt_s, both ends included), full double precision. Columns:\n"
      "{}\n"
      "                   With a [sweep]: long format, the sweep column first, one block of rows per case.\n"
      "  DIR/<name>.json  parameters as used (defaults filled in), per case: derived quantities (peak and\n"
      "                   final friction, stick-slip period for spring drives), final values of every\n"
      "                   column, the analytic steady friction at the final velocity, integrator\n"
      "                   statistics and solve_seconds (wall time of the solve only); bristle version and\n"
      "                   scenario path.\n"
      "  DIR/<name>.png   gnuplot plot (pngcairo): one panel per output.plot_y column against\n"
      "                   output.plot_x, one line per case with the sweep value in the legend.\n"
      "Other kinds write the same three files (line_transient also DIR/<name>_fields.csv) with their own\n"
      "columns, listed in docs/scenarios.md and the kind's page (docs/line_contact.md, patch.md,\n"
      "directional.md, structures.md); every CSV starts with a header row naming each column with its unit.\n"
      "The files appear together or not at all: on any error, Ctrl-C or SIGTERM no output file is left behind.\n"
      "With --repeat N the scenario is solved N times, one after the other in the same process, and the files\n"
      "are those of the last solve; the JSON's top-level solve_seconds and solve_cpu_seconds are the smallest\n"
      "of the N solves, and \"repeat\": {{\"count\": N, \"solve_seconds\": [...], \"solve_cpu_seconds\": [...]}}\n"
      "lists every solve's times in order (the first includes the cold start of the process: page faults,\n"
      "lazy binding). Per-case entries are the last solve's. Parsing the scenario and writing the files\n"
      "happen once and are never timed; the solve includes recording every output row. Memory freed between\n"
      "the solves stays mapped (glibc M_TRIM_THRESHOLD raised to 256 MiB), so that later solves reuse the\n"
      "pages the first one touched, as repeated calls in a warm process do.\n"
      "The paths of the written files are printed on stdout. Progress goes to stderr for cases that run\n"
      "longer than 1 s (at most 2 lines/s). --quiet suppresses both.\n"
      "\n"
      "Environment:\n"
      "  BRISTLE_GNUPLOT  gnuplot executable to use (default: gnuplot on PATH)\n"
      "\n{}{}{}",
      lumped_columns(19, 105), kKinds, kExitCodes, kKeysDoc));

  std::string fit_file, fit_out = ".", fit_compare;
  bool fit_no_plot = false, fit_quiet = false;
  CLI::App* fit = app.add_subcommand(
      "fit", "Fit a scenario's parameters to measured data ([fit] table); write DIR/<name>_fit.json, .csv, .png "
             "and DIR/<name>_fitted.toml");
  fit->add_option("FILE", fit_file, "Scenario file (TOML) of kind lumped, line_steady, line_transient, patch_steady_map, "
                  "patch_transient or structure_stick_slip with a [fit] table (docs/fitting.md)")
      ->required()
      ->type_name("FILE.toml");
  fit->add_option("--out,-o", fit_out, "Output directory, created if missing (default: the current directory)")
      ->check(non_empty_directory)
      ->type_name("DIR");
  fit->add_flag("--no-plot", fit_no_plot, "Do not render <name>_fit.png (gnuplot is then not needed)");
  fit->add_flag("--quiet,-q", fit_quiet, "No progress messages and no list of written files");
  fit->add_option("--compare", fit_compare,
                  "Model comparison: fit each of these models (labels of [[fit.model]] or law names dahl, lugre, "
                  "frbd, bouc_wen) to the same data; write DIR/<name>_compare.csv, .json, .png")
      ->type_name("M1,M2,...");
  fit->footer(std::string(
      "\nThe [fit] table names the data (CSV with a header row), the time column, an optional window_s, the\n"
      "initial_state (rest, match_first_sample or steady), [fit.targets] (model output = data column) and\n"
      "[fit.parameters] (key path = { initial, min, max, scale = \"linear\" | \"log\" }); several\n"
      "[[fit.experiment]] blocks share one parameter set. Bounded least squares (Ceres, Levenberg-Marquardt),\n"
      "exact Jacobian (discrete sensitivities) with integrator.method = \"sdirk2\", a velocity drive, keys of\n"
      "law/body1/body2 and F_N/Fy_N targets; else central differences through the scenario's integrator.\n"
      "kind = \"patch_steady_map\": the data rows are operating points, matched on fit.grid_column (the\n"
      "kinematics axis slip_angle_deg, vy_mps, vx_mps or spin_radps, and the data column of that name); targets\n"
      "Fx_N, Fy_N, Mz_Nm, Mz_no_phi_Nm; no time_column, window_s or initial_state; exact Jacobian\n"
      "(implicit-function derivative of the steady solve) for law/body1/body2/pair keys that leave the transport\n"
      "unchanged, else central differences; the CSV has the grid column in place of t_s (no model columns).\n"
      "kind = \"patch_transient\": time series as for lumped (time_column, window_s), from the unloaded contact\n"
      "(initial_state = \"rest\" only), targets any column of the kind's CSV (Fx_N, Fy_N, Mz_Nm, ...); exact\n"
      "Jacobian (tangent-linear run) for law/body1/body2/pair keys, else central differences of whole solves.\n"
      "kind = \"structure_stick_slip\": time series as for patch_transient; the run starts at rest at t = 0 (window_s\n"
      "selects the samples fitted), targets F_N, w_m, v_mps, vr_mps (f_state with a [law]); the model's rows are\n"
      "interpolated to the data times; exact Jacobian (a tangent structure per parameter) for the contact's keys,\n"
      "central differences of whole runs for the structure's.\n"
      "kind = \"line_steady\": a steady map as patch_steady_map, fit.grid_column = V_mps (sliding) or vx_mps\n"
      "(rolling), targets Fx_N, Fx_abs_N, Fx_norm, Fx_norm_abs, mu; kind = \"line_transient\": as patch_transient,\n"
      "targets any column of the kind's CSV (Fx_N, W_J, ...). Both: exact Jacobians for law/body1/body2/pair keys\n"
      "that leave the transport speeds alone, else central differences. <name>_fit.json says which (\"jacobian\").\n"
      "Outputs (<name> is the scenario's name, default the file stem):\n"
      "  DIR/<name>_fit.json    per parameter value, std_error, ci95; correlation, condition_number, rms per\n"
      "                         target, rms_N, aic, bic, converged, iterations, evaluations, warnings, fit_seconds\n"
      "  DIR/<name>_fit.csv     t_s (experiment first with several), per target <out>_measured, _fitted,\n"
      "                         _residual, then the model's x_m, v_mps, Fz_N\n"
      "  DIR/<name>_fit.png     data and fit against time, residual, and against position (gnuplot)\n"
      "  DIR/<name>_fitted.toml the scenario with the fitted values (first experiment), runnable with bristle run\n"
      "Model comparison (--compare, or a file with [[fit.model]] tables): each model is fitted in turn, then\n"
      "evaluated on fit.validation_window_s if given; written instead of the files above:\n"
      "  DIR/<name>_compare.json per model: label, law, converged, rms, rms_N, validation_rms(_N), aic, bic,\n"
      "                         parameters (value, std_error, ci95), warnings\n"
      "  DIR/<name>_compare.csv  a row per model (model = its index in the JSON's models): converged, rms_N,\n"
      "                         validation_rms_N, aic, bic, iterations, each parameter (empty if the model has none)\n"
      "  DIR/<name>_compare.png  the data and each model's fit over the fitted and the validation window\n"
      "  DIR/<name>_compare_<label>_fitted.toml  per model, its scenario with the fitted values (bristle run)\n"
      "Progress (iteration, cost) on stderr. On any error no output file is left behind.\n\n") +
      kExitCodes + "The keys of [fit]: docs/fitting.md.");

  CLI::App* check = app.add_subcommand("check", "Parse and validate a scenario without solving it; print a summary");
  check->add_option("FILE", check_file, "Scenario file (TOML); keys documented in docs/scenarios.md")
      ->required()
      ->type_name("FILE.toml");
  check->footer(std::string("\nA scenario with a [fit] table is checked as `bristle fit` reads it (the data file, targets,\n"
                            "parameters, experiments and [[fit.model]] entries), without fitting.\n"
                            "Exit codes: 0 the scenario is valid, 2 it is not (the error names the key).\n") +
                kKeysDoc);

  std::string keys_kind = "lumped", keys_format = "markdown", keys_section;
  bool keys_section_given = false;
  CLI::App* keys = app.add_subcommand("keys", "Print every key of a scenario kind with its unit, default, range and doc");
  keys->add_option("KIND", keys_kind, "Scenario kind (default: lumped); every kind is on the parameter schema: lumped, "
                   "line_steady, line_transient, patch_steady_map, patch_transient, structure_kernel, "
                   "structure_stick_slip, directional_coefficients, directional_loop, directional_crawler")
      ->type_name("KIND");
  keys->add_option("--format", keys_format, "markdown (tables, as in docs/scenarios.md) or json (an array of keys)")
      ->type_name("markdown|json")
      ->check(CLI::IsMember({"markdown", "json"}));
  keys->add_option("--section", keys_section,
                   "Markdown of one table only: \"\" (the top level), law, law.axis1, body1, pair, bench, time, "
                   "integrator, initial, sweep, output or signal (lumped); line, line.pressure_table, kinematics "
                   "(line kinds); patch, kinematics, transient, load (patch kinds); structure, kernel, contact, friction, "
                   "model, run (structures kinds); profile, mechanism, range, drive, epsilon, crawler (directional kinds)")
      ->type_name("TABLE");
  keys->footer("\nThe tables are generated from the parameter schema (the serialize() beside each parameter struct);\n"
               "the key tables of docs/scenarios.md are this command's output (a test checks it). JSON: one object\n"
               "per key with key (dotted path), section, type, unit, default, range, min, max, doc, equation,\n"
               "choices, used_by, log_scale. An unknown kind exits with code 2.\n");

  if (argc > 1 && argv[1][0] != '-') {  // CLI11 says only "A subcommand is required" of `bristle frobnicate`
    std::vector<std::string> commands;
    for (const CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) commands.push_back(sub->get_name());
    if (std::find(commands.begin(), commands.end(), argv[1]) == commands.end()) {
      const std::string word(argv[1]), shown = word.size() > 60 ? word.substr(0, 40) + "..." : word;
      const std::string near = bristle::nearest_word(word, commands);
      const bool scenario = word.size() > 5 && word.ends_with(".toml");  // `bristle scenario.toml`
      return fail(fmt::format("unknown command '{}'{} (commands: {}; see 'bristle --help')", shown,
                              scenario        ? fmt::format("; did you mean 'bristle run {}'?", shown)
                              : near.empty() ? ""
                                             : fmt::format("; did you mean '{}'?", near),
                              fmt::join(commands, ", ")),
                  kExitInvalidInput);
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) return app.exit(e);
    return fail(fmt::format("{} (see 'bristle --help')", e.what()), kExitInvalidInput);
  }

  try {
    if (*keys) {
      keys_section_given = keys->count("--section") > 0;
      const std::vector<std::string> kinds = bristle::io::scenario_kinds();
      if (std::find(kinds.begin(), kinds.end(), keys_kind) == kinds.end())
        throw bristle::InvalidInput(fmt::format("kind = \"{}\": unknown kind (kinds: {})", keys_kind,
                                                fmt::join(kinds, ", ")));
      if (keys_format == "json") {
        if (keys_section_given) throw bristle::InvalidInput("--section applies to --format markdown only");
        fmt::print("{}\n", bristle::io::keys_json(keys_kind).dump());
      } else if (keys_section_given) {
        fmt::print("{}", bristle::io::keys_markdown_section(keys_kind, keys_section));
      } else {
        fmt::print("{}", bristle::io::keys_markdown(keys_kind));
      }
      return kExitOk;
    }
    if (*check && bristle::io::is_fit_scenario(check_file)) {
      namespace io = bristle::io;
      // The fit as `bristle fit` reads it, in one line: its parameters, targets, experiments and data.
      const auto summary = [&](const auto& scenario, std::size_t count, const std::string& of,
                               std::string_view more = "") {
        std::vector<std::string> keys, targets;
        for (const auto& p : scenario.parameters) keys.push_back(p.key);
        for (const auto& t : scenario.experiments.front().targets) targets.push_back(t.output);
        fmt::print("fit of {}: {} parameter(s) ({}) to {} over {} experiment(s), {} {}{}\n", scenario.name,
                   keys.size(), fmt::join(keys, ", "), fmt::join(targets, ", "), scenario.experiments.size(), count,
                   of, more);
      };
      const auto samples = [&](const auto& scenario) {  // a time series kind: its data samples
        std::size_t n = 0;
        for (const auto& e : scenario.experiments) n += e.times.size();
        summary(scenario, n, "samples");
      };
      const auto rows = [&](const auto& scenario) {  // a map kind: its data rows and their grid column
        std::size_t n = 0;
        for (const auto& e : scenario.experiments) n += e.grid_values.size();
        summary(scenario, n, "rows of " + scenario.experiments.front().grid);
      };
      const std::string kind = io::scenario_kind(check_file);
      if (kind == "line_steady") {
        rows(io::load_line_steady_fit_scenario(check_file));
      } else if (kind == "line_transient") {
        samples(io::load_line_transient_fit_scenario(check_file));
      } else if (kind == "patch_transient") {
        samples(io::load_transient_fit_scenario(check_file));
      } else if (io::is_structure_fit_kind(kind)) {
        samples(io::load_structure_fit_scenario(check_file));
      } else if (io::is_map_fit_kind(kind)) {
        rows(io::load_map_fit_scenario(check_file));
      } else {
        const io::FitScenario scenario = io::load_fit_scenario(check_file);
        std::vector<std::string> labels;  // read before anything is printed: an error prints only itself
        if (io::has_fit_models(check_file))
          for (const auto& m : io::load_fit_comparison(check_file).models) labels.push_back(m.label);
        std::size_t n = 0;
        for (const auto& e : scenario.experiments) n += e.times.size();
        summary(scenario, n, "samples", scenario.validation.empty() ? "" : ", with a validation window");
        if (!labels.empty()) fmt::print("models to compare: {}\n", fmt::join(labels, ", "));
      }
      fmt::print("{}: valid (fit scenario; run it with bristle fit)\n", check_file);
      return kExitOk;
    }
    if (*check) {
      const auto scenario = bristle::io::load_scenario(check_file);
      fmt::print("{}", scenario->summary());
      fmt::print("{}: valid ({} case{})\n", check_file, scenario->case_count(),
                 scenario->case_count() == 1 ? "" : "s");
      return kExitOk;
    }
    if (*fit) {
      bristle::fit::IterationCallback progress;
      if (!fit_quiet)
        progress = [](const bristle::fit::Iteration& it) {
          if (it.starts > 1)
            fmt::print(stderr, "bristle fit: start {}/{}, iteration {}: cost {:.6g}\n", it.start + 1, it.starts,
                       it.iteration, it.cost);
          else
            fmt::print(stderr, "bristle fit: iteration {}: cost {:.6g}\n", it.iteration, it.cost);
        };
      namespace io = bristle::io;
      // One fit of one model, for every kind: load, fit, warnings, the four files (run_result), the summary.
      const auto fit_one = [&](auto load, auto run_result) {
        const auto scenario = load(fit_file);
        const bristle::fit::Result fitted =
            bristle::fit::fit(scenario.experiments, scenario.parameters, scenario.options, progress);
        for (const std::string& w : fitted.warnings) fmt::print(stderr, "bristle: warning: {}\n", one_line(w));
        bristle::io::WriteOptions options;
        options.plot = !fit_no_plot;
        const auto files = bristle::io::write_outputs(run_result(scenario, fitted), fit_out, options);
        if (!fit_quiet) {
          if (fitted.rms_N)
            fmt::print(stderr, "bristle fit: rms_N = {:.6g}, converged = {}\n", *fitted.rms_N, fitted.converged);
          for (const auto& f : files) fmt::print("{}\n", f.string());
          std::fflush(stdout);
        }
        return kExitOk;
      };
      const std::string kind = io::scenario_kind(fit_file);
      const bool lumped = kind.empty() || kind == "lumped";  // "": unreadable, the lumped reader says why
      if (!lumped && fit->count("--compare") > 0)
        throw bristle::InvalidInput(
            fmt::format("--compare: model comparison reads kind = \"lumped\" only, not \"{}\"", kind));
      if (kind == "line_steady")
        return fit_one([](const auto& f) { return io::load_line_steady_fit_scenario(f); },
                       [](const auto& sc, const auto& r) { return io::line_steady_fit_run_result(sc, r); });
      if (kind == "line_transient")
        return fit_one([](const auto& f) { return io::load_line_transient_fit_scenario(f); },
                       [](const auto& sc, const auto& r) { return io::line_transient_fit_run_result(sc, r); });
      if (kind == "patch_transient")
        return fit_one([](const auto& f) { return io::load_transient_fit_scenario(f); },
                       [](const auto& sc, const auto& r) { return io::transient_fit_run_result(sc, r); });
      if (io::is_structure_fit_kind(kind))
        return fit_one([](const auto& f) { return io::load_structure_fit_scenario(f); },
                       [](const auto& sc, const auto& r) { return io::structure_fit_run_result(sc, r); });
      if (io::is_map_fit_kind(kind))
        return fit_one([](const auto& f) { return io::load_map_fit_scenario(f); },
                       [](const auto& sc, const auto& r) { return io::map_fit_run_result(sc, r); });
      if (fit->count("--compare") > 0 || bristle::io::has_fit_models(fit_file)) {
        std::vector<std::string> names;
        if (fit->count("--compare") > 0) {
          std::size_t start = 0;
          while (true) {
            const std::size_t comma = fit_compare.find(',', start);
            std::string n = fit_compare.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
            n.erase(0, n.find_first_not_of(' '));
            n.erase(n.find_last_not_of(' ') + 1);
            if (n.empty())
              throw bristle::InvalidInput(fmt::format("--compare \"{}\": an empty model name (give M1,M2,...)",
                                                      fit_compare));
            names.push_back(n);
            if (comma == std::string::npos) break;
            start = comma + 1;
          }
        }
        const bristle::io::FitComparison comparison = bristle::io::load_fit_comparison(fit_file, names);
        const auto on_model = [&](std::size_t m) {
          if (!fit_quiet)
            fmt::print(stderr, "bristle fit: model {} ({}/{})\n", comparison.models[m].label, m + 1,
                       comparison.models.size());
        };
        const std::vector<bristle::io::ModelFit> fits = bristle::io::fit_models(comparison, progress, on_model);
        for (const auto& f : fits)
          for (const std::string& w : f.result.warnings)
            fmt::print(stderr, "bristle: warning: {}: {}\n", f.label, one_line(w));
        const bristle::io::RunResult result = bristle::io::compare_run_result(comparison, fits, fit_out);
        bristle::io::WriteOptions options;
        options.plot = !fit_no_plot;
        const auto files = bristle::io::write_outputs(result, fit_out, options);
        if (!fit_quiet) {
          for (const auto& f : fits)
            fmt::print(stderr, "bristle fit: {}: rms_N = {}, validation rms_N = {}, aic = {:.6g}, converged = {}\n",
                       f.label, f.result.rms_N ? fmt::format("{:.6g}", *f.result.rms_N) : "-",
                       f.validation_rms_N ? fmt::format("{:.6g}", *f.validation_rms_N) : "-", f.result.aic,
                       f.result.converged);
          for (const auto& f : files) fmt::print("{}\n", f.string());
          std::fflush(stdout);
        }
        return kExitOk;
      }
      return fit_one([](const auto& f) { return io::load_fit_scenario(f); },
                     [&](const auto& sc, const auto& r) { return io::fit_run_result(sc, r, fit_out); });
    }
    if (bristle::io::is_fit_scenario(run_file))
      throw bristle::InvalidInput(fmt::format(
          "{}: [fit]: a fit scenario is run by `bristle fit {}`; `bristle run` refuses it rather than ignore [fit] "
          "(run the <name>_fitted.toml that bristle fit writes, or the file without its [fit] table)",
          run_file, run_file));
    const auto scenario = bristle::io::load_scenario(run_file);
    ProgressPrinter printer;
    bristle::io::ProgressCallback progress;
    if (!quiet) progress = [&printer](const bristle::io::Progress& p) { printer(p); };
    bristle::io::RunResult result;
    try {
      result = scenario->run(progress);
    } catch (const bristle::SolverError& e) {
      throw bristle::SolverError(e.what() + extreme_values(*scenario));
    }
    if (repeat > 1) {
      // Solve N times; keep the last result, report the best and every time. Freed memory stays mapped
      // (glibc returns the top of the heap to the system beyond M_TRIM_THRESHOLD, 128 KiB by default, and
      // the next solve would page-fault the output columns in again), so that the later solves are warm
      // like the repeated calls of an in-process peer; the first solve shows the cold cost.
      mallopt(M_TRIM_THRESHOLD, 256 << 20);
      std::vector<double> wall{result.solve_seconds}, cpu;
      const auto cpu_of = [](const bristle::io::RunResult& r) {
        const bristle::io::Json* c = r.report.find("solve_cpu_seconds");
        return c ? c->number() : std::nullopt;
      };
      if (const auto c = cpu_of(result)) cpu.push_back(*c);
      for (int i = 1; i < repeat; ++i) {
        result = bristle::io::RunResult{};  // free the previous solve's memory for this one
        result = scenario->run(progress);
        wall.push_back(result.solve_seconds);
        if (const auto c = cpu_of(result)) cpu.push_back(*c);
      }
      bristle::io::Json summary = bristle::io::Json::object();
      summary["count"] = repeat;
      summary["solve_seconds"] = bristle::io::Json(wall);
      result.solve_seconds = *std::min_element(wall.begin(), wall.end());
      result.report["solve_seconds"] = result.solve_seconds;
      if (cpu.size() == wall.size()) {
        summary["solve_cpu_seconds"] = bristle::io::Json(cpu);
        result.report["solve_cpu_seconds"] = *std::min_element(cpu.begin(), cpu.end());
      }
      result.report["repeat"] = summary;
    }
    for (const std::string& w : result.warnings) fmt::print(stderr, "bristle: warning: {}\n", one_line(w));
    bristle::io::WriteOptions options;
    options.plot = !no_plot;
    const auto files = bristle::io::write_outputs(result, out_dir, options);
    if (!quiet) {
      for (const auto& f : files) fmt::print("{}\n", f.string());
      std::fflush(stdout);
    }
    return kExitOk;
  } catch (const bristle::InvalidInput& e) {
    return fail(e.what(), kExitInvalidInput);
  } catch (const bristle::SolverError& e) {
    return fail(fmt::format("solver failed: {}", e.what()), kExitSolver);
  } catch (const std::exception& e) {
    return fail(e.what(), kExitOther);
  }
}
