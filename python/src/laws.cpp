// Python bindings of bristle/laws: the Stribeck law and M(v) (paper 1, eq. 53) and the friction laws
// h0 (eqs. 2-7).
#include "bristle/laws/coulomb_stribeck.hpp"
#include "bristle/laws/friction_law.hpp"
#include "bristle/laws/stribeck.hpp"
#include "common.hpp"
#include "schema_py.hpp"

namespace bristle::python {

namespace schema_py {

template <>
struct ChoiceParser<laws::LawKind> : ParseWith<laws::LawKind, laws::law_kind_from_string> {};

template <>
struct Traits<laws::StribeckParams> : PlainTraits<laws::StribeckParams> {
  static constexpr const char* name = "StribeckParams";
  static constexpr const char* prefix = "law";
  template <class A, class S>
  static void walk(A& a, S& p) { serialize(a, p, false); }
  static void dump(const laws::StribeckParams&, std::vector<Entry>&) {}
  static void load(laws::StribeckParams&, Load&) {}
};

/// CoulombStribeckParams: the [friction] table of kind = "structure_stick_slip". Its `type` (declared: the one
/// set-valued law) is accepted as a keyword and not stored.
template <>
struct Traits<laws::CoulombStribeckParams> : PlainTraits<laws::CoulombStribeckParams> {
  static constexpr const char* name = "CoulombStribeckParams";
  static constexpr const char* prefix = "friction";
  static constexpr const char* extra_doc =
      "Example: ``CoulombStribeckParams(mu_s=0.5, mu_d=0.3, v_s=0.1)``\n";
  static void dump(const laws::CoulombStribeckParams&, std::vector<Entry>&) {}
  static void load(laws::CoulombStribeckParams&, Load& l) {
    if (py::object t = pop(l.keywords(), "type"); t && !(py::isinstance<py::str>(t) && t.cast<std::string>() == "coulomb_stribeck"))
      throw InvalidInput("friction.type = " + std::string(py::repr(t)) +
                         ": must be \"coulomb_stribeck\" (dynamic laws are a LawParams)");
  }
};

/// LawParams: the [law] table. Declared in the schema, stored apart: sigma0 (optional); Python only: the FrBD
/// general form G_inverse / G (callables, pickled by reference) and M (a FrictionCoefficient, instead of the
/// Stribeck keys). Anisotropic friction is the presence of axis1 / axis2, as in TOML.
template <>
struct Traits<laws::LawParams> : PlainTraits<laws::LawParams> {
  static constexpr const char* name = "LawParams";
  static constexpr const char* prefix = "law";
  static constexpr const char* extra_doc =
      "  M: a FrictionCoefficient instead of the Stribeck keys (Python only)\n"
      "  G_inverse, G: the FrBD general form, a callable v -> 2x2 (Python only; see the attributes)\n"
      "Deprecated alias: kind= (use type=).\n"
      "Example: ``LawParams(type=\"lugre\", mu_s=1.5, mu_d=1.0, v_s=1e-3, sigma1=316.2, sigma2=0.4)``\n";
  static void dump(const laws::LawParams& p, std::vector<Entry>& es) {
    const bool sigma0_applies = p.kind == laws::LawKind::dahl || p.kind == laws::LawKind::lugre;
    insert_after(es, "eps",
                 Entry{"sigma0", p.sigma0 ? to_py(*p.sigma0) : py::none(), sigma0_applies, schema::Type::matrix,
                       "Dahl/LuGre micro-stiffness Sigma0 (1/m), SPD; None: the pair's static stiffness K_static", {}});
    const auto* f = p.G_inverse ? p.G_inverse.target<MatrixCallable>() : nullptr;
    if (p.G_inverse && !f) throw py::type_error("LawParams: a C++ G_inverse function has no Python state");
    const bool frbd = p.kind == laws::LawKind::frbd;
    es.push_back(Entry{"G_inverse", f && !f->invert ? f->fn.object() : py::none(), frbd, schema::Type::number, "", {}});
    es.push_back(Entry{"G", f && f->invert ? f->fn.object() : py::none(), frbd, schema::Type::number, "", {}});
  }
  /// Dahl's constant coefficient in [law] or an axis table: mu sets mu_s = mu_d (the reader's read_dahl_mu).
  static void dahl_mu(py::dict& d, const std::string& table) {
    if (!d.contains("mu")) return;
    for (const char* k : {"mu_s", "mu_d"})
      if (d.contains(k))
        throw InvalidInput("key \"" + table + "." + k + "\" cannot be combined with " + table +
                           ".mu; give either mu or mu_s and mu_d");
    py::object mu = pop(d, "mu");
    require_positive(table + ".mu", cast_arg<double>(mu, table + ".mu", "a number"));  // as the reader: named mu
    d["mu_s"] = mu;
    d["mu_d"] = mu;
  }
  static void load(laws::LawParams& p, Load& l) {
    py::dict& kw = l.keywords();
    alias(kw, "kind", "type", "LawParams");
    const laws::LawKind kind = l.choice_given("type", p.kind);
    const bool stribeck = kind == laws::LawKind::dahl || kind == laws::LawKind::lugre || kind == laws::LawKind::frbd;
    if (stribeck && l.fresh() && l.strict()) {  // the reader's form rules (a state dict holds every key)
      const bool axis1 = kw.contains("axis1"), axis2 = kw.contains("axis2");
      if (axis1 != axis2)
        throw InvalidInput(axis1 ? "missing key \"law.axis2\" (required: the Stribeck law along the second principal "
                                   "axis, with law.axis1)"
                                 : "missing key \"law.axis1\" (required: the Stribeck law along the first principal "
                                   "axis, with law.axis2)");
      if (axis1) {
        for (const char* k : {"mu", "mu_s", "mu_d", "v_s", "delta_s", "mu_v"})
          if (kw.contains(k))
            throw InvalidInput(std::string("key \"law.") + k +
                               "\" cannot be combined with [law.axis1] and [law.axis2]; give it in each axis table");
      } else if (kw.contains("angle_rad")) {
        throw InvalidInput("key \"law.angle_rad\" applies only with [law.axis1] and [law.axis2] (anisotropic "
                           "friction)");
      }
    }
    if (kind == laws::LawKind::dahl) {  // elsewhere mu does not apply: the walk warns of it
      dahl_mu(kw, "law");
      for (const char* axis : {"axis1", "axis2"})
        if (kw.contains(axis) && py::isinstance<py::dict>(kw[axis])) {
          py::dict table = copy_of(kw[axis].cast<py::dict>());  // the caller's dict untouched
          dahl_mu(table, std::string("law.") + axis);
          kw[axis] = table;
        }
    }
    if (py::object M = pop(kw, "M"); M && !M.is_none()) {
      for (const char* k : {"mu_s", "mu_d", "v_s", "delta_s", "mu_v", "axis1", "axis2"})
        if (kw.contains(k))
          throw InvalidInput("LawParams: give either M or the Stribeck parameters mu_s, mu_d, v_s, delta_s, mu_v, "
                             "not both");
      p.M = cast_arg<laws::FrictionCoefficient>(M, "LawParams.M", "a FrictionCoefficient");
    }
    if (py::object s0 = pop(kw, "sigma0"); s0) {
      if (s0.is_none())
        p.sigma0.reset();
      else
        p.sigma0 = to_mat2(s0, "law.sigma0");
    }
    py::object G_inverse = pop(kw, "G_inverse"), G = pop(kw, "G");
    const bool has_gi = G_inverse && !G_inverse.is_none(), has_g = G && !G.is_none();
    if (has_gi && has_g) throw InvalidInput("LawParams: give G or G_inverse (the FrBD general form), not both");
    if (has_gi) p.G_inverse = MatrixCallable{PyCallable(G_inverse, "law.G_inverse")};
    if (has_g) p.G_inverse = MatrixCallable{PyCallable(G, "law.G"), true};
    if (kw.contains("axis1") || kw.contains("axis2")) p.M.anisotropic = true;
  }
  static std::string table_repr(const std::string&, const py::dict& state) {
    return schema_py::repr(schema_py::from_state<laws::StribeckParams>(py::dict(state)));
  }
};

}  // namespace schema_py

using laws::FrictionCoefficient;
using laws::FrictionLaw;
using laws::LawKind;
using laws::LawParams;
using laws::StribeckParams;

namespace {

std::string repr(const StribeckParams& p) { return schema_py::repr(p); }

std::string repr(const FrictionCoefficient& c) {
  if (!c.anisotropic) return "FrictionCoefficient(axis1=" + repr(c.axis1) + ")";
  return "FrictionCoefficient(axis1=" + repr(c.axis1) + ", axis2=" + repr(c.axis2) +
         ", anisotropic=True, angle_rad=" + repr_double(c.angle_rad) + ")";
}

}  // namespace

void export_laws(py::module_& root) {
  py::module_ m = root.def_submodule("laws", "Friction laws h0 (paper 1, eqs. 2-7), Stribeck law and M(v) (eq. 53).");

  py::enum_<LawKind>(m, "LawKind", R"doc(Friction law: dahl, lugre, frbd, bouc_wen, frictionless (LawParams.kind; law.type in TOML).

Example:
    >>> bristle.LawParams(type="bouc_wen").kind == bristle.LawKind.bouc_wen
    True
)doc")
      .value("dahl", LawKind::dahl)
      .value("lugre", LawKind::lugre)
      .value("frbd", LawKind::frbd)
      .value("bouc_wen", LawKind::bouc_wen)
      .value("frictionless", LawKind::frictionless);

  py::class_<StribeckParams> stribeck(m, "StribeckParams", R"doc(
Stribeck friction coefficient (paper 1, eq. 53):

    mu(v) = mu_d + (mu_s - mu_d) exp(-(|v|/v_s)^delta_s) + mu_v |v|

mu_s, mu_d (-) > 0; v_s (m/s) > 0; delta_s (-) >= 0; mu_v (s/m) >= 0. Checked when a model is built
(or by validate()), with messages naming the key, e.g. "law.mu_s = -1: must be > 0".

Example:
    >>> p = bristle.StribeckParams(mu_s=1.0, mu_d=0.7, v_s=6.0)      # Table 1 (v_s in m/s)
    >>> p.mu(np.array([0.0, 6.0])).round(4)                          # mu(0), mu(v_s) = mu_d + 0.3/e
    array([1.    , 0.8104])
)doc");
  stribeck
      .def(py::init([](double mu_s, double mu_d, double v_s, double delta_s, double mu_v) {
             return StribeckParams{mu_s, mu_d, v_s, delta_s, mu_v};
           }),
           py::kw_only(), py::arg("mu_s") = 1.0, py::arg("mu_d") = 1.0, py::arg("v_s") = 1.0, py::arg("delta_s") = 2.0,
           py::arg("mu_v") = 0.0)
      .def_readwrite("mu_s", &StribeckParams::mu_s, "static friction coefficient (-), > 0")
      .def_readwrite("mu_d", &StribeckParams::mu_d, "dynamic (Coulomb) friction coefficient (-), > 0")
      .def_readwrite("v_s", &StribeckParams::v_s, "Stribeck velocity (m/s), > 0")
      .def_readwrite("delta_s", &StribeckParams::delta_s, "Stribeck exponent (-), >= 0")
      .def_readwrite("mu_v", &StribeckParams::mu_v, "viscous coefficient (s/m), mu_v(v) = mu_v |v|, >= 0")
      .def("validate", &StribeckParams::validate, py::arg("prefix") = "law",
           validate_doc("bristle.StribeckParams(mu_s=-1.0).validate()",
                        "law.mu_s = -1: must be > 0").c_str())
      .def(
          "mu",
          [](const StribeckParams& p, FloatOrArray speed) {
            p.validate("law");  // a subnormal v_s gave NaN at speed 0
            return map_array(speed, "speed", [&p](double s) { return laws::stribeck_mu(p, s); });
          },
          py::arg("speed"), R"doc(mu(speed) (-) of eq. 53 for speeds >= 0 (m/s); elementwise on arrays.

Example:
    >>> bristle.StribeckParams(mu_s=1.5, mu_d=1.0, v_s=1e-3).mu(1e-3)    # mu_d + 0.5/e at v = v_s
    1.1839397205857212
)doc");
  schema_py::bind_schema<StribeckParams>(stribeck, "", false);
  add_copy<StribeckParams>(stribeck);

  py::class_<laws::CoulombStribeckParams> cs(m, "CoulombStribeckParams", R"doc(
Set-valued Coulomb-Stribeck friction (paper 3, §III; the [friction] table of kind = "structure_stick_slip"):

    F in -mu(|v_r|) N sgn(v_r),  |F| <= mu_s N at v_r = 0 (exact stick),
    mu(v) = mu_d + (mu_s - mu_d) exp(-(v/v_s)^delta_s) + mu_v v   (paper 1, eq. 53).

Used by bristle.structures.run_stick_slip and CoulombStribeck. mu_s, mu_d (-), v_s (m/s), mu_v (s/m).

Example:
    >>> p = bristle.CoulombStribeckParams(mu_s=0.5, mu_d=0.3, v_s=0.1)
    >>> round(p.mu(0.1), 4)                                          # mu at 0.1 m/s: 0.3 + 0.2/e
    0.3736
)doc");
  schema_py::bind_schema<laws::CoulombStribeckParams>(cs, "Coulomb-Stribeck friction parameters.");
  cs.def_property(
        "stribeck", [](const laws::CoulombStribeckParams& p) { return p.mu; },
        [](laws::CoulombStribeckParams& p, const StribeckParams& mu) { p.mu = mu; },
        "the coefficient mu(v) as a StribeckParams (a copy)")
      .def("validate", &laws::CoulombStribeckParams::validate, py::arg("prefix") = "friction",
           validate_doc("bristle.CoulombStribeckParams(v_s=0.0).validate()",
                        "friction.v_s = 0...").c_str())
      .def(
          "mu",
          [](const laws::CoulombStribeckParams& p, FloatOrArray speed) {
            return map_array(speed, "speed", [&p](double s) { return laws::stribeck_mu(p.mu, s); });
          },
          py::arg("speed"), R"doc(mu(speed) (-) of eq. 53 for speeds >= 0 (m/s); elementwise on arrays.

Example:
    >>> bristle.CoulombStribeckParams(mu_s=0.5, mu_d=0.3, v_s=0.1).mu(np.array([0.0, 10.0]))
    array([0.5, 0.3])
)doc");
  add_copy<laws::CoulombStribeckParams>(cs);

  py::class_<laws::CoulombStribeck>(m, "CoulombStribeck", R"doc(
The set-valued Coulomb-Stribeck law at a contact whose relative velocity is affine in the force over a step,
v_r = c + a F (a > 0: the one-step admittance, m/(N s); N > 0: the normal load, N). step(c) returns
(force_N, stick, slip_speed_mps): stick with F = -c/a while |F| <= mu_s N, else F = -mu(x) N sgn(c) with x the
smallest root of x = |c| - a N mu(x). well_posed: a N max(-mu') < 1 (a unique slip root).

Example:
    >>> law = bristle.laws.CoulombStribeck(bristle.CoulombStribeckParams(mu_s=0.5, mu_d=0.3, v_s=0.1),
    ...                                    admittance=0.01, normal_load_N=10.0)    # m/(N s), N
    >>> law.well_posed, law.mu_static
    (True, 0.5)
)doc")
      .def(py::init<const laws::CoulombStribeckParams&, double, double, std::string_view>(), py::arg("params"),
           py::arg("admittance"), py::arg("normal_load_N"), py::arg("prefix") = "friction")
      .def("__reduce__",
           [](const laws::CoulombStribeck& law) {
             return reduce_to(py::type::of<laws::CoulombStribeck>(), law.params(), law.admittance(),
                              law.normal_load_N());
           })
      .def_property_readonly("params", &laws::CoulombStribeck::params)
      .def_property_readonly("admittance", &laws::CoulombStribeck::admittance, "a (m/(N s))")
      .def_property_readonly("normal_load_N", &laws::CoulombStribeck::normal_load_N, "N (N)")
      .def_property_readonly("well_posed", &laws::CoulombStribeck::well_posed)
      .def_property_readonly("mu_static", &laws::CoulombStribeck::mu_static, "mu(0) = mu_s")
      .def(
          "step",
          [](const laws::CoulombStribeck& law, double c, double guess) {
            const laws::CoulombStribeckStep s = law.step(c, guess);
            return py::make_tuple(s.force, s.stick, s.slip_speed);
          },
          py::arg("c"), py::arg("guess") = -1.0,
          R"doc((force_N (N), stick, slip_speed_mps (m/s)) of the step v_r = c + a F (c in m/s); guess: a start for the
slip speed (< 0: none).

Example:
    >>> law = bristle.laws.CoulombStribeck(bristle.CoulombStribeckParams(mu_s=0.5, mu_d=0.3, v_s=0.1),
    ...                                    admittance=0.01, normal_load_N=10.0)
    >>> law.step(0.01)              # |F| = c/a = 1 N <= mu_s N = 5 N: stick, F = -c/a
    (-1.0, True, 0.0)
    >>> F, stick, v = law.step(1.0); stick, round(F, 3)      # slips
    (False, -3.0)
)doc");
  m.def("steepest_descent", &laws::steepest_descent, py::arg("stribeck"),
        R"doc(sup over v > 0 of -mu'(v) (s/m) of a StribeckParams (+inf for 0 < delta_s < 1 with mu_s > mu_d).

Example:
    >>> round(bristle.laws.steepest_descent(bristle.StribeckParams(mu_s=0.5, mu_d=0.3, v_s=0.1)), 4)   # s/m
    1.7155
)doc");

  m.def(
      "stribeck_mu",
      [](const StribeckParams& p, FloatOrArray speed) {
        p.validate("params");
        return map_array(speed, "speed", [&p](double s) { return laws::stribeck_mu(p, s); });
      },
      py::arg("params"), py::arg("speed"), R"doc(mu(speed) (-) of eq. 53 (speed in m/s, >= 0); elementwise on arrays.

Example:
    >>> bristle.stribeck_mu(bristle.StribeckParams(mu_s=1.0, mu_d=0.7, v_s=6.0), np.array([0.0, 100.0])).round(4)
    array([1. , 0.7])
)doc");

  py::class_<FrictionCoefficient> coefficient(m, "FrictionCoefficient", R"doc(
The friction-coefficient matrix M(v_r): isotropic (one Stribeck law, axis1) or anisotropic
M = R(angle_rad) diag(mu_1, mu_2) R^T with one law per principal axis (angle in rad). Always SPD.

Example:
    >>> c = bristle.FrictionCoefficient(axis1=bristle.StribeckParams(mu_s=1.0, mu_d=1.0),
    ...                                 axis2=bristle.StribeckParams(mu_s=0.5, mu_d=0.5), anisotropic=True)
    >>> c.M(0.1)                                  # at v_r = (0.1, 0) m/s: diag(mu_1, mu_2)
    array([[1. , 0. ],
           [0. , 0.5]])
)doc");
  coefficient
      .def(py::init([](const StribeckParams& axis1, const StribeckParams& axis2, bool anisotropic, double angle_rad) {
             return FrictionCoefficient{axis1, axis2, anisotropic, angle_rad};
           }),
           py::kw_only(), py::arg("axis1") = StribeckParams{}, py::arg("axis2") = StribeckParams{},
           py::arg("anisotropic") = false, py::arg("angle_rad") = 0.0)
      .def_readwrite("axis1", &FrictionCoefficient::axis1,
                     "law along the first principal axis (the only one if isotropic)")
      .def_readwrite("axis2", &FrictionCoefficient::axis2, "law along the second principal axis (anisotropic only)")
      .def_readwrite("anisotropic", &FrictionCoefficient::anisotropic)
      .def_readwrite("angle_rad", &FrictionCoefficient::angle_rad, "rotation of the principal axes from x (rad)")
      .def("validate", &FrictionCoefficient::validate, py::arg("prefix") = "law",
           validate_doc("bristle.FrictionCoefficient(axis1=bristle.StribeckParams(mu_d=-0.5)).validate()",
                        "law.mu_d = -0.5...").c_str())
      .def(
          "M",
          [](const FrictionCoefficient& c, FloatOrArray v) {
            PointArgs a;
            const std::size_t iv = a.velocity(v, "v_r");
            return evaluate_points(a, {2, 2}, [&](py::ssize_t i, double* out) { put(out, c.M(a.vec2(iv, i))); });
          },
          py::arg("v_r"),
          "M(v_r), 2x2 (v_r in m/s: 2 values, or a number for (v, 0)); (n, 2, 2) for an (n,) numpy array of "
          "v_x or an (n, 2) array.\n\nExample: ``bristle.FrictionCoefficient(axis1=bristle.StribeckParams(mu_s=1.5, "
          "v_s=0.1)).M(np.linspace(0, 1, 5))[:, 0, 0]`` is mu(v) at 5 speeds (m/s).")
      .def("__repr__", [](const FrictionCoefficient& c) { return repr(c); })
      // Hand-written (FrictionCoefficient has no serialize(): in TOML it is the Stribeck keys of [law] or
      // [law.axis1] / [law.axis2]): the state is the constructor's keywords.
      .def(py::pickle(
          [](const FrictionCoefficient& c) {
            py::dict d;
            d["axis1"] = schema_py::state(c.axis1);
            d["axis2"] = schema_py::state(c.axis2);
            d["anisotropic"] = c.anisotropic;
            d["angle_rad"] = c.angle_rad;
            return d;
          },
          [](py::dict d) {
            FrictionCoefficient c;
            c.axis1 = schema_py::from_state<StribeckParams>(py::dict(d["axis1"]));
            c.axis2 = schema_py::from_state<StribeckParams>(py::dict(d["axis2"]));
            c.anisotropic = d["anisotropic"].cast<bool>();
            c.angle_rad = d["angle_rad"].cast<double>();
            return c;
          }))
      .def(
          "__eq__",
          [](const FrictionCoefficient& a, py::object b) -> py::object {
            if (!py::isinstance<FrictionCoefficient>(b)) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
            const auto& c = b.cast<const FrictionCoefficient&>();
            return py::bool_(schema_py::state(a.axis1).equal(schema_py::state(c.axis1)) &&
                             schema_py::state(a.axis2).equal(schema_py::state(c.axis2)) &&
                             a.anisotropic == c.anisotropic && a.angle_rad == c.angle_rad);
          },
          py::arg("other"));
  coefficient.attr("__hash__") = py::none();
  add_copy<FrictionCoefficient>(coefficient);

  py::class_<LawParams> law(m, "LawParams", R"doc(
Parameters of a friction law h0 (paper 1, eqs. 2-7).

type: "dahl", "lugre", "frbd", "bouc_wen" or "frictionless" (or a LawKind); the attribute `kind` is the LawKind.
M: FrictionCoefficient; or give the isotropic Stribeck parameters directly as mu_s, mu_d, v_s (m/s),
   delta_s, mu_v (s/m) (eq. 53).
eps (m^2/s^2, >= 0): regularisation of the norm.
sigma0 (1/m, SPD, optional): Dahl/LuGre micro-stiffness; None = the pair's static stiffness.
sigma1, sigma2 (s/m, SPSD): LuGre micro-damping and viscous terms (output force only).
A (-, > 0), beta1, beta2 (1/m^2), gamma (1/m^2): Bouc-Wen (eqs. 4-6).
Matrices accept a number k (meaning k I) or a 2x2 array; reading returns a copy, so assign whole
matrices (law.sigma1 = 0.5), not entries. Checked when a model is built.

Example:
    >>> law = bristle.LawParams(type="lugre", mu_s=1.5, mu_d=1.0, v_s=1e-3, sigma1=316.2, sigma2=0.4)
    >>> law.kind, law.mu_s, law.sigma2                 # sigma2 in s/m (per newton of normal load)
    (<LawKind.lugre: 1>, 1.5, array([[0.4, 0. ],
           [0. , 0.4]]))
)doc");
  law.def_property(
         "mu",
         [](const LawParams& p) -> py::object {
           if (p.kind != LawKind::dahl || p.M.anisotropic) return py::none();
           return py::float_(p.M.axis1.mu_s);
         },
         [](LawParams& p, py::object v) {
           py::dict d;
           d["mu"] = v;
           schema_py::apply(p, d);
         },
         "Dahl's constant friction coefficient (-), > 0: sets mu_s = mu_d (TOML key law.mu); None for other laws "
         "and for an anisotropic law (whose axes hold it)")
      .def_property(
          "kind", [](const LawParams& p) { return p.kind; },
          [](LawParams& p, NameOrEnum k) { p.kind = enum_from<LawKind>(k, "law.type", laws::law_kind_from_string); },
          "LawKind (assign a name or a LawKind)")
      .def_readwrite("M", &LawParams::M, "FrictionCoefficient M(v), eq. 53")
      .def_readwrite("eps", &LawParams::eps, "norm regularisation (m^2/s^2), >= 0")
      .def_property(
          "sigma0", [](const LawParams& p) -> py::object { return p.sigma0 ? py::cast(*p.sigma0) : py::none(); },
          [](LawParams& p, FloatOrArray v) {
            if (v.is_none())
              p.sigma0.reset();
            else
              p.sigma0 = to_mat2(v, "law.sigma0");
          },
          "Dahl/LuGre micro-stiffness Sigma0 (1/m, SPD) or None (the pair's static stiffness)")
      .def_property(
          "sigma1", [](const LawParams& p) { return p.sigma1; },
          [](LawParams& p, FloatOrArray v) { p.sigma1 = to_mat2(v, "law.sigma1"); }, "LuGre micro-damping (s/m), SPSD")
      .def_property(
          "sigma2", [](const LawParams& p) { return p.sigma2; },
          [](LawParams& p, FloatOrArray v) { p.sigma2 = to_mat2(v, "law.sigma2"); }, "LuGre viscous term (s/m), SPSD")
      .def_readwrite("A", &LawParams::A, "Bouc-Wen gain (-), > 0, eq. 4")
      .def_readwrite("beta1", &LawParams::beta1, "Bouc-Wen shape (1/m^2), > 0, eq. 6")
      .def_readwrite("beta2", &LawParams::beta2, "Bouc-Wen shape (1/m^2), >= 0, eq. 6")
      .def_readwrite("gamma", &LawParams::gamma, "Bouc-Wen shape (1/m^2), finite, beta1 + gamma > 0")
      .def_property(
          "G_inverse",
          [](const LawParams& p) -> py::object {
            if (!p.G_inverse) return py::none();
            if (const auto* f = p.G_inverse.target<MatrixCallable>(); f && !f->invert) return f->fn.object();
            return py::none();
          },
          [](LawParams& p, ArrayLike f) {
            if (f.is_none())
              p.G_inverse = nullptr;
            else
              p.G_inverse = MatrixCallable{PyCallable(f, "law.G_inverse")};
          },
          R"doc(FrBD general form (h0 = -G^-1(v) f - v, steady state f = -G(v) v): a Python callable
G_inverse(v) -> 2x2 array (m/s; a number g means g I), v a numpy array (v_x, v_y) in m/s; the result
must be finite and symmetric positive definite (checked at every call: InvalidInput otherwise). None (default): the
Stribeck form G^-1 = M^-2 ||M v||_eps of eq. 3. Every call takes the GIL: solvers using it run correctly
with the GIL released, but the parallel sweeps run such models on one thread.)doc")
      .def_property(
          "G",
          [](const LawParams& p) -> py::object {
            if (const auto* f = p.G_inverse.target<MatrixCallable>(); f && f->invert) return f->fn.object();
            return py::none();
          },
          [](LawParams& p, ArrayLike f) {
            if (f.is_none())
              p.G_inverse = nullptr;
            else
              p.G_inverse = MatrixCallable{PyCallable(f, "law.G"), true};
          },
          R"doc(FrBD general form given by G instead of G^-1: a Python callable G(v) -> 2x2 array (s/m), v in m/s;
finite and SPD (checked at every call); the law uses its inverse. Setting G replaces G_inverse.)doc")
      .def("validate", &LawParams::validate, py::arg("prefix") = "law",
           validate_doc("bristle.LawParams(type=\"lugre\", sigma1=-1.0).validate()",
                        "law.sigma1...").c_str());
  // law.axis1 / law.axis2, as the TOML tables: None for an isotropic law; setting one (a StribeckParams or a dict)
  // makes the law anisotropic, the other axis keeping the isotropic law's values (the reader's presence rule).
  for (const auto& [name, which] : {std::pair{"axis1", "first"}, std::pair{"axis2", "second"}}) {
    const bool first = std::string_view(name) == "axis1";
    const std::string key = std::string("law.") + name;
    law.def_property(
        name,
        [first](const LawParams& p) -> py::object {
          if (!p.M.anisotropic) return py::none();
          return py::cast(first ? p.M.axis1 : p.M.axis2);
        },
        [first, key](LawParams& p, py::object v) {
          const StribeckParams axis =
              py::isinstance<py::dict>(v)
                  ? schema_py::from_kwargs<StribeckParams>(schema_py::copy_of(v.cast<py::dict>()), key)
                  : cast_arg<StribeckParams>(v, key, "a StribeckParams or a dict");
          if (!p.M.anisotropic) p.M.axis2 = p.M.axis1;  // both axes: the isotropic law's
          (first ? p.M.axis1 : p.M.axis2) = axis;
          p.M.anisotropic = true;
        },
        ("the Stribeck law along the " + std::string(which) + " principal axis (a StribeckParams or a dict; TOML "
         "table " + key + "); setting one makes the law anisotropic; None for an isotropic law").c_str());
  }
  add_copy<LawParams>(law);
  // After the hand-written properties, whose setters it makes warn as the generated ones do.
  schema_py::bind_schema<LawParams>(law, "Parameters of a friction law h0 (paper 1, eqs. 2-7); keywords are the TOML keys of [law].");

  py::class_<FrictionLaw>(m, "FrictionLaw", R"doc(
A friction law h0 bound to its contact pair through the pair's static stiffness K_static (1/m):
FrictionLaw(params, k_static). Vectors are 2-D (x, y): z (m), f (-, normalised force), v (m/s).

Example:
    >>> law = bristle.FrictionLaw(bristle.LawParams(type="frbd", mu_s=1.0, mu_d=0.7, v_s=6.0), 240.0)  # K_static 1/m
    >>> round(float(law.steady_force(1.0)[0]), 4)    # -mu(1 m/s) along x (normalised)
    -0.9918
)doc")
      .def(py::init([](const LawParams& params, FloatOrArray k_static) {
             return FrictionLaw(params, to_mat2(k_static, "k_static"));
           }),
           py::arg("params"), py::arg("k_static"))
      .def("__reduce__",
           [](const FrictionLaw& l) { return reduce_to(py::type::of<FrictionLaw>(), l.params(), Mat2(l.k_static())); })
      .def(
          "h0",
          [](const FrictionLaw& l, FloatOrArray z, ArrayLike f, FloatOrArray v) {
            PointArgs a;
            const std::size_t iz = a.vector(z, "z", 2), jf = a.vector(f, "f", 2), iv = a.velocity(v, "v");
            return evaluate_points(a, {2}, [&](py::ssize_t i, double* out) {
              put(out, l.h0(a.vec2(iz, i), a.vec2(jf, i), a.vec2(iv, i)));
            });
          },
          py::arg("z"), py::arg("f"), py::arg("v"), R"doc(
h0(z, f, v): rate of the relative deformation (m/s), eqs. 2-7; (2,) for one point, (n, 2) for n.

z (m), f (-): 2 values or (n, 2) arrays; v (m/s): a number, 2 values, an (n,) array of v_x or an
(n, 2) array.

Example:
    >>> law = bristle.FrictionLaw(bristle.LawParams(type="frbd", mu_s=1.0, mu_d=0.7, v_s=6.0), 240.0)  # K_static 1/m
    >>> law.h0(np.zeros(2), np.zeros(2), np.linspace(-1, 1, 11)).shape    # 11 velocities: (11, 2) in m/s
    (11, 2)
    >>> law.h0([0.0, 0.0], [0.0, 0.0], 0.5)                                # relaxed: z' = -v
    array([-0.5, -0. ])
)doc")
      .def(
          "h0_jacobian",
          [](const FrictionLaw& l, FloatOrArray z, ArrayLike f, FloatOrArray v) {
            PointArgs a;
            const std::size_t iz = a.vector(z, "z", 2), jf = a.vector(f, "f", 2), iv = a.velocity(v, "v");
            py::array_t<double> dz = a.result({2, 2}), df = a.result({2, 2});
            for (py::ssize_t i = 0; i < a.size(); ++i) {
              Mat2 jz, jfm;
              l.h0_jacobian(a.vec2(iz, i), a.vec2(jf, i), a.vec2(iv, i), jz, jfm);
              put(dz.mutable_data() + 4 * i, jz);
              put(df.mutable_data() + 4 * i, jfm);
            }
            return py::make_tuple(dz, df);
          },
          py::arg("z"), py::arg("f"), py::arg("v"), R"doc((dh0/dz (1/s), dh0/df (m/s)), each 2x2; each (n, 2, 2) for n points.

Example:
    >>> law = bristle.FrictionLaw(bristle.LawParams(type="frbd", mu_s=1.0, mu_d=0.7, v_s=6.0), 240.0)  # K_static 1/m
    >>> dz, df = law.h0_jacobian(np.zeros(2), [-0.5, 0.0], 1.0)
    >>> dz.shape, df.shape
    ((2, 2), (2, 2))
)doc")
      .def(
          "output",
          [](const FrictionLaw& l, ArrayLike f, ArrayLike zdot, FloatOrArray v) {
            PointArgs a;
            const std::size_t jf = a.vector(f, "f", 2), iz = a.vector(zdot, "zdot", 2), iv = a.velocity(v, "v");
            return evaluate_points(a, {2}, [&](py::ssize_t i, double* out) {
              put(out, l.output(a.vec2(jf, i), a.vec2(iz, i), a.vec2(iv, i)));
            });
          },
          py::arg("f"), py::arg("zdot"), py::arg("v"),
          "Normalised friction force on the upper body: f + Sigma1 zdot - Sigma2 v (LuGre), else f; (n, 2) for "
          "n points (f, zdot: (n, 2); v as for h0). Sign: it opposes the sliding.\n\nExample:\n"
          "    >>> law = bristle.FrictionLaw(bristle.LawParams(type=\"lugre\", mu_s=1.5, v_s=1e-3, sigma2=0.4), 1e5)\n"
          "    >>> law.output([-1.0, 0.0], [0.0, 0.0], 0.1)      # f - Sigma2 v, v = 0.1 m/s\n"
          "    array([-1.04,  0.  ])\n")
      .def(
          "steady_force",
          [](const FrictionLaw& l, FloatOrArray v) {
            PointArgs a;
            const std::size_t iv = a.velocity(v, "v");
            return evaluate_points(a, {2}, [&](py::ssize_t i, double* out) { put(out, l.steady_force(a.vec2(iv, i))); });
          },
          py::arg("v"), R"doc(
Analytic steady normalised force at constant v (m/s; sigma2 included): (2,), or (n, 2) for n velocities.

v: a number v (meaning (v, 0)), 2 values (v_x, v_y), an (n,) numpy array of v_x (n != 2) or an (n, 2)
array. Sign: the force on the upper body opposes the sliding (-mu(v) for v > 0). Example:
the example. Never NaN: 0 at v = 0 for every law and eps (the limit eps -> 0+); see ContactModel.steady_force.

Example:
    >>> law = bristle.FrictionLaw(bristle.LawParams(type="frbd", mu_s=1.0, mu_d=0.7, v_s=6.0), 240.0)  # K_static 1/m
    >>> law.steady_force(np.linspace(0.01, 1, 100)).shape                 # (100, 2), normalised
    (100, 2)
)doc")
      .def(
          "G_inverse",
          [](const FrictionLaw& l, FloatOrArray v) {
            PointArgs a;
            const std::size_t iv = a.velocity(v, "v");
            return evaluate_points(a, {2, 2}, [&](py::ssize_t i, double* out) { put(out, Mat2(l.G_inverse(a.vec2(iv, i)))); });
          },
          py::arg("v"),
          "G^-1(v) = M^-2(v) ||M(v) v||_eps (m/s) of the FrBD family (h0 = -G^-1 f - v, eq. 3): 2x2, or "
          "(n, 2, 2) for n velocities (v as for steady_force).\n\nExample:\n"
          "    >>> law = bristle.FrictionLaw(bristle.LawParams(type=\"frbd\", mu_s=1.0, mu_d=1.0, eps=0.0), 240.0)\n"
          "    >>> law.G_inverse(2.0)                 # mu = 1: G^-1 = |v| I (m/s)\n"
          "    array([[2., 0.],\n           [0., 2.]])\n")
      .def_property_readonly(
          "params", [](const FrictionLaw& l) { return l.params(); }, "LawParams (a copy)")
      .def_property_readonly(
          "sigma0", [](const FrictionLaw& l) -> Mat2 { return l.sigma0(); }, "Sigma0 in use (1/m)")
      .def_property_readonly(
          "k_static", [](const FrictionLaw& l) -> Mat2 { return l.k_static(); }, "static stiffness of the pair (1/m)")
      .def_property_readonly("has_output_terms", &FrictionLaw::has_output_terms);

  m.def(
      "law_kind_from_string",
      [](const std::string& name, const std::string& key) { return laws::law_kind_from_string(key, name); },
      py::arg("name"), py::arg("key") = "law.type", R"doc(Parses a law name (InvalidInput naming key and suggesting the nearest name).

Example:
    >>> bristle.laws.law_kind_from_string("lugre")
    <LawKind.lugre: 1>
    >>> bristle.laws.law_kind_from_string("lugree")
    Traceback (most recent call last):
    ...
    bristle._bristle.InvalidInput: law.type = "lugree": unknown friction law...
)doc");
}

}  // namespace bristle::python
