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
#include "pickle_fields.hpp"
#include "schema_py.hpp"

#include <unordered_map>

BRISTLE_PY_TYPED_OBJECT(ScenarioArg, "bristle._bristle.io.LumpedScenario | bristle._bristle.io.Scenario")
BRISTLE_PY_TYPED_OBJECT(NumberArg, "float")

// The setup shared by the examples of the key-path functions.
#define IO_CASE "    >>> c = bristle.io.parse_lumped_file(\"examples/lugre_stick_slip.toml\")[0]\n"

namespace bristle::python {

namespace schema_py {
/// io::TimeGrid: the [time] table (`outputs`, the TOML alternative to output_dt_s, is the reader's).
template <>
struct Traits<io::TimeGrid> : PlainTraits<io::TimeGrid> {
  static constexpr const char* name = "TimeGrid";
  static constexpr const char* prefix = "time";
  static constexpr const char* extra_doc = "Example: ``TimeGrid(t_end_s=2.0, output_dt_s=0.01)``\n";
};
}  // namespace schema_py

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

/// The inverse of json_to_python (RunResult's unpickling): dicts in their order, lists, str, bool, int, float, None.
io::Json python_to_json(py::handle o) {
  if (o.is_none()) return io::Json(nullptr);
  if (py::isinstance<py::bool_>(o)) return io::Json(o.cast<bool>());
  if (py::isinstance<py::int_>(o)) return io::Json(o.cast<long long>());
  if (py::isinstance<py::float_>(o)) return io::Json(o.cast<double>());
  if (py::isinstance<py::str>(o)) return io::Json(o.cast<std::string>());
  if (py::isinstance<py::dict>(o)) {
    io::Json::Object object;
    for (const auto& [key, value] : py::reinterpret_borrow<py::dict>(o))
      object.emplace_back(py::str(key).cast<std::string>(), python_to_json(value));
    return io::Json(std::move(object));
  }
  if (py::isinstance<py::list>(o) || py::isinstance<py::tuple>(o)) {
    io::Json::Array array;
    for (const auto& value : o) array.push_back(python_to_json(value));
    return io::Json(std::move(array));
  }
  throw py::type_error("report: " + std::string(py::str(py::type::handle_of(o).attr("__name__"))) +
                       " is not a JSON value");
}

/// The scenarios whose run() is in progress, counted while the GIL is held: set() on one of them is refused, as it
/// rebuilds the cases the run goes through with the GIL released (a line_transient study set from its own progress
/// callback crashed, SIGSEGV or std::bad_alloc; a lumped one ran its later cases with the new value).
class Running {
 public:
  explicit Running(const Scenario& s) : s_(&s) { ++count()[s_]; }
  ~Running() {  // with the GIL held again (declared before the gil_scoped_release)
    if (--count()[s_] == 0) count().erase(s_);
  }
  Running(const Running&) = delete;
  Running& operator=(const Running&) = delete;
  static bool running(const Scenario& s) { return count().contains(&s); }
  /// Whether `c` is one of the cases of a running lumped study (study.cases[i] is a view into the study).
  static bool running(const LumpedScenario& c) {
    for (const auto& [s, n] : count())
      if (const auto* study = dynamic_cast<const io::LumpedStudy*>(s)) {
        const auto& cases = study->cases();
        if (!cases.empty() && &c >= cases.data() && &c < cases.data() + cases.size()) return true;
      }
    return false;
  }

