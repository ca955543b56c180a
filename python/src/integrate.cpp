// Python bindings of bristle/integrate: integrator options and statistics, and the generic
// integrate() driver for a right-hand side written in Python.
#include "bristle/integrate/ode.hpp"
#include "common.hpp"
#include "pickle_fields.hpp"
#include "schema_py.hpp"

namespace bristle::python {

using integrate::Method;
using integrate::Options;
using integrate::Stats;

namespace {

/// Copies n doubles into a new numpy array.
py::array_t<double> array_of(const double* x, int n) {
  py::array_t<double> a(n);
  std::copy(x, x + n, a.mutable_data());
  return a;
}

/// Writes the result of a Python callback (rows values, or rows x cols for a Jacobian, column-major)
/// into `out`.
void write_result(py::handle result, double* out, int rows, int cols, bool matrix, const char* what) {
  auto a = py::array_t<double, py::array::f_style | py::array::forcecast>::ensure(result);
  if (!a) throw py::type_error(std::string(what) + ": must return an array of numbers");
  const bool ok =
      !matrix ? (a.ndim() == 1 && a.shape(0) == rows) : (a.ndim() == 2 && a.shape(0) == rows && a.shape(1) == cols);
  if (!ok)
    throw InvalidInput(std::string(what) + ": returned an array of " + std::to_string(a.size()) + " values; expected " +
                       (!matrix ? std::to_string(rows) : std::to_string(rows) + " x " + std::to_string(cols)));
  std::copy(a.data(), a.data() + a.size(), out);
}

}  // namespace

namespace schema_py {

template <>
struct ChoiceParser<Method> : ParseWith<Method, integrate::method_from_string> {};

/// Options: the [integrator] table; atol_per_component is Python (and C++) only.
template <>
struct Traits<Options> : PlainTraits<Options> {
  static constexpr const char* name = "IntegratorOptions";
  static constexpr const char* prefix = "integrator";
  static constexpr const char* extra_doc =
      "  atol_per_component: absolute tolerance per state component (overrides atol; Python only)\n"
      "Deprecated aliases: dt= (use dt_s=), max_dt= (max_dt_s=), initial_dt= (initial_dt_s=).\n"
      "Example: ``IntegratorOptions(method=\"rodas5p\", rtol=1e-8, atol=1e-12, max_dt_s=0.01)``\n";
  static void dump(const Options& o, std::vector<Entry>& es) {
    es.push_back(Entry{"atol_per_component", to_py(o.atol_per_component), false, schema::Type::number_list,
                       "absolute tolerance per state component", {}});
  }
  static void load(Options& o, Load& l) {
    py::dict& kw = l.keywords();
    alias(kw, "dt", "dt_s", "IntegratorOptions");
    alias(kw, "max_dt", "max_dt_s", "IntegratorOptions");
    alias(kw, "initial_dt", "initial_dt_s", "IntegratorOptions");
    if (py::object a = pop(kw, "atol_per_component"))
      o.atol_per_component = to_vector(a, "integrator.atol_per_component");
  }
};

}  // namespace schema_py

void export_integrate(py::module_& root) {
  py::module_ m =
      root.def_submodule("integrate", "Time integrators (no physics): auto, CVODE BDF, RODAS4, Rodas5P, SDIRK2, "
                                      "implicit Euler, RK4.");

  py::enum_<Method>(m, "Method",
                    "auto (the default: the fastest adaptive method for the problem and tolerance), cvode_bdf "
                    "(adaptive BDF), rodas4, rodas5p (adaptive Rosenbrock), sdirk2, implicit_euler, rk4 (fixed step).\n\n"
                    "Example:\n    >>> bristle.IntegratorOptions(method=\"rodas4\").method\n    <Method.rodas4: 2>\n")
      .value("auto", Method::auto_)
      .value("cvode_bdf", Method::cvode_bdf)
      .value("rodas4", Method::rodas4)
      .value("rodas5p", Method::rodas5p)
      .value("sdirk2", Method::sdirk2)
      .value("implicit_euler", Method::implicit_euler)
      .value("rk4", Method::rk4);

  py::class_<Options> options(m, "IntegratorOptions", R"doc(
Integrator options, named as the TOML keys of [integrator]: method ("auto", the default, "cvode_bdf", "rodas4",
"rodas5p", "sdirk2", "implicit_euler", "rk4"); rtol (-), atol (state units), atol_per_component; dt_s (s,
fixed-step methods, > 0); max_dt_s, initial_dt_s (s, adaptive; 0 = automatic); max_steps (total step budget).
dt, max_dt and initial_dt are older names of the same attributes.

Example:
    >>> o = bristle.IntegratorOptions(method="sdirk2", dt_s=1e-3)     # fixed step of 1 ms
    >>> o.method, o.dt_s, o.rtol
    (<Method.sdirk2: 4>, 0.001, 1e-08)
)doc");
  options
      .def_property(
          "method", [](const Options& o) { return o.method; },
          [](Options& o, NameOrEnum v) {
            o.method = enum_from<Method>(v, "integrator.method", integrate::method_from_string);
          })
      .def_readwrite("rtol", &Options::rtol)
      .def_readwrite("atol", &Options::atol)
      .def_property(
          "atol_per_component", [](const Options& o) { return copy_array(o.atol_per_component); },
          [](Options& o, FloatOrArray v) { o.atol_per_component = to_vector(v, "integrator.atol_per_component"); })
      .def_readwrite("dt", &Options::dt_s)
      .def_readwrite("max_dt", &Options::max_dt_s)
      .def_readwrite("initial_dt", &Options::initial_dt_s)
      .def_readwrite("max_steps", &Options::max_steps)
      .def("validate", &Options::validate, py::arg("prefix") = "integrator",
           validate_doc("bristle.IntegratorOptions(rtol=-1e-6).validate()",
                        "integrator.rtol = -1e-06...").c_str());
  add_copy<Options>(options);
  schema_py::bind_schema<Options>(options, "Integrator options; keywords are the TOML keys of [integrator].");

  py::class_<Stats>(m, "Stats", R"doc(Integrator statistics of a run (counts; smallest_step and largest_step in s).

Example:
    >>> t, x, stats = bristle.integrate.integrate(lambda t, x: -x, [1.0], 0.0, [1.0])
    >>> stats.steps > 0, stats.method_used               # what method="auto" chose
    (True, <Method.rodas5p: 3>)
)doc")
      .def_readonly("steps", &Stats::steps)
      .def_readonly("rhs_evaluations", &Stats::rhs_evaluations)
      .def_readonly("jacobian_evaluations", &Stats::jacobian_evaluations)
      .def_readonly("error_test_failures", &Stats::error_test_failures)
      .def_readonly("nonlinear_failures", &Stats::nonlinear_failures)
      .def_readonly("restarts", &Stats::restarts, "restarts at located switches")
      .def_readonly("smallest_step", &Stats::smallest_step, "s")
      .def_readonly("largest_step", &Stats::largest_step, "s")
      .def_readonly("method_used", &Stats::method_used, "the method that ran (what auto chose)")
      .def("__repr__", [](const Stats& s) {
        return "Stats(steps=" + std::to_string(s.steps) + ", rhs_evaluations=" + std::to_string(s.rhs_evaluations) +
               ", jacobian_evaluations=" + std::to_string(s.jacobian_evaluations) +
               ", restarts=" + std::to_string(s.restarts) + ")";
      });

  m.def(
      "integrate",
      [](py::function rhs, ArrayLike x0, double t0, ArrayLike output_times, OptionalOptions options, OptionalFunction jacobian,
         OptionalFunction switches, int switch_count) {
        VecX x = to_vecx(x0, "x0");
        const int n = static_cast<int>(x.size());
        integrate::OdeSystem system;
        system.size = n;
        system.rhs = [rhs, n](double t, const double* state, double* dxdt) {
          write_result(rhs(t, array_of(state, n)), dxdt, n, 1, false, "rhs");
        };
        if (!jacobian.is_none()) {
          system.jacobian = [jacobian, n](double t, const double* state, double* jac) {
            write_result(jacobian(t, array_of(state, n)), jac, n, n, true, "jacobian");
          };
        }
        if (!switches.is_none()) {
          if (switch_count < 1)
            throw InvalidInput("switch_count = " + std::to_string(switch_count) + ": must be >= 1 with switches");
          system.switch_count = switch_count;
          system.switches = [switches, switch_count, n](double t, const double* state, double* g) {
            write_result(switches(t, array_of(state, n)), g, switch_count, 1, false, "switches");
          };
        }
        const std::vector<double> times = to_vector(output_times, "output_times");
        const Options opts = options.is_none() ? Options{} : cast_arg<Options>(options, "options", "IntegratorOptions");
        std::vector<double> out_t;
        std::vector<double> out_x;
        const Stats stats = integrate::integrate(system, x, t0, times, opts, [&](double t, const double* state) {
          out_t.push_back(t);
          out_x.insert(out_x.end(), state, state + n);
        });
        py::array_t<double> states({static_cast<py::ssize_t>(out_t.size()), static_cast<py::ssize_t>(n)});
        std::copy(out_x.begin(), out_x.end(), states.mutable_data());
        return py::make_tuple(copy_array(out_t), states, stats);
      },
      py::arg("rhs"), py::arg("x0"), py::arg("t0"), py::arg("output_times"), py::arg("options") = py::none(),
      py::arg("jacobian") = py::none(), py::arg("switches") = py::none(), py::arg("switch_count") = 0,
      R"doc(Integrates x' = rhs(t, x) from (t0, x0) through the increasing output_times.

rhs(t, x) -> array of len(x); jacobian(t, x) -> (n, n) array (optional); switches(t, x) -> array of
switch_count values whose sign changes mark kinks of rhs (optional, CVODE only).
Returns (times, states (len(times), n), Stats). Exceptions raised by the callables propagate;
SolverError (RuntimeError) on step-size collapse or non-finite states. Units: those of the caller's t and x.

Example:
    >>> t, x, stats = bristle.integrate.integrate(lambda t, x: -x, [1.0], 0.0, [0.5, 1.0],
    ...                                           bristle.IntegratorOptions(rtol=1e-10, atol=1e-12))
    >>> t, round(float(x[-1, 0]), 8)            # x(1) = e^-1
    (array([0.5, 1. ]), 0.36787944)
)doc");
  {  // results pickle by their fields (pickle_fields.hpp)
    auto stats = py::reinterpret_borrow<py::class_<Stats>>(m.attr("Stats"));
    pickle_fields(stats, "Stats", &Stats::steps, &Stats::rhs_evaluations, &Stats::jacobian_evaluations,
                  &Stats::error_test_failures, &Stats::nonlinear_failures, &Stats::restarts, &Stats::smallest_step,
                  &Stats::largest_step, &Stats::method_used);
  }
}

}  // namespace bristle::python
