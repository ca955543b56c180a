// Python bindings of bristle/patch: the two-dimensional contact patch of paper 1, §4 (eqs. 33-51, 84-85;
// docs/patch.md): parameters, geometry and pressure, Riemann variables, edges and eq. 84, rigid body
// motions and rolling kinematics, the steady solver (forces eq. 36, moments eqs. 38-39, storage eq. 85)
// and the transient solver with a prescribed load history (App. A.1).
//
// Solves release the GIL; Python callables given as kinematics or load histories take it back for
// each call. Fields come back as numpy arrays (copies).
#include <cmath>
#include <memory>
#include <numbers>
#include <utility>
#include <vector>

#include "bristle/patch/patch.hpp"
#include "bristle/patch/transient.hpp"
#include "bristle/core/parallel.hpp"
#include "common.hpp"
#include "schema_py.hpp"
#include "transport_choices.hpp"

BRISTLE_PY_TYPED_OBJECT(KinematicsHistoryArg, "bristle._bristle.patch.PatchKinematics | Callable[[float], bristle._bristle.patch.PatchKinematics]")
BRISTLE_PY_TYPED_OBJECT(LoadHistoryArg, "float | Callable[[float], float]")

// The setup shared by the examples of PatchTransient.
#define TR_EXAMPLE                                                                                       \
  "    >>> tr = bristle.patch.PatchTransient(papers.rolling_model(0.4, 1),\n"                           \
  "    ...          bristle.patch.PatchTransientParams(patch=bristle.patch.PatchParams(nx=12, ny=6)),\n" \
  "    ...          bristle.patch.rolling(V_r=16.0, v_x=0.6), 3000.0)       # m/s, N\n"

// A 0.1 m x 0.05 m elliptic Hertzian patch under 3000 N, for the examples of PatchGeometry.
#define GEOM_EX                                                                                          \
  "    >>> g = bristle.patch.PatchGeometry(bristle.patch.PatchParams(shape=\"ellipse\", length_m=0.1,\n"   \
  "    ...         width_m=0.05, pressure=\"hertzian\", normal_load_N=3000.0))\n"

