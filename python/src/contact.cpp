// Python bindings of bristle/contact: the contact model (law x pair, paper 1 eq. 35), input signals,
// the mechanical benches of the lumped model and the analysis of their runs.
#include "bristle/contact/analysis.hpp"
#include "bristle/contact/bench.hpp"
#include "bristle/contact/contact_model.hpp"
#include "bristle/contact/signal.hpp"
#include "common.hpp"
#include "pickle_fields.hpp"
#include "schema_py.hpp"
#include "signal_traits.hpp"

namespace bristle::python {

using contact::Bench;
using contact::BenchParams;
using contact::BenchRun;
using contact::ContactModel;
using contact::DriveKind;
using contact::Signal;
using contact::SignalKind;

contact::Signal to_signal(py::handle value, std::string_view what) {
  if (py::isinstance<Signal>(value)) return value.cast<Signal>();
  if (py::isinstance<py::float_>(value) || py::isinstance<py::int_>(value))
    return Signal::constant_value(value.cast<double>());
  throw py::type_error(std::string(what) + ": expected a Signal or a number (a constant), got " +
                       std::string(py::str(py::type::handle_of(value).attr("__name__"))));
}

namespace {

/// The contact state u of a model from Python, size-checked.
VecX state_of(const ContactModel& model, py::handle u, std::string_view what = "u") {
  return to_vecx(u, what, model.state_size());
}

/// Calls `fn` translating std::out_of_range (a missing TimeSeries column) into KeyError.
template <class Fn>
auto with_columns(Fn&& fn) {
  try {
    return fn();
  } catch (const std::out_of_range& e) {
    throw py::key_error(e.what());
  }
}

}  // namespace

namespace schema_py {

template <>
struct ChoiceParser<DriveKind> : ParseWith<DriveKind, contact::drive_kind_from_string> {};

/// BenchParams: the [bench] table. A constant load is normal_load_N, a varying one the normal_load signal.
template <>
struct Traits<BenchParams> : PlainTraits<BenchParams> {
  static constexpr const char* name = "BenchParams";
  static constexpr const char* prefix = "bench";
  static constexpr const char* extra_doc =
      "Signals (input, input_y, belt, belt_y, normal_load) accept a Signal or a number (a constant).\n"
      "Deprecated aliases: input_x= (use input=), belt_x= (belt=), normal_load=<number> (normal_load_N=), x0= (x0_m=), "
      "v0= (v0_mps=), spring_end0= (spring_end0_m=).\n"
      "Example: ``BenchParams(drive=\"spring\", mass_kg=1.0, spring_N_per_m=2.0, input=0.1, normal_load_N=10.0)``\n";
  // The signal tables go through Traits<Signal> (its times and values are not fields of the walk); their keywords
  // are the keys in [bench].
  static std::string keyword(std::string_view path) { return std::string(path.substr(path.find('.') + 1)); }
  static void dump(const BenchParams& p, std::vector<Entry>& es) {
    for (const auto& [path, member] : contact::kBenchSignals)
      if (Entry* e = find(es, keyword(path))) e->children = entries_of(p.*member);
    if (p.normal_load.kind != SignalKind::constant) return;
    Entry* e = find(es, "normal_load");
    *e = Entry{"normal_load_N", to_py(p.normal_load.value), true, schema::Type::number,
               "constant normal load F_z (N), > 0", {}};
  }
  static void load(BenchParams& p, Load& l) {
    py::dict& kw = l.keywords();
    alias(kw, "input_x", "input", "BenchParams");
    alias(kw, "belt_x", "belt", "BenchParams");
    alias(kw, "x0", "x0_m", "BenchParams");
    alias(kw, "v0", "v0_mps", "BenchParams");
    alias(kw, "spring_end0", "spring_end0_m", "BenchParams");
    if (kw.contains("normal_load")) {
      py::object v = kw["normal_load"];
      if (py::isinstance<py::float_>(v) || py::isinstance<py::int_>(v)) {
        PyDict_DelItemString(kw.ptr(), "normal_load");
        if (kw.contains("normal_load_N"))
          throw py::type_error("BenchParams: give normal_load_N (a constant) or normal_load (a Signal), not both");
        deprecated("BenchParams(normal_load=<number>): deprecated, use normal_load_N= (the TOML key)");
        kw["normal_load_N"] = v;
      }
    }
    if (py::object n = pop(kw, "normal_load_N")) {
      if (kw.contains("normal_load"))
        throw py::type_error("BenchParams: give normal_load_N (a constant) or normal_load (a Signal), not both");
      p.normal_load = Signal::constant_value(cast_arg<double>(n, "bench.normal_load_N", "a number"));
    }
    for (const auto& [path, member] : contact::kBenchSignals) load_signal(l, keyword(path), "bench", p.*member);
  }
  static std::string table_repr(const std::string&, const py::dict& state) {
    return schema_py::repr(schema_py::from_state<Signal>(py::dict(state)));
  }
};

}  // namespace schema_py

void export_contact(py::module_& root) {
  py::module_ m = root.def_submodule(
      "contact",
      "The contact model (law x pair, paper 1 eq. 35), input signals, benches of the lumped model, analysis.");

  py::class_<ContactModel>(m, "ContactModel", R"doc(
The contact model = friction law h0 x viscoelastic contact pair (paper 1, §§2-4):
ContactModel(law, body1, body2=rigid()). Validates every parameter (InvalidInput naming "law.*",
"body1.*", "body2.*"). The state of a point is u = [f; zeta1; zeta2] (2 (n1 + n2 + 1) entries);
its source h(u, v_r) is eq. 35. v_r (m/s): 2 values, or a number v for (v, 0).

Example:
    >>> m = bristle.ContactModel(bristle.LawParams(type="lugre", mu_s=1.5, mu_d=1.0, v_s=1e-3),
    ...                          bristle.elastic(1e5))          # body1 k0 = 1e5 1/m, rigid substrate
    >>> m.state_size                                        # u = [f; zeta1] (2 (1 + 0 + 0))
    2
    >>> float(m.steady_force(0.1)[0])                       # normalised (N per N of load): -mu(0.1 m/s)
    -1.0
)doc")
      .def(py::init([](const laws::LawParams& law, const rheology::RheologyParams& body1, OptionalBody body2) {
             return ContactModel(law, body1,
                                 body2.is_none()
                                     ? rheology::rigid()
                                     : cast_arg<rheology::RheologyParams>(body2, "body2", "RheologyParams"));
           }),
           py::arg("law"), py::arg("body1"), py::arg("body2") = py::none())
      .def("__reduce__",
           [](const ContactModel& model) {
             return reduce_to(py::type::of<ContactModel>(), model.law().params(), params_of(model.pair().body1()),
                              params_of(model.pair().body2()));
           })
      .def_property_readonly("state_size", &ContactModel::state_size)
      .def_property_readonly("n1", &ContactModel::n1)
      .def_property_readonly("n2", &ContactModel::n2)
      .def(
          "source",
          [](const ContactModel& model, ArrayLike u, FloatOrArray v_r) {
            PointArgs a;
            const auto n = model.state_size();
            const std::size_t iu = a.vector(u, "u", n), iv = a.velocity(v_r, "v_r");
            py::array_t<double> h = a.result({n}), zdot = a.result({2});
            double* hp = h.mutable_data();
            double* zp = zdot.mutable_data();
            for (py::ssize_t i = 0; i < a.size(); ++i) put(zp + 2 * i, model.source(a.at(iu, i), a.vec2(iv, i), hp + n * i));
            return py::make_tuple(h, zdot);
          },
          py::arg("u"), py::arg("v_r"), R"doc(
(h, zdot): the source h(u, v_r) of eq. 35 and zdot = h0 (m/s).

u: the state (state_size values) or an (n, state_size) array; v_r (m/s): a number v (meaning (v, 0)),
2 values (v_x, v_y), an (n,) array of v_x or an (n, 2) array. With n points, h is (n, state_size) and
zdot (n, 2).

Example:
    >>> m = bristle.ContactModel(bristle.LawParams(type="lugre", mu_s=1.5, mu_d=1.0, v_s=1e-3),
    ...                          bristle.elastic(1e5))          # body1 k0 = 1e5 1/m, rigid substrate
    >>> v = np.linspace(0.1, 1.0, 50)                       # m/s
    >>> h, zdot = m.source(m.steady_state(v), v)            # zero at the steady states
    >>> h.shape, zdot.shape, bool(abs(h).max() < 1e-9)
    ((50, 2), (50, 2), True)
)doc")
      .def(
          "source_jacobian",
          [](const ContactModel& model, ArrayLike u, FloatOrArray v_r) {
            PointArgs a;
            const auto n = model.state_size();
            const std::size_t iu = a.vector(u, "u", n), iv = a.velocity(v_r, "v_r");
            MatX jacobian(n, n);
            return evaluate_points(a, {n, n}, [&](py::ssize_t i, double* out) {
              model.source_jacobian(a.at(iu, i), a.vec2(iv, i), jacobian.data());
              Eigen::Map<Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(out, n, n) = jacobian;
            });
          },
          py::arg("u"), py::arg("v_r"),
          R"doc(dh/du (1/s), state_size x state_size; (n, state_size, state_size) for n points (u and v_r as for source).

Example:
    >>> m = bristle.ContactModel(bristle.LawParams(type="lugre", mu_s=1.5, mu_d=1.0, v_s=1e-3),
    ...                          bristle.elastic(1e5))          # body1 k0 = 1e5 1/m, rigid substrate
    >>> J = m.source_jacobian(np.zeros(2), 0.1)             # at rest state, v_r = 0.1 m/s
    >>> J.shape
    (2, 2)
)doc")
      .def(
          "friction",
          [](const ContactModel& model, ArrayLike u, FloatOrArray v_r) {
            PointArgs a;
            const std::size_t iu = a.vector(u, "u", model.state_size()), iv = a.velocity(v_r, "v_r");
            return evaluate_points(a, {2}, [&](py::ssize_t i, double* out) {
              put(out, model.friction(a.at(iu, i), a.vec2(iv, i)));
            });
          },
          py::arg("u"), py::arg("v_r"), R"doc(
Normalised friction force on the upper body (f plus LuGre's output terms), (2,); (n, 2) for n points
(u and v_r as for source). Sign: the force opposes the sliding, -mu(v) along v in the steady state; the
force in N is F_z times it.

Example:
    >>> m = bristle.ContactModel(bristle.LawParams(type="lugre", mu_s=1.5, mu_d=1.0, v_s=1e-3),
    ...                          bristle.elastic(1e5))          # body1 k0 = 1e5 1/m, rigid substrate
    >>> u = m.steady_state(0.1)                             # steady state at 0.1 m/s
    >>> float(m.friction(u, 0.1)[0])                        # -mu(0.1 m/s) along x; times F_z in N
    -1.0
)doc")
      .def(
          "stored_energy",
          [](const ContactModel& model, ArrayLike u) {
            const VecX x = state_of(model, u);
            return model.stored_energy(x.data());
          },
          py::arg("u"), R"doc(Stored energy at a point, eq. 85 without the pressure factor (normalised, m; times F_z in J).

Example:
    >>> m = bristle.ContactModel(bristle.LawParams(type="lugre", mu_s=1.5, mu_d=1.0, v_s=1e-3),
    ...                          bristle.elastic(1e5))          # body1 k0 = 1e5 1/m, rigid substrate
    >>> m.stored_energy(m.steady_state(0.1))                # f^2 / (2 k0) = 1 / 2e5 m
    5e-06
)doc")
      .def(
          "damper_power",
          [](const ContactModel& model, ArrayLike h) {
            const VecX x = state_of(model, h, "h");
            return model.damper_power(x.data());
          },
          py::arg("h"), R"doc(Power dissipated in the dampers at a point (normalised, m/s; times F_z in W), given the source h.

Example:
    >>> m = papers.sliding_model(0.4, 1)                    # Table 1 GKV pair (dampers in both bodies)
    >>> h, zdot = m.source(np.zeros(m.state_size), 1.0)     # relaxed state, v_r = 1 m/s
    >>> m.damper_power(h) >= 0
    True
)doc")
      .def(
          "dissipation_rate",
          [](const ContactModel& model, ArrayLike u, FloatOrArray v_r, ArrayLike h, ArrayLike zdot) {
            const VecX x = state_of(model, u);
            const VecX hx = state_of(model, h, "h");
            return model.dissipation_rate(x.data(), to_vec2(v_r, "v_r", true), hx.data(), to_vec2(zdot, "zdot"));
          },
          py::arg("u"), py::arg("v_r"), py::arg("h"), py::arg("zdot"),
          R"doc(Dissipated power at a point (normalised, m/s; times F_z in W); >= 0 for FrBD (Lemma B.1).

Example:
    >>> m = papers.sliding_model(0.4, 1)                    # FrBD law, Table 1
    >>> u = 0.5 * m.steady_state(1.0)                       # a state on the way to sliding at 1 m/s
    >>> h, zdot = m.source(u, 1.0)
    >>> m.dissipation_rate(u, 1.0, h, zdot) >= 0            # Lemma B.1
    True
)doc")
      .def(
          "steady_force",
          [](const ContactModel& model, FloatOrArray v_r) {
            PointArgs a;
            const std::size_t iv = a.velocity(v_r, "v_r");
            return evaluate_points(a, {2}, [&](py::ssize_t i, double* out) { put(out, model.steady_force(a.vec2(iv, i))); });
          },
          py::arg("v_r"), R"doc(
Analytic steady normalised friction force at constant v_r (m/s): (2,) for one velocity, (n, 2) for n.

v_r: a number v (meaning (v, 0)), 2 values (v_x, v_y), an (n,) numpy array of v_x (n != 2) or an
(n, 2) array. Sign: the force on the upper body opposes the sliding, -mu(|v|) v/|v| (plus LuGre's
-Sigma2 v); times F_z it is in N. Never NaN: at v_r = 0 it is 0 for every law and every eps (the limit
eps -> 0+); with eps = 0 it depends on the direction of v_r only. The frictionless law raises InvalidInput
at v_r != 0 (no steady state); a singular G^-1(v_r) SolverError.

Example:
    >>> m = papers.sliding_model(0.4, 1)                    # mu_s = 1, mu_d = 0.7, v_s = 6 m/s
    >>> F = m.steady_force(np.geomspace(1e-3, 10, 200))     # (200, 2): the Stribeck curve -mu(v)
    >>> F.shape, round(float(F[0, 0]), 4), float(abs(m.steady_force(0.0)).max())
    ((200, 2), -1.0, 0.0)
)doc")
      .def(
          "steady_state",
          [](const ContactModel& model, FloatOrArray v_r) {
            PointArgs a;
            const std::size_t iv = a.velocity(v_r, "v_r");
            const auto n = model.state_size();
            return evaluate_points(a, {n}, [&](py::ssize_t i, double* out) {
              const VecX u = model.steady_state(a.vec2(iv, i));
              std::copy(u.data(), u.data() + n, out);
            });
          },
          py::arg("v_r"),
          R"doc(The steady state u at constant v_r (m/s): (state_size,), or (n, state_size) for n velocities
(v_r as for steady_force; at v_r = 0, the limit u = 0). u = [f; zeta1; zeta2]: f normalised (-), the zeta (m).

Example:
    >>> m = papers.sliding_model(0.4, 2)                    # state [f; zeta1 (2 branches); zeta2]
    >>> m.steady_state(1.0).shape, m.steady_state(np.linspace(0.1, 1, 5)).shape
    ((10,), (5, 10))
)doc")
      .def_property_readonly(
          "law", [](const ContactModel& model) { return model.law(); }, "FrictionLaw (a copy)")
      .def_property_readonly(
          "pair", [](const ContactModel& model) { return model.pair(); }, "ContactPair (a copy)");

  py::enum_<SignalKind>(m, "SignalKind", "The type of a Signal (TOML signal.type): constant, step, ramp, sine, table."
                         "\n\nExample:\n" "    >>> bristle.Signal.sine(amplitude=0.1, omega=1.0).kind\n" "    <SignalKind.sine: 3>\n")
      .value("constant", SignalKind::constant)
      .value("step", SignalKind::step)
      .value("ramp", SignalKind::ramp)
      .value("sine", SignalKind::sine)
      .value("table", SignalKind::table);

  py::class_<Signal> signal(m, "Signal", R"doc(
A scalar input u(t) (velocities in m/s, forces in N, loads in N):
  constant  u = value
  step      u = before for t < t0, after for t >= t0
  ramp      u = start + rate (t - t0) for t0 <= t <= t_end (held outside)
  sine      u = offset + amplitude sin(omega t + phase)   (omega in rad/s)
  table     linear interpolation of (times, values), held outside
Build with Signal.constant(v), .step(...), .ramp(...), .sine(...), .table(...) or keywords (the TOML
keys: type="sine", amplitude=...; the attribute `kind` is the SignalKind). Calling
s(t) evaluates it (elementwise on arrays), after validating it.

Example:
    >>> s = bristle.Signal.ramp(start=0.0, rate=0.5, t0=1.0, t_end=3.0)    # m/s (or N), s
    >>> s(np.array([0.0, 2.0, 4.0]))
    array([0. , 0.5, 1. ])
)doc");
  signal
      .def_static("constant", &Signal::constant_value, py::arg("value"), R"doc(u = value (the unit of the input it drives).

Example:
    >>> bristle.Signal.constant(0.1)(5.0)      # e.g. 0.1 m/s at t = 5 s
    0.1
)doc")
      .def_static(
          "step",
          &Signal::step,
          py::arg("t0"), py::arg("before"), py::arg("after"), R"doc(u = before for t < t0 (s), after for t >= t0.

Example:
    >>> bristle.Signal.step(t0=1.0, before=10.0, after=20.0)(np.array([0.5, 1.0]))   # N at 0.5 s, 1 s
    array([10., 20.])
)doc")
      .def_static(
          "ramp",
          &Signal::ramp,
          py::arg("start"), py::arg("rate"), py::arg("t0") = 0.0, py::arg("t_end") = std::numeric_limits<double>::infinity(),
          R"doc(u = start + rate (t - t0) between t0 and t_end (s), held outside; rate in units of u per second.

Example:
    >>> bristle.Signal.ramp(start=1.0, rate=2.0)(0.25)      # e.g. a normal load ramp: 1 N + 2 N/s * 0.25 s
    1.5
)doc")
      .def_static(
          "sine",
          &Signal::sine,
          py::arg("amplitude"), py::arg("omega"), py::arg("offset") = 0.0, py::arg("phase") = 0.0,
          R"doc(u = offset + amplitude sin(omega t + phase), omega in rad/s, phase in rad.

Example:
    >>> s = bristle.Signal.sine(amplitude=0.1, omega=2 * math.pi, offset=0.05)    # m/s, 1 Hz
    >>> round(s(0.25), 12)                                                         # m/s at t = 0.25 s
    0.15
)doc")
      .def_static(
          "table",
          [](ArrayLike times, ArrayLike values) {
            Signal s;
            s.kind = SignalKind::table;
            s.times = to_vector(times, "signal.times");
            s.values = to_vector(values, "signal.values");
            s.validate("signal");
            return s;
          },
          py::arg("times"), py::arg("values"), R"doc(Linear interpolation of (times (s), values), held outside.

Example:
    >>> s = bristle.Signal.table([0.0, 1.0, 2.0], [0.0, 0.2, 0.2])    # s, m/s
    >>> s(np.array([0.5, 1.5, 9.0]))
    array([0.1, 0.2, 0.2])
)doc")
      .def_property(
          "kind", [](const Signal& s) { return s.kind; },
          [](Signal& s, NameOrEnum k) {
            s.kind = enum_from<SignalKind>(k, "signal.type", contact::signal_kind_from_string);
          })
      .def_readwrite("value", &Signal::value)
      .def_readwrite("t0", &Signal::t0)
      .def_readwrite("before", &Signal::before)
      .def_readwrite("after", &Signal::after)
      .def_readwrite("start", &Signal::start)
      .def_readwrite("rate", &Signal::rate)
      .def_readwrite("t_end", &Signal::t_end)
      .def_readwrite("offset", &Signal::offset)
      .def_readwrite("amplitude", &Signal::amplitude)
      .def_readwrite("omega", &Signal::omega)
      .def_readwrite("phase", &Signal::phase)
      .def_property(
          "times", [](const Signal& s) { return copy_array(s.times); },
          [](Signal& s, FloatOrArray v) { s.times = to_vector(v, "signal.times"); })
      .def_property(
          "values", [](const Signal& s) { return copy_array(s.values); },
          [](Signal& s, FloatOrArray v) { s.values = to_vector(v, "signal.values"); })
      .def("validate", &Signal::validate, py::arg("prefix") = "signal", R"doc(
Raises InvalidInput (ValueError) naming prefix.key if a value is out of range or non-finite.

Example:
    >>> bristle.Signal.sine(amplitude=0.1, omega=6.283).validate()        # fine: no exception
    >>> bristle.Signal(type="sine", omega=float("nan")).validate("bench.input")
    Traceback (most recent call last):
    ...
    bristle._bristle.InvalidInput: bench.input.omega = nan: ...
)doc")
      .def(
          "__call__",
          [](const Signal& s, FloatOrArray t) {
            s.validate("signal");
            return map_array(t, "t", [&s](double x) { return s(x); });
          },
          py::arg("t"), "u(t); elementwise on arrays.")
      .def("breakpoints", &Signal::breakpoints, R"doc(Times of kinks and jumps (s), where an integrator should stop.

Example:
    >>> bristle.Signal.ramp(start=0.0, rate=1.0, t0=1.0, t_end=2.0).breakpoints()    # s
    [1.0, 2.0]
)doc")
      .def("copy", [](const Signal& s) { return Signal(s); }, R"doc(A copy (a Signal is a plain value).

Example:
    >>> s = bristle.Signal.constant(0.1); t = s.copy(); t.value = 0.2    # m/s
    >>> s.value, t.value
    (0.1, 0.2)
)doc")
      .def("__copy__", [](const Signal& s) { return Signal(s); })
      .def(
          "__deepcopy__", [](const Signal& s, py::dict) { return Signal(s); }, py::arg("memo"));
  schema_py::bind_schema<Signal>(signal, "A scalar input u(t); keywords are the keys of a TOML signal table.");

  py::enum_<DriveKind>(
      m, "DriveKind",
      "Bench drive: velocity (prescribed v_r), force (mass pushed by F_ext), spring (mass pulled through a spring)."
      "\n\nExample:\n" "    >>> bristle.BenchParams(drive=\"force\").drive\n" "    <DriveKind.force: 1>\n")
      .value("velocity", DriveKind::velocity)
      .value("force", DriveKind::force)
      .value("spring", DriveKind::spring);

  auto signal_property = [](auto& cls, const char* name, Signal BenchParams::*member, const char* doc) {
    cls.def_property(
        name, [member](const BenchParams& p) { return p.*member; },
        [member, name](BenchParams& p, SignalOrFloat v) { p.*member = to_signal(v, std::string("bench.") + name); }, doc);
  };
  auto vec_property = [](auto& cls, const char* name, Vec2 BenchParams::*member, const char* doc) {
    cls.def_property(
        name, [member](const BenchParams& p) { return p.*member; },
        [member, name](BenchParams& p, FloatOrArray v) { p.*member = to_vec2(v, std::string("bench.") + name); }, doc);
  };
  py::class_<BenchParams> bench_params(m, "BenchParams", R"doc(
A mechanical bench around one lumped contact (paper 1, eq. 1 without advection):
  velocity  the contact is driven at v_r(t) = input_x(t), input_y(t) (m/s)
  force     m x'' = F_ext(t) + F_z f,   F_ext = input (N),  v_r = x' - v_belt
  spring    m x'' = k (x_p - x) + F_z f,  x_p' = input (m/s)
mass_kg (kg) > 0, spring_N_per_m (N/m) > 0, normal_load_N (N) > 0 (or normal_load, a Signal); signals accept a
Signal or a number. x0_m (m), v0_mps (m/s), spring_end0_m (m): initial values, 2 values each. The attributes
input_x, belt_x, x0, v0, spring_end0 are the older names of input, belt, x0_m, v0_mps, spring_end0_m.

Example:
    >>> p = bristle.BenchParams(drive="spring", mass_kg=1.0, spring_N_per_m=2.0, input=0.1, normal_load_N=10.0)
    >>> p.drive, p.normal_load_N, p.input(3.0)      # pulled at 0.1 m/s under 10 N
    (<DriveKind.spring: 2>, 10.0, 0.1)
)doc");
  bench_params
      .def_property(
          "drive", [](const BenchParams& p) { return p.drive; },
          [](BenchParams& p, NameOrEnum d) {
            p.drive = enum_from<DriveKind>(d, "bench.drive", contact::drive_kind_from_string);
          })
      .def_readwrite("mass_kg", &BenchParams::mass_kg, "mass (kg), > 0 (force and spring drives)")
      .def_readwrite("spring_N_per_m", &BenchParams::spring_N_per_m, "drive spring stiffness (N/m), > 0");
  signal_property(bench_params, "input_x", &BenchParams::input_x,
                  "v_r (m/s), F_ext (N) or v_p (m/s) along x, by drive");
  signal_property(bench_params, "input_y", &BenchParams::input_y, "the same along y");
  signal_property(bench_params, "belt_x", &BenchParams::belt_x, "belt velocity (m/s) along x");
  signal_property(bench_params, "belt_y", &BenchParams::belt_y, "belt velocity (m/s) along y");
  signal_property(bench_params, "normal_load", &BenchParams::normal_load, "normal load F_z (N), > 0");
  vec_property(bench_params, "x0", &BenchParams::x0, "initial position (m)");
  vec_property(bench_params, "v0", &BenchParams::v0, "initial velocity (m/s)");
  vec_property(bench_params, "spring_end0", &BenchParams::spring_end0, "initial pulled-end position (m)");
  bench_params.def("validate", &BenchParams::validate, py::arg("prefix") = "bench", R"doc(
Raises InvalidInput (ValueError) naming prefix.key if a value is out of range (as a model built from it would).

Example:
    >>> bristle.BenchParams(drive="spring", mass_kg=-1.0).validate()
    Traceback (most recent call last):
    ...
    bristle._bristle.InvalidInput: bench.mass_kg = -1: must be > 0
)doc")
      .def("copy", [](const BenchParams& p) { return BenchParams(p); }, R"doc(A copy (signals included).

Example:
    >>> p = bristle.BenchParams(drive="force", mass_kg=2.0); q = p.copy(); q.mass_kg = 3.0    # kg
    >>> p.mass_kg, q.mass_kg
    (2.0, 3.0)
)doc")
      .def("__copy__", [](const BenchParams& p) { return BenchParams(p); })
      .def(
          "__deepcopy__", [](const BenchParams& p, py::dict) { return BenchParams(p); }, py::arg("memo"));
  signal_property(bench_params, "input", &BenchParams::input_x,
                  "v_r (m/s), F_ext (N) or v_p (m/s) along x, by drive (TOML key bench.input)");
  signal_property(bench_params, "belt", &BenchParams::belt_x, "belt velocity (m/s) along x (TOML key bench.belt)");
  bench_params.def_property(
      "normal_load_N",
      [](const BenchParams& p) -> py::object {
        if (p.normal_load.kind != SignalKind::constant) return py::none();
        return py::float_(p.normal_load.value);
      },
      [](BenchParams& p, double v) { p.normal_load = Signal::constant_value(v); },
      "constant normal load F_z (N), > 0; None when normal_load is a varying Signal (TOML key bench.normal_load_N)");
  schema_py::bind_schema<BenchParams>(
      bench_params, "A mechanical bench around one lumped contact; keywords are the TOML keys of [bench].");

  py::class_<Bench>(m, "Bench", R"doc(
The ODE of a bench: Bench(model, params). Keeps `model` alive. State: mechanical state, contact state
u, then the supplied and dissipated energies (J).

Example:
    >>> law = bristle.LawParams(type="lugre", mu_s=1.5, mu_d=1.0, v_s=1e-3, sigma1=316.2, sigma2=0.4)
    >>> b = bristle.Bench(bristle.ContactModel(law, bristle.elastic(1e5)),
    ...                   bristle.BenchParams(drive="spring", spring_N_per_m=2.0, input=0.1, normal_load_N=1.0))
    >>> b.state_size, b.contact_offset          # [x, y, vx, vy, spring end x, y; u (2); 2 energies]
    (10, 6)
)doc")
      .def(py::init<const ContactModel&, BenchParams>(), py::arg("model"), py::arg("params"), py::keep_alive<1, 2>())
      .def("__reduce__",
           [](py::object self) {
             const Bench& b = self.cast<const Bench&>();
             return reduce_to(py::type::of<Bench>(), self.attr("model"), b.params());
           })
      .def_property_readonly("state_size", &Bench::state_size)
      .def_property_readonly("contact_offset", &Bench::contact_offset, "index of u in the state")
      .def(
          "initial_state",
          [](const Bench& b, OptionalArray u0) {
            return copy_array(b.initial_state(u0.is_none() ? VecX() : to_vecx(u0, "u0")));
          },
          py::arg("u0") = py::none(), R"doc(
The initial state (positions m, velocities m/s, contact state u0 (zero if None), energies 0 J).

Example:
    >>> law = bristle.LawParams(type="lugre", mu_s=1.5, mu_d=1.0, v_s=1e-3, sigma1=316.2, sigma2=0.4)
    >>> b = bristle.Bench(bristle.ContactModel(law, bristle.elastic(1e5)),
    ...                   bristle.BenchParams(drive="spring", spring_N_per_m=2.0, input=0.1, normal_load_N=1.0))
    >>> b.initial_state().shape
    (10,)
)doc")
      .def("column_names", &Bench::column_names, R"doc(Names of the recorded columns (with units).

Example:
    >>> law = bristle.LawParams(type="lugre", mu_s=1.5, mu_d=1.0, v_s=1e-3, sigma1=316.2, sigma2=0.4)
    >>> b = bristle.Bench(bristle.ContactModel(law, bristle.elastic(1e5)),
    ...                   bristle.BenchParams(drive="spring", spring_N_per_m=2.0, input=0.1, normal_load_N=1.0))
    >>> b.column_names()[:6]
    ['t_s', 'x_m', 'y_m', 'v_mps', 'vy_mps', 'vr_mps']
)doc")
      .def(
          "outputs",
          [](const Bench& b, double t, ArrayLike state) {
            const VecX s = to_vecx(state, "state", b.state_size());
            return copy_array(b.outputs(t, s.data()));
          },
          py::arg("t"), py::arg("state"), R"doc(The recorded outputs at (t (s), state), in column order (column_names()).

Example:
    >>> law = bristle.LawParams(type="lugre", mu_s=1.5, mu_d=1.0, v_s=1e-3, sigma1=316.2, sigma2=0.4)
    >>> b = bristle.Bench(bristle.ContactModel(law, bristle.elastic(1e5)),
    ...                   bristle.BenchParams(drive="spring", spring_N_per_m=2.0, input=0.1, normal_load_N=1.0))
    >>> out = b.outputs(0.0, b.initial_state())
    >>> len(out) == len(b.column_names()), float(out[0])        # t_s first
    (True, 0.0)
)doc")
      .def_property_readonly(
          "model", [](const Bench& b) { return &b.model(); }, py::return_value_policy::reference_internal)
      .def_property_readonly("params", [](const Bench& b) { return b.params(); });

  py::class_<BenchRun>(m, "BenchRun",
                       "Result of contact.run: series (TimeSeries), stats (integrator Stats), and which path "
                       "integrated: x_only (the 1-D x subsystem, rodas4) and kernel (its compiled kernel for an "
                       "elastic pair with a Dahl/LuGre/FrBD law); docs/integrators.md.\n\n"
                       "Example:\n"
                       "    >>> law = bristle.LawParams(type=\"dahl\", mu_s=1.0, mu_d=1.0)\n"
                       "    >>> b = bristle.Bench(bristle.ContactModel(law, bristle.elastic(1e4)),\n"
                       "    ...                   bristle.BenchParams(drive=\"velocity\", input=0.01))   # m/s\n"
                       "    >>> r = bristle.contact.run(b, np.linspace(0.0, 0.1, 11))                 # s\n"
                       "    >>> r.series.rows, r.stats.steps > 0\n"
                       "    (11, True)\n")
      .def_readonly("series", &BenchRun::series)
      .def_readonly("stats", &BenchRun::stats)
      .def_readonly("x_only", &BenchRun::x_only)
      .def_readonly("kernel", &BenchRun::kernel);

  m.def(
      "run",
      [](const Bench& bench, ArrayLike output_times, OptionalOptions options, OptionalArray u0, ProgressCallback progress) {
        const std::vector<double> times = to_vector(output_times, "output_times");
        const integrate::Options opts = options.is_none()
                                            ? integrate::Options{}
                                            : cast_arg<integrate::Options>(options, "options", "IntegratorOptions");
        const VecX u = u0.is_none() ? VecX() : to_vecx(u0, "u0");
        ProgressRelay relay(progress);
        const auto on_progress = relay.function();
        py::gil_scoped_release release;
        return contact::run(bench, times, opts, u, on_progress);
      },
      py::arg("bench"), py::arg("output_times"), py::arg("options") = py::none(), py::arg("u0") = py::none(),
      py::arg("progress") = py::none(),
      R"doc(Integrates a bench through output_times (s; t0 = the first), recording a row at each.
options: IntegratorOptions (default CVODE BDF, rtol 1e-8, atol 1e-12); u0: initial contact state (zero
if None); progress: optional callable(fraction). Runs with the GIL released; Ctrl-C interrupts it.
Returns a BenchRun; forces in the series in N (F_N: on the upper body, negative when sliding forward).

Example:
    >>> law = bristle.LawParams(type="lugre", mu_s=1.5, mu_d=1.0, v_s=1e-3, sigma1=316.2, sigma2=0.4)
    >>> b = bristle.Bench(bristle.ContactModel(law, bristle.elastic(1e5)),
    ...                   bristle.BenchParams(drive="spring", spring_N_per_m=2.0, input=0.1, normal_load_N=1.0))
    >>> r = bristle.contact.run(b, np.arange(0.0, 10.0, 0.01))      # output times (s)
    >>> round(float(min(r.series["F_N"])), 2)                        # N: the break-away peak
    -1.48
)doc");

  m.def(
      "peak_abs",
      [](const TimeSeries& s, const std::string& column) {
        return with_columns([&] { return contact::peak_abs(s, column); });
      },
      py::arg("series"), py::arg("column"), R"doc(
(time (s), value) of the peak of |column| (parabolic refinement); value = max |column|, in the column's unit.

Example:
    >>> t = np.linspace(0.0, 1.0, 101)                               # s
    >>> ts = bristle.TimeSeries.from_columns({"t_s": t, "F_N": -np.sin(math.pi * t)})
    >>> [round(x, 3) for x in bristle.peak_abs(ts, "F_N")]           # s, N
    [0.5, 1.0]
)doc");
  m.def(
      "breakaway", [](const TimeSeries& s) { return with_columns([&] { return contact::breakaway(s); }); },
      py::arg("series"),
      R"doc((time (s), force (N)): the friction |F_N| at its first local maximum (the break-away force); (0, 0) if none.

Example:
    >>> t = np.linspace(0.0, 2.0, 201)                               # s
    >>> ts = bristle.TimeSeries.from_columns({"t_s": t, "F_N": -1.5 * t * np.exp(1.0 - t)})   # peak 1.5 N at 1 s
    >>> [round(x, 3) for x in bristle.breakaway(ts)]
    [1.0, 1.5]
)doc");
  py::class_<contact::StickSlipCycle>(m, "StickSlipCycle", R"doc(
The stick-slip limit cycle of a spring-driven run (stick_slip_cycle): found, cycles, cycles_used, period_s (s),
peak_friction_N (N), peak_velocity_mps (m/s).

Example:
    >>> law = bristle.LawParams(type="lugre", mu_s=1.5, mu_d=1.0, v_s=1e-3, sigma1=316.2, sigma2=0.4)
    >>> b = bristle.Bench(bristle.ContactModel(law, bristle.elastic(1e5)),
    ...     bristle.BenchParams(drive="spring", spring_N_per_m=2.0, input=0.1, normal_load_N=1.0))
    >>> c = bristle.stick_slip_cycle(bristle.contact.run(b, np.arange(0.0, 30.0, 0.005)).series)
    >>> c.found, round(c.peak_friction_N, 2)                   # N
    (True, 1.48)
)doc")
      .def_readonly("found", &contact::StickSlipCycle::found,
                    "a stick-slip limit cycle was found (sticking itself: |v_r| under 1e-3 max |v_r| for >= 2 rows)")
      .def_readonly("cycles", &contact::StickSlipCycle::cycles, "complete cycles measured (0: no stick-slip)")
      .def_readonly("cycles_used", &contact::StickSlipCycle::cycles_used, "the same: cycles averaged")
      .def_readonly("period_s", &contact::StickSlipCycle::period_s)
      .def_readonly("peak_friction_N", &contact::StickSlipCycle::peak_friction_N)
      .def_readonly("peak_velocity_mps", &contact::StickSlipCycle::peak_velocity_mps)
      .def("__repr__", [](const contact::StickSlipCycle& c) {
        return "StickSlipCycle(found=" + std::string(c.found ? "True" : "False") +
               ", cycles=" + std::to_string(c.cycles) + ", period_s=" + repr_double(c.period_s) +
               ", peak_friction_N=" + repr_double(c.peak_friction_N) +
               ", peak_velocity_mps=" + repr_double(c.peak_velocity_mps) + ")";
      });
  m.def(
      "stick_slip_cycle",
      [](const TimeSeries& s, int max_cycles) {
        if (max_cycles < 1) throw InvalidInput("max_cycles = " + std::to_string(max_cycles) + ": must be >= 1");
        return with_columns([&] { return contact::stick_slip_cycle(s, max_cycles); });
      },
      py::arg("series"), py::arg("max_cycles") = 4,
      "Stick-slip limit cycle of a spring-driven run, detected from sticking itself (contact::StickSlipDetector):\n"
      "found, the fundamental period and the cycles used (up to max_cycles); not found (no period) for motion\n"
      "that never sticks. Units: period_s (s), peak_friction_N (N), peak_velocity_mps (m/s).\n\n"
      "Example:\n"
      "    >>> law = bristle.LawParams(type=\"lugre\", mu_s=1.5, mu_d=1.0, v_s=1e-3, sigma1=316.2, sigma2=0.4)\n"
      "    >>> b = bristle.Bench(bristle.ContactModel(law, bristle.elastic(1e5)),\n"
      "    ...     bristle.BenchParams(drive=\"spring\", spring_N_per_m=2.0, input=0.1, normal_load_N=1.0))\n"
      "    >>> c = bristle.stick_slip_cycle(bristle.contact.run(b, np.arange(0.0, 30.0, 0.005)).series)\n"
      "    >>> c.found, round(c.period_s, 2)                      # s\n"
      "    (True, 6.36)\n");
  m.def(
      "derived_quantities",
      [](const TimeSeries& s, bool spring_drive) {
        return with_columns([&] { return contact::derived_quantities(s, spring_drive); });
      },
      py::arg("series"), py::arg("spring_drive") = false,
      R"doc(The derived quantities of a bench run (final values, peak and break-away force (N), stick-slip period (s)),
a dict keyed as the CLI's JSON report ("derived").

Example:
    >>> law = bristle.LawParams(type="dahl", mu_s=1.0, mu_d=1.0)
    >>> b = bristle.Bench(bristle.ContactModel(law, bristle.elastic(1e4)),
    ...                   bristle.BenchParams(drive="velocity", input=0.01, normal_load_N=2.0))
    >>> d = bristle.derived_quantities(bristle.contact.run(b, np.linspace(0.0, 0.1, 11)).series)
    >>> sorted(d)[:2]                                   # F_peak_N (N), final energies (J), ...
    ['F_peak_N', 'final_E_supplied_J']
)doc");
  {  // results pickle by their fields (pickle_fields.hpp)
    auto run = py::reinterpret_borrow<py::class_<BenchRun>>(m.attr("BenchRun"));
    pickle_fields(run, "BenchRun", &BenchRun::series, &BenchRun::stats, &BenchRun::x_only, &BenchRun::kernel);
    using contact::StickSlipCycle;
    auto cycle = py::reinterpret_borrow<py::class_<StickSlipCycle>>(m.attr("StickSlipCycle"));
    pickle_fields(cycle, "StickSlipCycle", &StickSlipCycle::found, &StickSlipCycle::cycles, &StickSlipCycle::cycles_used,
                  &StickSlipCycle::period_s, &StickSlipCycle::peak_friction_N, &StickSlipCycle::peak_velocity_mps);
  }
}

}  // namespace bristle::python
