// Python bindings of bristle/io: scenario files (every kind the library registers, so Python runs any
// example TOML), their parsed cases, run results, and the CSV/JSON/PNG writers.
#include <pybind11/stl/filesystem.h>

// The line-contact scenario kinds (and RunResult's case_labels, log_x, extra_files that came with them).
#if __has_include("bristle/io/line_scenario.hpp")
#include "bristle/io/line_scenario.hpp"
#define BRISTLE_PYTHON_LINE_SCENARIOS 1
#else
#define BRISTLE_PYTHON_LINE_SCENARIOS 0
#endif
#include "bristle/io/key_path.hpp"
#include "bristle/io/output.hpp"
#include "bristle/io/scenario.hpp"
#include "common.hpp"

namespace bristle::python {

using io::CaseResult;
#if BRISTLE_PYTHON_LINE_SCENARIOS
using io::LineSteadyScenario;
using io::LineTransientScenario;
#endif
using io::LumpedScenario;
using io::RunResult;
using io::Scenario;

namespace {

py::object json_to_python(const io::Json& json) { return py::module_::import("json").attr("loads")(json.dump(0)); }

/// Relays io::Progress to an optional Python callable(progress) with the GIL taken: when a case starts
/// or ends, and at most every 0.1 s in between; also checks for Ctrl-C.
class ScenarioProgressRelay {
 public:
  /// TypeError at once (before any work) unless `callback` is None or callable.
  explicit ScenarioProgressRelay(py::handle callback) : callback_(callback) {
    require_progress_callable(callback, "callable(Progress)");
  }
  io::ProgressCallback function() {
    return [this](const io::Progress& p) {
      const auto now = std::chrono::steady_clock::now();
      const bool edge = p.case_index != last_case_ || p.fraction >= 1.0;
      if (!edge && now - last_ < std::chrono::milliseconds(100)) return;
      last_ = now;
      last_case_ = p.case_index;
      py::gil_scoped_acquire gil;
      if (PyErr_CheckSignals() != 0) throw py::error_already_set();
      if (!callback_.is_none()) callback_(p);
    };
  }