 private:
  static std::unordered_map<const Scenario*, int>& count() {
    static std::unordered_map<const Scenario*, int> c;
    return c;
  }
  const Scenario* s_;
};

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

// ---- Pickling of the parsed cases: every field, the ones Python does not show included (source, table files,
// input form, textbook block), so that a copy runs, derives key paths and reports as the original does.
py::tuple source_state(const io::ScenarioSource& s) { return py::make_tuple(s.path.string(), s.directory.string()); }
io::ScenarioSource source_from(py::handle h) {
  const auto t = h.cast<py::tuple>();
  io::ScenarioSource s;
  s.path = t[0].cast<std::string>();
  s.directory = t[1].cast<std::string>();
  return s;
}
py::tuple input_form_state(const io::LumpedInputForm& f) {
  return py::make_tuple(f.body_tau[0], f.body_tau[1], f.time_outputs, f.time_output_dt_given);
}
io::LumpedInputForm input_form_from(py::handle h) {
  const auto t = h.cast<py::tuple>();
  io::LumpedInputForm f;
  f.body_tau[0] = t[0].cast<std::vector<double>>();
  f.body_tau[1] = t[1].cast<std::vector<double>>();
  f.time_outputs = t[2].cast<std::int64_t>();
  f.time_output_dt_given = t[3].cast<bool>();
  return f;
}
py::list table_files_state(const std::vector<io::TableFile>& files) {
  py::list out;
  for (const auto& f : files) out.append(py::make_tuple(f.key, f.file, f.path.string(), f.time_column, f.value_column));
  return out;
}
std::vector<io::TableFile> table_files_from(py::handle h) {
  std::vector<io::TableFile> out;
  for (const auto& item : h) {
    const auto t = item.cast<py::tuple>();
    out.push_back(io::TableFile{t[0].cast<std::string>(), t[1].cast<std::string>(), t[2].cast<std::string>(),
                                t[3].cast<std::string>(), t[4].cast<std::string>()});
  }
  return out;
}
void check_state(const py::tuple& t, std::size_t n, const char* name) {
  if (t.size() != n)
    throw InvalidInput(std::string(name) + ": pickled state of " + std::to_string(t.size()) + " values; expected " +
                       std::to_string(n));
}

py::tuple lumped_state(const LumpedScenario& c) {
  py::object textbook = py::none();
  if (c.textbook) {
    const auto& b = *c.textbook;
    textbook = py::make_tuple(b.Fc_N, b.Fs_N, b.vs_mps, b.sigma0_N_per_m, b.sigma1_Ns_per_m, b.sigma2_Ns_per_m, b.delta);
  }
  return py::make_tuple(c.name, c.description, source_state(c.source), c.law, c.body1, c.body2, c.pair_s, textbook,
                        c.bench, table_files_state(c.table_files), c.time, c.integrator, c.initial, c.sweep,
                        c.sweep_value, c.output, input_form_state(c.input_form));
}
LumpedScenario lumped_from(const py::tuple& t) {
  check_state(t, 17, "LumpedScenario");
  LumpedScenario c;
  c.name = t[0].cast<std::string>();
  c.description = t[1].cast<std::string>();
  c.source = source_from(t[2]);
  c.law = t[3].cast<laws::LawParams>();
  c.body1 = t[4].cast<rheology::RheologyParams>();
  c.body2 = t[5].cast<rheology::RheologyParams>();
  c.pair_s = t[6].cast<std::optional<double>>();
  if (!t[7].is_none()) {
    const auto b = t[7].cast<std::vector<double>>();
    if (b.size() != 7) throw InvalidInput("LumpedScenario: pickled textbook block of " + std::to_string(b.size()) +
                                          " values; expected 7");
    c.textbook = contact::TextbookParams{b[0], b[1], b[2], b[3], b[4], b[5], b[6]};
  }
  c.bench = t[8].cast<contact::BenchParams>();
  c.table_files = table_files_from(t[9]);
  c.time = t[10].cast<io::TimeGrid>();
  c.integrator = t[11].cast<integrate::Options>();
  c.initial = t[12].cast<io::InitialCondition>();
  c.sweep = t[13].cast<std::optional<io::Sweep>>();
  c.sweep_value = t[14].cast<std::optional<double>>();
  c.output = t[15].cast<io::OutputOptions>();
  c.input_form = input_form_from(t[16]);
  return c;
}

#if BRISTLE_PYTHON_LINE_SCENARIOS
py::tuple line_base_state(const io::LineCaseBase& c) {
  return py::make_tuple(c.name, c.description, source_state(c.source), c.case_index, c.case_count, c.label, c.columns,
                        c.law, c.body1, c.body2, c.pair_s, c.body2_c_eq58, c.s, c.n1, c.n2, c.mode, c.allow_reversal,
                        c.line, c.output, c.log_x, c.allow_reversal_given, c.swept, input_form_state(c.input_form),
                        c.case_keys);
}
constexpr std::size_t kLineBaseFields = 24;
void line_base_from(io::LineCaseBase& c, const py::tuple& t) {
  c.name = t[0].cast<std::string>();
  c.description = t[1].cast<std::string>();
  c.source = source_from(t[2]);
  c.case_index = t[3].cast<std::size_t>();
  c.case_count = t[4].cast<std::size_t>();
  c.label = t[5].cast<std::string>();
  c.columns = t[6].cast<std::vector<std::pair<std::string, double>>>();
  c.law = t[7].cast<laws::LawParams>();
  c.body1 = t[8].cast<rheology::RheologyParams>();
  c.body2 = t[9].cast<rheology::RheologyParams>();
  c.pair_s = t[10].cast<std::optional<double>>();
  c.body2_c_eq58 = t[11].cast<bool>();
  c.s = t[12].cast<double>();
  c.n1 = t[13].cast<int>();
  c.n2 = t[14].cast<int>();
  c.mode = t[15].cast<io::LineMode>();
  c.allow_reversal = t[16].cast<bool>();
  c.line = t[17].cast<transport::LineContactParams>();
  c.output = t[18].cast<io::OutputOptions>();
  c.log_x = t[19].cast<bool>();
  c.allow_reversal_given = t[20].cast<bool>();
  c.swept = t[21].cast<std::vector<std::string>>();
  c.input_form = input_form_from(t[22]);
  c.case_keys = t[23].cast<std::vector<std::string>>();
}
#endif

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
          "The ContactModel of this case.\n\nExample:\n"
          "    >>> c = bristle.load_scenario(\"examples/fig5_sliding_steady.toml\").cases[0]\n"
          "    >>> c.model().state_size > 2\n    True\n");
}
#endif

}  // namespace