namespace bristle::python {

using namespace bristle::patch;

namespace schema_py {

template <>
struct ChoiceParser<PatchShape> : ParseWith<PatchShape, patch_shape_from_string> {};
template <>
struct ChoiceParser<PatchPressure> : ParseWith<PatchPressure, patch_pressure_from_string> {};

/// PatchParams: the [patch] table (the steady solver's keys included). peak_pressure_Pa (declared: optional) is a
/// number or None. The constructor is the class's own (it validates, as before).
template <>
struct Traits<PatchParams> : PlainTraits<PatchParams> {
  static constexpr const char* name = "PatchParams";
  static constexpr const char* prefix = "patch";
  template <class A, class S>
  static void walk(A& a, S& p) { serialize(a, p, true); }
  static void dump(const PatchParams& p, std::vector<Entry>& es) {
    dump_optional(es, "normal_load_N", "peak_pressure_Pa", p.peak_pressure_Pa,
                  "p_0 if stated: must integrate to normal_load_N (Pa), > 0");
  }
  static void load(PatchParams& p, Load& l) {
    load_optional(l.keywords(), "peak_pressure_Pa", "patch.peak_pressure_Pa", p.peak_pressure_Pa);
  }
};

/// BodyMotion and PatchKinematics: the library's rigid motions (no scenario table holds them; a scenario's
/// [kinematics] gives V_r, v_x, ... and rolling() maps them). Their constructors are the classes' own.
template <>
struct Traits<BodyMotion> : PlainTraits<BodyMotion> {
  static constexpr const char* name = "BodyMotion";
  static constexpr const char* prefix = "body";
};
template <>
struct Traits<PatchKinematics> : PlainTraits<PatchKinematics> {
  static constexpr const char* name = "PatchKinematics";
  static constexpr const char* prefix = "kinematics";
  static std::string table_repr(const std::string&, const py::dict& state) {
    return repr(from_state<BodyMotion>(py::dict(state)));
  }
};

/// PatchTransientParams: `patch` (a PatchParams, its own Traits: a sub-table walked alone would drop its declared
/// peak_pressure_Pa), the size scaling of [patch] (width_exponent, declared: optional, a number or None) and
/// [transient]. The constructor is the class's own (it validates, as before).
template <>
struct Traits<PatchTransientParams> : PlainTraits<PatchTransientParams> {
  static constexpr const char* name = "PatchTransientParams";
  static constexpr const char* prefix = "transient";
  template <class A, class S>
  static void walk(A& a, S& p) {
    a.table({.key = "patch", .type = schema::Type::table, .default_value = "PatchParams()",
             .doc = "the reference patch at F_z0 = patch.normal_load_N, and the grid (a PatchParams)"},
            [&](auto& b) { Traits<PatchParams>::walk(b, p.patch); });
    serialize_scaling(a, p);
    serialize(a, p);
  }
  static void dump(const PatchTransientParams& p, std::vector<Entry>& es) {
    find(es, "patch")->children = entries_of(p.patch);
    dump_optional(es, "size_exponent", "width_exponent", p.width_exponent,
                  "gamma_y: width ~ (F_z/F_z0)^gamma_y, [0, 1], or None");
  }
  static void load(PatchTransientParams& p, Load& l) {
    load_optional(l.keywords(), "width_exponent", "patch.width_exponent", p.width_exponent);
    if (py::object v = pop(l.keywords(), "patch"))
      p.patch = py::isinstance<PatchParams>(v)
                    ? v.cast<PatchParams>()
                    : from_kwargs<PatchParams>(copy_of(table_dict(v, schema::Type::table, "patch")), "patch",
                                               l.strict() && py::isinstance<py::dict>(v));
  }
  static std::string table_repr(const std::string&, const py::dict& state) {
    return repr(from_state<PatchParams>(py::dict(state)));
  }
};

}  // namespace schema_py

void export_patch(py::module_& root);  // declared for module.cpp

namespace {

/// A Python number that must be an int (bool and float rejected with TypeError).
int to_int(py::handle value, const char* what) {
  if (!py::isinstance<py::int_>(value) || py::isinstance<py::bool_>(value))
    throw py::type_error(std::string(what) + ": expected an int, got " +
                         std::string(py::str(py::type::handle_of(value).attr("__name__"))));
  return value.cast<int>();
}

/// The (nx, ny, components) array of a solver's field (original variables u = [f; zeta1; zeta2]).
template <class Solver>
py::array_t<double> state_array(const Solver& s, int components) {
  py::array_t<double> out({static_cast<py::ssize_t>(s.nx()), static_cast<py::ssize_t>(s.ny()),
                           static_cast<py::ssize_t>(components)});
  auto r = out.template mutable_unchecked<3>();
  for (int i = 0; i < s.nx(); ++i)
    for (int j = 0; j < s.ny(); ++j) {
      const VecX u = s.state(i, j);
      for (int c = 0; c < components; ++c) r(i, j, c) = u[c];
    }
  return out;
}

/// A finite time (s), else InvalidInput naming `what`.
double finite_time(double t, const char* what) {
  if (!std::isfinite(t)) throw InvalidInput(std::string(what) + " = " + repr_double(t) + ": must be finite (s)");
  return t;
}

/// A kinematics history: a PatchKinematics (constant) or a callable t -> PatchKinematics (GIL taken).
// The histories of a PatchTransient, as named function objects so that pickling finds the Python argument again
// (std::function::target<...>()).
struct ConstantKinematics {
  PatchKinematics kin;
  PatchKinematics operator()(double) const { return kin; }
};
struct PythonKinematics {
  std::shared_ptr<PyCallable> fn;
  PatchKinematics operator()(double t) const {
    py::gil_scoped_acquire gil;
    py::object r = fn->object()(t);
    return cast_arg<PatchKinematics>(r, "kinematics(t)", "a PatchKinematics");
  }
};
struct ConstantLoad {
  double Fz;
  double operator()(double) const { return Fz; }
};

KinematicsHistory to_kinematics_history(py::handle value) {
  if (py::isinstance<PatchKinematics>(value)) {
    const PatchKinematics kin = value.cast<PatchKinematics>();
    kin.validate("kinematics");
    return ConstantKinematics{kin};
  }
  return PythonKinematics{std::make_shared<PyCallable>(py::reinterpret_borrow<py::object>(value), "kinematics")};
}

/// The Python argument a history was made from (the inverse of to_kinematics_history / to_load_history).
py::object kinematics_argument(const KinematicsHistory& h) {
  if (const auto* c = h.target<ConstantKinematics>()) return py::cast(c->kin);
  if (const auto* p = h.target<PythonKinematics>()) return p->fn->object();
  throw py::type_error("PatchTransient: kinematics made in C++ do not pickle");
}

/// A load history: a number F_z (N, constant) or a callable t -> F_z (GIL taken, finite checked).
LoadHistory to_load_history(py::handle value) {
  if (py::isinstance<py::float_>(value) || py::isinstance<py::int_>(value)) {
    const double Fz = number_arg(value, "load");
    if (!std::isfinite(Fz) || Fz <= 0.0)
      throw InvalidInput("load = " + repr_double(Fz) + ": must be a finite normal load > 0 N");
    return ConstantLoad{Fz};
  }
  return ScalarCallable{PyCallable(py::reinterpret_borrow<py::object>(value), "load")};
}

py::object load_argument(const LoadHistory& h) {
  if (const auto* c = h.target<ConstantLoad>()) return py::float_(c->Fz);
  if (const auto* p = h.target<ScalarCallable>()) return p->fn.object();
  throw py::type_error("PatchTransient: a load made in C++ does not pickle");
}

/// Applies fn(point, out) to one point (2,) (returns a float, or a (k,) array when k > 1) or to every row
/// of an (N, 2) array (returns (N,) or (N, k)). TypeError for non-numbers, InvalidInput for other shapes.
template <class Fn>
py::object map_points(py::handle value, const char* what, int k, Fn&& fn) {
  if (value.is_none() || py::isinstance<py::str>(value))
    throw py::type_error(std::string(what) + ": expected a point (2,) or an (N, 2) array of numbers");
  auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(value);
  if (!a) throw py::type_error(std::string(what) + ": expected a point (2,) or an (N, 2) array of numbers");
  if (a.ndim() == 1 && a.shape(0) == 2) {
    double out[2] = {0.0, 0.0};
    fn(to_vec2(value, what), out);
    if (k == 1) return py::float_(out[0]);
    return py::cast(Vec2(out[0], out[1]));
  }
  if (a.ndim() != 2 || a.shape(1) != 2)
    throw InvalidInput(std::string(what) + ": expected a point (2,) or an (N, 2) array");
  const py::ssize_t n = a.shape(0);
  std::vector<py::ssize_t> shape{n};
  if (k > 1) shape.push_back(k);
  py::array_t<double> result(shape);
  double* dst = result.mutable_data();
  for (py::ssize_t r = 0; r < n; ++r) {
    const Vec2 p(a.at(r, 0), a.at(r, 1));
    if (!p.allFinite()) throw InvalidInput(std::string(what) + ": row " + std::to_string(r) + " is not finite");
    fn(p, dst + r * k);
  }
  return py::object(std::move(result));
}

/// Pickling of a plain-data result struct: the state is the tuple of the given fields, in order (a
/// tuple of another length is an InvalidInput naming the class).
template <class T, class... Fields>
void add_field_pickle(py::class_<T>& cls, const char* name, Fields T::*... fields) {
  cls.def(py::pickle([fields...](const T& t) { return py::make_tuple(t.*fields...); },
                     [name, fields...](const py::tuple& state) {
                       if (state.size() != sizeof...(Fields))
                         throw InvalidInput(std::string(name) + ": pickled state of " + std::to_string(state.size()) +
                                            " values; expected " + std::to_string(sizeof...(Fields)));
                       T t;
                       std::size_t i = 0;
                       ((t.*fields = state[i++].template cast<Fields>()), ...);
                       return t;
                     }));
}

/// v_y of the rolling kinematics from v_y or the slip angle (the TOML key kinematics.slip_angle_deg):
/// v_y = (V_r + v_x) tan(alpha), |alpha| < 89 degrees, one of the two.
double lateral_slip(double V_r, double v_x, const py::object& v_y, const py::object& slip_angle_deg,
                    const std::string& prefix) {
  if (slip_angle_deg.is_none()) return v_y.is_none() ? 0.0 : number_arg(v_y, "v_y");
  if (!v_y.is_none())
    throw InvalidInput(prefix + ".v_y and " + prefix + ".slip_angle_deg: give one of them, not both");
  const double alpha = number_arg(slip_angle_deg, "slip_angle_deg");
  if (!(std::abs(alpha) < 89.0))
    throw InvalidInput(prefix + ".slip_angle_deg = " + format_value(alpha) + ": must be in (-89, 89)");
  return (V_r + v_x) * std::tan(alpha * std::numbers::pi / 180.0);
}

/// A number or a 1-D array of numbers (finite), for the axes of steady_map.
std::vector<double> map_axis(py::handle value, const char* what) {
  if (py::isinstance<py::float_>(value) || py::isinstance<py::int_>(value)) {
    const double v = number_arg(value, what);
    if (!std::isfinite(v)) throw InvalidInput(std::string("steady_map.") + what + " = " + format_value(v) + ": must be finite");
    return {v};
  }
  std::vector<double> v = to_vector(value, what);
  for (std::size_t i = 0; i < v.size(); ++i)
    if (!std::isfinite(v[i]))
      throw InvalidInput(std::string("steady_map.") + what + "[" + std::to_string(i) + "] = " + format_value(v[i]) +
                         ": must be finite");
  if (v.empty()) throw InvalidInput(std::string("steady_map.") + what + ": empty; give at least one value");
  return v;
}

py::dict steady_map_columns(const contact::ContactModel& model, const PatchParams& params, double Vr_mps,
                            py::handle vx_mps, const py::object& vy_mps, const py::object& slip_angle_deg,
                            py::handle spin_radps, bool s_corrections, std::size_t chain_length, int threads) {
  if (!vy_mps.is_none() && !slip_angle_deg.is_none())
    throw InvalidInput("steady_map.vy_mps and steady_map.slip_angle_deg: give one of them, not both");
  const bool by_angle = !slip_angle_deg.is_none();
  std::vector<std::pair<const char*, std::vector<double>>> axes;
  axes.emplace_back("vx_mps", map_axis(vx_mps, "vx_mps"));
  axes.emplace_back(by_angle ? "slip_angle_deg" : "vy_mps",
                    by_angle ? map_axis(slip_angle_deg, "slip_angle_deg")
                             : (vy_mps.is_none() ? std::vector<double>{0.0} : map_axis(vy_mps, "vy_mps")));
  axes.emplace_back("spin_radps", map_axis(spin_radps, "spin_radps"));
  std::size_t n = 1;
  const char* n_from = nullptr;
  for (const auto& [name, values] : axes) {
    if (values.size() == 1) continue;
    if (n_from && values.size() != n)
      throw InvalidInput(std::string("steady_map.") + name + ": " + std::to_string(values.size()) + " values, but " +
                         n_from + " has " + std::to_string(n) + " (arrays are broadcast: give equal lengths or one value)");
    n = values.size();
    n_from = name;
  }
  const auto value = [&](std::size_t a, std::size_t i) { return axes[a].second.size() == 1 ? axes[a].second[0] : axes[a].second[i]; };
  std::vector<double> vx(n), vy(n), alpha(n), spin(n);
  std::vector<PatchKinematics> points;
  points.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    vx[i] = value(0, i);
    spin[i] = value(2, i);
    if (by_angle) {
      alpha[i] = value(1, i);
      vy[i] = lateral_slip(Vr_mps, vx[i], py::none(), py::float_(alpha[i]), "steady_map");
    } else {
      vy[i] = value(1, i);
    }
    points.push_back(rolling(Vr_mps, vx[i], vy[i], spin[i], s_corrections));
    points.back().validate("steady_map");
  }
  threads = resolve_threads(threads);
  if (model.law().params().G_inverse.target<MatrixCallable>()) threads = 1;
  std::vector<SteadyPatch> map;
  {
    py::gil_scoped_release release;
    map = solve_steady_map(model, params, points, chain_length, threads);
  }
  const auto column = [n](auto&& get) {
    py::array_t<double> a(static_cast<py::ssize_t>(n));
    for (std::size_t i = 0; i < n; ++i) a.mutable_data()[i] = get(i);
    return a;
  };
  py::dict out;
  out["Vr_mps"] = column([&](std::size_t) { return Vr_mps; });
  out["vx_mps"] = copy_array(vx);
  out["vy_mps"] = copy_array(vy);
  if (by_angle) out["slip_angle_deg"] = copy_array(alpha);
  out["spin_radps"] = copy_array(spin);
  out["Fx_N"] = column([&](std::size_t i) { return map[i].force_N[0]; });
  out["Fy_N"] = column([&](std::size_t i) { return map[i].force_N[1]; });
  out["Mz_Nm"] = column([&](std::size_t i) { return map[i].Mz_Nm; });
  out["Mz_no_phi_Nm"] = column([&](std::size_t i) { return map[i].Mz_no_phi_Nm; });
  out["W_J"] = column([&](std::size_t i) { return map[i].stored_energy_J; });
  out["P_supplied_W"] = column([&](std::size_t i) { return map[i].supplied_power_W; });
  out["P_dissipated_W"] = column([&](std::size_t i) { return map[i].dissipated_power_W; });
  out["P_outflow_W"] = column([&](std::size_t i) { return map[i].outflow_power_W; });
  out["P_compression_W"] = column([&](std::size_t i) { return map[i].compression_power_W; });
  out["P_residual_W"] = column([&](std::size_t i) { return map[i].budget_residual_W; });
  out["sweeps"] = column([&](std::size_t i) { return static_cast<double>(map[i].sweeps); });
  out["newton_steps"] = column([&](std::size_t i) { return static_cast<double>(map[i].newton_steps); });
  return out;
}

}  // namespace