 private:
  py::handle callback_;
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
  std::size_t last_case_ = static_cast<std::size_t>(-1);
};

template <class Owner, class Item>
py::list reference_list(py::object self, std::vector<Item> Owner::*member) {
  Owner& owner = self.cast<Owner&>();
  py::list out;
  for (auto& item : owner.*member) out.append(py::cast(&item, py::return_value_policy::reference_internal, self));
  return out;
}

/// The cases of a study as a list of references (the study stays alive while they are used).
template <class Study>
py::list case_list(py::object self) {
  const Study& study = self.cast<const Study&>();
  py::list out;
  for (const auto& c : study.cases()) out.append(py::cast(&c, py::return_value_policy::reference_internal, self));
  return out;
}

#if BRISTLE_PYTHON_LINE_SCENARIOS
template <class Case, class Class>
void bind_line_case_base(Class& cls) {
  cls.def_readwrite("name", &Case::name)
      .def_readwrite("description", &Case::description)
      .def_readonly("case_index", &Case::case_index)
      .def_readonly("case_count", &Case::case_count)
      .def_readwrite("label", &Case::label, "legend entry, e.g. \"s = 0.4, n2 = 1\"")
      .def_readonly("columns", &Case::columns, "case parameters as (CSV column, value) pairs")
      .def_readwrite("law", &Case::law)
      .def_readwrite("body1", &Case::body1)
      .def_readwrite("body2", &Case::body2)
      .def_readwrite("pair_s", &Case::pair_s)
      .def_readwrite("body2_c_eq58", &Case::body2_c_eq58)
      .def_readwrite("s", &Case::s, "k01/(k01 + k02) of the pair")
      .def_readwrite("n1", &Case::n1)
      .def_readwrite("n2", &Case::n2)
      .def_readwrite("mode", &Case::mode)
      .def_readwrite("allow_reversal", &Case::allow_reversal)
      .def_readwrite("line", &Case::line)
      .def_readwrite("output", &Case::output)
      .def_readwrite("log_x", &Case::log_x)
      .def(
          "model", [](const Case& c) { return contact::ContactModel(c.law, c.body1, c.body2); },
          "The ContactModel of this case.");
}
#endif

}  // namespace

void export_io(py::module_& root) {
  py::module_ m =
      root.def_submodule("io", "Scenario files (TOML) of every registered kind, run results, output writers.");
  py::register_exception<io::OutputError>(m, "OutputError", PyExc_OSError);

  py::class_<io::TimeGrid>(m, "TimeGrid",
                           "[time]: output times from t_start_s to t_end_s every output_dt_s (s), both ends included.")
      .def(py::init([](double t_start_s, double t_end_s, double output_dt_s) {
             return io::TimeGrid{t_start_s, t_end_s, output_dt_s};
           }),
           py::kw_only(), py::arg("t_start_s") = 0.0, py::arg("t_end_s") = 0.0, py::arg("output_dt_s") = 0.0)
      .def_readwrite("t_start_s", &io::TimeGrid::t_start_s)
      .def_readwrite("t_end_s", &io::TimeGrid::t_end_s)
      .def_readwrite("output_dt_s", &io::TimeGrid::output_dt_s)
      .def(
          "times", [](const io::TimeGrid& g) { return copy_array(g.times()); }, "The output times (s).");

  py::class_<io::Sweep>(m, "Sweep", "[sweep] of the lumped kind: one case per value of a numeric key.")
      .def_readonly("parameter", &io::Sweep::parameter)
      .def_readonly("column", &io::Sweep::column)
      .def_readonly("values", &io::Sweep::values);
  py::class_<io::OutputOptions>(m, "OutputOptions", "[output]: plot_x, plot_y, title.")
      .def_readwrite("plot_x", &io::OutputOptions::plot_x)
      .def_readwrite("plot_y", &io::OutputOptions::plot_y)
      .def_readwrite("title", &io::OutputOptions::title);
  py::class_<io::InitialCondition>(m, "InitialCondition", "[initial]: initial normalised force f, or steady = True.")
      .def_property(
          "f", [](const io::InitialCondition& c) -> Vec2 { return c.f; },
          [](io::InitialCondition& c, py::handle v) { c.f = to_vec2(v, "initial.f"); })
      .def_readwrite("steady", &io::InitialCondition::steady);

  py::class_<LumpedScenario>(m, "LumpedScenario", R"doc(
One case of a kind = "lumped" scenario: law, body1, body2, bench, time, integrator, initial, output,
and for sweeps sweep and sweep_value. Edit the fields and run LumpedStudy([case]).run().)doc")
      .def_readwrite("name", &LumpedScenario::name)
      .def_readwrite("description", &LumpedScenario::description)
      .def_readwrite("law", &LumpedScenario::law)
      .def_readwrite("body1", &LumpedScenario::body1)
      .def_readwrite("body2", &LumpedScenario::body2)
      .def_readwrite("pair_s", &LumpedScenario::pair_s)
      .def_readwrite("bench", &LumpedScenario::bench)
      .def_readwrite("time", &LumpedScenario::time)
      .def_readwrite("integrator", &LumpedScenario::integrator)
      .def_readwrite("initial", &LumpedScenario::initial)
      .def_readonly("sweep", &LumpedScenario::sweep)
      .def_readonly("sweep_value", &LumpedScenario::sweep_value)
      .def_readwrite("output", &LumpedScenario::output)
      .def("validate", &LumpedScenario::validate,
           "Builds the library objects; InvalidInput if any rejects the parameters.")
      .def(
          "model", [](const LumpedScenario& c) { return contact::ContactModel(c.law, c.body1, c.body2); },
          "The ContactModel of this case.")
      .def(
          "initial_contact_state",
          [](const LumpedScenario& c, const contact::ContactModel& model) {
            return copy_array(c.initial_contact_state(model));
          },
          py::arg("model"), "u0 for contact.run, from [initial].");

#if BRISTLE_PYTHON_LINE_SCENARIOS
  py::enum_<io::LineMode>(m, "LineMode",
                          "Line kinematics: sliding (V1 = 0, V2 = V_x), rolling (V1 = V_r, V2 = V_x), general.")
      .value("sliding", io::LineMode::sliding)
      .value("rolling", io::LineMode::rolling)
      .value("general", io::LineMode::general);

  py::class_<LineSteadyScenario> steady(m, "LineSteadyScenario", R"doc(
One case of a kind = "line_steady" scenario: the contact model parts, the line, the mode and the
velocities (sliding: V_x; rolling: v_x = V_x - V_r, with Vr_mps).)doc");
  bind_line_case_base<LineSteadyScenario>(steady);
  steady
      .def_property(
          "velocities", [](const LineSteadyScenario& c) { return copy_array(c.velocities); },
          [](LineSteadyScenario& c, py::handle v) { c.velocities = to_vector(v, "kinematics velocities"); },
          "sliding: V_x (m/s); rolling: v_x = V_x - V_r (m/s)")
      .def_readwrite("Vr_mps", &LineSteadyScenario::Vr_mps, "rolling speed V_r (m/s), rolling only")
      .def("column_names", &LineSteadyScenario::column_names)
      .def(
          "material_velocities",
          [](const LineSteadyScenario& c) {
            const std::size_t n = c.velocities.size();
            py::array_t<double> V1(static_cast<py::ssize_t>(n)), V2(static_cast<py::ssize_t>(n));
            for (std::size_t i = 0; i < n; ++i) {
              const double v = c.velocities[i];
              V1.mutable_data()[i] = c.mode == io::LineMode::sliding ? 0.0 : c.Vr_mps;
              V2.mutable_data()[i] = c.mode == io::LineMode::sliding ? v : c.Vr_mps + v;
            }
            return py::make_tuple(V1, V2);
          },
          "(V1, V2) arrays (m/s) of the steady solves, as solve() uses them.")
      .def(
          "solve",
          [](const LineSteadyScenario& c, const contact::ContactModel& model) {
            py::gil_scoped_release release;
            return c.solve(model);
          },
          py::arg("model"), "Solves every velocity (serially): the rows of the CSV.");

  py::class_<LineTransientScenario> transient(m, "LineTransientScenario",
                                              "One case of a kind = \"line_transient\" scenario.");
  bind_line_case_base<LineTransientScenario>(transient);
  transient.def_readwrite("time", &LineTransientScenario::time)
      .def_readwrite("field_times", &LineTransientScenario::field_times)
      .def("output_times", [](const LineTransientScenario& c) { return copy_array(c.output_times()); });

#endif

  py::class_<io::Progress>(m, "Progress",
                           "Progress of a scenario run: case_index (0-based), case_count, fraction (0..1), label.")
      .def_readonly("case_index", &io::Progress::case_index)
      .def_readonly("case_count", &io::Progress::case_count)
      .def_readonly("fraction", &io::Progress::fraction)
      .def_readonly("label", &io::Progress::label)
      .def("__repr__", [](const io::Progress& p) {
        return "Progress(case_index=" + std::to_string(p.case_index) + ", case_count=" + std::to_string(p.case_count) +
               ", fraction=" + repr_double(p.fraction) + ", label='" + p.label + "')";
      });

  py::class_<CaseResult>(m, "CaseResult",
                         "The solution of one case: sweep_value (or None), series (TimeSeries), solve_seconds.")
      .def_readonly("sweep_value", &CaseResult::sweep_value)
      .def_readonly("series", &CaseResult::series)
      .def_readonly("solve_seconds", &CaseResult::solve_seconds);
#if BRISTLE_PYTHON_LINE_SCENARIOS
  py::class_<io::ExtraFile>(m, "ExtraFile", "A further output file <name><suffix> with its text.")
      .def_readonly("suffix", &io::ExtraFile::suffix)
      .def_readonly("text", &io::ExtraFile::text);

#endif

  py::class_<RunResult> run_result(m, "RunResult", R"doc(
Everything a scenario run produced: name, title, sweep_column, cases (CaseResult per case, in order),
plot_x, plot_y, case_labels, log_x, solve_seconds (wall time of the solves), report (the JSON report
as Python objects), extra_files.)doc");
  run_result.def_readonly("name", &RunResult::name)
      .def_readonly("title", &RunResult::title)
      .def_readonly("sweep_column", &RunResult::sweep_column)
      .def_property_readonly("cases", [](py::object self) { return reference_list(self, &RunResult::cases); })
      .def_readonly("plot_x", &RunResult::plot_x)
      .def_readonly("plot_y", &RunResult::plot_y)
      .def_readonly("solve_seconds", &RunResult::solve_seconds)
      .def_property_readonly("report", [](const RunResult& r) { return json_to_python(r.report); })
      .def("csv_text", &io::csv_text, "The CSV text (header + rows, shortest round-trip numbers).")
      .def(
          "write",
          [](const RunResult& r, const std::filesystem::path& dir, bool plot, const std::string& gnuplot) {
            io::WriteOptions options;
            options.plot = plot;
            options.gnuplot = gnuplot;
            return io::write_outputs(r, dir, options);
          },
          py::arg("dir"), py::arg("plot") = true, py::arg("gnuplot") = "",
          "Writes DIR/<name>.csv, .json, .png (gnuplot) and extra files, all or nothing; returns the paths.");
#if BRISTLE_PYTHON_LINE_SCENARIOS
  run_result.def_readonly("case_labels", &RunResult::case_labels)
      .def_readonly("log_x", &RunResult::log_x)
      .def_property_readonly("extra_files",
                             [](py::object self) { return reference_list(self, &RunResult::extra_files); });
#endif

  py::class_<Scenario>(m, "Scenario", R"doc(
A parsed and validated scenario of any registered kind (load_scenario, parse_scenario_string): kind,
name, case_count, summary(), run(progress=None) -> RunResult.)doc")
      .def_property_readonly("kind", [](const Scenario& s) { return std::string(s.kind()); })
      .def_property_readonly("name", &Scenario::name)
      .def_property_readonly("case_count", &Scenario::case_count)
      .def("summary", &Scenario::summary)
      .def(
          "run",
          [](const Scenario& s, py::object progress) {
            ScenarioProgressRelay relay(progress);
            const auto callback = relay.function();
            py::gil_scoped_release release;
            return s.run(callback);
          },
          py::arg("progress") = py::none(),
          "Solves every case (GIL released; Ctrl-C interrupts). progress: optional callable(Progress).");

  py::class_<io::LumpedStudy, Scenario>(m, "LumpedStudy", "kind = \"lumped\": cases of one contact point on a bench.")
      .def(py::init<std::vector<LumpedScenario>>(), py::arg("cases"))
      .def_property_readonly("cases", [](py::object self) { return case_list<io::LumpedStudy>(self); });
#if BRISTLE_PYTHON_LINE_SCENARIOS
  py::class_<io::LineSteadyStudy, Scenario>(m, "LineSteadyStudy",
                                            "kind = \"line_steady\": steady force maps of the line contact.")
      .def(py::init<std::vector<LineSteadyScenario>>(), py::arg("cases"))
      .def_property_readonly("cases", [](py::object self) { return case_list<io::LineSteadyStudy>(self); });
  py::class_<io::LineTransientStudy, Scenario>(m, "LineTransientStudy",
                                               "kind = \"line_transient\": transient runs of the line contact.")
      .def(py::init<std::vector<LineTransientScenario>>(), py::arg("cases"))
      .def_property_readonly("cases", [](py::object self) { return case_list<io::LineTransientStudy>(self); });

#endif

  m.def("load_scenario", &io::load_scenario, py::arg("path"),
        "Reads a scenario file (any registered kind). InvalidInput naming the TOML key on any problem.");
  m.def(
      "parse_scenario_string",
      [](const std::string& toml, const std::string& name, const std::filesystem::path& directory) {
        return io::parse_scenario_string(toml, name, directory);
      },
      py::arg("toml"), py::arg("name") = "scenario", py::arg("directory") = std::filesystem::path(),
      "Parses a scenario from TOML text; relative table files are resolved against `directory`.");
  m.def("scenario_kinds", &io::scenario_kinds, "The registered scenario kinds.");
  m.def("parse_lumped_file", &io::parse_lumped_file, py::arg("path"), "The cases of a lumped scenario file.");
  m.def(
      "parse_lumped_string",
      [](const std::string& toml, const std::string& name, const std::filesystem::path& directory) {
        return io::parse_lumped_string(toml, name, directory);
      },
      py::arg("toml"), py::arg("name") = "scenario", py::arg("directory") = std::filesystem::path());
  // Key paths (io/key_path.hpp): read and change one numeric parameter by the TOML key that sets it, with
  // the reader's checks (InvalidInput, a ValueError, naming the key path).
  py::class_<io::KeyInfo>(m, "KeyInfo", "unit, doc, paper equation, default and range of a numeric key")
      .def_readonly("key", &io::KeyInfo::key)
      .def_readonly("unit", &io::KeyInfo::unit)
      .def_readonly("doc", &io::KeyInfo::doc)
      .def_readonly("equation", &io::KeyInfo::equation)
      .def_readonly("default_value", &io::KeyInfo::default_value)
      .def_readonly("range", &io::KeyInfo::range)
      .def_readonly("min", &io::KeyInfo::min)
      .def_readonly("max", &io::KeyInfo::max)
      .def_readonly("log_scale", &io::KeyInfo::log_scale)
      .def("__repr__", [](const io::KeyInfo& k) {
        return "KeyInfo(key='" + k.key + "', unit='" + k.unit + "', default_value='" + k.default_value +
               "', range='" + k.range + "')";
      });
  const char* get_doc =
      "The value of a numeric key of a parsed scenario, e.g. get(case, \"law.mu_s\"): what the TOML gave (a lumped "
      "study's cases must agree). InvalidInput naming the key path for an unknown key (with the nearest valid one) "
      "or one that does not apply.";
  const char* set_doc =
      "Sets a numeric key in place, e.g. set(case, \"body1.k0\", 2e5), with the reader's checks and derivations "
      "(tau kept, pair.s, the output grid); running then gives what the file with that value gives. A Scenario "
      "(load_scenario) is changed in every case and rebuilt; on InvalidInput nothing changes.";
  // One function each, taking a parsed case (LumpedScenario) or a Scenario (load_scenario), so that the stub
  // has one signature.
  const auto dispatch = [](py::handle scenario, auto&& f) {
    if (py::isinstance<LumpedScenario>(scenario)) return f(scenario.cast<LumpedScenario&>());
    if (py::isinstance<Scenario>(scenario)) return f(scenario.cast<Scenario&>());
    throw py::type_error("scenario: expected a LumpedScenario or a Scenario (load_scenario), got " +
                         std::string(py::str(py::type::handle_of(scenario).attr("__name__"))));
  };
  m.def(
      "get",
      [dispatch](py::handle scenario, const std::string& key) {
        return dispatch(scenario, [&](auto& sc) { return io::get_number(sc, key); });
      },
      py::arg("scenario"), py::arg("key"), get_doc);
  m.def(
      "set",
      [dispatch](py::handle scenario, const std::string& key, double value) {
        dispatch(scenario, [&](auto& sc) { io::set_number(sc, key, value); });
      },
      py::arg("scenario"), py::arg("key"), py::arg("value"), set_doc);
  m.def(
      "numeric_keys",
      [dispatch](py::handle scenario) {
        return dispatch(scenario, [&](auto& sc) { return io::numeric_keys(sc); });
      },
      py::arg("scenario"), "Every key path set() accepts for this scenario.");
  m.def(
      "key_info",
      [dispatch](py::handle scenario, const std::string& key) {
        return dispatch(scenario, [&](auto& sc) { return io::key_info(sc, key); });
      },
      py::arg("scenario"), py::arg("key"), "Unit, doc, equation, default and range of a numeric key.");
}

}  // namespace bristle::python
