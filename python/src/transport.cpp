// Python bindings of bristle/transport: the line contact of paper 1, §5 (eqs. 33-36, 54, 60): pressure,
// parameters, the transient finite-volume solver, runs, and the steady state.
#include <tuple>

#include "bristle/transport/line_contact.hpp"
#include "common.hpp"
#include "pickle_fields.hpp"
#include "schema_py.hpp"
#include "signal_traits.hpp"
#include "transport_choices.hpp"

BRISTLE_PY_TYPED_OBJECT(PressureArg, "str | bristle._bristle.transport.PressureParams")
BRISTLE_PY_TYPED_OBJECT(PressureTableArg, "dict | None")

// The setup shared by the examples of LineContact.
#define LC_EXAMPLE                                                                                   \
  "    >>> lc = bristle.LineContact(papers.sliding_model(0.4, 1),\n"                               \
  "    ...         bristle.LineContactParams(L_m=0.2, normal_load_N=10.0, cells=20, V2=0.3))\n"

namespace bristle::python {

using transport::Limiter;
using transport::LineContact;
using transport::LineContactParams;
using transport::LineRun;
using transport::Pressure;
using transport::PressureKind;
using transport::PressureParams;
using transport::SourceScheme;
using transport::SteadyLine;

namespace {

/// Items of a vector member as a list of references into `self` (no copy; they keep `self` alive).
template <class Owner, class Item>
py::list reference_list(py::object self, std::vector<Item> Owner::*member) {
  Owner& owner = self.cast<Owner&>();
  py::list out;
  for (auto& item : owner.*member) out.append(py::cast(&item, py::return_value_policy::reference_internal, self));
  return out;
}

}  // namespace

namespace schema_py {

/// PressureParams: kind, and the table's xi_m and values (declared: lists). The constructor is the class's own.
template <>
struct Traits<PressureParams> : PlainTraits<PressureParams> {
  static constexpr const char* name = "PressureParams";
  static constexpr const char* prefix = "line.pressure";
  static void dump(const PressureParams& p, std::vector<Entry>& es) {
    const bool table = p.kind == PressureKind::table;
    es.push_back(Entry{"xi_m", to_py(p.xi_m), table, schema::Type::number_list, "positions xi (m)", {}});
    es.push_back(Entry{"values", to_py(p.values), table, schema::Type::number_list, "pressure shape at each xi_m", {}});
  }
  static void load(PressureParams& p, Load& l) {
    if (py::object x = pop(l.keywords(), "xi_m")) p.xi_m = to_vector(x, "line.pressure.xi_m");
    if (py::object v = pop(l.keywords(), "values")) p.values = to_vector(v, "line.pressure.values");
  }
};

/// LineContactParams: the [line] table (serialize with the transient solver's keys) and the material velocities V1,
/// V2, v_y (the scenarios' [kinematics]; signals, through Traits<Signal>). pressure_table's xi_m and values (declared:
/// lists) are the PressureParams' own. The constructor is the class's own (the TOML form: pressure = "table" with
/// pressure_table, or a PressureParams; it checks what it is given as before).
template <>
struct Traits<LineContactParams> : PlainTraits<LineContactParams> {
  static constexpr const char* name = "LineContactParams";
  static constexpr const char* prefix = "line";
  static constexpr std::tuple<const char*, contact::Signal LineContactParams::*, const char*> signals[] = {
      {"V1", &LineContactParams::V1, "material velocity of body 1 along xi"},
      {"V2", &LineContactParams::V2, "material velocity of body 2 along xi"},
      {"v_y", &LineContactParams::v_y, "lateral rigid relative velocity"}};
  template <class A, class S>
  static void walk(A& a, S& p) {
    serialize(a, p, true);
    for (const auto& [key, member, doc] : signals)
      a.table({.key = key, .type = schema::Type::signal, .unit = "m/s", .default_value = "0", .doc = doc},
              [&](auto& b) { serialize(b, p.*member); });
  }
  static void dump(const LineContactParams& p, std::vector<Entry>& es) {
    for (const auto& [key, member, doc] : signals) find(es, key)->children = entries_of(p.*member);
    const bool table = p.pressure.kind == PressureKind::table;
    find(es, "pressure_table")->children = {
        Entry{"xi_m", to_py(p.pressure.xi_m), table, schema::Type::number_list, "positions xi (m)", {}},
        Entry{"values", to_py(p.pressure.values), table, schema::Type::number_list, "pressure shape at each xi_m", {}}};
  }
  static void load(LineContactParams& p, Load& l) {
    py::dict& kw = l.keywords();
    if (kw.contains("pressure") && !py::isinstance<py::str>(kw["pressure"]))
      p.pressure = cast_arg<PressureParams>(pop(kw, "pressure"), "line.pressure", "a pressure name or a PressureParams");
    if (py::object t = pop(kw, "pressure_table")) {
      py::dict d = copy_of(cast_arg<py::dict>(t, "line.pressure_table", "a dict"));
      if (py::object x = pop(d, "xi_m")) p.pressure.xi_m = to_vector(x, "line.pressure_table.xi_m");
      if (py::object v = pop(d, "values")) p.pressure.values = to_vector(v, "line.pressure_table.values");
      for (auto item : d)
        throw py::type_error("line.pressure_table: unknown key '" + std::string(py::str(item.first)) + "'");
    }
    for (const auto& [key, member, doc] : signals) load_signal(l, key, "line", p.*member);
  }
  static std::string table_repr(const std::string& key, const py::dict& state) {
    if (key == "pressure_table") return std::string(py::repr(state));
    return repr(from_state<contact::Signal>(py::dict(state)));
  }
};

}  // namespace schema_py

void export_transport(py::module_& root) {
  py::module_ m =
      root.def_submodule("transport", "The line contact of paper 1, §5: steady state and transient solver.");

  py::enum_<PressureKind>(m, "PressureKind", "Pressure distribution: uniform, parabolic, table.\n\nExample:\n"
                  "    >>> bristle.PressureParams(kind=\"parabolic\").kind\n    <PressureKind.parabolic: 1>\n")
      .value("uniform", PressureKind::uniform)
      .value("parabolic", PressureKind::parabolic)
      .value("table", PressureKind::table);
  py::enum_<Limiter>(m, "Limiter", "Slope limiter of the transport step (none = first-order upwind).\n\nExample:\n"
                  "    >>> bristle.LineContactParams(limiter=\"minmod\").limiter\n    <Limiter.minmod: 1>\n")
      .value("none", Limiter::none)
      .value("minmod", Limiter::minmod)
      .value("van_leer", Limiter::van_leer)
      .value("mc", Limiter::mc);
  py::enum_<SourceScheme>(m, "SourceScheme", "Source half-steps: automatic, sdirk2, exponential.\n\nExample:\n"
                  "    >>> bristle.LineContactParams(source_scheme=\"sdirk2\").source_scheme\n"
                  "    <SourceScheme.sdirk2: 1>\n")
      .value("automatic", SourceScheme::automatic)
      .value("sdirk2", SourceScheme::sdirk2)
      .value("exponential", SourceScheme::exponential);

  py::class_<PressureParams>(m, "PressureParams", R"doc(
Pressure distribution p(xi) (N/m), scaled so that int_0^L p = F_z: "uniform", "parabolic" or "table"
(shape given by xi_m (m, strictly increasing) and values (>= 0), linearly interpolated).

Example:
    >>> p = bristle.transport.Pressure(bristle.PressureParams(kind="table", xi_m=[0.0, 0.2], values=[1.0, 3.0]),
    ...                                0.2, 10.0)                  # L = 0.2 m, F_z = 10 N
    >>> round(p.mean(0.0, 0.2), 9)                                 # N/m: F_z / L
    50.0
)doc")
      .def(py::init([](NameOrEnum kind, ArrayLike xi_m, ArrayLike values) {
             PressureParams p;
             p.kind = enum_from<PressureKind>(kind, "line.pressure", transport::pressure_kind_from_string);
             p.xi_m = to_vector(xi_m, "line.pressure.xi_m");
             p.values = to_vector(values, "line.pressure.values");
             return p;
           }),
           py::kw_only(), py::arg("kind") = "uniform", py::arg("xi_m") = py::list(), py::arg("values") = py::list())
      .def_property(
          "kind", [](const PressureParams& p) { return p.kind; },
          [](PressureParams& p, NameOrEnum k) {
            p.kind = enum_from<PressureKind>(k, "line.pressure", transport::pressure_kind_from_string);
          })
      .def_property(
          "xi_m", [](const PressureParams& p) { return copy_array(p.xi_m); },
          [](PressureParams& p, FloatOrArray v) { p.xi_m = to_vector(v, "line.pressure.xi_m"); })
      .def_property(
          "values", [](const PressureParams& p) { return copy_array(p.values); },
          [](PressureParams& p, FloatOrArray v) { p.values = to_vector(v, "line.pressure.values"); })
      .def("validate", &PressureParams::validate, py::arg("prefix") = "line.pressure",
           validate_doc("bristle.PressureParams(kind=\"table\", xi_m=[0.0, 1.0], values=[1.0]).validate()",
                        "line.pressure...").c_str());
  {
    auto pressure_params = py::reinterpret_borrow<py::class_<PressureParams>>(m.attr("PressureParams"));
    add_copy<PressureParams>(pressure_params);
    schema_py::bind_schema<PressureParams>(pressure_params, "", false);
  }

  py::class_<Pressure>(
      m, "Pressure", R"doc(p(xi) in N/m for a contact of length L (m) and load F_z (N): Pressure(params, L, normal_load_N).

Example:
    >>> p = bristle.transport.Pressure(bristle.PressureParams(kind="parabolic"), 0.2, 10.0)   # m, N
    >>> round(p(0.1), 6), p.normal_load                           # N/m at the centre (1.5 F_z / L), N
    (75.0, 10.0)
)doc")
      .def(py::init<const PressureParams&, double, double>(), py::arg("params"), py::arg("L"), py::arg("normal_load_N"))
      .def("__reduce__",
           [](const Pressure& p) { return reduce_to(py::type::of<Pressure>(), p.params(), p.L(), p.normal_load()); })
      .def_property_readonly("params", &Pressure::params)
      .def_property_readonly("L", &Pressure::L, "contact length L (m)")
      .def(
          "__call__", [](const Pressure& p, FloatOrArray xi) { return map_array(xi, "xi", [&p](double x) { return p(x); }); },
          py::arg("xi"), R"doc(p(xi) (N/m) at xi (m); elementwise on arrays.

Example:
    >>> p = bristle.transport.Pressure(bristle.PressureParams(), 0.2, 10.0)      # uniform, L = 0.2 m, F_z = 10 N
    >>> p(np.array([0.05, 0.15]))
    array([50., 50.])
)doc")
      .def("mean", &Pressure::mean, py::arg("a"), py::arg("b"), R"doc(Mean of p over [a, b] (m), in N/m.

Example:
    >>> p = bristle.transport.Pressure(bristle.PressureParams(kind="parabolic"), 0.2, 10.0)
    >>> round(p.mean(0.0, 0.2), 9)                # N/m: F_z / L over the whole contact
    50.0
)doc")
      .def_property_readonly("normal_load", &Pressure::normal_load);

  auto signal_property = [](auto& cls, const char* name, contact::Signal LineContactParams::*member, const char* doc) {
    cls.def_property(
        name, [member](const LineContactParams& p) { return p.*member; },
        [member, name](LineContactParams& p, SignalOrFloat v) { p.*member = to_signal(v, std::string("line.") + name); },
        doc);
  };
  py::class_<LineContactParams> params(m, "LineContactParams", R"doc(
A line contact of length L_m (m, > 0) with `cells` finite volumes (>= 2), normal load normal_load_N
(N, > 0) and a pressure distribution; material velocities V1(t), V2(t) of the two bodies along xi
(m/s; sliding V1 = 0, V2 = V_x; rolling V1 = V_r, V2 = V_x) and the lateral slip v_y(t) (m/s), each a
Signal or a number; cfl in (0, 1]; dt_s (s, 0 = automatic); max_dt_s (s, 0 = none); limiter;
source_scheme. The steady solver uses L_m, normal_load_N and pressure only.

Example:
    >>> line = bristle.LineContactParams(L_m=0.2, normal_load_N=10.0, V2=1.0)   # m, N, sliding at 1 m/s
    >>> line.cells, line.V2(0.0)
    (200, 1.0)
)doc");
  params
      .def(py::init([](double L_m, int cells, double normal_load_N, PressureArg pressure, PressureTableArg pressure_table,
                       SignalOrFloat V1, SignalOrFloat V2, SignalOrFloat v_y, double cfl, double dt_s, double max_dt_s,
                       NameOrEnum limiter, NameOrEnum source_scheme, bool interpolate_outputs) {
             LineContactParams p;
             p.L_m = L_m;
             p.cells = cells;
             p.normal_load_N = normal_load_N;
             // The TOML form (pressure = "table" with [line.pressure_table] xi_m, values) or a PressureParams.
             if (py::isinstance<py::str>(pressure))
               p.pressure.kind = transport::pressure_kind_from_string("line.pressure", pressure.cast<std::string>());
             else
               p.pressure = cast_arg<PressureParams>(pressure, "line.pressure", "a pressure name or a PressureParams");
             if (!pressure_table.is_none()) {
               if (!py::isinstance<py::str>(pressure) || p.pressure.kind != transport::PressureKind::table)
                 throw InvalidInput("line.pressure_table: applies with line.pressure = \"table\" (the TOML form)");
               py::dict t = schema_py::copy_of(cast_arg<py::dict>(pressure_table, "line.pressure_table", "a dict"));
               for (const char* k : {"xi_m", "values"})
                 if (!t.contains(k))
                   throw InvalidInput(std::string("missing key \"line.pressure_table.") + k + "\"");
               p.pressure.xi_m = to_vector(t["xi_m"], "line.pressure_table.xi_m");
               p.pressure.values = to_vector(t["values"], "line.pressure_table.values");
               PyDict_DelItemString(t.ptr(), "xi_m");
               PyDict_DelItemString(t.ptr(), "values");
               for (auto item : t)
                 throw py::type_error("line.pressure_table: unknown key '" + std::string(py::str(item.first)) + "'");
             }
             p.V1 = to_signal(V1, "line.V1");
             p.V2 = to_signal(V2, "line.V2");
             p.v_y = to_signal(v_y, "line.v_y");
             p.cfl = cfl;
             p.dt_s = dt_s;
             p.max_dt_s = max_dt_s;
             p.limiter = enum_from<Limiter>(limiter, "line.limiter", transport::limiter_from_string);
             p.source_scheme =
                 enum_from<SourceScheme>(source_scheme, "line.source_scheme", transport::source_scheme_from_string);
             p.interpolate_outputs = interpolate_outputs;
             return p;
           }),
           py::kw_only(), py::arg("L_m") = 0.2, py::arg("cells") = 200, py::arg("normal_load_N") = 1.0,
           py::arg("pressure") = PressureParams{}, py::arg("pressure_table") = py::none(), py::arg("V1") = 0.0, py::arg("V2") = 0.0, py::arg("v_y") = 0.0,
           py::arg("cfl") = 0.9, py::arg("dt_s") = 0.0, py::arg("max_dt_s") = 0.0, py::arg("limiter") = "van_leer",
           py::arg("source_scheme") = "automatic", py::arg("interpolate_outputs") = false)
      .def_readwrite("L_m", &LineContactParams::L_m, "contact length (m), > 0")
      .def_readwrite("interpolate_outputs", &LineContactParams::interpolate_outputs,
                     "transport.run: the solver's own steps with the outputs interpolated (bool; TOML key "
                     "line.interpolate_outputs), instead of a step ending at every output time")
      .def_readwrite("cells", &LineContactParams::cells, "finite volumes, >= 2")
      .def_readwrite("normal_load_N", &LineContactParams::normal_load_N, "F_z (N), > 0")
      .def_readwrite("pressure", &LineContactParams::pressure)
      .def_readwrite("cfl", &LineContactParams::cfl, "Courant number of the automatic step, (0, 1]")
      .def_readwrite("dt_s", &LineContactParams::dt_s, "fixed time step (s), 0: automatic")
      .def_readwrite("max_dt_s", &LineContactParams::max_dt_s, "cap on the automatic step (s), 0: none")
      .def_property(
          "limiter", [](const LineContactParams& p) { return p.limiter; },
          [](LineContactParams& p, NameOrEnum v) {
            p.limiter = enum_from<Limiter>(v, "line.limiter", transport::limiter_from_string);
          })
      .def_property(
          "source_scheme", [](const LineContactParams& p) { return p.source_scheme; },
          [](LineContactParams& p, NameOrEnum v) {
            p.source_scheme = enum_from<SourceScheme>(v, "line.source_scheme", transport::source_scheme_from_string);
          })
      .def("validate", &LineContactParams::validate, py::arg("prefix") = "line",
           validate_doc("bristle.LineContactParams(L_m=-0.2).validate()",
                        "line.L_m = -0.2...").c_str());
  add_copy<LineContactParams>(params);
  signal_property(params, "V1", &LineContactParams::V1, "material velocity of body 1 along xi (m/s)");
  signal_property(params, "V2", &LineContactParams::V2, "material velocity of body 2 along xi (m/s)");
  signal_property(params, "v_y", &LineContactParams::v_y, "lateral rigid relative velocity (m/s)");
  schema_py::bind_schema<LineContactParams>(params, "", false);

  m.def("characteristic_speeds", &transport::characteristic_speeds, py::arg("model"), py::arg("V1"), py::arg("V2"),
        "Characteristic speed of each state component (m/s) for material velocities V1, V2 (m/s): eq. 34a.\n\n"
        "Example:\n    >>> m = papers.sliding_model(0.4, 1)\n"
        "    >>> bristle.transport.characteristic_speeds(m, 0.0, 1.0).shape == (m.state_size,)\n    True\n");
  m.def("source_is_affine", &transport::source_is_affine, py::arg("model"),
        "True when the model's source is affine in the state at fixed v_r (every law but Bouc-Wen).\n\n"
        "Example:\n    >>> bristle.transport.source_is_affine(papers.sliding_model(0.4, 1))\n    True\n");

  m.def(
      "_line_contact_from_state",
      [](const contact::ContactModel& model, const LineContactParams& params, double time, ArrayLike state) {
        auto lc = std::make_unique<LineContact>(model, params);
        lc->reset(time, to_vecx(state, "state", lc->state().size()));
        return lc;
      },
      py::keep_alive<0, 1>(), "A LineContact from its pickled model, parameters, time and field (LineContact.__reduce__).");

  py::class_<LineContact>(m, "LineContact", R"doc(
The transient line contact (Strang-split finite volumes): LineContact(model, params). Keeps `model`
alive. `state` is a (cells, components) copy of the field u(xi_i); assign a (components,) or
(cells, components) array, or call reset(t0, initial). Units: xi (m), t (s), forces N, energies J, powers W.

Example:
    >>> lc = bristle.LineContact(papers.sliding_model(0.4, 1),           # Table 1, sliding at 0.3 m/s
    ...                          bristle.LineContactParams(L_m=0.2, normal_load_N=10.0, cells=20, V2=0.3))
    >>> lc.advance_to(0.05)                                               # s
    >>> lc.state.shape, round(lc.time, 12)
    ((20, 8), 0.05)
)doc")
      .def(py::init<const contact::ContactModel&, LineContactParams>(), py::arg("model"), py::arg("params"),
           py::keep_alive<1, 2>())
      // Pickled by its model and parameters, its time and field (_line_contact_from_state restarts it there by
      // reset(time, field); its supplied_energy() starts again from 0).
      .def("__reduce__",
           [](py::object self) {
             const LineContact& lc = self.cast<const LineContact&>();
             return reduce_by("transport._line_contact_from_state", self.attr("model"), lc.params(), lc.time(),
                              copy_array(lc.state()));
           })
      .def_property_readonly("cells", &LineContact::cells)
      .def_property_readonly("components", &LineContact::components)
      .def_property_readonly("dx", &LineContact::dx, "cell width (m)")
      .def("cell_centre", &LineContact::cell_centre, py::arg("i"), "xi of cell i (m)\n\nExample:\n" LC_EXAMPLE
           "    >>> round(lc.cell_centre(0), 12), round(lc.dx, 12)     # m: half a cell, L / cells\n    (0.005, 0.01)\n")
      .def_property(
          "state",
          [](const LineContact& lc) {
            py::array_t<double> a({static_cast<py::ssize_t>(lc.cells()), static_cast<py::ssize_t>(lc.components())});
            std::copy(lc.state().data(), lc.state().data() + lc.state().size(), a.mutable_data());
            return a;
          },
          [](LineContact& lc, ArrayLike value) {
            auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(value);
            if (!a || value.is_none() || py::isinstance<py::str>(value))
              throw py::type_error("state: expected an array of numbers");
            if (a.size() != lc.state().size() && a.size() != lc.components())
              throw InvalidInput("state: " + std::to_string(a.size()) + " values; expected " +
                                 std::to_string(lc.components()) + " (one point) or " +
                                 std::to_string(lc.state().size()) + " (every cell)");
            VecX v = Eigen::Map<const VecX>(a.data(), a.size());
            lc.reset(lc.time(), v);
          },
          "The field u, (cells, components), a copy. Assigning resets the supplied energy.")
      .def_property_readonly("time", &LineContact::time, "s")
      .def(
          "reset",
          [](LineContact& lc, double t0, OptionalArray initial) {
            lc.reset(t0, initial.is_none() ? VecX() : to_vecx(initial, "initial"));
          },
          py::arg("t0") = 0.0, py::arg("initial") = py::none(),
          "Restarts at t0 (s) from `initial`: None (zero), one point (components) or every cell (flattened).\n\n"
          "Example:\n" LC_EXAMPLE "    >>> lc.advance_to(0.01); lc.reset(); lc.time, float(abs(lc.state).max())\n    (0.0, 0.0)\n")
      .def(
          "advance_to",
          [](LineContact& lc, double t_end) {
            py::gil_scoped_release release;
            lc.advance_to(t_end);
          },
          py::arg("t_end"), "Advances to t_end (s) (GIL released).\n\nExample:\n" LC_EXAMPLE
          "    >>> lc.advance_to(0.02); lc.steps_taken > 0, float(lc.total_force()[0]) < 0     # F_x (N) opposes V2\n"
          "    (True, True)\n")
      .def("step", &LineContact::step, py::arg("dt"), "One Strang-split step of dt (s) (at most stable_dt).\n\nExample:\n"
           LC_EXAMPLE "    >>> lc.step(lc.stable_dt(0.0)); lc.time > 0\n    True\n")
      .def("stable_dt", &LineContact::stable_dt, py::arg("t"), "Largest stable step at t (s).\n\nExample:\n"
           LC_EXAMPLE "    >>> 0 < lc.stable_dt(0.0) <= lc.dx / 0.3      # s: CFL with the speed 0.3 m/s\n    True\n")
      .def("relative_velocity", &LineContact::relative_velocity, py::arg("t"),
           "v_r = (V2 - V1, v_y) at t (s), in m/s.\n\nExample:\n" LC_EXAMPLE
           "    >>> lc.relative_velocity(0.0)\n    array([0.3, 0. ])\n")
      .def("total_force", &LineContact::total_force, "F (N), eq. 36, on the upper body (opposes v_r).\n\nExample:\n"
           LC_EXAMPLE "    >>> lc.advance_to(0.5); round(float(lc.total_force()[0]), 2)     # N\n    -9.7\n")
      .def("stored_energy", &LineContact::stored_energy, "W (J), eq. 85.\n\nExample:\n" LC_EXAMPLE
           "    >>> lc.stored_energy(), (lc.advance_to(0.05), lc.stored_energy() > 0)[1]     # J\n    (0.0, True)\n")
      .def("supplied_power", &LineContact::supplied_power, "-int p f . v_r (W), eq. 79.\n\nExample:\n" LC_EXAMPLE
           "    >>> lc.advance_to(0.05); lc.supplied_power() > 0          # W: the drive does work\n    True\n")
      .def("dissipated_power", &LineContact::dissipated_power, "Dissipated power (W), eq. 80.\n\nExample:\n"
           LC_EXAMPLE "    >>> lc.advance_to(0.05); lc.dissipated_power() >= 0       # W\n    True\n")
      .def("supplied_energy", &LineContact::supplied_energy, "int supplied power dt (J) since the last reset.\n\n"
           "Example:\n" LC_EXAMPLE "    >>> lc.advance_to(0.05); lc.supplied_energy() > 0         # J\n    True\n")
      .def("field", &LineContact::field, "TimeSeries of the fields: xi_m (m), p_N_per_m (N/m), f_x, f_y (-), z1_*, "
           "z2_* (m).\n\nExample:\n" LC_EXAMPLE "    >>> f = lc.field(); f.rows, f.names[:4]\n"
           "    (20, ['xi_m', 'p_N_per_m', 'f_x', 'f_y'])\n")
      .def_property_readonly("steps_taken", &LineContact::steps_taken)
      .def_property_readonly(
          "model", [](const LineContact& lc) { return &lc.model(); }, py::return_value_policy::reference_internal)
      .def_property_readonly("params", [](const LineContact& lc) { return lc.params(); });

  py::class_<LineRun>(m, "LineRun", R"doc(
Result of transport.run: series (t_s, V1_mps, V2_mps, vr_mps, vr_y_mps, Fx_N, Fy_N, W_J, P_supplied_W,
E_supplied_J, P_dissipated_W), field_times (s) and fields (a TimeSeries per field time), steps.

Example:
    >>> lc = bristle.LineContact(papers.sliding_model(0.4, 1),           # Table 1, sliding at 0.3 m/s
    ...                          bristle.LineContactParams(L_m=0.2, normal_load_N=10.0, cells=20, V2=0.3))
    >>> r = bristle.transport.run(lc, np.linspace(0.0, 0.1, 3), field_times=[0.1])     # s
    >>> r.series.rows, len(r.fields), r.steps > 0
    (3, 1, True)
)doc")
      .def_readonly("series", &LineRun::series)
      .def_property_readonly("field_times", [](const LineRun& r) { return copy_array(r.field_times); })
      .def_property_readonly("fields", [](py::object self) { return reference_list(self, &LineRun::fields); })
      .def_readonly("steps", &LineRun::steps);

  m.def(
      "run",
      [](LineContact& contact, ArrayLike output_times, OptionalArray field_times, ProgressCallback progress) {
        const std::vector<double> times = to_vector(output_times, "output_times");
        const std::vector<double> fields =
            field_times.is_none() ? std::vector<double>{} : to_vector(field_times, "field_times");
        ProgressRelay relay(progress);
        const auto on_progress = relay.function();
        py::gil_scoped_release release;
        return transport::run(contact, times, fields, on_progress);
      },
      py::arg("contact"), py::arg("output_times"), py::arg("field_times") = py::none(),
      py::arg("progress") = py::none(),
      R"doc(Runs a LineContact from its current time through output_times (s), recording forces and energy
at each and the fields at field_times (each one of output_times, in order). progress: optional callable(fraction). GIL released; Ctrl-C
interrupts it. Returns a LineRun (forces in N, energies in J, powers in W).

Example:
    >>> lc = bristle.LineContact(papers.sliding_model(0.4, 1),           # Table 1, sliding at 0.3 m/s
    ...                          bristle.LineContactParams(L_m=0.2, normal_load_N=10.0, cells=20, V2=0.3))
    >>> r = bristle.transport.run(lc, np.linspace(0.0, 1.0, 11))                       # s
    >>> round(float(r.series["Fx_N"][-1]), 2)                                            # N: steady sliding
    -9.72
)doc");

  py::class_<SteadyLine>(m, "SteadyLine",
                         "Steady line contact: force_N (N, eq. 36), exact (matrix exponential used), field.\n\nExample:\n"
                         "    >>> st = bristle.transport.steady_state(papers.sliding_model(0.4, 1),\n"
                         "    ...         bristle.LineContactParams(L_m=0.2, normal_load_N=10.0), V1=0.0, V2=1.0)\n"
                         "    >>> st.exact, round(float(st.force_N[0]), 2)       # N\n    (True, -9.67)\n")
      .def_property_readonly("force_N", [](const SteadyLine& s) -> Vec2 { return s.force_N; })
      .def_readonly("exact", &SteadyLine::exact)
      .def_readonly("field", &SteadyLine::field);

  m.def(
      "steady_state",
      [](const contact::ContactModel& model, const LineContactParams& params, double V1, double V2, double v_y,
         int field_points) {
        if (field_points < 0) throw InvalidInput("field_points = " + std::to_string(field_points) + ": must be >= 0");
        py::gil_scoped_release release;
        return transport::steady_state(model, params, V1, V2, v_y, field_points);
      },
      py::arg("model"), py::arg("params"), py::arg("V1"), py::arg("V2"), py::arg("v_y") = 0.0,
      py::arg("field_points") = 0,
      R"doc(The steady state of the line contact at constant V1, V2, v_y (m/s): the ODE in xi
Lambda du/dxi = h(u, v_r), solved exactly by a matrix exponential when the source is affine, else by
an adaptive integrator at rtol 1e-12. field_points > 0 also returns the fields at that many xi.
Sliding: V1 = 0, V2 = V_x; rolling: V1 = V_r, V2 = V_x = V_r + v_x. Returns a SteadyLine (force_N in N).

Example:
    >>> st = bristle.transport.steady_state(papers.sliding_model(0.4, 1),
    ...                                     bristle.LineContactParams(L_m=0.2, normal_load_N=10.0),
    ...                                     V1=0.0, V2=1.0, field_points=5)       # sliding at 1 m/s
    >>> round(float(st.force_N[0]), 2), st.field.rows                           # N, xi points
    (-9.67, 5)
)doc");
  {  // results pickle by their fields (pickle_fields.hpp)
    auto steady = py::reinterpret_borrow<py::class_<SteadyLine>>(m.attr("SteadyLine"));
    pickle_fields(steady, "SteadyLine", &SteadyLine::force_N, &SteadyLine::exact, &SteadyLine::field);
    auto run = py::reinterpret_borrow<py::class_<LineRun>>(m.attr("LineRun"));
    pickle_fields(run, "LineRun", &LineRun::series, &LineRun::field_times, &LineRun::fields, &LineRun::steps);
  }
}

}  // namespace bristle::python