void export_io(py::module_& root) {
  py::module_ m =
      root.def_submodule("io", "Scenario files (TOML) of every registered kind, run results, output writers.");
  py::register_exception<io::OutputError>(m, "OutputError", PyExc_OSError);

  py::class_<io::TimeGrid> time_grid(m, "TimeGrid",
                           "[time]: output times from t_start_s to t_end_s every output_dt_s (s), both ends included.\n\n"
                           "Example:\n    >>> len(bristle.io.TimeGrid(t_end_s=2.0, output_dt_s=0.01).times())\n    201\n");
  time_grid.def(py::init([](double t_start_s, double t_end_s, double output_dt_s) {
             return io::TimeGrid{t_start_s, t_end_s, output_dt_s};
           }),
           py::kw_only(), py::arg("t_start_s") = 0.0, py::arg("t_end_s") = 0.0, py::arg("output_dt_s") = 0.0)
      .def(
          "times", [](const io::TimeGrid& g) { return copy_array(g.times()); }, R"doc(The output times (s).

Example:
    >>> bristle.io.TimeGrid(t_end_s=1.0, output_dt_s=0.25).times()
    array([0.  , 0.25, 0.5 , 0.75, 1.  ])
)doc");
  schema_py::bind_schema<io::TimeGrid>(time_grid, "", false);

  py::class_<io::Sweep>(m, "Sweep", "[sweep] of the lumped kind: one case per value of a numeric key.\n\nExample:\n"
      "    >>> sw = bristle.io.parse_lumped_file(\"examples/lugre_breakaway.toml\")[0].sweep\n"
      "    >>> len(sw.values), sw.parameter.startswith(\"bench.\")\n    (7, True)\n")
      .def_readonly("parameter", &io::Sweep::parameter)
      .def_readonly("column", &io::Sweep::column)
      .def_readonly("values", &io::Sweep::values);
  py::class_<io::OutputOptions>(m, "OutputOptions", "[output]: plot_x, plot_y (CSV column names, with units), title.\n\n"
      "Example:\n" IO_CASE "    >>> c.output.plot_x\n    't_s'\n")
      .def_readwrite("plot_x", &io::OutputOptions::plot_x)
      .def_readwrite("plot_y", &io::OutputOptions::plot_y)
      .def_readwrite("title", &io::OutputOptions::title);
  py::class_<io::InitialCondition>(m, "InitialCondition", "[initial]: initial normalised force f (-, 2 values), or steady = True.\n\n"
      "Example:\n" IO_CASE "    >>> c.initial.steady, c.initial.f\n    (False, array([0., 0.]))\n")
      .def_property(
          "f", [](const io::InitialCondition& c) -> Vec2 { return c.f; },
          [](io::InitialCondition& c, FloatOrArray v) { c.f = to_vec2(v, "initial.f"); })
      .def_readwrite("steady", &io::InitialCondition::steady);

  py::class_<LumpedScenario>(m, "LumpedScenario", R"doc(
One case of a kind = "lumped" scenario: law, body1, body2, bench, time, integrator, initial, output,
and for sweeps sweep and sweep_value. Edit the fields and run LumpedStudy([case]).run().

Example:
    >>> c = bristle.io.parse_lumped_file("examples/lugre_stick_slip.toml")[0]
    >>> c.time.t_end_s = 1.0                                          # s
    >>> r = bristle.io.LumpedStudy([c]).run()
    >>> r.cases[0].series["t_s"][-1]
    1.0
)doc")
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
           "Builds the library objects; InvalidInput if any rejects the parameters.\n\nExample:\n" IO_CASE
           "    >>> c.law.mu_s = -1.0; c.validate()\n    Traceback (most recent call last):\n    ...\n"
           "    bristle._bristle.InvalidInput: law.mu_s = -1: must be > 0\n")
      .def(
          "model", [](const LumpedScenario& c) { return contact::ContactModel(c.law, c.body1, c.body2); },
          "The ContactModel of this case.\n\nExample:\n" IO_CASE
          "    >>> c.model().state_size\n    2\n")
      .def(
          "initial_contact_state",
          [](const LumpedScenario& c, const contact::ContactModel& model) {
            return copy_array(c.initial_contact_state(model));
          },
          py::arg("model"), "u0 for contact.run, from [initial] (f normalised, zeta in m).\n\nExample:\n" IO_CASE
          "    >>> c.initial_contact_state(c.model())\n    array([0., 0.])\n")
      .def(py::pickle([](const LumpedScenario& c) { return lumped_state(c); },
                      [](const py::tuple& t) { return lumped_from(t); }));