void export_patch(py::module_& root) {
  py::module_ m = root.def_submodule("patch", R"doc(
The two-dimensional contact patch of paper 1, §4 (docs/patch.md): combined slip and spin of
viscoelastic pairs. SI units: lengths m, velocities m/s, spin rad/s, forces N, moments N m, pressure Pa,
energy J, power W.

PatchParams (shape and pressure of the patch, grid, solver tolerance), BodyMotion / PatchKinematics
(rigid motions of the two bodies; rolling() builds the usual rolling case), PatchSolver (the steady
state, eq. 33 without the time derivative) and PatchTransient (a load history F_z(t) with a
self-similar patch, App. A.1).)doc");

  py::enum_<PatchShape>(m, "PatchShape", "Patch shape (patch.shape): rectangle, ellipse." "\n\nExample:\n" "    >>> bristle.patch.PatchParams(shape=\"rectangle\").shape\n" "    <PatchShape.rectangle: 0>\n")
      .value("rectangle", PatchShape::rectangle)
      .value("ellipse", PatchShape::ellipse);
  py::enum_<PatchPressure>(m, "PatchPressure", "Pressure distribution (patch.pressure): uniform, parabolic, hertzian." "\n\nExample:\n" "    >>> bristle.patch.PatchParams(pressure=\"hertzian\").pressure\n" "    <PatchPressure.hertzian: 2>\n")
      .value("uniform", PatchPressure::uniform)
      .value("parabolic", PatchPressure::parabolic)
      .value("hertzian", PatchPressure::hertzian);

  // ---- Parameters -----------------------------------------------------------------------------------
  py::class_<PatchParams> params(m, "PatchParams", R"doc(
The patch C = {|x| <= a, |y| <= w(x)}: shape "rectangle" (w = b) or "ellipse" (w = b sqrt(1 - (x/a)^2));
length_m = 2a (m, > 0), width_m = 2b (m, > 0; length/width in [1e-3, 1e3]); pressure "uniform",
"parabolic" or "hertzian" with int p dA = normal_load_N (N, > 0); peak_pressure_Pa (Pa, optional,
must agree with the load); nx >= 4, ny >= 2 cells on the mapped square; tolerance in (0, 1e-3] (steady
Gauss-Seidel, relative); max_sweeps >= 1.

Example:
    >>> p = bristle.patch.PatchParams(shape="ellipse", length_m=0.1, width_m=0.05, pressure="hertzian",
    ...                               normal_load_N=3000.0, nx=60, ny=20)           # m, m, N
    >>> p.shape, p.nx * p.ny
    (<PatchShape.ellipse: 1>, 1200)
)doc");
  params
      .def(py::init([](NameOrEnum shape, double length_m, double width_m, NameOrEnum pressure, double normal_load_N,
                       OptionalFloat peak_pressure_Pa, IntArg nx, IntArg ny, double tolerance,
                       IntArg max_sweeps) {
             PatchParams p;
             p.shape = enum_from<PatchShape>(shape, "patch.shape", patch_shape_from_string);
             p.length_m = length_m;
             p.width_m = width_m;
             p.pressure = enum_from<PatchPressure>(pressure, "patch.pressure", patch_pressure_from_string);
             p.normal_load_N = normal_load_N;
             if (!peak_pressure_Pa.is_none())
               p.peak_pressure_Pa = number_arg(peak_pressure_Pa, "patch.peak_pressure_Pa");
             p.nx = to_int(nx, "patch.nx");
             p.ny = to_int(ny, "patch.ny");
             p.tolerance = tolerance;
             p.max_sweeps = to_int(max_sweeps, "patch.max_sweeps");
             p.validate("patch");
             return p;
           }),
           py::kw_only(), py::arg("shape") = "rectangle", py::arg("length_m") = 0.1, py::arg("width_m") = 0.05,
           py::arg("pressure") = "uniform", py::arg("normal_load_N") = 3000.0, py::arg("peak_pressure_Pa") = py::none(),
           py::arg("nx") = 100, py::arg("ny") = 20, py::arg("tolerance") = 1e-10, py::arg("max_sweeps") = 400)
      .def_property(
          "shape", [](const PatchParams& p) { return p.shape; },
          [](PatchParams& p, NameOrEnum v) {
            p.shape = enum_from<PatchShape>(v, "patch.shape", patch_shape_from_string);
          })
      .def_property(
          "pressure", [](const PatchParams& p) { return p.pressure; },
          [](PatchParams& p, NameOrEnum v) {
            p.pressure = enum_from<PatchPressure>(v, "patch.pressure", patch_pressure_from_string);
          })
      .def_readwrite("length_m", &PatchParams::length_m, "2a (m), > 0")
      .def_readwrite("width_m", &PatchParams::width_m, "2b (m), > 0")
      .def_readwrite("normal_load_N", &PatchParams::normal_load_N, "F_z (N), > 0")
      .def_readwrite("peak_pressure_Pa", &PatchParams::peak_pressure_Pa, "p_0 (Pa) or None")
      .def_readwrite("nx", &PatchParams::nx, "cells along xi, >= 4")
      .def_readwrite("ny", &PatchParams::ny, "cells along eta, >= 2")
      .def_readwrite("tolerance", &PatchParams::tolerance, "steady convergence, (0, 1e-3]")
      .def_readwrite("max_sweeps", &PatchParams::max_sweeps, "sweep limit, >= 1")
      .def("validate", &PatchParams::validate, py::arg("prefix") = "patch",
           validate_doc("p = bristle.patch.PatchParams(); p.nx = 1; p.validate()",
                        "patch.nx...").c_str());
  add_copy<PatchParams>(params);
  schema_py::bind_schema<PatchParams>(params, "", false);

  py::class_<PatchTransientParams> tparams(m, "PatchTransientParams", R"doc(
The transient patch: patch (PatchParams: the reference patch at F_z0 = patch.normal_load_N, and the
grid); size_exponent gamma in [0, 1] (lengths scale with (F_z/F_z0)^gamma: 1/3 Hertz point contact, 1/2
line contact); width_exponent gamma_y in [0, 1] or None (the width scales with (F_z/F_z0)^gamma_y; None:
= size_exponent, which then scales the length only); cfl in (0, 0.5]; max_dt_s (s, >= 0; 0: no cap); source_scheme (bristle.transport.SourceScheme:
automatic = exponential for affine sources, else sdirk2 (any law, e.g. Bouc-Wen)).

Example:
    >>> p = bristle.patch.PatchTransientParams(patch=bristle.patch.PatchParams(nx=30, ny=12), size_exponent=1/3)
    >>> p.width_exponent is None, round(p.size_exponent, 4)      # Hertz point contact: both sides as F_z^(1/3)
    (True, 0.3333)
)doc");
  tparams
      .def(py::init([](const PatchParams& patch, double size_exponent, std::optional<double> width_exponent,
                       double cfl, double max_dt_s, NameOrEnum source_scheme) {
             PatchTransientParams p;
             p.patch = patch;
             p.size_exponent = size_exponent;
             p.width_exponent = width_exponent;
             p.cfl = cfl;
             p.max_dt_s = max_dt_s;
             p.source_scheme = enum_from<transport::SourceScheme>(source_scheme, "transient.source_scheme",
                                                                  transport::source_scheme_from_string);
             p.validate("transient");
             return p;
           }),
           py::kw_only(), py::arg("patch") = PatchParams{}, py::arg("size_exponent") = 1.0 / 3.0,
           py::arg("width_exponent") = std::nullopt, py::arg("cfl") = 0.4, py::arg("max_dt_s") = 0.0,
           py::arg("source_scheme") = "automatic")
      .def_readwrite("patch", &PatchTransientParams::patch)
      .def_readwrite("size_exponent", &PatchTransientParams::size_exponent,
                     "gamma_x (and gamma_y unless width_exponent is set), [0, 1]")
      .def_readwrite("width_exponent", &PatchTransientParams::width_exponent, "gamma_y, [0, 1], or None (= size_exponent)")
      .def_readwrite("cfl", &PatchTransientParams::cfl, "Courant number, (0, 0.5]")
      .def_readwrite("max_dt_s", &PatchTransientParams::max_dt_s, "step cap (s), 0: none")
      .def_property(
          "source_scheme", [](const PatchTransientParams& p) { return p.source_scheme; },
          [](PatchTransientParams& p, NameOrEnum v) {
            p.source_scheme = enum_from<transport::SourceScheme>(v, "transient.source_scheme",
                                                                 transport::source_scheme_from_string);
          },
          "automatic, exponential (affine sources only) or sdirk2 (any law); a name or a bristle.transport.SourceScheme")
      .def("validate", &PatchTransientParams::validate, py::arg("prefix") = "transient",
           validate_doc("p = bristle.patch.PatchTransientParams(); p.cfl = 2.0; p.validate()",
                        "transient.cfl...").c_str());
  add_copy<PatchTransientParams>(tparams);
  schema_py::bind_schema<PatchTransientParams>(tparams, "", false);

  // ---- Kinematics -----------------------------------------------------------------------------------
  py::class_<BodyMotion> body(m, "BodyMotion",
                              "Rigid motion of one body: V(x) = V0_mps (m/s, 2-vector) + omega_radps (rad/s) e_z x x.\n\n"
                              "Example:\n    >>> b = bristle.patch.BodyMotion(V0_mps=[1.0, 0.0], omega_radps=2.0)\n"
                              "    >>> b.velocity([0.0, 0.5])          # m/s at x = (0, 0.5 m): V0 + omega e_z x x\n"
                              "    array([0., 0.])\n");
  body.def(py::init([](ArrayLike V0_mps, double omega_radps) {
             BodyMotion b;
             b.V0_mps = to_vec2(V0_mps, "V0_mps", true);
             b.omega_radps = omega_radps;
             return b;
           }),
           py::kw_only(), py::arg("V0_mps") = 0.0, py::arg("omega_radps") = 0.0)
      .def_property(
          "V0_mps", [](const BodyMotion& b) -> Vec2 { return b.V0_mps; },
          [](BodyMotion& b, FloatOrArray v) { b.V0_mps = to_vec2(v, "V0_mps", true); })
      .def_readwrite("omega_radps", &BodyMotion::omega_radps, "spin about e_z (rad/s)")
      .def(
          "velocity", [](const BodyMotion& b, ArrayLike x) { return Vec2(b.velocity(to_vec2(x, "x"))); },
          py::arg("x"), "V(x) (m/s) at the point x (m)." "\n\nExample:\n"  "    >>> bristle.patch.BodyMotion(V0_mps=[-16.0, 0.0], omega_radps=6.0).velocity([0.0, 0.1])   # m/s\n" "    array([-16.6,   0. ])\n");
  add_copy<BodyMotion>(body);
  schema_py::bind_schema<BodyMotion>(body, "", false);

  py::class_<PatchKinematics> kin(m, "PatchKinematics", R"doc(
The rigid motions body1, body2 (BodyMotion) and s_corrections (eq. 29 with the points of eq. 27;
False: v_r = V1(x) - V2(x)).

Example:
    >>> k = bristle.patch.PatchKinematics(body1=bristle.patch.BodyMotion(V0_mps=[-16.0, 0.0]),
    ...                                   body2=bristle.patch.BodyMotion(V0_mps=[-16.6, 0.0]))   # m/s
    >>> k == bristle.patch.rolling(V_r=16.0, v_x=0.6)
    True
)doc");
  kin.def(py::init([](const BodyMotion& body1, const BodyMotion& body2, bool s_corrections) {
            PatchKinematics k;
            k.body1 = body1;
            k.body2 = body2;
            k.s_corrections = s_corrections;
            k.validate("kinematics");
            return k;
          }),
          py::kw_only(), py::arg("body1") = BodyMotion{}, py::arg("body2") = BodyMotion{},
          py::arg("s_corrections") = true)
      .def_readwrite("body1", &PatchKinematics::body1)
      .def_readwrite("body2", &PatchKinematics::body2)
      .def_readwrite("s_corrections", &PatchKinematics::s_corrections)
      .def("validate", &PatchKinematics::validate, py::arg("prefix") = "kinematics",
           validate_doc("k = bristle.patch.rolling(V_r=16.0, v_x=0.1); k.body1.omega_radps = float(\"nan\"); k.validate()",
                        "kinematics.body1.omega_radps = nan: must be finite").c_str());
  add_copy<PatchKinematics>(kin);
  schema_py::bind_schema<PatchKinematics>(kin, "", false);

  m.def(
      "rolling",
      [](double V_r, double v_x, OptionalFloat v_y, double spin_radps, bool s_corrections, OptionalFloat slip_angle_deg) {
        const PatchKinematics k = rolling(V_r, v_x, lateral_slip(V_r, v_x, v_y, slip_angle_deg, "rolling"), spin_radps,
                                          s_corrections);
        k.validate("rolling");
        return k;
      },
      py::kw_only(), py::arg("V_r"), py::arg("v_x") = 0.0, py::arg("v_y") = py::none(), py::arg("spin_radps") = 0.0,
      py::arg("s_corrections") = true, py::arg("slip_angle_deg") = py::none(),
      R"doc(Rolling along x at speed V_r (m/s) with creep v_x, lateral slip v_y (m/s) and spin (rad/s) of
body 1: V1 = (-V_r, 0), omega1 = spin, V2 = (-(V_r + v_x), -v_y); v_r = (v_x - spin y, v_y + spin x).

Instead of v_y, the slip angle alpha as in TOML (kinematics.slip_angle_deg, in (-89, 89) degrees):
v_y = (V_r + v_x) tan(alpha); give one of v_y and slip_angle_deg.

Example:
    >>> k = bristle.patch.rolling(V_r=16.0, v_x=0.1, slip_angle_deg=2.0)     # m/s, m/s, degrees
    >>> k.body2.V0_mps.round(4)                                             # -(V_r + v_x, v_y) in m/s
    array([-16.1   ,  -0.5622])
)doc");

  m.def(
      "steady_map",
      [](const contact::ContactModel& model, const PatchParams& params, double Vr_mps, FloatOrArray vx_mps,
         OptionalFloat vy_mps, OptionalFloat slip_angle_deg, FloatOrArray spin_radps, bool s_corrections,
         std::size_t chain_length, int threads) {
        return steady_map_columns(model, params, Vr_mps, vx_mps, vy_mps, slip_angle_deg, spin_radps, s_corrections,
                                  chain_length, threads);
      },
      py::arg("model"), py::arg("params"), py::kw_only(), py::arg("Vr_mps"), py::arg("vx_mps") = 0.0,
      py::arg("vy_mps") = py::none(), py::arg("slip_angle_deg") = py::none(), py::arg("spin_radps") = 0.0,
      py::arg("s_corrections") = true, py::arg("chain_length") = 0, py::arg("threads") = 0,
      R"doc(
Steady patch forces over operating points, as column arrays (a dict of numpy arrays, the CLI's
patch_steady_map column names): the keys of the TOML kinematics table.

Vr_mps: rolling speed V_r (m/s); vx_mps, vy_mps (m/s), slip_angle_deg (deg, in (-89, 89); v_y =
(V_r + v_x) tan(alpha), instead of vy_mps) and spin_radps (rad/s): numbers or 1-D arrays, broadcast to n
points. chain_length and threads as for solve_steady_map (whose results these are, bit for bit).

Returns {"Vr_mps", "vx_mps", "vy_mps", ["slip_angle_deg",] "spin_radps", "Fx_N", "Fy_N", "Mz_Nm",
"Mz_no_phi_Nm", "W_J", "P_supplied_W", "P_dissipated_W", "P_outflow_W", "P_compression_W",
"P_residual_W", "sweeps", "newton_steps"}, each of shape (n,).

Example:
    >>> cols = bristle.patch.steady_map(papers.rolling_model(0.4, 1), bristle.patch.PatchParams(nx=12, ny=6),
    ...                                 Vr_mps=16.0, vx_mps=0.05, slip_angle_deg=np.linspace(-2, 2, 3))
    >>> cols["Fy_N"].shape, bool(cols["Fy_N"][0] > 0 > cols["Fy_N"][2])     # N: opposes the slip angle
    ((3,), True)
)doc");

  // ---- Geometry, Riemann variables, edges, eq. 84 ----------------------------------------------------
  py::class_<PatchGeometry>(m, "PatchGeometry", R"doc(
Shape and pressure of the patch in physical coordinates (no grid): PatchGeometry(params). a, b (m) are
the half-length and half-width; pressure(x) in Pa (0 outside, int p dA = F_z), pressure_gradient(x) in
Pa/m; x is a point (2,) or an (N, 2) array of points (m).

Example:
    >>> g = bristle.patch.PatchGeometry(bristle.patch.PatchParams(shape="ellipse", length_m=0.1, width_m=0.05,
    ...                                                           pressure="hertzian", normal_load_N=3000.0))
    >>> g.a, g.b, round(g.peak_pressure)                 # m, m, Pa: 3 F_z / (2 pi a b)
    (0.05, 0.025, 1145916)
)doc")
      .def(py::init([](const PatchParams& p) { return PatchGeometry(p, "patch"); }), py::arg("params"))
      .def("__reduce__",
           [](const PatchGeometry& g) {
             // The geometry keeps what it uses of its PatchParams: shape, 2a, 2b, pressure and F_z (p_0 was
             // checked against F_z; the grid and solver keys do not enter).
             PatchParams p;
             p.shape = g.shape();
             p.length_m = 2.0 * g.a();
             p.width_m = 2.0 * g.b();
             p.pressure = g.pressure_kind();
             p.normal_load_N = g.normal_load();
             return reduce_to(py::type::of<PatchGeometry>(), p);
           })
      .def_property_readonly("a", &PatchGeometry::a, "half-length (m)")
      .def_property_readonly("b", &PatchGeometry::b, "half-width (m)")
      .def_property_readonly("shape", &PatchGeometry::shape)
      .def_property_readonly("peak_pressure", &PatchGeometry::peak_pressure, "p_0 (Pa)")
      .def_property_readonly("normal_load", &PatchGeometry::normal_load, "F_z (N)")
      .def("area", &PatchGeometry::area, "area of C (m^2)" "\n\nExample:\n" GEOM_EX "    >>> round(g.area(), 12) == round(math.pi * 0.05 * 0.025, 12)     # pi a b\n" "    True\n")
      .def(
          "half_width",
          [](const PatchGeometry& g, FloatOrArray x) {
            return map_array(x, "x", [&g](double v) { return g.half_width(v); });
          },
          py::arg("x"), "w(x) (m) at x (m); elementwise on arrays." "\n\nExample:\n" GEOM_EX "    >>> g.half_width(np.array([0.0, 0.05]))                # m: b at the centre, 0 at the tip\n" "    array([0.025, 0.   ])\n")
      .def(
          "pressure",
          [](const PatchGeometry& g, FloatOrArray x) {
            return FloatOrArray(map_points(x, "x", 1, [&g](const Vec2& p, double* out) { out[0] = g.pressure(p); }));
          },
          py::arg("x"), "p(x) (Pa) at x (m): a float for one point, an (N,) array for (N, 2) points." "\n\nExample:\n" GEOM_EX "    >>> round(g.pressure([0.0, 0.0])) == round(g.peak_pressure), g.pressure([0.06, 0.0])   # Pa\n" "    (True, 0.0)\n")
      .def(
          "pressure_gradient",
          [](const PatchGeometry& g, FloatOrArray x) {
            return FloatOrArray(map_points(x, "x", 2, [&g](const Vec2& p, double* out) {
              const Vec2 d = g.pressure_gradient(p);
              out[0] = d[0];
              out[1] = d[1];
            }));
          },
          py::arg("x"), "grad p (Pa/m) at x (m): (2,) for one point, (N, 2) for (N, 2) points." "\n\nExample:\n" GEOM_EX "    >>> g.pressure_gradient(np.zeros((3, 2))).shape          # zero at the centre\n" "    (3, 2)\n")
      .def(
          "contains",
          [](const PatchGeometry& g, FloatOrArray x) {
            return FloatOrArray(
                map_points(x, "x", 1, [&g](const Vec2& p, double* out) { out[0] = g.contains(p) ? 1.0 : 0.0; }));
          },
          py::arg("x"), "1.0 inside C, 0.0 outside (float or (N,) array); x in m." "\n\nExample:\n" GEOM_EX "    >>> g.contains(np.array([[0.0, 0.0], [0.0, 0.03]]))\n" "    array([1., 0.])\n")
      .def(
          "boundary",
          [](const PatchGeometry& g, int n) {
            if (n < 1) throw InvalidInput("n = " + std::to_string(n) + ": must be >= 1");
            const auto pts = g.boundary(n);
            py::array_t<double> x({static_cast<py::ssize_t>(pts.size()), py::ssize_t{2}});
            py::array_t<double> normal({static_cast<py::ssize_t>(pts.size()), py::ssize_t{2}});
            for (std::size_t k = 0; k < pts.size(); ++k)
              for (py::ssize_t c = 0; c < 2; ++c) {
                x.mutable_at(k, c) = pts[k].x[c];
                normal.mutable_at(k, c) = pts[k].normal[c];
              }
            return py::make_tuple(x, normal);
          },
          py::arg("n"), "n boundary points (n, 2) (m) and their outward unit normals (n, 2), as a tuple." "\n\nExample:\n" GEOM_EX "    >>> x, normal = g.boundary(8); x.shape, bool(np.allclose(np.hypot(*normal.T), 1.0))\n" "    ((8, 2), True)\n");

  py::class_<Riemann>(m, "Riemann", R"doc(
Riemann decomposition (eqs. 41, 44): theta (rad) of the rotation R onto the principal directions of
S1, and the eigenvalues (lambda1 >= lambda2) of S1 and S2.

Example:
    >>> r = bristle.patch.riemann(papers.rolling_model(0.4, 1).pair)
    >>> r.R.shape, bool(r.lambda_S1[0] >= r.lambda_S1[1])
    ((2, 2), True)
)doc")
      .def(py::pickle(
          [](const Riemann& r) { return py::make_tuple(r.theta, Mat2(r.R), Vec2(r.lambda_S1), Vec2(r.lambda_S2)); },
          [](const py::tuple& t) {
            if (t.size() != 4)
              throw InvalidInput("Riemann: pickled state of " + std::to_string(t.size()) + " values; expected 4");
            Riemann r;
            r.theta = t[0].cast<double>();
            r.R = to_mat2(t[1], "Riemann.R");
            r.lambda_S1 = to_vec2(t[2], "Riemann.lambda_S1");
            r.lambda_S2 = to_vec2(t[3], "Riemann.lambda_S2");
            return r;
          }))
      .def_readonly("theta", &Riemann::theta)
      .def_property_readonly("R", [](const Riemann& r) -> Mat2 { return r.R; })
      .def_property_readonly("lambda_S1", [](const Riemann& r) -> Vec2 { return r.lambda_S1; })
      .def_property_readonly("lambda_S2", [](const Riemann& r) -> Vec2 { return r.lambda_S2; });
  m.def("riemann", &riemann, py::arg("pair"), "The Riemann decomposition of a ContactPair (eqs. 41, 44): a Riemann "
        "(theta in rad)." "\n\nExample:\n"  "    >>> r = bristle.patch.riemann(papers.rolling_model(0.4, 1).pair)     # isotropic bodies\n" "    >>> bool(np.isfinite(r.theta))\n" "    True\n");

  py::enum_<Family>(m, "Family", "Transported families of eq. 47: f1 (V~1), f2 (V~2), zeta1 (V1), zeta2 (V2)." "\n\nExample:\n"  "    >>> int(bristle.patch.Family.zeta1)\n" "    2\n")
      .value("f1", Family::f1)
      .value("f2", Family::f2)
      .value("zeta1", Family::zeta1)
      .value("zeta2", Family::zeta2);
  py::enum_<Edge>(m, "Edge", "Boundary classification of eqs. 48-49: leading, neutral, trailing." "\n\nExample:\n"  "    >>> int(bristle.patch.Edge.trailing)\n" "    2\n")
      .value("leading", Edge::leading)
      .value("neutral", Edge::neutral)
      .value("trailing", Edge::trailing);
  m.def(
      "family_velocity",
      [](const Riemann& r, const PatchKinematics& k, Family f, FloatOrArray x) {
        return Vec2(family_velocity(r, k, f, to_vec2(x, "x")));
      },
      py::arg("riemann"), py::arg("kinematics"), py::arg("family"), py::arg("x"),
      "Transport velocity (m/s) of a family at the point x (m): eqs. 43a-b, 34." "\n\nExample:\n"  "    >>> r = bristle.patch.riemann(papers.rolling_model(0.4, 1).pair)\n" "    >>> k = bristle.patch.rolling(V_r=16.0, v_x=0.6)                  # m/s\n" "    >>> bristle.patch.family_velocity(r, k, bristle.patch.Family.zeta1, [0.0, 0.0])   # m/s: V1 = (-V_r, 0)\n" "    array([-16.,   0.])\n");
  m.def(
      "relative_velocity",
      [](const contact::ContactModel& model, const PatchKinematics& k, FloatOrArray x, ArrayLike u) {
        const VecX state = to_vecx(u, "u", model.state_size());
        return Vec2(relative_velocity(model, k, to_vec2(x, "x"), state.data()));
      },
      py::arg("model"), py::arg("kinematics"), py::arg("x"), py::arg("u"),
      "Rigid relative velocity v_r (m/s) of eq. 29 at x (m) for the state u (state_size values)." "\n\nExample:\n"  "    >>> m = papers.rolling_model(0.4, 1)\n" "    >>> k = bristle.patch.rolling(V_r=16.0, v_x=0.6, v_y=0.4)        # m/s\n" "    >>> bristle.patch.relative_velocity(m, k, [0.0, 0.0], np.zeros(m.state_size)).round(6)\n" "    array([0.6, 0.4])\n");

  py::class_<EdgeMap>(m, "EdgeMap", R"doc(
Edges per family (eqs. 48-49): points (n, 2) (m), normals (n, 2), edges(family) an (n,) int array of
Edge values (0 leading, 1 neutral, 2 trailing), max_speed (4,) (m/s) per family.

Example:
    >>> g = bristle.patch.PatchGeometry(bristle.patch.PatchParams(shape="ellipse", length_m=0.1, width_m=0.05))
    >>> e = bristle.patch.classify_edges(g, bristle.patch.riemann(papers.rolling_model(0.4, 1).pair),
    ...                                  bristle.patch.rolling(V_r=16.0, v_x=0.6), samples=8)
    >>> e.points.shape, e.max_speed.shape                   # m; m/s per family
    ((8, 2), (4,))
)doc")
      .def(py::pickle(
          [](const EdgeMap& e) {  // (points (n, 4): x, y, normal x, normal y; edges: 4 lists; max_speed)
            std::vector<std::array<double, 4>> points;
            for (const auto& p : e.points) points.push_back({p.x[0], p.x[1], p.normal[0], p.normal[1]});
            py::list edges;
            for (const auto& family : e.edges) {
              std::vector<int> v;
              for (const Edge x : family) v.push_back(static_cast<int>(x));
              edges.append(py::cast(v));
            }
            return py::make_tuple(points, edges, e.max_speed);
          },
          [](const py::tuple& t) {
            if (t.size() != 3)
              throw InvalidInput("EdgeMap: pickled state of " + std::to_string(t.size()) + " values; expected 3");
            EdgeMap e;
            for (const auto& p : t[0].cast<std::vector<std::array<double, 4>>>())
              e.points.push_back({Vec2(p[0], p[1]), Vec2(p[2], p[3])});
            const auto edges = t[1].cast<std::vector<std::vector<int>>>();
            if (edges.size() != 4) throw InvalidInput("EdgeMap: pickled edges of " + std::to_string(edges.size()) +
                                                      " families; expected 4");
            for (std::size_t f = 0; f < 4; ++f)
              for (const int x : edges[f]) {
                if (x < 0 || x > 2) throw InvalidInput("EdgeMap: pickled edge value " + std::to_string(x));
                e.edges[f].push_back(static_cast<Edge>(x));
              }
            e.max_speed = t[2].cast<std::array<double, 4>>();
            return e;
          }))
      .def_property_readonly("points",
                             [](const EdgeMap& e) {
                               py::array_t<double> x({static_cast<py::ssize_t>(e.points.size()), py::ssize_t{2}});
                               for (std::size_t k = 0; k < e.points.size(); ++k)
                                 for (py::ssize_t c = 0; c < 2; ++c) x.mutable_at(k, c) = e.points[k].x[c];
                               return x;
                             })
      .def_property_readonly("normals",
                             [](const EdgeMap& e) {
                               py::array_t<double> x({static_cast<py::ssize_t>(e.points.size()), py::ssize_t{2}});
                               for (std::size_t k = 0; k < e.points.size(); ++k)
                                 for (py::ssize_t c = 0; c < 2; ++c) x.mutable_at(k, c) = e.points[k].normal[c];
                               return x;
                             })
      .def(
          "edges",
          [](const EdgeMap& e, Family f) {
            const auto& v = e.edges[static_cast<std::size_t>(f)];
            py::array_t<int> out(static_cast<py::ssize_t>(v.size()));
            for (std::size_t k = 0; k < v.size(); ++k) out.mutable_at(k) = static_cast<int>(v[k]);
            return out;
          },
          py::arg("family"), "The Edge value (0 leading, 1 neutral, 2 trailing) of every boundary sample for `family`." "\n\nExample:\n" GEOM_EX "    >>> e = bristle.patch.classify_edges(g, bristle.patch.riemann(papers.rolling_model(0.4, 1).pair),\n" "    ...                                  bristle.patch.rolling(V_r=16.0, v_x=0.6), samples=8)\n" "    >>> set(e.edges(bristle.patch.Family.zeta1).tolist()) <= {0, 1, 2}\n" "    True\n")
      .def_property_readonly("max_speed", [](const EdgeMap& e) {
        py::array_t<double> out(4);
        for (py::ssize_t k = 0; k < 4; ++k) out.mutable_at(k) = e.max_speed[static_cast<std::size_t>(k)];
        return out;
      });
  m.def(
      "classify_edges",
      [](const PatchGeometry& g, const Riemann& r, const PatchKinematics& k, int samples, double tol) {
        k.validate("kinematics");
        py::gil_scoped_release release;  // Ctrl-C: core/interrupt.hpp
        return classify_edges(g, r, k, samples, tol);
      },
      py::arg("geometry"), py::arg("riemann"), py::arg("kinematics"), py::arg("samples") = 720, py::arg("tol") = 1e-9,
      "Leading / neutral / trailing boundary samples per family for a fixed patch (eqs. 48-49): an EdgeMap." "\n\nExample:\n" GEOM_EX "    >>> e = bristle.patch.classify_edges(g, bristle.patch.riemann(papers.rolling_model(0.4, 1).pair),\n" "    ...                                  bristle.patch.rolling(V_r=16.0, v_x=0.6), samples=16)\n" "    >>> e.points.shape, e.edges(bristle.patch.Family.zeta1).shape\n" "    ((16, 2), (16,))\n");

  py::class_<Eq84Check>(m, "Eq84Check",
                        "max over the patch of div(p V_i) = grad p . V_i (Pa/s), i = 1, 2; eq. 84 holds when <= 0." "\n\nExample:\n" GEOM_EX "    >>> c = bristle.patch.check_eq84(g, bristle.patch.rolling(V_r=16.0, v_x=0.6))\n" "    >>> type(c.satisfied()) is bool\n" "    True\n")
      .def(py::pickle([](const Eq84Check& c) { return py::make_tuple(c.max_div_pV1, c.max_div_pV2); },
                      [](const py::tuple& t) {
                        if (t.size() != 2)
                          throw InvalidInput("Eq84Check: pickled state of " + std::to_string(t.size()) +
                                             " values; expected 2");
                        return Eq84Check{t[0].cast<double>(), t[1].cast<double>()};
                      }))
      .def_readonly("max_div_pV1", &Eq84Check::max_div_pV1)
      .def_readonly("max_div_pV2", &Eq84Check::max_div_pV2)
      .def("satisfied", &Eq84Check::satisfied, py::arg("tol") = 0.0, "max_div_pV1 and max_div_pV2 <= tol (Pa/s)." "\n\nExample:\n" GEOM_EX "    >>> c = bristle.patch.check_eq84(g, bristle.patch.rolling(V_r=16.0, v_x=0.6), samples=21)\n" "    >>> c.satisfied(tol=1e30)\n" "    True\n");
  m.def(
      "check_eq84",
      [](const PatchGeometry& g, const PatchKinematics& k, int samples) {
        k.validate("kinematics");
        py::gil_scoped_release release;  // Ctrl-C: core/interrupt.hpp
        return check_eq84(g, k, samples);
      },
      py::arg("geometry"), py::arg("kinematics"), py::arg("samples") = 101,
      "Eq. 84 (the passivity condition of Lemma B.1) on a samples x samples grid of the patch: an Eq84Check (Pa/s).\n\n"
      "Example:\n" GEOM_EX "    >>> c = bristle.patch.check_eq84(g, bristle.patch.rolling(V_r=16.0, v_x=0.6), samples=21)\n"
      "    >>> bool(np.isfinite(c.max_div_pV1) and np.isfinite(c.max_div_pV2))\n    True\n");

  // ---- Steady solver -------------------------------------------------------------------------------
  py::class_<SteadyPatch> steady_patch(m, "SteadyPatch", R"doc(
A steady solution: force_N (N, eq. 36), Mz_Nm (N m, eq. 38 with phi), Mz_no_phi_Nm (N m, eq. 39),
stored_energy_J (J, eq. 85), supplied_power_W and dissipated_power_W (W), the energy budget's
outflow_power_W (trailing edges), compression_power_W and budget_residual_W = P_supplied - D - outflow +
compression (W; docs/patch.md), sweeps, newton_steps. Pickles (plain data).

Example:
    >>> solver = bristle.patch.PatchSolver(papers.rolling_model(0.4, 1), bristle.patch.PatchParams(nx=12, ny=6))
    >>> st = solver.solve(bristle.patch.rolling(V_r=16.0, v_x=0.6))
    >>> st.dissipated_power_W > 0, st.sweeps > 0                          # W
    (True, True)
)doc");
  steady_patch.def_property_readonly("force_N", [](const SteadyPatch& s) -> Vec2 { return s.force_N; })
      .def_readonly("Mz_Nm", &SteadyPatch::Mz_Nm)
      .def_readonly("Mz_no_phi_Nm", &SteadyPatch::Mz_no_phi_Nm)
      .def_readonly("stored_energy_J", &SteadyPatch::stored_energy_J)
      .def_readonly("supplied_power_W", &SteadyPatch::supplied_power_W)
      .def_readonly("dissipated_power_W", &SteadyPatch::dissipated_power_W)
      .def_readonly("outflow_power_W", &SteadyPatch::outflow_power_W)
      .def_readonly("compression_power_W", &SteadyPatch::compression_power_W)
      .def_readonly("budget_residual_W", &SteadyPatch::budget_residual_W)
      .def_readonly("newton_steps", &SteadyPatch::newton_steps)
      .def_readonly("sweeps", &SteadyPatch::sweeps);
  add_field_pickle(steady_patch, "SteadyPatch", &SteadyPatch::force_N, &SteadyPatch::Mz_Nm, &SteadyPatch::Mz_no_phi_Nm,
                   &SteadyPatch::stored_energy_J, &SteadyPatch::supplied_power_W, &SteadyPatch::dissipated_power_W,
                   &SteadyPatch::outflow_power_W, &SteadyPatch::compression_power_W, &SteadyPatch::budget_residual_W,
                   &SteadyPatch::sweeps, &SteadyPatch::newton_steps);

  py::class_<PatchSolver>(m, "PatchSolver", R"doc(
The steady patch (second-order upwind on the mapped square, symmetric Gauss-Seidel): PatchSolver(model,
params). Keeps `model` alive. solve(kinematics, warm=False) releases the GIL; `state` is the
(nx, ny, components) field u = [f; zeta1; zeta2] of the last solve, `nodes` the (nx, ny, 2) cell
centres (m), `load_weights` the (nx, ny) pressure weights (N, summing to F_z).

Example:
    >>> solver = bristle.patch.PatchSolver(papers.rolling_model(0.4, 1),      # Table 2 GKV pair
    ...                                    bristle.patch.PatchParams(nx=12, ny=6, normal_load_N=3000.0))
    >>> st = solver.solve(bristle.patch.rolling(V_r=16.0, v_x=0.6, v_y=0.4, spin_radps=6.0))
    >>> solver.state.shape, round(float(solver.load_weights.sum()), 6)       # (nx, ny, components), N
    ((12, 6, 6), 3000.0)
)doc")
      .def(py::init<const contact::ContactModel&, const PatchParams&>(), py::arg("model"), py::arg("params"),
           py::keep_alive<1, 2>())
      .def("__reduce__",
           [](const PatchSolver& s) { return reduce_to(py::type::of<PatchSolver>(), s.model(), s.params()); })
      .def_property_readonly("params", &PatchSolver::params)
      .def(
          "solve",
          [](PatchSolver& s, const PatchKinematics& k, bool warm) {
            py::gil_scoped_release release;
            return s.solve(k, warm);
          },
          py::arg("kinematics"), py::arg("warm") = false,
          R"doc(The steady state at the given kinematics (warm: start from the previous solution). GIL released.
Returns a SteadyPatch: force_N (N), Mz_Nm (N m), energies (J) and powers (W).

Example:
    >>> solver = bristle.patch.PatchSolver(papers.rolling_model(0.4, 1),      # Table 2 GKV pair
    ...                                    bristle.patch.PatchParams(nx=12, ny=6, normal_load_N=3000.0))
    >>> st = solver.solve(bristle.patch.rolling(V_r=16.0, v_x=0.6))         # creep 0.6 m/s at 16 m/s
    >>> bool(st.force_N[0] < 0), st.sweeps > 0                               # F_x (N) opposes the creep
    (True, True)
)doc")
      .def_property_readonly("nx", &PatchSolver::nx)
      .def_property_readonly("ny", &PatchSolver::ny)
      .def_property_readonly("components", &PatchSolver::components)
      .def_property_readonly("state", [](const PatchSolver& s) { return state_array(s, s.components()); })
      .def_property_readonly("nodes",
                             [](const PatchSolver& s) {
                               py::array_t<double> out({static_cast<py::ssize_t>(s.nx()),
                                                        static_cast<py::ssize_t>(s.ny()), py::ssize_t{2}});
                               auto r = out.mutable_unchecked<3>();
                               for (int i = 0; i < s.nx(); ++i)
                                 for (int j = 0; j < s.ny(); ++j) {
                                   const Vec2 x = s.node(i, j);
                                   r(i, j, 0) = x[0];
                                   r(i, j, 1) = x[1];
                                 }
                               return out;
                             })
      .def_property_readonly("load_weights",
                             [](const PatchSolver& s) {
                               py::array_t<double> out(
                                   {static_cast<py::ssize_t>(s.nx()), static_cast<py::ssize_t>(s.ny())});
                               auto r = out.mutable_unchecked<2>();
                               for (int i = 0; i < s.nx(); ++i)
                                 for (int j = 0; j < s.ny(); ++j) r(i, j) = s.load_weight(i, j);
                               return out;
                             })
      .def_property_readonly(
          "geometry", [](const PatchSolver& s) { return s.geometry(); }, "the PatchGeometry (a copy)")
      .def_property_readonly(
          "riemann_decomposition", [](const PatchSolver& s) { return s.riemann_decomposition(); },
          "the Riemann decomposition of the model's pair (a copy)")
      .def_property_readonly("load_quadrature_error", &PatchSolver::load_quadrature_error,
                             "relative midpoint-quadrature error of the analytic pressure on the grid");

  m.def(
      "solve_steady_map",
      [](const contact::ContactModel& model, const PatchParams& params, const std::vector<PatchKinematics>& points,
         std::size_t chain_length, int threads) {
        threads = resolve_threads(threads);  // validated here, before the GIL is released
        // A law calling back into Python takes the GIL at every evaluation: one worker.
        if (model.law().params().G_inverse.target<MatrixCallable>()) threads = 1;
        py::gil_scoped_release release;
        return solve_steady_map(model, params, points, chain_length, threads);
      },
      py::arg("model"), py::arg("params"), py::arg("points"), py::arg("chain_length") = 0, py::arg("threads") = 0,
      R"doc(
Steady solutions at many operating points (a list of PatchKinematics): chains of `chain_length`
consecutive points (0: one chain) are solved in order with warm starts, the first from rest, as
PatchSolver.solve(kin, warm=i > 0) would; the chains run on `threads` workers (0: every core) and the
results (a list of SteadyPatch) are bit-identical for any number of workers. GIL released.

Example:
    >>> pts = [bristle.patch.rolling(V_r=16.0, v_x=vx) for vx in (0.05, 0.1, 0.2)]       # m/s
    >>> r = bristle.patch.solve_steady_map(papers.rolling_model(0.4, 1), bristle.patch.PatchParams(nx=12, ny=6),
    ...                                    pts, threads=2)
    >>> [round(float(s.force_N[0])) < 0 for s in r]                                      # F_x (N) against the creep
    [True, True, True]
)doc");

  // ---- Transient solver ----------------------------------------------------------------------------
  py::class_<PatchSnapshot> snapshot(m, "PatchSnapshot", R"doc(
The transient patch at one time: t_s (s), Fz_N (N), scale (sigma_x, the length's), scale_y (sigma_y, the
width's), force_N (N, eq. 36), Mz_Nm,
Mz_no_phi_Nm (N m, eqs. 38, 39), stored_energy_J (J, eq. 85), supplied_power_W, dissipated_power_W (W),
supplied_energy_J (J); the energy budget (docs/patch.md): outflow_power_W, compression_power_W,
load_power_W (W), dissipated_energy_J, outflow_energy_J, compression_energy_J, load_energy_J and
energy_residual_J = W(t) - W(t0) - int budget dt (J). Pickles (plain data).

Example:
    >>> tr = bristle.patch.PatchTransient(papers.rolling_model(0.4, 1),
    ...          bristle.patch.PatchTransientParams(patch=bristle.patch.PatchParams(nx=12, ny=6)),
    ...          bristle.patch.rolling(V_r=16.0, v_x=0.6), 3000.0)
    >>> tr.advance_to(2e-3); s = tr.snapshot()
    >>> s.t_s, s.scale                                     # s; the contact length at F_z0
    (0.002, 1.0)
)doc");
  snapshot.def_readonly("t_s", &PatchSnapshot::t_s)
      .def_readonly("Fz_N", &PatchSnapshot::Fz_N)
      .def_readonly("scale", &PatchSnapshot::scale)
      .def_readonly("scale_y", &PatchSnapshot::scale_y)
      .def_property_readonly("force_N", [](const PatchSnapshot& s) -> Vec2 { return s.force_N; })
      .def_readonly("Mz_Nm", &PatchSnapshot::Mz_Nm)
      .def_readonly("Mz_no_phi_Nm", &PatchSnapshot::Mz_no_phi_Nm)
      .def_readonly("stored_energy_J", &PatchSnapshot::stored_energy_J)
      .def_readonly("supplied_power_W", &PatchSnapshot::supplied_power_W)
      .def_readonly("dissipated_power_W", &PatchSnapshot::dissipated_power_W)
      .def_readonly("supplied_energy_J", &PatchSnapshot::supplied_energy_J)
      .def_readonly("outflow_power_W", &PatchSnapshot::outflow_power_W)
      .def_readonly("compression_power_W", &PatchSnapshot::compression_power_W)
      .def_readonly("load_power_W", &PatchSnapshot::load_power_W)
      .def_readonly("dissipated_energy_J", &PatchSnapshot::dissipated_energy_J)
      .def_readonly("outflow_energy_J", &PatchSnapshot::outflow_energy_J)
      .def_readonly("compression_energy_J", &PatchSnapshot::compression_energy_J)
      .def_readonly("load_energy_J", &PatchSnapshot::load_energy_J)
      .def_readonly("energy_residual_J", &PatchSnapshot::energy_residual_J);
  add_field_pickle(snapshot, "PatchSnapshot", &PatchSnapshot::t_s, &PatchSnapshot::Fz_N, &PatchSnapshot::scale,
                   &PatchSnapshot::scale_y, &PatchSnapshot::force_N, &PatchSnapshot::Mz_Nm, &PatchSnapshot::Mz_no_phi_Nm,
                   &PatchSnapshot::stored_energy_J, &PatchSnapshot::supplied_power_W,
                   &PatchSnapshot::dissipated_power_W, &PatchSnapshot::supplied_energy_J,
                   &PatchSnapshot::outflow_power_W, &PatchSnapshot::compression_power_W, &PatchSnapshot::load_power_W,
                   &PatchSnapshot::dissipated_energy_J, &PatchSnapshot::outflow_energy_J,
                   &PatchSnapshot::compression_energy_J, &PatchSnapshot::load_energy_J,
                   &PatchSnapshot::energy_residual_J);

  py::class_<PatchTransient>(m, "PatchTransient", R"doc(
The transient patch (Strang splitting: exact source steps, second-order upwind transport with SSP-RK3):
PatchTransient(model, params, kinematics, load). kinematics: a PatchKinematics (constant) or a callable
t (s) -> PatchKinematics; load: F_z (N, constant) or a callable t (s) -> F_z (N). Starts unloaded at
t = 0. Keeps `model` alive. Only sources affine in the state are accepted (Dahl, LuGre, FrBD with
linear rheologies).

Example:
    >>> tr = bristle.patch.PatchTransient(papers.rolling_model(0.4, 1),
    ...          bristle.patch.PatchTransientParams(patch=bristle.patch.PatchParams(nx=12, ny=6)),
    ...          bristle.patch.rolling(V_r=16.0, v_x=0.6), 3000.0)       # m/s, N
    >>> r = tr.run(np.linspace(0.0, 0.01, 3))                          # s
    >>> r["force_N"].shape, bool(r["force_N"][-1, 0] < 0)               # (3, 2) in N
    ((3, 2), True)
)doc")
      .def(py::init([](const contact::ContactModel& model, const PatchTransientParams& p, KinematicsHistoryArg kinematics,
                       LoadHistoryArg load) {
             return std::make_unique<PatchTransient>(model, p, to_kinematics_history(kinematics),
                                                     to_load_history(load));
           }),
           py::arg("model"), py::arg("params"), py::arg("kinematics"), py::arg("load"), py::keep_alive<1, 2>())
      // Pickles by its arguments and its start time, unloaded (new, or after reset()); one that has stepped holds a
      // field and energy integrals the library cannot set, so it refuses (TypeError) rather than restart silently.
      .def("__reduce__",
           [](const PatchTransient& tr) {
             if (tr.steps_taken() > 0)
               throw py::type_error("PatchTransient: a transient patch that has stepped (" +
                                    std::to_string(tr.steps_taken()) +
                                    " steps) does not pickle: its field cannot be set again; pickle it before "
                                    "advancing or after reset()");
             // Rebuilt as PatchTransient(model, params, kinematics, load).reset(time).
             return py::make_tuple(
                 py::module_::import("bristle._conventions").attr("build_then_call"),
                 py::make_tuple(py::type::of<PatchTransient>(),
                                py::make_tuple(tr.model(), tr.params(), kinematics_argument(tr.kinematics()),
                                               load_argument(tr.load())),
                                "reset", py::make_tuple(tr.time())));
           })
      .def(
          "reset", [](PatchTransient& tr, double t0) { tr.reset(finite_time(t0, "t0")); }, py::arg("t0") = 0.0,
          "Unloaded contact (u = 0) at t0 (s).\n\nExample:\n" TR_EXAMPLE
          "    >>> tr.advance_to(1e-3); tr.reset(0.5); tr.time\n    0.5\n")
      .def(
          "advance_to",
          [](PatchTransient& tr, double t_end) {
            finite_time(t_end, "t_end");
            py::gil_scoped_release release;
            tr.advance_to(t_end);
          },
          py::arg("t_end"), "Advances to t_end (s) (GIL released).\n\nExample:\n" TR_EXAMPLE
          "    >>> tr.advance_to(2e-3); round(tr.time, 12)          # s\n    0.002\n")
      .def(
          "step",
          [](PatchTransient& tr, double dt) {
            if (!std::isfinite(dt) || dt <= 0.0) throw InvalidInput("dt = " + repr_double(dt) + ": must be > 0 s");
            py::gil_scoped_release release;
            tr.step(dt);
          },
          py::arg("dt"), "One Strang step of dt (s) (at most stable_dt).\n\nExample:\n" TR_EXAMPLE
          "    >>> dt = tr.stable_dt(0.0); tr.step(dt); tr.time == dt\n    True\n")
      .def(
          "stable_dt", [](const PatchTransient& tr, double t) { return tr.stable_dt(finite_time(t, "t")); },
          py::arg("t"), "Automatic step at t (s): the CFL limit of the transport.\n\nExample:\n" TR_EXAMPLE
          "    >>> 0 < tr.stable_dt(0.0) < 1e-3                     # s\n    True\n")
      .def("snapshot", &PatchTransient::snapshot, "Forces (N), moments (N m), energies (J) and powers (W) now (PatchSnapshot)."
           "\n\nExample:\n" TR_EXAMPLE
           "    >>> tr.advance_to(2e-3); s = tr.snapshot(); s.Fz_N, bool(s.force_N[0] < 0)\n    (3000.0, True)\n")
      .def(
          "run",
          [](PatchTransient& tr, ArrayLike output_times, ProgressCallback progress) {
            const std::vector<double> times = to_vector(output_times, "output_times");
            for (std::size_t k = 0; k < times.size(); ++k)
              if (!std::isfinite(times[k]) || times[k] < tr.time() || (k > 0 && times[k] < times[k - 1]))
                throw InvalidInput("output_times: must be finite, non-decreasing and >= the current time " +
                                   repr_double(tr.time()) + " s");
            std::vector<PatchSnapshot> snaps;
            {
              ProgressRelay relay(progress);  // also checks for Ctrl-C (between output times)
              const double t_start = tr.time(), span = times.empty() ? 0.0 : times.back() - t_start;
              py::gil_scoped_release release;
              for (std::size_t k = 0; k < times.size(); ++k) {
                tr.advance_to(times[k]);
                snaps.push_back(tr.snapshot());
                relay(span > 0.0 ? (times[k] - t_start) / span : 1.0);  // the fraction of the time span done
              }
            }
            // Every field of PatchSnapshot as an array over the output times.
            const std::size_t n = snaps.size();
            py::dict d;
            using Field = double PatchSnapshot::*;
            static const std::pair<const char*, Field> scalars[] = {
                {"t_s", &PatchSnapshot::t_s},
                {"Fz_N", &PatchSnapshot::Fz_N},
                {"scale", &PatchSnapshot::scale},
                {"scale_y", &PatchSnapshot::scale_y},
                {"Mz_Nm", &PatchSnapshot::Mz_Nm},
                {"Mz_no_phi_Nm", &PatchSnapshot::Mz_no_phi_Nm},
                {"stored_energy_J", &PatchSnapshot::stored_energy_J},
                {"supplied_power_W", &PatchSnapshot::supplied_power_W},
                {"dissipated_power_W", &PatchSnapshot::dissipated_power_W},
                {"supplied_energy_J", &PatchSnapshot::supplied_energy_J},
                {"outflow_power_W", &PatchSnapshot::outflow_power_W},
                {"compression_power_W", &PatchSnapshot::compression_power_W},
                {"load_power_W", &PatchSnapshot::load_power_W},
                {"dissipated_energy_J", &PatchSnapshot::dissipated_energy_J},
                {"outflow_energy_J", &PatchSnapshot::outflow_energy_J},
                {"compression_energy_J", &PatchSnapshot::compression_energy_J},
                {"load_energy_J", &PatchSnapshot::load_energy_J},
                {"energy_residual_J", &PatchSnapshot::energy_residual_J},
            };
            for (const auto& [name, field] : scalars) {
              py::array_t<double> column(static_cast<py::ssize_t>(n));
              for (std::size_t k = 0; k < n; ++k) column.mutable_at(k) = snaps[k].*field;
              d[name] = column;
            }
            py::array_t<double> F({static_cast<py::ssize_t>(n), py::ssize_t{2}});
            for (std::size_t k = 0; k < n; ++k) {
              F.mutable_at(k, 0) = snaps[k].force_N[0];
              F.mutable_at(k, 1) = snaps[k].force_N[1];
            }
            d["force_N"] = F;
            return d;
          },
          py::arg("output_times"), py::arg("progress") = py::none(),
          R"doc(Advances through output_times (s, non-decreasing, >= time) and returns a dict of arrays, one
entry per field of PatchSnapshot: t_s, Fz_N (N), scale, scale_y, force_N (N, (n, 2)), Mz_Nm,
Mz_no_phi_Nm (N m), stored_energy_J, supplied_energy_J (J), supplied_power_W, dissipated_power_W,
outflow_power_W, compression_power_W, load_power_W (W), dissipated_energy_J, outflow_energy_J,
compression_energy_J, load_energy_J, energy_residual_J (J). progress: optional callable(fraction of the
time span done). GIL released; Ctrl-C interrupts between output times (KeyboardInterrupt).

Example:
    >>> tr = bristle.patch.PatchTransient(papers.rolling_model(0.4, 1),
    ...          bristle.patch.PatchTransientParams(patch=bristle.patch.PatchParams(nx=12, ny=6)),
    ...          bristle.patch.rolling(V_r=16.0, v_x=0.6), lambda t: 3000.0 if t < 0.005 else 4000.0)   # N
    >>> r = tr.run(np.linspace(0.0, 0.01, 5))                       # s
    >>> r["Fz_N"], r["force_N"].shape
    (array([3000., 3000., 4000., 4000., 4000.]), (5, 2))
)doc")
      .def_property_readonly("time", &PatchTransient::time, "s")
      .def_property_readonly("steps_taken", &PatchTransient::steps_taken)
      .def_property_readonly("exponential_source", &PatchTransient::exponential_source,
                             "True: exact exponential source step (affine source); False: SDIRK2")
      .def_property_readonly("nx", &PatchTransient::nx)
      .def_property_readonly("ny", &PatchTransient::ny)
      .def_property_readonly(
          "state", [](const PatchTransient& tr) { return state_array(tr, static_cast<int>(tr.state(0, 0).size())); },
          "(nx, ny, components) field u = [f; zeta1; zeta2] (a copy).");
}

}  // namespace bristle::python