#if BRISTLE_PYTHON_LINE_SCENARIOS
  py::enum_<io::LineMode>(m, "LineMode",
                          "Line kinematics: sliding (V1 = 0, V2 = V_x), rolling (V1 = V_r, V2 = V_x), general." "\n\nExample:\n" "    >>> [m.name for m in bristle.io.LineMode.__members__.values()][:2]\n" "    ['sliding', 'rolling']\n")
      .value("sliding", io::LineMode::sliding)
      .value("rolling", io::LineMode::rolling)
      .value("general", io::LineMode::general);

  py::class_<LineSteadyScenario> steady(m, "LineSteadyScenario", R"doc(
One case of a kind = "line_steady" scenario: the contact model parts, the line, the mode and the
velocities (sliding: V_x; rolling: v_x = V_x - V_r, with Vr_mps).

Example:
    >>> c = bristle.load_scenario("examples/fig5_sliding_steady.toml").cases[0]
    >>> c.mode, len(c.velocities)                         # sliding at 200 velocities V_x (m/s)
    (<LineMode.sliding: 0>, 200)
)doc");
  bind_line_case_base<LineSteadyScenario>(steady);
  steady
      .def_property(
          "velocities", [](const LineSteadyScenario& c) { return copy_array(c.velocities); },
          [](LineSteadyScenario& c, FloatOrArray v) { c.velocities = to_vector(v, "kinematics velocities"); },
          "sliding: V_x (m/s); rolling: v_x = V_x - V_r (m/s)")
      .def_readwrite("Vr_mps", &LineSteadyScenario::Vr_mps, "rolling speed V_r (m/s), rolling only")
      .def(py::pickle(
          [](const LineSteadyScenario& c) { return py::make_tuple(line_base_state(c), c.velocities, c.Vr_mps); },
          [](const py::tuple& t) {
            check_state(t, 3, "LineSteadyScenario");
            LineSteadyScenario c;
            const auto base = t[0].cast<py::tuple>();
            check_state(base, kLineBaseFields, "LineSteadyScenario");
            line_base_from(c, base);
            c.velocities = t[1].cast<std::vector<double>>();
            c.Vr_mps = t[2].cast<double>();
            return c;
          }))
      .def("column_names", &LineSteadyScenario::column_names, "The CSV columns of solve() (with their units).\n\n"
           "Example:\n    >>> c = bristle.load_scenario(\"examples/fig5_sliding_steady.toml\").cases[0]\n"
           "    >>> c.column_names()[:4]\n    ['s', 'n1', 'n2', 'V_mps']\n")
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
          "(V1, V2) arrays (m/s) of the steady solves, as solve() uses them.\n\nExample:\n"
          "    >>> c = bristle.load_scenario(\"examples/fig5_sliding_steady.toml\").cases[0]\n"
          "    >>> V1, V2 = c.material_velocities(); float(abs(V1).max()), V2.shape      # sliding: V1 = 0\n"
          "    (0.0, (200,))\n")
      .def(
          "solve",
          [](const LineSteadyScenario& c, const contact::ContactModel& model) {
            py::gil_scoped_release release;
            return c.solve(model);
          },
          py::arg("model"), "Solves every velocity (serially): the rows of the CSV (a TimeSeries; forces in N).\n\n"
          "Example:\n    >>> c = bristle.load_scenario(\"examples/fig5_sliding_steady.toml\").cases[0]\n"
          "    >>> c.solve(c.model()).rows\n    200\n");

  py::class_<LineTransientScenario> transient(m, "LineTransientScenario",
                                              "One case of a kind = \"line_transient\" scenario.\n\nExample:\n"
                                              "    >>> c = bristle.load_scenario(\"examples/fig7_sliding_transient.toml\").cases[0]\n"
                                              "    >>> len(c.output_times())                       # s\n    601\n");
  bind_line_case_base<LineTransientScenario>(transient);
  transient
      .def(py::pickle(
          [](const LineTransientScenario& c) {
            return py::make_tuple(line_base_state(c), table_files_state(c.table_files), c.time, c.field_times);
          },
          [](const py::tuple& t) {
            check_state(t, 4, "LineTransientScenario");
            LineTransientScenario c;
            const auto base = t[0].cast<py::tuple>();
            check_state(base, kLineBaseFields, "LineTransientScenario");
            line_base_from(c, base);
            c.table_files = table_files_from(t[1]);
            c.time = t[2].cast<io::TimeGrid>();
            c.field_times = t[3].cast<std::vector<double>>();
            return c;
          }))
      .def_readwrite("time", &LineTransientScenario::time)
      .def_readwrite("field_times", &LineTransientScenario::field_times)
      .def("output_times", [](const LineTransientScenario& c) { return copy_array(c.output_times()); },
           "The output times (s) of the [time] table.\n\nExample:\n"
           "    >>> c = bristle.load_scenario(\"examples/fig7_sliding_transient.toml\").cases[0]\n"
           "    >>> c.output_times()[:3]\n    array([0.   , 0.005, 0.01 ])\n");

#endif

  py::class_<io::Progress>(m, "Progress",
                           "Progress of a scenario run: case_index (0-based), case_count, fraction (0..1), label.\n\nExample:\n" IO_CASE
                           "    >>> c.time.t_end_s = 0.1; seen = []\n"
                           "    >>> r = bristle.io.LumpedStudy([c]).run(progress=seen.append)\n"
                           "    >>> seen[-1].fraction, seen[-1].case_count\n    (1.0, 1)\n")
      .def_readonly("case_index", &io::Progress::case_index)
      .def_readonly("case_count", &io::Progress::case_count)
      .def_readonly("fraction", &io::Progress::fraction)
      .def_readonly("label", &io::Progress::label)
      .def("__repr__", [](const io::Progress& p) {
        return "Progress(case_index=" + std::to_string(p.case_index) + ", case_count=" + std::to_string(p.case_count) +
               ", fraction=" + repr_double(p.fraction) + ", label='" + p.label + "')";
      });

  py::class_<CaseResult>(m, "CaseResult",
                         "The solution of one case: sweep_value (or None), series (TimeSeries), solve_seconds (s).\n\nExample:\n"
                         IO_CASE "    >>> c.time.t_end_s = 0.1\n    >>> case = bristle.io.LumpedStudy([c]).run().cases[0]\n"
                         "    >>> case.sweep_value is None, case.series.rows > 0\n    (True, True)\n")
      .def_readonly("sweep_value", &CaseResult::sweep_value)
      .def_readonly("series", &CaseResult::series)
      .def_readonly("solve_seconds", &CaseResult::solve_seconds);
#if BRISTLE_PYTHON_LINE_SCENARIOS
  py::class_<io::ExtraFile>(m, "ExtraFile",
                            "A further output file <name><suffix> with its text (RunResult.extra_files; written by\n"
                            "RunResult.write beside the CSV), e.g. the field snapshots of a line transient.\n\nExample:\n"
                            "    >>> r = bristle.load_scenario(\"examples/fig7_sliding_transient.toml\").run()\n"
                            "    >>> f = r.extra_files[0]\n"
                            "    >>> f.suffix, f.text.splitlines()[0].split(\",\")[5:7]   # columns t_s, xi_m\n"
                            "    ('_fields.csv', ['t_s', 'xi_m'])\n")
      .def_readonly("suffix", &io::ExtraFile::suffix)
      .def_readonly("text", &io::ExtraFile::text);

#endif

  py::class_<RunResult> run_result(m, "RunResult", R"doc(
Everything a scenario run produced: name, title, sweep_column, cases (CaseResult per case, in order),
plot_x, plot_y, case_labels, log_x, solve_seconds (wall time of the solves), report (the JSON report
as Python objects), extra_files.

Example:
    >>> c = bristle.io.parse_lumped_file("examples/lugre_stick_slip.toml")[0]
    >>> c.time.t_end_s = 0.5                                               # s
    >>> r = bristle.io.LumpedStudy([c]).run()
    >>> r.name, len(r.cases), "cases" in r.report
    ('lugre_stick_slip', 1, True)
)doc");
  // Pickles by its fields, the report as its JSON values (a fit's result, which holds its plot script, does not).
  run_result.def(py::pickle(
      [](const RunResult& r) {
        if (r.plot_script)
          throw py::type_error("RunResult '" + r.name + "': a fit's result holds its plot script (C++ code) and does "
                               "not pickle; pickle its cases and report");
        return py::make_tuple(r.name, r.title, r.sweep_column, r.cases, r.plot_x, r.plot_y, r.solve_seconds,
                              json_to_python(r.report), r.case_labels, r.log_x, r.extra_files, r.optional_columns,
                              r.warnings);
      },
      [](const py::tuple& t) {
        if (t.size() != 13)
          throw InvalidInput("RunResult: pickled state of " + std::to_string(t.size()) + " values; expected 13");
        RunResult r;
        r.name = t[0].cast<std::string>();
        r.title = t[1].cast<std::string>();
        r.sweep_column = t[2].cast<std::string>();
        r.cases = t[3].cast<std::vector<CaseResult>>();
        r.plot_x = t[4].cast<std::string>();
        r.plot_y = t[5].cast<std::vector<std::string>>();
        r.solve_seconds = t[6].cast<double>();
        r.report = python_to_json(t[7]);
        r.case_labels = t[8].cast<std::vector<std::string>>();
        r.log_x = t[9].cast<bool>();
        r.extra_files = t[10].cast<std::vector<io::ExtraFile>>();
        r.optional_columns = t[11].cast<std::vector<std::string>>();
        r.warnings = t[12].cast<std::vector<std::string>>();
        return r;
      }));
  run_result.def_readonly("name", &RunResult::name)
      .def_readonly("title", &RunResult::title)
      .def_readonly("sweep_column", &RunResult::sweep_column)
      .def_property_readonly("cases", [](py::object self) { return reference_list(self, &RunResult::cases); })
      .def_readonly("plot_x", &RunResult::plot_x)
      .def_readonly("plot_y", &RunResult::plot_y)
      .def_readonly("solve_seconds", &RunResult::solve_seconds)
      .def_property_readonly("report", [](const RunResult& r) { return json_to_python(r.report); })
      .def("csv_text", &io::csv_text, "The CSV text (header + rows, shortest round-trip numbers; columns named with "
           "their units).\n\nExample:\n" IO_CASE "    >>> c.time.t_end_s = 0.1\n"
           "    >>> bristle.io.LumpedStudy([c]).run().csv_text().splitlines()[0].startswith(\"t_s,\")\n    True\n")
      .def(
          "write",
          [](const RunResult& r, const std::filesystem::path& dir, bool plot, const std::string& gnuplot) {
            io::WriteOptions options;
            options.plot = plot;
            options.gnuplot = gnuplot;
            return io::write_outputs(r, dir, options);
          },
          py::arg("dir"), py::arg("plot") = true, py::arg("gnuplot") = "",
          "Writes DIR/<name>.csv, .json, .png (gnuplot) and extra files, all or nothing; returns the paths.\n\n"
          "Example:\n" IO_CASE "    >>> c.time.t_end_s = 0.1; import tempfile, os\n"
          "    >>> paths = bristle.io.LumpedStudy([c]).run().write(tempfile.mkdtemp(), plot=False)\n"
          "    >>> sorted(os.path.basename(str(p)) for p in paths)\n"
          "    ['lugre_stick_slip.csv', 'lugre_stick_slip.json']\n");
#if BRISTLE_PYTHON_LINE_SCENARIOS
  run_result.def_readonly("case_labels", &RunResult::case_labels)
      .def_readonly("log_x", &RunResult::log_x)
      .def_property_readonly("extra_files",
                             [](py::object self) { return reference_list(self, &RunResult::extra_files); });
#endif

  py::class_<Scenario>(m, "Scenario", R"doc(
A parsed and validated scenario of any registered kind (load_scenario, parse_scenario_string): kind,
name, case_count, summary(), run(progress=None) -> RunResult.

Example:
    >>> study = bristle.load_scenario("examples/patch_slip_spin_map.toml")
    >>> study.kind
    'patch_steady_map'
)doc")
      // A scenario of a kind without its own Python class pickles by the TOML text it was parsed from (its name and
      // source too), parsed again on the other side; the lumped and line studies override this by their cases.
      .def("__reduce__",
           [](const Scenario& s) {
             const io::Scenario::Origin* o = s.origin();
             if (o == nullptr)
               throw py::type_error("Scenario '" + s.name() + "' (kind \"" + std::string(s.kind()) +
                                    "\"): built without TOML text, it does not pickle");
             return reduce_by("io._parse_scenario", o->toml, o->name, o->source.path.string(),
                              o->source.directory.string(), s.origin_sets());
           })
      .def_property_readonly("kind", [](const Scenario& s) { return std::string(s.kind()); })
      .def_property_readonly("name", &Scenario::name)
      .def_property_readonly("case_count", &Scenario::case_count)
      .def("summary", &Scenario::summary, "A one-paragraph description of the scenario (kind, cases, parameters).\n\n"
           "Example:\n    >>> isinstance(bristle.load_scenario(\"examples/lugre_breakaway.toml\").summary(), str)\n    True\n")
      .def(
          "run",
          [](const Scenario& s, ProgressCallback progress) {
            const Running running(s);
            ScenarioProgressRelay relay(progress);
            const auto callback = relay.function();
            py::gil_scoped_release release;
            return s.run(callback);
          },
          py::arg("progress") = py::none(),
          "Solves every case (GIL released; Ctrl-C interrupts). progress: optional callable(Progress). Returns a "
          "RunResult (series columns named with their units).\n\nExample:\n"
          "    >>> r = bristle.load_scenario(\"examples/lugre_breakaway.toml\").run()\n"
          "    >>> len(r.cases), \"F_N\" in r.cases[0].series\n    (7, True)\n");

  py::class_<io::LumpedStudy, Scenario>(m, "LumpedStudy", "kind = \"lumped\": cases of one contact point on a bench.\n\nExample:\n" IO_CASE
      "    >>> study = bristle.io.LumpedStudy([c, c]); study.case_count\n    2\n")
      .def(py::init<std::vector<LumpedScenario>>(), py::arg("cases"))
      .def("__reduce__", [](const io::LumpedStudy& s) { return reduce_to(py::type::of<io::LumpedStudy>(), s.cases()); })
      .def_property_readonly("cases", [](py::object self) { return case_list<io::LumpedStudy>(self); });
#if BRISTLE_PYTHON_LINE_SCENARIOS
  py::class_<io::LineSteadyStudy, Scenario>(m, "LineSteadyStudy",
                                            "kind = \"line_steady\": steady force maps of the line contact.\n\nExample:\n"
                                            "    >>> bristle.load_scenario(\"examples/fig5_sliding_steady.toml\").kind\n"
                                            "    'line_steady'\n")
      .def(py::init<std::vector<LineSteadyScenario>>(), py::arg("cases"))
      .def("__reduce__",
           [](const io::LineSteadyStudy& s) { return reduce_to(py::type::of<io::LineSteadyStudy>(), s.cases()); })
      .def_property_readonly("cases", [](py::object self) { return case_list<io::LineSteadyStudy>(self); });
  py::class_<io::LineTransientStudy, Scenario>(m, "LineTransientStudy",
                                               "kind = \"line_transient\": transient runs of the line contact.\n\nExample:\n"
                                               "    >>> bristle.load_scenario(\"examples/fig7_sliding_transient.toml\").kind\n"
                                               "    'line_transient'\n")
      .def(py::init<std::vector<LineTransientScenario>>(), py::arg("cases"))
      .def("__reduce__", [](const io::LineTransientStudy& s) {
        return reduce_to(py::type::of<io::LineTransientStudy>(), s.cases());
      })
      .def_property_readonly("cases", [](py::object self) { return case_list<io::LineTransientStudy>(self); });

#endif



  m.def("load_scenario", &io::load_scenario, py::arg("path"),
        R"doc(Reads a scenario file (any registered kind). InvalidInput naming the TOML key on any problem.

Example:
    >>> study = bristle.load_scenario("examples/lugre_breakaway.toml")
    >>> study.kind, study.case_count
    ('lumped', 7)
)doc");
  m.def(
      "parse_scenario_string",
      [](const std::string& toml, const std::string& name, const std::filesystem::path& directory) {
        return io::parse_scenario_string(toml, name, directory);
      },
      py::arg("toml"), py::arg("name") = "scenario", py::arg("directory") = std::filesystem::path(),
      R"doc(Parses a scenario from TOML text; relative table files are resolved against `directory`.

Example:
    >>> study = bristle.io.parse_scenario_string(open("examples/lugre_stick_slip.toml").read())
    >>> study.name, study.kind                      # the file's own name key
    ('lugre_stick_slip', 'lumped')
)doc");
  // Unpickling of a Scenario (Scenario.__reduce__): parses its TOML text again with its name and source, then sets
  // the key paths set on the original (bristle.set), in order.
  m.def(
      "_parse_scenario",
      [](const std::string& toml, const std::string& name, const std::string& path, const std::string& directory,
         const std::vector<std::pair<std::string, double>>& sets) {
        io::ScenarioSource source;
        source.path = path;
        source.directory = directory;
        std::unique_ptr<Scenario> scenario = io::parse_scenario(toml, name, source);
        for (const auto& [key, value] : sets) io::set_number(*scenario, key, value);
        return scenario;
      },
      py::arg("toml"), py::arg("name"), py::arg("path"), py::arg("directory"),
      py::arg("sets") = std::vector<std::pair<std::string, double>>{});
  m.def("scenario_kinds", &io::scenario_kinds, R"doc(The registered scenario kinds (the values of `kind` in a TOML file).

Example:
    >>> "lumped" in bristle.io.scenario_kinds() and "patch_steady_map" in bristle.io.scenario_kinds()
    True
)doc");
  m.def("parse_lumped_file", &io::parse_lumped_file, py::arg("path"), R"doc(The cases of a lumped scenario file
(a list of LumpedScenario, one per [sweep] value).

Example:
    >>> cases = bristle.io.parse_lumped_file("examples/lugre_breakaway.toml")
    >>> len(cases), cases[0].law.mu_s               # 7 cases; mu_s (-)
    (7, 1.5)
)doc");
  m.def(
      "parse_lumped_string",
      [](const std::string& toml, const std::string& name, const std::filesystem::path& directory) {
        return io::parse_lumped_string(toml, name, directory);
      },
      py::arg("toml"), py::arg("name") = "scenario", py::arg("directory") = std::filesystem::path(), R"doc(
The cases of a lumped scenario given as TOML text (a list of LumpedScenario); relative table files are
resolved against `directory`.

Example:
    >>> c = bristle.io.parse_lumped_string(open("examples/lugre_stick_slip.toml").read())[0]
    >>> c.bench.spring_N_per_m, c.time.t_end_s                   # N/m, s
    (2.0, 30.0)
)doc");
  // Key paths (io/key_path.hpp): read and change one numeric parameter by the TOML key that sets it, with
  // the reader's checks (InvalidInput, a ValueError, naming the key path).
  py::class_<io::KeyInfo>(m, "KeyInfo", R"doc(unit, doc, paper equation, default and range of a numeric key
(min, max: the bounds of the range; log_scale: the key spans decades; integer: a count or an index;
numerics: a setting of the method, such as a step or a tolerance, not of the model).

Example:
    >>> c = bristle.io.parse_lumped_file("examples/lugre_stick_slip.toml")[0]
    >>> info = bristle.key_info(c, "body1.k0")
    >>> info.unit, info.range, info.log_scale
    ('1/m', 'SPD (a number: > 0)', True)
)doc")
      .def_readonly("key", &io::KeyInfo::key)
      .def_readonly("unit", &io::KeyInfo::unit)
      .def_readonly("doc", &io::KeyInfo::doc)
      .def_readonly("equation", &io::KeyInfo::equation)
      .def_readonly("default_value", &io::KeyInfo::default_value)
      .def_readonly("range", &io::KeyInfo::range)
      .def_readonly("min", &io::KeyInfo::min)
      .def_readonly("max", &io::KeyInfo::max)
      .def_readonly("log_scale", &io::KeyInfo::log_scale)
      .def_readonly("integer", &io::KeyInfo::integer)
      .def_readonly("numerics", &io::KeyInfo::numerics)
      .def("__repr__", [](const io::KeyInfo& k) {
        return "KeyInfo(key='" + k.key + "', unit='" + k.unit + "', default_value='" + k.default_value +
               "', range='" + k.range + "')";
      });
  const char* get_doc =
      "The value of a numeric key of a parsed scenario, e.g. get(case, \"law.mu_s\"): what the TOML gave (a lumped "
      "study's cases must agree). InvalidInput naming the key path for an unknown key (with the nearest valid one) "
      "or one that does not apply.\n\nExample:\n" IO_CASE
      "    >>> bristle.get(c, \"law.mu_s\"), bristle.get(c, \"body1.k0\")        # -, 1/m\n    (1.5, 100000.0)\n";
  const char* set_doc =
      "Sets a numeric key in place, e.g. set(case, \"body1.k0\", 2e5), with the reader's checks and derivations "
      "(tau kept, pair.s, the output grid); running then gives what the file with that value gives. A Scenario "
      "(load_scenario) is changed in every case (a line study's case whose [[case]] gives the key keeps its own) and "
      "rebuilt; on InvalidInput nothing changes.\n\nExample:\n" IO_CASE
      "    >>> bristle.set(c, \"body1.k0\", 2e5); c.body1.k0                         # 1/m\n    200000.0\n"
      "    >>> bristle.set(c, \"law.mu_s\", -1)\n    Traceback (most recent call last):\n    ...\n"
      "    bristle._bristle.InvalidInput: law.mu_s = -1: must be > 0\n";
  // One function each, taking a parsed case (LumpedScenario) or a Scenario (load_scenario), so that the stub
  // has one signature.
  const auto dispatch = [](ScenarioArg scenario, auto&& f) {
    if (py::isinstance<LumpedScenario>(scenario)) return f(scenario.cast<LumpedScenario&>());
    if (py::isinstance<Scenario>(scenario)) return f(scenario.cast<Scenario&>());
    throw py::type_error("scenario: expected a LumpedScenario or a Scenario (load_scenario), got " +
                         std::string(py::str(py::type::handle_of(scenario).attr("__name__"))));
  };
  m.def(
      "get",
      [dispatch](ScenarioArg scenario, const std::string& key) {
        return dispatch(scenario, [&](auto& sc) { return io::get_number(sc, key); });
      },
      py::arg("scenario"), py::arg("key"), get_doc);
  m.def(
      "set",
      [dispatch](ScenarioArg scenario, const std::string& key, NumberArg number) {
        const double value = number_arg(number, "bristle.set: " + key);  // not a bool or an array, as in TOML
        dispatch(scenario, [&](auto& sc) {
          if (Running::running(sc))
            throw std::runtime_error("bristle.set: the scenario is running (set from its progress callback or from "
                                     "another thread); set its keys before run() or after it returns");
          io::set_number(sc, key, value);
        });
      },
      py::arg("scenario"), py::arg("key"), py::arg("value"), set_doc);
  m.def(
      "numeric_keys",
      [dispatch](ScenarioArg scenario) {
        return dispatch(scenario, [&](auto& sc) { return io::numeric_keys(sc); });
      },
      py::arg("scenario"), "Every key path set() accepts for this scenario.\n\nExample:\n" IO_CASE
      "    >>> keys = bristle.numeric_keys(c); \"law.mu_s\" in keys and \"bench.spring_N_per_m\" in keys\n    True\n");
  m.def(
      "key_info",
      [dispatch](ScenarioArg scenario, const std::string& key) {
        return dispatch(scenario, [&](auto& sc) { return io::key_info(sc, key); });
      },
      py::arg("scenario"), py::arg("key"), "Unit, doc, equation, default and range of a numeric key (a KeyInfo).\n\n"
      "Example:\n" IO_CASE "    >>> bristle.key_info(c, \"law.mu_s\")\n"
      "    KeyInfo(key='law.mu_s', unit='-', default_value='1', range='> 0')\n");
  {  // results and scenario parts pickle by their fields (pickle_fields.hpp)
    auto key_info = py::reinterpret_borrow<py::class_<io::KeyInfo>>(m.attr("KeyInfo"));
    // A state of 9 (pickled before `integer` and `numerics`, 2026-12-06) loads with both false.
    pickle_fields_since(key_info, "KeyInfo", 9, &io::KeyInfo::key, &io::KeyInfo::unit, &io::KeyInfo::doc,
                        &io::KeyInfo::equation, &io::KeyInfo::default_value, &io::KeyInfo::range, &io::KeyInfo::min,
                        &io::KeyInfo::max, &io::KeyInfo::log_scale, &io::KeyInfo::integer, &io::KeyInfo::numerics);
    auto progress = py::reinterpret_borrow<py::class_<io::Progress>>(m.attr("Progress"));
    pickle_fields(progress, "Progress", &io::Progress::case_index, &io::Progress::case_count, &io::Progress::fraction,
                  &io::Progress::label);
    auto case_result = py::reinterpret_borrow<py::class_<CaseResult>>(m.attr("CaseResult"));
    pickle_fields(case_result, "CaseResult", &CaseResult::sweep_value, &CaseResult::series, &CaseResult::solve_seconds);
    auto sweep = py::reinterpret_borrow<py::class_<io::Sweep>>(m.attr("Sweep"));
    pickle_fields(sweep, "Sweep", &io::Sweep::parameter, &io::Sweep::column, &io::Sweep::values);
    auto output = py::reinterpret_borrow<py::class_<io::OutputOptions>>(m.attr("OutputOptions"));
    pickle_fields(output, "OutputOptions", &io::OutputOptions::plot_x, &io::OutputOptions::plot_y,
                  &io::OutputOptions::title);
    auto initial = py::reinterpret_borrow<py::class_<io::InitialCondition>>(m.attr("InitialCondition"));
    pickle_fields(initial, "InitialCondition", &io::InitialCondition::f, &io::InitialCondition::steady);
#if BRISTLE_PYTHON_LINE_SCENARIOS
    auto extra = py::reinterpret_borrow<py::class_<io::ExtraFile>>(m.attr("ExtraFile"));
    pickle_fields(extra, "ExtraFile", &io::ExtraFile::suffix, &io::ExtraFile::text);
#endif
  }
}

}  // namespace bristle::python
