// Python bindings of bristle/directional: directional friction through bristle-like mediating elements
// (paper 2; docs/directional.md): surface profiles, mechanisms and their limit coefficients (Lemmas 2
// and 3), the convex energy and loadings, the eps-systems (eq. 2.8), the limit play law (eq. 2.3),
// the horizontal-spring drive (eqs. 3.1-3.3), the crawler and the nap effects (§3.4).
//
// Solvers run with the GIL released. User functions (Profile.custom, Loading.custom) are Python
// callables held through PyCallable: every call takes the GIL, so they are safe on any thread.
#include "bristle/directional/crawler.hpp"
#include "bristle/directional/drive.hpp"
#include "bristle/directional/energy.hpp"
#include "bristle/directional/epsilon_system.hpp"
#include "bristle/directional/limit_system.hpp"
#include "bristle/directional/mechanism.hpp"
#include "bristle/directional/nap.hpp"
#include "bristle/directional/profile.hpp"
#include "common.hpp"
#include "pickle_fields.hpp"
#include "schema_py.hpp"

BRISTLE_PY_TYPED_OBJECT(ConvexParamsOrNone, "bristle._bristle.directional.ConvexParams | None")

// The setups shared by the examples: a sine profile (1 period = 1, w in m), the slanted spring on it, a convex
// energy phi (J) and a triangle loading (N).
#define PROFILE_EX "    >>> w = bristle.directional.Profile(bristle.directional.ProfileParams(kind=\"sine\", amplitude=0.08))\n"
#define MECH_EX                                                                                               \
  PROFILE_EX "    >>> m = bristle.directional.Mechanism(bristle.directional.MechanismParams(kind=\"slanted\", k=1.0,\n" \
  "    ...         height_m=1.0, rest_length_m=1.5, theta_rad=0.5), w)\n"
#define PHI_EX "    >>> phi = bristle.directional.ConvexEnergy(k=2.0)             # phi(z) = k z^2 / 2 (J), k in N/m\n"
#define LOAD_EX "    >>> q = bristle.directional.Loading.triangle(0.0, 0.8, 2.0, 1.0)   # N: 0 -> 0.8, period 2 s, 1 cycle\n"

// The limit play law and an eps-system on the slanted spring, for the examples of the systems.
#define LIMIT_EX                                                                                              \
  "    >>> lim = bristle.directional.LimitSystem(bristle.directional.ConvexEnergy(k=1.0),\n"                  \
  "    ...         bristle.directional.Loading.ramp(0.0, 1.0), 0.3, -0.2)       # phi, l(t) (N), rho_+- (N)\n"
#define WIGGLY_EX                                                                                             \
  MECH_EX "    >>> sys = bristle.directional.WigglySystem(bristle.directional.WigglyPotential(m, 0.05),\n"     \
  "    ...         bristle.directional.ConvexEnergy(k=1.0), bristle.directional.Loading.ramp(0.0, 1.0), 1.0)\n"

namespace bristle::python {

using namespace bristle::directional;

namespace schema_py {

template <>
struct ChoiceParser<ProfileKind> : ParseWith<ProfileKind, profile_kind_from_string> {};
template <>
struct ChoiceParser<MechanismKind> : ParseWith<MechanismKind, mechanism_kind_from_string> {};

/// ProfileParams: the [profile] table. Declared in the schema, stored as lists: cos, sin (fourier), x, w (table);
/// a table file (file, x_column, w_column) is the scenario reader's (Python: give x and w).
template <>
struct Traits<ProfileParams> : PlainTraits<ProfileParams> {
  static constexpr const char* name = "ProfileParams";
  static constexpr const char* prefix = "profile";
  static constexpr const char* extra_doc =
      "A table file (file, x_column, w_column) is read by the scenario reader; in Python give x and w.\n"
      "Example: ``ProfileParams(kind=\"ratchet\", amplitude=0.08, asymmetry=0.2)``\n";
  static void dump(const ProfileParams& p, std::vector<Entry>& es) {
    const bool fourier = p.kind == ProfileKind::fourier, table = p.kind == ProfileKind::table;
    es.push_back(Entry{"cos", to_py(p.cos_coefficients), fourier, schema::Type::number_list, "a_k, k = 1..n", {}});
    es.push_back(Entry{"sin", to_py(p.sin_coefficients), fourier, schema::Type::number_list, "b_k, k = 1..n", {}});
    es.push_back(Entry{"x", to_py(p.x), table, schema::Type::number_list,
                       "the abscissae of one period, 0 = x_0 < ... < x_n = 1", {}});
    es.push_back(Entry{"w", to_py(p.w), table, schema::Type::number_list, "the heights at x, w_n = w_0", {}});
  }
  static void load(ProfileParams& p, Load& l) {
    py::dict& kw = l.keywords();
    if (l.choice_given("kind", p.kind) == ProfileKind::table)
      refuse_table_file(kw, "profile", {"file", "x_column", "w_column"}, "x= and w=");
    if (py::object v = pop(kw, "cos")) p.cos_coefficients = to_vector(v, "profile.cos");
    if (py::object v = pop(kw, "sin")) p.sin_coefficients = to_vector(v, "profile.sin");
    if (py::object v = pop(kw, "x")) p.x = to_vector(v, "profile.x");
    if (py::object v = pop(kw, "w")) p.w = to_vector(v, "profile.w");
  }
};

/// MechanismParams: the [mechanism] table.
template <>
struct Traits<MechanismParams> : PlainTraits<MechanismParams> {
  static constexpr const char* name = "MechanismParams";
  static constexpr const char* prefix = "mechanism";
  static constexpr const char* extra_doc =
      "Example: ``MechanismParams(kind=\"slanted\", k=1.0, height_m=1.0, rest_length_m=1.5, theta_rad=0.5)``\n";
};

/// DriveParams and CrawlerParams: the horizontal spring of [drive] and the [crawler] table (no choice: every key applies).
template <>
struct Traits<DriveParams> : PlainTraits<DriveParams> {
  static constexpr const char* name = "DriveParams";
  static constexpr const char* prefix = "drive";
  static constexpr const char* extra_doc =
      "The loading of [drive] (start_m, amplitude_m, period_s, cycles) is the scenario's: in Python a Loading.\n"
      "Example: ``DriveParams(k_h_N_per_m=3.0)``\n";
};

template <>
struct Traits<CrawlerParams> : PlainTraits<CrawlerParams> {
  static constexpr const char* name = "CrawlerParams";
  static constexpr const char* prefix = "crawler";
  static constexpr const char* extra_doc = "Example: ``CrawlerParams(feet=3, stroke_m=0.1)``\n";
};

/// The library's parameter classes that no scenario table holds (their keys are their attribute names; the
/// prefixes are those of their validate()).
template <>
struct Traits<ConvexParams> : PlainTraits<ConvexParams> {
  static constexpr const char* name = "ConvexParams";
  static constexpr const char* prefix = "phi";
};
template <>
struct Traits<EpsilonParams> : PlainTraits<EpsilonParams> {
  static constexpr const char* name = "EpsilonParams";
  static constexpr const char* prefix = "";
};
template <>
struct Traits<SlidingOptions> : PlainTraits<SlidingOptions> {
  static constexpr const char* name = "SlidingOptions";
  static constexpr const char* prefix = "sliding";
};

}  // namespace schema_py

namespace {

/// The Python callable a user function of Profile.custom / Loading.custom wraps (pickled by reference); a
/// function made in C++ does not pickle (TypeError naming `what`).
py::object python_function(const std::function<double(double)>& f, const char* what) {
  if (const auto* c = f.target<ScalarCallable>()) return c->fn.object();
  throw py::type_error(std::string(what) + ": a function made in C++ does not pickle");
}

std::string repr(const LimitCoefficients& c) {
  return "LimitCoefficients(alpha=" + repr_double(c.alpha) + ", a=" + repr_double(c.a) +
         ", mu_plus=" + repr_double(c.mu_plus) + ", mu_minus=" + repr_double(c.mu_minus) +
         ", rho_plus=" + repr_double(c.rho_plus) + ", rho_minus=" + repr_double(c.rho_minus) + ")";
}

integrate::Options options_or(py::handle options, const integrate::Options& fallback) {
  if (options.is_none()) return fallback;
  return cast_arg<integrate::Options>(options, "options", "IntegratorOptions");
}

}  // namespace

void export_directional(py::module_& root) {
  py::module_ m = root.def_submodule("directional", R"doc(
Directional friction through bristle-like mediating elements (paper 2, Gidoni & DeSimone;
docs/directional.md). Lengths in m, forces in N, energies in J, angles in rad, times in s.

Profile (the surface w, eq. 3.4), Mechanism (a bristle on it: limit coefficients of Lemmas 2 and 3,
eqs. 2.17, 3.12), WigglyPotential (V_eps, eq. 2.16), ConvexEnergy (Phi), Loading (l(t)),
WigglySystem (the eps-system, eq. 2.8), LimitSystem (the play law, eq. 2.3), the horizontal-spring
drive (epsilon_loop, limit_loop, measure_sliding_force; eqs. 3.1-3.3), the crawler (crawl_epsilon,
crawl_limit) and the nap effects (§3.4).)doc");

  // ---- Profiles -----------------------------------------------------------------------------------
  py::enum_<ProfileKind>(m, "ProfileKind", "Surface profile kind: sine, ratchet, fourier, table." "\n\nExample:\n" "    >>> bristle.directional.ProfileParams(kind=\"ratchet\").kind\n" "    <ProfileKind.ratchet: 1>\n")
      .value("sine", ProfileKind::sine)
      .value("ratchet", ProfileKind::ratchet)
      .value("fourier", ProfileKind::fourier)
      .value("table", ProfileKind::table);

  py::class_<ProfileParams> profile_params(m, "ProfileParams", R"doc(
A 1-periodic surface profile w (the physical surface is eps w(x/eps), eq. 3.4), dimensionless:
  kind="sine"     w = amplitude sin(2 pi x)                          (omega_+- = +-2 pi amplitude)
  kind="ratchet"  w = amplitude [sin(2 pi x) + (asymmetry/2) sin(4 pi x)], |asymmetry| <= 1/4
  kind="fourier"  w = sum_k cos[k] cos(2 pi k x) + sin[k] sin(2 pi k x), k = 1..n
  kind="table"    periodic cubic spline through (x_i, w_i), 0 = x_0 < ... < x_n = 1, w_n = w_0
Checked when a Profile is built (InvalidInput naming "profile.<key>").

Example:
    >>> bristle.directional.ProfileParams(kind="sine", amplitude=0.08)          # m
    ProfileParams(kind='sine', amplitude=0.08)
)doc");
  profile_params
      .def_property(
          "kind", [](const ProfileParams& p) { return p.kind; },
          [](ProfileParams& p, NameOrEnum k) {
            p.kind = enum_from<ProfileKind>(k, "profile.kind", profile_kind_from_string);
          },
          "ProfileKind (assign a name or a ProfileKind)")
      // numpy arrays, as before the schema binding (whose generated properties would read lists)
      .def_property(
          "cos", [](const ProfileParams& p) { return copy_array(p.cos_coefficients); },
          [](ProfileParams& p, ArrayLike v) { p.cos_coefficients = to_vector(v, "profile.cos"); },
          "fourier a_k, k = 1..n (TOML key profile.cos)")
      .def_property(
          "sin", [](const ProfileParams& p) { return copy_array(p.sin_coefficients); },
          [](ProfileParams& p, ArrayLike v) { p.sin_coefficients = to_vector(v, "profile.sin"); },
          "fourier b_k, k = 1..n (TOML key profile.sin)")
      .def_property(
          "x", [](const ProfileParams& p) { return copy_array(p.x); },
          [](ProfileParams& p, ArrayLike v) { p.x = to_vector(v, "profile.x"); },
          "table abscissae of one period (TOML key profile.x)")
      .def_property(
          "w", [](const ProfileParams& p) { return copy_array(p.w); },
          [](ProfileParams& p, ArrayLike v) { p.w = to_vector(v, "profile.w"); }, "table heights (TOML key profile.w)")
      .def("validate", &ProfileParams::validate, py::arg("prefix") = "profile",
           validate_doc("p = bristle.directional.ProfileParams(); p.amplitude = -0.1; p.validate()",
                        "profile.amplitude...").c_str());
  add_copy<ProfileParams>(profile_params);
  schema_py::bind_schema<ProfileParams>(profile_params,
                                        "A surface profile (paper 2, eqs. 3.4-3.5); keywords are the TOML keys of [profile].");

  py::class_<Profile>(m, "Profile", R"doc(
An immutable 1-periodic C^2 surface profile w with its slope extrema omega_+- = max/min w' (eq. 3.5).
Profile(params=ProfileParams()) or Profile.custom(w, dw, d2w, harmonics=16) with Python functions.
w, dw, d2w evaluate elementwise on arrays (x in periods; w in m).

Example:
    >>> w = bristle.directional.Profile(bristle.directional.ProfileParams(kind="sine", amplitude=0.08))   # m
    >>> round(w.omega_plus, 6), round(w.omega_minus, 6)          # max/min w' = +-2 pi A
    (0.502655, -0.502655)
)doc")
      .def(py::init([](const ProfileParams& params) { return Profile(params); }), py::arg("params") = ProfileParams{})
      .def_static(
          "custom",
          [](PyFunction w, PyFunction dw, PyFunction d2w, int harmonics) {
            return Profile::custom(ScalarCallable{PyCallable(std::move(w), "profile.w")},
                                   ScalarCallable{PyCallable(std::move(dw), "profile.dw")},
                                   ScalarCallable{PyCallable(std::move(d2w), "profile.d2w")}, "profile", harmonics);
          },
          py::arg("w"), py::arg("dw"), py::arg("d2w"), py::kw_only(), py::arg("harmonics") = 16,
          R"doc(A user profile from Python functions w(x), w'(x), w''(x) (1-periodic; checked on a grid).
Every evaluation takes the GIL: solvers using it are correct on any thread but not parallel.

Example:
    >>> w = bristle.directional.Profile.custom(lambda x: 0.1 * math.sin(2 * math.pi * x),            # m
    ...                                        lambda x: 0.2 * math.pi * math.cos(2 * math.pi * x),
    ...                                        lambda x: -0.4 * math.pi ** 2 * math.sin(2 * math.pi * x))
    >>> round(w.omega_plus, 6)                         # max w' = 0.2 pi
    0.628319
)doc")
      .def(
          "w", [](const Profile& p, FloatOrArray x) { return map_array(x, "x", [&](double v) { return p.w(v); }); },
          py::arg("x"), "w(x) (m), x in periods; elementwise on arrays." "\n\nExample:\n" PROFILE_EX "    >>> round(w.w(0.25), 12), round(w.w(0.75), 12)       # m: crest and trough\n""    (0.08, -0.08)\n")
      .def(
          "dw", [](const Profile& p, FloatOrArray x) { return map_array(x, "x", [&](double v) { return p.dw(v); }); },
          py::arg("x"), "w'(x) (m per period); elementwise on arrays." "\n\nExample:\n" PROFILE_EX "    >>> round(w.dw(0.0), 12) == round(w.omega_plus, 12)   # steepest at x = 0\n""    True\n")
      .def(
          "d2w", [](const Profile& p, FloatOrArray x) { return map_array(x, "x", [&](double v) { return p.d2w(v); }); },
          py::arg("x"), "w''(x); elementwise on arrays." "\n\nExample:\n" PROFILE_EX "    >>> w.d2w(np.array([0.0, 0.25])).round(6)          # 0 at the inflection, < 0 at the crest\n""    array([  0.      , -3.158273])\n")
      .def_property_readonly("omega_plus", &Profile::omega_plus, "max w' > 0 (eq. 3.5)")
      .def_property_readonly("omega_minus", &Profile::omega_minus, "min w' < 0 (eq. 3.5)")
      .def_property_readonly(
          "slope_max", [](const Profile& p) { return py::make_tuple(p.slope_max().value, p.slope_max().x); },
          "(omega_+, where)")
      .def_property_readonly(
          "slope_min", [](const Profile& p) { return py::make_tuple(p.slope_min().value, p.slope_min().x); },
          "(omega_-, where)")
      .def_property_readonly("w_max", &Profile::w_max)
      .def_property_readonly("w_min", &Profile::w_min)
      .def("sup_norm", &Profile::sup_norm, "sup |w| (m)" "\n\nExample:\n" PROFILE_EX "    >>> round(w.sup_norm(), 12)\n""    0.08\n")
      .def_property_readonly("description", &Profile::description)
      .def("mirrored", &Profile::mirrored, "w(-x): omega~_+ = -omega_- (against the nap, §3.4)" "\n\nExample:\n" PROFILE_EX "    >>> round(w.mirrored().omega_plus, 12) == round(-w.omega_minus, 12)\n""    True\n")
      .def("__repr__", [](const Profile& p) { return "<bristle.directional.Profile " + p.description() + ">"; });

  // ---- Mechanisms -----------------------------------------------------------------------------------
  py::enum_<MechanismKind>(m, "MechanismKind", "Bristle model: vertical (§3.1), slanted (§3.2), angular (§3.3)." "\n\nExample:\n" "    >>> bristle.directional.MechanismParams(kind=\"angular\").kind\n" "    <MechanismKind.angular: 2>\n")
      .value("vertical", MechanismKind::vertical)
      .value("slanted", MechanismKind::slanted)
      .value("angular", MechanismKind::angular);

  py::class_<MechanismParams> mech_params(m, "MechanismParams", R"doc(
A bristle (paper 2, §3): kind "vertical", "slanted" or "angular"; k (N/m, angular N m/rad, > 0);
height_m h (m, > 0, root height); rest_length_m L_rest (m, vertical and slanted); theta_rad (rad, slanted,
[0, pi/2)); length_m L (m, angular, > h, eq. 3.15); theta_rest_rad (rad, angular, (-pi/2, theta_lim)).
Checked when a Mechanism is built.

Example:
    >>> p = bristle.directional.MechanismParams(kind="slanted", k=1.0, height_m=1.0, rest_length_m=1.5, theta_rad=0.5)
    >>> p.kind, p.k                                     # N/m
    (<MechanismKind.slanted: 1>, 1.0)
)doc");
  mech_params
      .def_property(
          "kind", [](const MechanismParams& p) { return p.kind; },
          [](MechanismParams& p, NameOrEnum k) {
            p.kind = enum_from<MechanismKind>(k, "mechanism.kind", mechanism_kind_from_string);
          },
          "MechanismKind (assign a name or a MechanismKind)")
      .def("validate", &MechanismParams::validate, py::arg("prefix") = "mechanism",
           validate_doc("p = bristle.directional.MechanismParams(); p.k = -1.0; p.validate()",
                        "mechanism.k...").c_str());
  add_copy<MechanismParams>(mech_params);
  schema_py::bind_schema<MechanismParams>(mech_params,
                                          "A bristle (paper 2, §3); keywords are the TOML keys of [mechanism].");

  py::class_<LimitCoefficients>(m, "LimitCoefficients", R"doc(
The eps -> 0 dry friction (Lemmas 2, 3): alpha = F'(0) (N, eq. 2.13), a = c'(0) (-), mu_plus, mu_minus
(-, eq. 3.12), rho_plus > 0 > rho_minus (N, eq. 2.17).

Example:
    >>> w = bristle.directional.Profile(bristle.directional.ProfileParams(kind="sine", amplitude=0.5 / (2 * math.pi)))
    >>> L = bristle.directional.Mechanism(bristle.directional.MechanismParams(kind="slanted", k=1.0, height_m=1.0,
    ...                                   rest_length_m=1.5, theta_rad=0.5), w).limit
    >>> round(L.rho_plus, 4), round(L.rho_minus, 4)                 # N
    (0.2826, -0.1613)
)doc")
      .def_readonly("alpha", &LimitCoefficients::alpha)
      .def_readonly("a", &LimitCoefficients::a)
      .def_readonly("mu_plus", &LimitCoefficients::mu_plus)
      .def_readonly("mu_minus", &LimitCoefficients::mu_minus)
      .def_readonly("rho_plus", &LimitCoefficients::rho_plus)
      .def_readonly("rho_minus", &LimitCoefficients::rho_minus)
      .def("__repr__", [](const LimitCoefficients& c) { return repr(c); });

  m.def(
      "lemma3",
      [](double omega_plus, double omega_minus, double a) { return lemma3(omega_plus, omega_minus, a); },
      py::arg("omega_plus"), py::arg("omega_minus"), py::arg("a"),
      "Lemma 3 (eq. 3.12): (mu_+, mu_-) = omega_+- / (1 + a omega_+-); InvalidInput unless 1 + a omega_+- > 0 "
      "(a in periods per m of the tip height; mu dimensionless)." "\n\nExample:\n"  "    >>> bristle.directional.lemma3(0.5, -0.5, 1.0)\n""    (0.3333333333333333, -1.0)\n");
  m.def("lemma2_thresholds", &lemma2_thresholds, py::arg("alpha"), py::arg("mu_plus"), py::arg("mu_minus"),
        "Eq. 2.17: (rho_+, rho_-) (N) from alpha (N) and mu_+- (the alpha < 0 case as in docs/directional.md)." "\n\nExample:\n"  "    >>> rho_plus, rho_minus = bristle.directional.lemma2_thresholds(1.0, 0.5, -0.5)   # N\n""    >>> rho_plus > 0\n""    True\n");

  py::class_<Mechanism>(m, "Mechanism", R"doc(
A bristle bound to its surface profile: Mechanism(params, profile). Validates the geometry (eqs. 2.13,
3.9, 3.15-3.17) and computes the limit coefficients (.limit). F, dF, d2F, c, dc, d2c (eq. 2.16 pieces)
and angle take the tip height y (m) and evaluate elementwise on arrays.

Example:
    >>> w = bristle.directional.Profile(bristle.directional.ProfileParams(kind="sine", amplitude=0.5 / (2 * math.pi)))
    >>> m = bristle.directional.Mechanism(bristle.directional.MechanismParams(kind="slanted", k=1.0, height_m=1.0,
    ...                                   rest_length_m=1.5, theta_rad=0.5), w)
    >>> round(m.limit.mu_plus, 4), round(m.limit.mu_minus, 4)            # Lemma 3 (-)
    (0.6879, -0.3927)
)doc")
      .def(py::init([](const MechanismParams& params, const Profile& profile) { return Mechanism(params, profile); }),
           py::arg("params"), py::arg("profile") = Profile{})
      .def(
          "F", [](const Mechanism& s, FloatOrArray y) { return map_array(y, "y", [&](double v) { return s.F(v); }); },
          py::arg("y"), "F(y) (J)" "\n\nExample:\n" MECH_EX "    >>> m.F(np.array([0.0, 0.05])).shape                   # J at tip heights 0, 5 cm\n""    (2,)\n")
      .def(
          "dF", [](const Mechanism& s, FloatOrArray y) { return map_array(y, "y", [&](double v) { return s.dF(v); }); },
          py::arg("y"), "F'(y) (N)" "\n\nExample:\n" MECH_EX "    >>> np.isfinite(m.dF(0.02))                             # N\n""    True\n")
      .def(
          "d2F", [](const Mechanism& s, FloatOrArray y) { return map_array(y, "y", [&](double v) { return s.d2F(v); }); },
          py::arg("y"), "F''(y) (N/m)" "\n\nExample:\n" MECH_EX "    >>> np.isfinite(m.d2F(0.02))                            # N/m\n""    True\n")
      .def(
          "c", [](const Mechanism& s, FloatOrArray y) { return map_array(y, "y", [&](double v) { return s.c(v); }); },
          py::arg("y"), "c(y) (m): z = p + c(y)" "\n\nExample:\n" MECH_EX "    >>> bool(np.isfinite(m.c(0.02)))\n""    True\n")
      .def(
          "dc", [](const Mechanism& s, FloatOrArray y) { return map_array(y, "y", [&](double v) { return s.dc(v); }); },
          py::arg("y"), "c'(y) (-): the slope of c at tip height y (m)" "\n\nExample:\n" MECH_EX "    >>> bool(np.isfinite(m.dc(0.02)))\n""    True\n")
      .def(
          "d2c", [](const Mechanism& s, FloatOrArray y) { return map_array(y, "y", [&](double v) { return s.d2c(v); }); },
          py::arg("y"), "c''(y) (1/m) at tip height y (m)" "\n\nExample:\n" MECH_EX "    >>> bool(np.isfinite(m.d2c(0.02)))\n""    True\n")
      .def(
          "angle", [](const Mechanism& s, FloatOrArray y) { return map_array(y, "y", [&](double v) { return s.angle(v); }); },
          py::arg("y"), "the bristle's angle from the vertical (rad) at tip height y (m)" "\n\nExample:\n" MECH_EX "    >>> round(float(m.angle(0.0)), 12)                       # rad: theta at rest\n""    0.5\n")
      .def_property_readonly("gap", &Mechanism::gap, "z = u + gap (m)")
      .def_property_readonly("theta_lim", &Mechanism::theta_lim, "theta_lim (rad), eq. 3.15")
      .def_property_readonly("limit", &Mechanism::limit, "LimitCoefficients (Lemmas 2, 3)")
      .def_property_readonly("epsilon_max", &Mechanism::epsilon_max,
                             "largest eps (m) for which the finite-eps geometry holds (inf if none)")
      .def(
          "geometry_valid",
          [](const Mechanism& s, double eps) {
            std::string why;
            const bool ok = s.geometry_valid(eps, &why);
            return py::make_tuple(ok, why);
          },
          py::arg("epsilon"), "(valid, why): whether the finite-eps geometry holds at eps (m)" "\n\nExample:\n" MECH_EX "    >>> m.geometry_valid(1e-3)[0]                            # eps = 1 mm\n""    True\n")
      .def_property_readonly("params", &Mechanism::params)
      .def_property_readonly("profile", &Mechanism::profile)
      .def("__repr__", [](const Mechanism& s) {
        return "<bristle.directional.Mechanism " + std::string(to_string(s.params().kind)) + " on " +
               s.profile().description() + ": " + repr(s.limit()) + ">";
      });

  py::class_<PerceivedProfile>(m, "PerceivedProfile",
                               "The profile perceived in the limit (Lemma 3): Wcal(Z) = w(g^-1(Z)), g(P) = P + a w(P) (Z, P in periods, w in m)."
                               "\n\nExample:\n" PROFILE_EX "    >>> pp = bristle.directional.PerceivedProfile(w, 1.0)\n""    >>> round(float(pp.W(0.0)), 12)                       # w(0) (m)\n""    0.0\n")
      .def(py::init<Profile, double>(), py::arg("profile"), py::arg("a"))
      .def(
          "g_inverse",
          [](const PerceivedProfile& p, FloatOrArray Z) { return map_array(Z, "Z", [&](double v) { return p.g_inverse(v); }); },
          py::arg("Z"), "g^-1(Z): the profile position P with P + a w(P) = Z; elementwise on arrays." "\n\nExample:\n" PROFILE_EX "    >>> pp = bristle.directional.PerceivedProfile(w, 1.0)\n""    >>> P = pp.g_inverse(0.3); round(float(P + 1.0 * w.w(P)), 12)    # g(g^-1(Z)) = Z\n""    0.3\n")
      .def(
          "W", [](const PerceivedProfile& p, FloatOrArray Z) { return map_array(Z, "Z", [&](double v) { return p.W(v); }); },
          py::arg("Z"), "Wcal(Z) = w(g^-1(Z)) (m); elementwise on arrays." "\n\nExample:\n" PROFILE_EX "    >>> pp = bristle.directional.PerceivedProfile(w, 1.0)\n""    >>> pp.W(np.array([0.0, 0.3])).shape\n""    (2,)\n")
      .def(
          "dW", [](const PerceivedProfile& p, FloatOrArray Z) { return map_array(Z, "Z", [&](double v) { return p.dW(v); }); },
          py::arg("Z"), "Wcal'(Z), eq. 3.13; elementwise on arrays." "\n\nExample:\n" PROFILE_EX "    >>> pp = bristle.directional.PerceivedProfile(w, 1.0)\n""    >>> bool(np.isfinite(pp.dW(0.3)))\n""    True\n");

  py::class_<WigglyPotential::Point>(m, "PotentialPoint",
                                     "V_eps at one z: p (m), y (m), dy, d2y (1/m), V (J), dV (N), d2V (N/m)." "\n\nExample:\n" MECH_EX "    >>> pt = bristle.directional.WigglyPotential(m, 0.01).at(0.0); pt.V             # J: V_eps(0) = 0\n" "    0.0\n")
      .def_readonly("p", &WigglyPotential::Point::p)
      .def_readonly("y", &WigglyPotential::Point::y)
      .def_readonly("dy", &WigglyPotential::Point::dy)
      .def_readonly("d2y", &WigglyPotential::Point::d2y)
      .def_readonly("V", &WigglyPotential::Point::V)
      .def_readonly("dV", &WigglyPotential::Point::dV)
      .def_readonly("d2V", &WigglyPotential::Point::d2V);

  py::class_<WigglyPotential>(m, "WigglyPotential", R"doc(
V_eps(z) = F(w_eps(p(z))) - F(0) (eq. 2.16) of a mechanism at one eps (m):
WigglyPotential(mechanism, epsilon). value(z) (J), d1(z) (N) elementwise on arrays; at(z) all pieces.

Example:
    >>> w = bristle.directional.Profile(bristle.directional.ProfileParams(kind="sine", amplitude=0.08))
    >>> m = bristle.directional.Mechanism(bristle.directional.MechanismParams(kind="slanted", k=1.0,
    ...         height_m=1.0, rest_length_m=1.5, theta_rad=0.5), w)
    >>> V = bristle.directional.WigglyPotential(m, 0.01)          # eps = 1 cm
    >>> V.value(0.0)                                             # J: V_eps(0) = 0
    0.0
)doc")
      .def(py::init([](const Mechanism& mech, double eps) { return WigglyPotential(mech, eps); }),
           py::arg("mechanism"), py::arg("epsilon"))
      .def("at", &WigglyPotential::at, py::arg("z"), "Every piece of V_eps at z (m): a PotentialPoint (p, y in m, V in J, dV in N, "
           "d2V in N/m)." "\n\nExample:\n" MECH_EX "    >>> pt = bristle.directional.WigglyPotential(m, 0.01).at(-0.2)\n"
           "    >>> bool(np.isfinite(pt.V) and np.isfinite(pt.dV))\n    True\n")
      .def(
          "value",
          [](const WigglyPotential& V, FloatOrArray z) { return map_array(z, "z", [&](double v) { return V.value(v); }); },
          py::arg("z"), "V_eps(z) (J) at z (m); elementwise on arrays." "\n\nExample:\n" MECH_EX
          "    >>> bristle.directional.WigglyPotential(m, 0.01).value(np.linspace(-0.1, 0.1, 5)).shape\n    (5,)\n")
      .def(
          "d1", [](const WigglyPotential& V, FloatOrArray z) { return map_array(z, "z", [&](double v) { return V.d1(v); }); },
          py::arg("z"), "V_eps'(z) (N) at z (m); elementwise on arrays." "\n\nExample:\n" MECH_EX
          "    >>> V = bristle.directional.WigglyPotential(m, 0.01)\n"
          "    >>> abs(float(V.d1(0.05)) - (V.value(0.05 + 1e-6) - V.value(0.05 - 1e-6)) / 2e-6) < 1e-4   # N\n    True\n")
      .def_property_readonly("epsilon", &WigglyPotential::epsilon)
      .def_property_readonly("mechanism", &WigglyPotential::mechanism);

  // ---- Energy and loading ----------------------------------------------------------------------------
  py::class_<ConvexParams> convex_params(m, "ConvexParams",
                                         "Phi(z) = k/2 z^2 + c4/4 z^4: k (N/m, > 0), c4 (N/m^3, >= 0)." "\n\nExample:\n"  "    >>> bristle.directional.ConvexParams(k=2.0, c4=0.5)\n" "    ConvexParams(k=2.0, c4=0.5)\n");
  convex_params
      .def(py::init([](double k, double c4) { return ConvexParams{k, c4}; }), py::kw_only(), py::arg("k") = 1.0,
           py::arg("c4") = 0.0)
      .def_readwrite("k", &ConvexParams::k)
      .def_readwrite("c4", &ConvexParams::c4)
      .def("validate", &ConvexParams::validate, py::arg("prefix") = "phi",
           validate_doc("p = bristle.directional.ConvexParams(); p.k = -1.0; p.validate()",
                        "phi.k...").c_str())
      ;
  add_copy<ConvexParams>(convex_params);
  schema_py::bind_schema<ConvexParams>(convex_params, "", false);

  py::class_<ConvexEnergy>(m, "ConvexEnergy", R"doc(
The uniformly convex Phi of eq. 2.1: ConvexEnergy(params=ConvexParams()) or ConvexEnergy(k=..., c4=...).
value, d1, d2, d1_inverse, conjugate evaluate elementwise on arrays (z in m, Phi in J, Phi' in N).

Example:
    >>> phi = bristle.directional.ConvexEnergy(k=2.0, c4=0.5)        # k in N/m, c4 in N/m^3
    >>> phi.convexity, phi.value(np.array([0.0, 1.0]))             # N/m; J: k/2 + c4/4
    (2.0, array([0.   , 1.125]))
)doc")
      .def(py::init([](ConvexParamsOrNone params, OptionalFloat k, OptionalFloat c4) {
             ConvexParams p;
             if (!params.is_none()) p = cast_arg<ConvexParams>(params, "params", "ConvexParams");
             if (!k.is_none()) p.k = number_arg(k, "phi.k");
             if (!c4.is_none()) p.c4 = number_arg(c4, "phi.c4");
             return ConvexEnergy(p);
           }),
           py::arg("params") = py::none(), py::kw_only(), py::arg("k") = py::none(), py::arg("c4") = py::none())
      .def(
          "value", [](const ConvexEnergy& e, FloatOrArray z) { return map_array(z, "z", [&](double v) { return e.value(v); }); },
          py::arg("z"), "phi(z) (J) at z (m); elementwise on arrays." "\n\nExample:\n" PHI_EX "    >>> phi.value(0.5)                               # J: 2 * 0.25 / 2\n""    0.25\n")
      .def(
          "d1", [](const ConvexEnergy& e, FloatOrArray z) { return map_array(z, "z", [&](double v) { return e.d1(v); }); },
          py::arg("z"), "phi'(z) (N); elementwise on arrays." "\n\nExample:\n" PHI_EX "    >>> phi.d1(0.5)                                  # N\n""    1.0\n")
      .def(
          "d2", [](const ConvexEnergy& e, FloatOrArray z) { return map_array(z, "z", [&](double v) { return e.d2(v); }); },
          py::arg("z"), "phi''(z) (N/m); elementwise on arrays." "\n\nExample:\n" PHI_EX "    >>> phi.d2(0.5)                                  # N/m\n""    2.0\n")
      .def(
          "d1_inverse",
          [](const ConvexEnergy& e, FloatOrArray y) { return map_array(y, "y", [&](double v) { return e.d1_inverse(v); }); },
          py::arg("y"), "(phi')^-1(y): the z (m) where phi'(z) = y (N); elementwise on arrays." "\n\nExample:\n" PHI_EX "    >>> phi.d1_inverse(1.0)                          # m\n""    0.5\n")
      .def(
          "conjugate",
          [](const ConvexEnergy& e, FloatOrArray y) { return map_array(y, "y", [&](double v) { return e.conjugate(v); }); },
          py::arg("y"), "phi*(y) = sup_z (y z - phi(z)) (J) at y (N); elementwise on arrays." "\n\nExample:\n" PHI_EX "    >>> phi.conjugate(1.0)                           # J: y^2 / (2 k)\n""    0.25\n")
      .def_property_readonly("convexity", &ConvexEnergy::convexity)
      .def_property_readonly("params", &ConvexEnergy::params);

  py::class_<Loading>(m, "Loading", R"doc(
A loading l(t) (N, eq. 2.1) or a driver position q(t) (m): Loading.piecewise_linear(t, value),
.ramp(l0, rate), .sine(mean, amplitude, period, phase=0), .triangle(start, amplitude, period, cycles),
.custom(value, rate, resolution) with Python functions. value(t), rate(t) elementwise on arrays.

Example:
    >>> q = bristle.directional.Loading.triangle(0.0, 0.8, 2.0, 1.0)    # N, N, s, cycles
    >>> q.value(np.array([0.0, 0.5, 1.5, 9.0]))                        # N; held after the cycle
    array([ 0. ,  0.8, -0.8,  0. ])
)doc")
      .def_static(
          "piecewise_linear",
          [](FloatOrArray t, ArrayLike value) {
            return Loading::piecewise_linear(to_vector(t, "loading.t"), to_vector(value, "loading.value"));
          },
          py::arg("t"), py::arg("value"), "Through (t_i, l_i), t strictly increasing (s), extended linearly." "\n\nExample:\n"  "    >>> l = bristle.directional.Loading.piecewise_linear([0.0, 1.0, 2.0], [0.0, 1.0, 0.0])   # s, N\n""    >>> l.value(np.array([0.5, 1.5, 3.0]))\n""    array([ 0.5,  0.5, -1. ])\n")
      .def_static("ramp", &Loading::ramp, py::arg("l0"), py::arg("rate"), "l0 + rate t (l0 in N, rate in N/s)" "\n\nExample:\n"  "    >>> bristle.directional.Loading.ramp(0.5, 2.0).value(np.array([0.0, 1.0]))   # N\n""    array([0.5, 2.5])\n")
      .def_static(
          "sine",
          [](double mean, double amplitude, double period, double phase) {
            return Loading::sine(mean, amplitude, period, phase);
          },
          py::arg("mean"), py::arg("amplitude"), py::arg("period"), py::arg("phase") = 0.0,
          "mean + amplitude sin(2 pi t / period + phase) (units of l: N, or m for a driver; period in s, phase in rad)" "\n\nExample:\n"  "    >>> round(bristle.directional.Loading.sine(1.0, 0.5, 4.0).value(1.0), 12)     # N at t = 1 s\n""    1.5\n")
      .def_static(
          "triangle",
          [](double start, double amplitude, double period, double cycles) {
            return Loading::triangle(start, amplitude, period, cycles);
          },
          py::arg("start"), py::arg("amplitude"), py::arg("period"), py::arg("cycles"),
          "start -> start + amplitude, then between start +- amplitude, `cycles` cycles of `period` (s), then hold." "\n\nExample:\n" LOAD_EX "    >>> q.value(np.array([0.0, 0.5, 1.5]))                 # N\n""    array([ 0. ,  0.8, -0.8])\n")
      .def_static(
          "custom",
          [](PyFunction value, PyFunction rate, double resolution) {
            return Loading::custom(ScalarCallable{PyCallable(std::move(value), "loading.value")},
                                   ScalarCallable{PyCallable(std::move(rate), "loading.rate")}, resolution);
          },
          py::arg("value"), py::arg("rate"), py::arg("resolution"),
          R"doc(User functions value(t), rate(t) = dl/dt; turning points located on a grid of step `resolution`
(s). Every evaluation takes the GIL: solvers using it are correct on any thread but not parallel.

Example:
    >>> l = bristle.directional.Loading.custom(lambda t: math.sin(t), lambda t: math.cos(t), 0.01)   # N, N/s, s
    >>> round(float(l.value(math.pi / 2)), 12), round(float(l.rate(0.0)), 12)
    (1.0, 1.0)
)doc")
      .def(
          "value", [](const Loading& l, FloatOrArray t) { return map_array(t, "t", [&](double v) { return l.value(v); }); },
          py::arg("t"), "l(t) (N, or m for a driver) at t (s); elementwise on arrays." "\n\nExample:\n" LOAD_EX "    >>> q.value(0.25)                                       # N\n""    0.4\n")
      .def(
          "rate", [](const Loading& l, FloatOrArray t) { return map_array(t, "t", [&](double v) { return l.rate(v); }); },
          py::arg("t"), "dl/dt (N/s, or m/s) at t (s); elementwise on arrays." "\n\nExample:\n" LOAD_EX "    >>> q.rate(0.25)                                        # N/s: 0.8 N in 0.5 s\n""    1.6\n")
      .def(
          "turning_points", [](const Loading& l, double t0, double t1) { return copy_array(l.turning_points(t0, t1)); },
          py::arg("t0"), py::arg("t1"), "times (s) in (t0, t1) where l may change monotonicity" "\n\nExample:\n" LOAD_EX "    >>> q.turning_points(0.0, 3.0)                           # s: the extremes, then the hold at 2 s\n""    array([0.5, 1.5, 2. ])\n")
      .def(
          "kinks", [](const Loading& l) { return copy_array(l.kinks()); }, "times (s) where dl/dt jumps" "\n\nExample:\n" LOAD_EX "    >>> q.kinks()                                            # s\n""    array([0. , 0.5, 1.5, 2. ])\n")
      .def("affine", &Loading::affine, py::arg("scale"), py::arg("offset"), "scale l(t) + offset (a new Loading)" "\n\nExample:\n" LOAD_EX "    >>> q.affine(2.0, 1.0).value(0.5)                       # N: 2 * 0.8 + 1\n""    2.6\n");

  // ---- eps-systems and the limit ---------------------------------------------------------------------
  py::class_<EpsilonParams> eps_params(m, "EpsilonParams",
                                       "epsilon (m, > 0): wiggle period and viscosity eps^gamma; gamma (-, > 0)." "\n\nExample:\n"  "    >>> bristle.directional.EpsilonParams(epsilon=1e-3, gamma=2.0)\n" "    EpsilonParams(epsilon=0.001, gamma=2.0)\n");
  eps_params
      .def(py::init([](double epsilon, double gamma) { return EpsilonParams{epsilon, gamma}; }), py::kw_only(),
           py::arg("epsilon") = 1e-2, py::arg("gamma") = 1.0)
      .def_readwrite("epsilon", &EpsilonParams::epsilon)
      .def_readwrite("gamma", &EpsilonParams::gamma)
      .def("beta", &EpsilonParams::beta, "min(1, gamma) (-): the rate of Theorem 1" "\n\nExample:\n"  "    >>> bristle.directional.EpsilonParams(gamma=2.0).beta()\n" "    1.0\n")
      .def("validate", &EpsilonParams::validate, py::arg("prefix") = "",
           validate_doc("p = bristle.directional.EpsilonParams(); p.epsilon = -1.0; p.validate()",
                        "...epsilon...").c_str())
      ;
  add_copy<EpsilonParams>(eps_params);
  schema_py::bind_schema<EpsilonParams>(eps_params, "", false);

  py::class_<WigglyRun>(m, "WigglyRun", R"doc(
An eps-system solution: series (t_s, l_N, z_m, F_N, E_J, D_J, P_J, I_Ns), stats, wall_seconds.

Example:
    >>> w = bristle.directional.Profile(bristle.directional.ProfileParams(kind="sine", amplitude=0.08))
    >>> m = bristle.directional.Mechanism(bristle.directional.MechanismParams(kind="slanted", k=1.0,
    ...         height_m=1.0, rest_length_m=1.5, theta_rad=0.5), w)
    >>> sys = bristle.directional.WigglySystem(bristle.directional.WigglyPotential(m, 0.05),
    ...         bristle.directional.ConvexEnergy(k=1.0), bristle.directional.Loading.ramp(0.0, 1.0), 1.0)
    >>> run = sys.run(0.0, 0.0, [0.0, 0.1, 0.2]); run.series.names[:3]
    ['t_s', 'l_N', 'z_m']
)doc")
      .def_readonly("series", &WigglyRun::series)
      .def_readonly("stats", &WigglyRun::stats)
      .def_readonly("wall_seconds", &WigglyRun::wall_seconds);

  py::class_<WigglySystem>(m, "WigglySystem", R"doc(
The eps-system eps^gamma z' = l(t) - Phi'(z) - V_eps'(z) (eq. 2.8): WigglySystem(V, phi, loading, gamma).
run(z0, t0, times, options=None) integrates it (CVODE BDF; default_options(eps) are the tight defaults)
with the GIL released.

Example:
    >>> w = bristle.directional.Profile(bristle.directional.ProfileParams(kind="sine", amplitude=0.08))
    >>> m = bristle.directional.Mechanism(bristle.directional.MechanismParams(kind="slanted", k=1.0,
    ...         height_m=1.0, rest_length_m=1.5, theta_rad=0.5), w)
    >>> sys = bristle.directional.WigglySystem(bristle.directional.WigglyPotential(m, 0.05),
    ...         bristle.directional.ConvexEnergy(k=1.0), bristle.directional.Loading.ramp(0.0, 1.0), 1.0)
    >>> sys.viscosity                                       # eps^gamma (N s/m)
    0.05
)doc")
      .def(py::init([](const WigglyPotential& V, const ConvexEnergy& phi, const Loading& l, double gamma) {
             return WigglySystem(V, phi, l, gamma);
           }),
           py::arg("V"), py::arg("phi"), py::arg("loading"), py::arg("gamma") = 1.0)
      .def("energy", &WigglySystem::energy, py::arg("t"), py::arg("z"), "E_eps(t, z) (J) at t (s), z (m), eq. 2.4" "\n\nExample:\n" WIGGLY_EX "    >>> sys.energy(0.0, 0.0)                               # J\n" "    0.0\n")
      .def("velocity", &WigglySystem::velocity, py::arg("t"), py::arg("z"), "z' (m/s) from eq. 2.8 at t (s), z (m)" "\n\nExample:\n" WIGGLY_EX "    >>> bool(np.isfinite(sys.velocity(0.5, 0.0)))            # m/s\n" "    True\n")
      .def_property_readonly("viscosity", &WigglySystem::viscosity, "eps^gamma")
      .def_static("default_options", &WigglySystem::default_options, py::arg("epsilon"),
                  "The tight IntegratorOptions run() uses at eps (m) when none are given." "\n\nExample:\n"  "    >>> bristle.directional.WigglySystem.default_options(0.01).method\n" "    <Method.cvode_bdf: 1>\n")
      .def(
          "run",
          [](const WigglySystem& s, double z0, double t0, ArrayLike times, OptionalOptions options, ProgressCallback progress) {
            const std::vector<double> t = to_vector(times, "times");
            const integrate::Options o = options_or(options, WigglySystem::default_options(s.potential().epsilon()));
            ProgressRelay relay(progress);
            const auto on_progress = relay.function();
            py::gil_scoped_release release;
            return s.run(z0, t0, t, o, on_progress);
          },
          py::arg("z0"), py::arg("t0"), py::arg("times"), py::arg("options") = py::none(),
          py::arg("progress") = py::none(),
          "Integrates from z(t0) = z0 (m) through `times` (s). progress: optional callable(fraction), called "
          "(and Ctrl-C checked) at output times, at most every 0.1 s. GIL released. Returns a WigglyRun." "\n\nExample:\n" WIGGLY_EX "    >>> run = sys.run(0.0, 0.0, np.linspace(0.0, 0.5, 6))      # z0 (m), t0 (s), times (s)\n" "    >>> run.series.rows, run.stats.steps > 0\n" "    (6, True)\n")
      .def_property_readonly("potential", &WigglySystem::potential)
      .def_property_readonly("phi", &WigglySystem::phi)
      .def_property_readonly("loading", &WigglySystem::loading)
      .def_property_readonly("gamma", &WigglySystem::gamma);

  py::class_<LimitSystem::State>(m, "LimitState",
                                 "t (s), z (m), l (N), dissipation (J), power (J) of the limit system." "\n\nExample:\n" LIMIT_EX "    >>> st = lim.start(0.0, 0.1); st.t, st.z\n" "    (0.0, 0.1)\n")
      .def_readonly("t", &LimitSystem::State::t)
      .def_readonly("z", &LimitSystem::State::z)
      .def_readonly("l", &LimitSystem::State::l)
      .def_readonly("dissipation", &LimitSystem::State::dissipation)
      .def_readonly("power", &LimitSystem::State::power);

  py::class_<LimitSystem>(m, "LimitSystem", R"doc(
The limit play law 0 in dR(z') + D_z E(t, z) (eqs. 2.1-2.3), exact on monotone pieces of the loading:
LimitSystem(phi, loading, rho_plus, rho_minus) with rho_plus > 0 > rho_minus (N).

Example:
    >>> lim = bristle.directional.LimitSystem(bristle.directional.ConvexEnergy(k=1.0),
    ...         bristle.directional.Loading.ramp(0.0, 1.0), 0.3, -0.2)       # l(t) = t (N); rho_+- (N)
    >>> F = lim.run(0.0, 0.0, np.linspace(0.0, 4.0, 81))["F_N"]
    >>> bool(F.max() <= 0.3 + 1e-15)                                  # the force never exceeds rho_+
    True
)doc")
      .def(py::init([](const ConvexEnergy& phi, const Loading& l, double rho_plus, double rho_minus) {
             return LimitSystem(phi, l, rho_plus, rho_minus);
           }),
           py::arg("phi"), py::arg("loading"), py::arg("rho_plus"), py::arg("rho_minus"))
      .def("energy", &LimitSystem::energy, py::arg("t"), py::arg("z"), "E(t, z) (J) at t (s), z (m), eq. 2.1" "\n\nExample:\n" LIMIT_EX "    >>> lim.energy(0.0, 1.0)                                # J: phi(1) - l(0) * 1\n" "    0.5\n")
      .def("strip", &LimitSystem::strip, py::arg("t"), "(z~_-(t), z~_+(t)) (m), eq. 5.6" "\n\nExample:\n" LIMIT_EX "    >>> lo, hi = lim.strip(1.0); lo < hi                     # m\n" "    True\n")
      .def(
          "start", [](const LimitSystem& s, double t0, double z0) { return s.start(t0, z0); }, py::arg("t0"),
          py::arg("z0"), "The state at t0 (s) from z0 (m) (InvalidInput if z0 violates eq. 2.10)." "\n\nExample:\n" LIMIT_EX "    >>> lim.start(0.0, 0.1).l                                # N: l(0)\n" "    0.0\n")
      .def(
          "advance",
          [](const LimitSystem& s, LimitSystem::State state, double t1) {
            s.advance(state, t1);
            return state;
          },
          py::arg("state"), py::arg("t1"), "The exact state at t1 >= state.t (s) (a new LimitState)." "\n\nExample:\n" LIMIT_EX "    >>> st = lim.advance(lim.start(0.0, 0.0), 2.0); st.t, st.l     # s, N\n" "    (2.0, 2.0)\n")
      .def(
          "run",
          [](const LimitSystem& s, double z0, double t0, ArrayLike times) {
            const std::vector<double> t = to_vector(times, "times");
            py::gil_scoped_release release;
            return s.run(z0, t0, t);
          },
          py::arg("z0"), py::arg("t0"), py::arg("times"),
          "TimeSeries t_s, l_N, z_m, F_N, E_J, D_J, P_J from z(t0) = z0 (m) through `times` (s)." "\n\nExample:\n" LIMIT_EX
          "    >>> r = lim.run(0.0, 0.0, np.linspace(0.0, 4.0, 81)); r.rows, round(float(r[\"F_N\"][-1]), 12)   # N: rho_+\n"
          "    (81, 0.3)\n")
      .def_property_readonly("rho_plus", &LimitSystem::rho_plus)
      .def_property_readonly("rho_minus", &LimitSystem::rho_minus);

  // ---- The horizontal-spring drive ----------------------------------------------------------------------
  py::class_<DriveParams> drive_params(m, "DriveParams",
                                       "Horizontal spring: k_h_N_per_m (N/m, > 0), rest_length_m L_h (m, finite)." "\n\nExample:\n"  "    >>> bristle.directional.DriveParams(k_h_N_per_m=3.0)\n" "    DriveParams(k_h_N_per_m=3.0)\n");
  drive_params
      .def(py::init([](double k_h, double L_h) { return DriveParams{k_h, L_h}; }), py::kw_only(),
           py::arg("k_h_N_per_m") = 1.0, py::arg("rest_length_m") = 0.0)  // typed: every key applies
      .def("validate", &DriveParams::validate, py::arg("prefix") = "drive",
                   validate_doc("p = bristle.directional.DriveParams(); p.k_h_N_per_m = -1.0; p.validate()",
                                "drive.k_h_N_per_m...").c_str());
  add_copy<DriveParams>(drive_params);
  schema_py::bind_schema<DriveParams>(drive_params, "", false);
  m.def("drive_loading", &drive_loading, py::arg("mechanism"), py::arg("drive"), py::arg("q"),
        "l(t) = k_h (q(t) - L_h + gap) (N), eq. 3.3 with the gap kept (a Loading; q in m)." "\n\nExample:\n" MECH_EX LOAD_EX "    >>> l = bristle.directional.drive_loading(m, bristle.directional.DriveParams(), q)\n" "    >>> round(l.value(0.5) - l.value(0.0), 12)            # N: k_h = 1 N/m times 0.8 m\n" "    0.8\n");

  py::class_<SlidingOptions> sliding_options(m, "SlidingOptions", R"doc(
measure_sliding_force options: k_h_N_per_m (N/m), speed_mps (driver speed, m/s), transient_wiggles,
averaged_wiggles, samples_per_wiggle.

Example:
    >>> bristle.directional.SlidingOptions(speed_mps=0.5).speed_mps        # m/s
    0.5
)doc");
  sliding_options
      .def(py::init([](double k_h, double speed, int transient, int averaged, int samples) {
             return SlidingOptions{k_h, speed, transient, averaged, samples};
           }),
           py::kw_only(), py::arg("k_h_N_per_m") = 1.0, py::arg("speed_mps") = 1.0, py::arg("transient_wiggles") = 8,
           py::arg("averaged_wiggles") = 16, py::arg("samples_per_wiggle") = 64)
      .def_readwrite("k_h_N_per_m", &SlidingOptions::k_h_N_per_m)
      .def_readwrite("speed_mps", &SlidingOptions::speed_mps)
      .def_readwrite("transient_wiggles", &SlidingOptions::transient_wiggles)
      .def_readwrite("averaged_wiggles", &SlidingOptions::averaged_wiggles)
      .def_readwrite("samples_per_wiggle", &SlidingOptions::samples_per_wiggle);
  add_copy<SlidingOptions>(sliding_options);
  schema_py::bind_schema<SlidingOptions>(sliding_options, "", false);

  py::class_<SlidingForce>(m, "SlidingForce", R"doc(
The eps-system's mean sliding force: mean_N, min_N, max_N (N), limit_N (rho_+ or rho_-, eq. 2.17),
simulated_s, stats, wall_seconds.

Example:
    >>> w = bristle.directional.Profile(bristle.directional.ProfileParams(kind="sine", amplitude=0.5 / (2 * math.pi)))
    >>> m = bristle.directional.Mechanism(bristle.directional.MechanismParams(kind="slanted", k=1.0, height_m=1.0,
    ...                                   rest_length_m=1.5, theta_rad=0.5), w)
    >>> f = bristle.directional.measure_sliding_force(m, bristle.directional.EpsilonParams(epsilon=0.05), -1)
    >>> f.min_N <= f.mean_N <= f.max_N, f.simulated_s > 0                 # N, s
    (True, True)
)doc")
      .def_readonly("mean_N", &SlidingForce::mean_N)
      .def_readonly("min_N", &SlidingForce::min_N)
      .def_readonly("max_N", &SlidingForce::max_N)
      .def_readonly("limit_N", &SlidingForce::limit_N)
      .def_readonly("simulated_s", &SlidingForce::simulated_s)
      .def_readonly("stats", &SlidingForce::stats)
      .def_readonly("wall_seconds", &SlidingForce::wall_seconds)
      .def("__repr__", [](const SlidingForce& f) {
        return "SlidingForce(mean_N=" + repr_double(f.mean_N) + ", min_N=" + repr_double(f.min_N) +
               ", max_N=" + repr_double(f.max_N) + ", limit_N=" + repr_double(f.limit_N) + ")";
      });

  m.def(
      "measure_sliding_force",
      [](const Mechanism& mech, const EpsilonParams& eps, int direction, const SlidingOptions& options,
         OptionalOptions integrator, ProgressCallback progress) {
        // No integrator: the library's default for this eps (what the short C++ overload uses).
        const integrate::Options o =
            integrator.is_none() ? WigglySystem::default_options(eps.epsilon)
                                 : cast_arg<integrate::Options>(integrator, "integrator", "IntegratorOptions");
        ProgressRelay relay(progress);
        const auto on_progress = relay.function();
        py::gil_scoped_release release;
        return measure_sliding_force(mech, eps, direction, options, o, on_progress);
      },
      py::arg("mechanism"), py::arg("epsilon"), py::arg("direction"), py::arg("options") = SlidingOptions{},
      py::arg("integrator") = py::none(), py::arg("progress") = py::none(),
      R"doc(Drives the eps-system (EpsilonParams) at constant speed in `direction` (+1 right, -1 left) and
averages the spring force (N) over whole wiggles: rho_+- "from simulation" (to compare with .limit_N).
progress: optional callable(fraction), called (and Ctrl-C checked) at the output samples and, with an
adaptive integrator, at 100 outputs of its own in the transient wiggles. GIL released.

Example:
    >>> w = bristle.directional.Profile(bristle.directional.ProfileParams(kind="sine", amplitude=0.5 / (2 * math.pi)))
    >>> m = bristle.directional.Mechanism(bristle.directional.MechanismParams(kind="slanted", k=1.0, height_m=1.0,
    ...                                   rest_length_m=1.5, theta_rad=0.5), w)
    >>> f = bristle.directional.measure_sliding_force(m, bristle.directional.EpsilonParams(epsilon=0.05), 1)
    >>> round(f.mean_N, 2), round(f.limit_N, 2)            # N: the eps-system against rho_+ of eq. 2.17
    (0.28, 0.28)
)doc");

  py::class_<Loop>(m, "Loop", R"doc(
A force-displacement record: series (t_s, q_m, u_m, p_m, angle_rad, F_N, D_J), stats (empty for the
limit), wall_seconds.

Example:
    >>> w = bristle.directional.Profile(bristle.directional.ProfileParams(kind="sine", amplitude=0.08))
    >>> m = bristle.directional.Mechanism(bristle.directional.MechanismParams(kind="slanted", k=1.0, height_m=1.0,
    ...                                   rest_length_m=1.5, theta_rad=0.5), w)
    >>> loop = bristle.directional.limit_loop(m, bristle.directional.DriveParams(),
    ...         bristle.directional.Loading.triangle(0.0, 0.8, 2.0, 1.0), np.linspace(0.0, 2.0, 21))   # q (m), t (s)
    >>> loop.series.rows, loop.series.names[:3]
    (21, ['t_s', 'q_m', 'u_m'])
)doc")
      .def_readonly("series", &Loop::series)
      .def_readonly("stats", &Loop::stats)
      .def_readonly("wall_seconds", &Loop::wall_seconds);

  m.def(
      "epsilon_loop",
      [](const Mechanism& mech, const EpsilonParams& eps, const DriveParams& drive, const Loading& q, ArrayLike times,
         OptionalOptions integrator, ProgressCallback progress) {
        const std::vector<double> t = to_vector(times, "times");
        const integrate::Options o =
            integrator.is_none() ? WigglySystem::default_options(eps.epsilon)
                                 : cast_arg<integrate::Options>(integrator, "integrator", "IntegratorOptions");
        ProgressRelay relay(progress);
        const auto on_progress = relay.function();
        py::gil_scoped_release release;
        return epsilon_loop(mech, eps, drive, q, t, o, on_progress);
      },
      py::arg("mechanism"), py::arg("epsilon"), py::arg("drive"), py::arg("q"), py::arg("times"),
      py::arg("integrator") = py::none(), py::arg("progress") = py::none(),
      "The eps-system driven along q(t) (m) through `times` (s), from rest. progress: optional "
      "callable(fraction), called (and Ctrl-C checked) at output times. GIL released. Returns a Loop (F_N in N)." "\n\nExample:\n" MECH_EX LOAD_EX "    >>> loop = bristle.directional.epsilon_loop(m, bristle.directional.EpsilonParams(epsilon=0.05),\n" "    ...         bristle.directional.DriveParams(), q, np.linspace(0.0, 2.0, 21))\n" "    >>> loop.series.rows, loop.stats.steps > 0\n" "    (21, True)\n");
  m.def(
      "limit_loop",
      [](const Mechanism& mech, const DriveParams& drive, const Loading& q, ArrayLike times) {
        const std::vector<double> t = to_vector(times, "times");
        py::gil_scoped_release release;
        return limit_loop(mech, drive, q, t);
      },
      py::arg("mechanism"), py::arg("drive"), py::arg("q"), py::arg("times"),
      "The limit play law driven along q(t) (m) through `times` (s), from rest (exact). Returns a Loop (F_N in N)." "\n\nExample:\n" MECH_EX LOAD_EX "    >>> F = bristle.directional.limit_loop(m, bristle.directional.DriveParams(), q, np.linspace(0.0, 2.0, 21)).series[\"F_N\"]\n" "    >>> bool(F.max() <= m.limit.rho_plus + 1e-12)           # N: bounded by rho_+\n" "    True\n");

  // ---- Crawler ----------------------------------------------------------------------------------------
  py::class_<CrawlerParams> crawler_params(m, "CrawlerParams", R"doc(
A crawler: feet (2 or 3), k_a_N_per_m (N/m, > 0), rest_length_m L0 (m, > 0), stroke_m (m, > 0),
period_s T (s, > 0), phase_lag (periods, [0, 1)).

Example:
    >>> bristle.directional.CrawlerParams(feet=3).feet
    3
)doc");
  crawler_params
      .def(py::init([](int feet, double k_a, double L0, double stroke, double period, double lag) {
             return CrawlerParams{feet, k_a, L0, stroke, period, lag};
           }),
           py::kw_only(), py::arg("feet") = 2, py::arg("k_a_N_per_m") = 10.0, py::arg("rest_length_m") = 1.0,
           py::arg("stroke_m") = 0.2, py::arg("period_s") = 1.0, py::arg("phase_lag") = 0.25)
      .def("validate", &CrawlerParams::validate, py::arg("prefix") = "crawler",
                     validate_doc("p = bristle.directional.CrawlerParams(); p.feet = 0; p.validate()",
                                  "crawler.feet...").c_str());
  add_copy<CrawlerParams>(crawler_params);
  schema_py::bind_schema<CrawlerParams>(crawler_params, "", false);  // its typed constructor: every key applies

  py::class_<CrawlerRun>(m, "CrawlerRun", R"doc(
A crawler run: series (t_s, x1_m, ..., xn_m, center_m, D_J), advance_per_cycle_m (m, averaged over cycles
2..N), stats (eps-system only), wall_seconds.

Example:
    >>> w = bristle.directional.Profile(bristle.directional.ProfileParams(kind="sine", amplitude=0.5 / (2 * math.pi)))
    >>> c = bristle.directional.crawl_limit(bristle.directional.Mechanism(
    ...         bristle.directional.MechanismParams(kind="angular"), w), bristle.directional.CrawlerParams(), 3, 400)
    >>> c.series.names[0], round(c.advance_per_cycle_m, 4)               # m per cycle
    ('t_s', 0.1485)
)doc")
      .def_readonly("series", &CrawlerRun::series)
      .def_readonly("advance_per_cycle_m", &CrawlerRun::advance_per_cycle_m)
      .def_readonly("stats", &CrawlerRun::stats)
      .def_readonly("wall_seconds", &CrawlerRun::wall_seconds);
  m.def(
      "crawl_epsilon",
      [](const Mechanism& mech, const CrawlerParams& c, const EpsilonParams& eps, int cycles, int samples,
         ProgressCallback progress) {
        ProgressRelay relay(progress);
        const auto on_progress = relay.function();
        py::gil_scoped_release release;
        return crawl_epsilon(mech, c, eps, cycles, samples, on_progress);
      },
      py::arg("mechanism"), py::arg("crawler"), py::arg("epsilon"), py::arg("cycles"),
      py::arg("samples_per_cycle") = 200, py::arg("progress") = py::none(),
      "The crawler's eps-system over `cycles` (>= 2) periods. progress: optional callable(fraction), called (and "
      "Ctrl-C checked) at the samples. GIL released. Returns a CrawlerRun (advance_per_cycle_m in m)." "\n\nExample:\n" "    >>> w = bristle.directional.Profile(bristle.directional.ProfileParams(kind=\"sine\", amplitude=0.5 / (2 * math.pi)))\n" "    >>> ang = bristle.directional.Mechanism(bristle.directional.MechanismParams(kind=\"angular\"), w)\n" "    >>> c = bristle.directional.crawl_epsilon(ang, bristle.directional.CrawlerParams(),\n" "    ...         bristle.directional.EpsilonParams(epsilon=0.1), 2, 20)          # 2 cycles, 20 samples each\n" "    >>> c.series.rows, bool(np.isfinite(c.advance_per_cycle_m))\n" "    (41, True)\n");
  m.def(
      "crawl_limit",
      [](const Mechanism& mech, const CrawlerParams& c, int cycles, int steps) {
        py::gil_scoped_release release;
        return crawl_limit(mech, c, cycles, steps);
      },
      py::arg("mechanism"), py::arg("crawler"), py::arg("cycles"), py::arg("steps_per_cycle") = 2000,
      "The crawler's limit law by exact incremental minimisation (GIL released). Returns a CrawlerRun." "\n\nExample:\n" "    >>> w = bristle.directional.Profile(bristle.directional.ProfileParams(kind=\"sine\", amplitude=0.5 / (2 * math.pi)))\n" "    >>> ang = bristle.directional.Mechanism(bristle.directional.MechanismParams(kind=\"angular\"), w)\n" "    >>> c = bristle.directional.crawl_limit(ang, bristle.directional.CrawlerParams(), 3, 400)\n" "    >>> L = ang.limit\n" "    >>> round(c.advance_per_cycle_m, 6) == round(bristle.directional.two_foot_advance(L.rho_plus, L.rho_minus, 10.0, 0.2), 6)\n" "    True\n");
  m.def("two_foot_advance", &two_foot_advance, py::arg("rho_plus"), py::arg("rho_minus"), py::arg("k_a"),
        py::arg("stroke"), "Closed-form advance per cycle (m, signed) of the two-footed limit crawler (rho in N, k_a in N/m, "
        "stroke in m)." "\n\nExample:\n"  "    >>> round(bristle.directional.two_foot_advance(0.28, -0.16, 10.0, 0.2), 6)      # m\n" "    -0.168\n");

  // ---- Nap effects -------------------------------------------------------------------------------------
  m.def("axial_tension", &axial_tension, py::arg("angular"), py::arg("rho"),
        "Eq. 3.25: the rod's axial tension (N, > 0 traction) for an angular mechanism and a threshold rho (N)." "\n\nExample:\n" "    >>> w = bristle.directional.Profile(bristle.directional.ProfileParams(kind=\"sine\", amplitude=0.5 / (2 * math.pi)))\n" "    >>> ang = bristle.directional.Mechanism(bristle.directional.MechanismParams(kind=\"angular\"), w)\n" "    >>> bristle.directional.axial_tension(ang, ang.limit.rho_plus) < 0        # N: compressed with the nap\n" "    True\n");
  py::class_<NapEffect>(m, "NapEffect", R"doc(
With and against the nap (§3.4): rho_with_N, rho_against_N (N, magnitudes), alpha_with_N,
alpha_against_N (N), mu_with, mu_against (-), tension_with_N, tension_against_N (N, eq. 3.25), warnings.

Example:
    >>> w = bristle.directional.Profile(bristle.directional.ProfileParams(kind="sine", amplitude=0.5 / (2 * math.pi)))
    >>> n = bristle.directional.geometric_nap_effect(
    ...         bristle.directional.Mechanism(bristle.directional.MechanismParams(kind="angular"), w))
    >>> n.rho_with_N > 0, n.rho_against_N > 0, len(n.warnings)      # N; buckling warnings
    (True, True, 2)
)doc")
      .def_readonly("rho_with_N", &NapEffect::rho_with_N)
      .def_readonly("rho_against_N", &NapEffect::rho_against_N)
      .def_readonly("alpha_with_N", &NapEffect::alpha_with_N)
      .def_readonly("alpha_against_N", &NapEffect::alpha_against_N)
      .def_readonly("mu_with", &NapEffect::mu_with)
      .def_readonly("mu_against", &NapEffect::mu_against)
      .def_readonly("tension_with_N", &NapEffect::tension_with_N)
      .def_readonly("tension_against_N", &NapEffect::tension_against_N)
      .def_readonly("warnings", &NapEffect::warnings);
  m.def(
      "geometric_nap_effect",
      [](const Mechanism& angular, std::optional<double> buckling_load_N) {
        return geometric_nap_effect(angular, buckling_load_N);
      },
      py::arg("angular"), py::arg("buckling_load_N") = py::none(),
      "Geometric effect for an angular mechanism: with = rightward, against = leftward (a NapEffect, forces in N)." "\n\nExample:\n" "    >>> w = bristle.directional.Profile(bristle.directional.ProfileParams(kind=\"sine\", amplitude=0.5 / (2 * math.pi)))\n" "    >>> ang = bristle.directional.Mechanism(bristle.directional.MechanismParams(kind=\"angular\"), w)\n" "    >>> n = bristle.directional.geometric_nap_effect(ang)\n" "    >>> round(n.rho_with_N, 6) == round(ang.limit.rho_plus, 6)\n" "    True\n");
  m.def(
      "energetic_nap_effect",
      [](const MechanismParams& params, const Profile& profile, std::optional<double> buckling_load_N) {
        return energetic_nap_effect(params, profile, buckling_load_N);
      },
      py::arg("params"), py::arg("profile"), py::arg("buckling_load_N") = py::none(),
      "Energetic effect: params an angular spring with theta_rest_rad = theta_with in (0, theta_lim) (a NapEffect)." "\n\nExample:\n" "    >>> w = bristle.directional.Profile(bristle.directional.ProfileParams(kind=\"sine\", amplitude=0.5 / (2 * math.pi)))\n" "    >>> n = bristle.directional.energetic_nap_effect(bristle.directional.MechanismParams(kind=\"angular\",\n" "    ...                                              theta_rest_rad=0.3), w)\n" "    >>> n.rho_with_N > 0\n" "    True\n");
  {  // results pickle by their fields (pickle_fields.hpp)
    auto limit = py::reinterpret_borrow<py::class_<LimitCoefficients>>(m.attr("LimitCoefficients"));
    pickle_fields(limit, "LimitCoefficients", &LimitCoefficients::alpha, &LimitCoefficients::a,
                  &LimitCoefficients::mu_plus, &LimitCoefficients::mu_minus, &LimitCoefficients::rho_plus,
                  &LimitCoefficients::rho_minus);
    auto sliding = py::reinterpret_borrow<py::class_<SlidingForce>>(m.attr("SlidingForce"));
    pickle_fields(sliding, "SlidingForce", &SlidingForce::mean_N, &SlidingForce::min_N, &SlidingForce::max_N,
                  &SlidingForce::limit_N, &SlidingForce::simulated_s, &SlidingForce::stats, &SlidingForce::wall_seconds);
    auto wiggly = py::reinterpret_borrow<py::class_<WigglyRun>>(m.attr("WigglyRun"));
    pickle_fields(wiggly, "WigglyRun", &WigglyRun::series, &WigglyRun::stats, &WigglyRun::wall_seconds);
    auto loop = py::reinterpret_borrow<py::class_<Loop>>(m.attr("Loop"));
    pickle_fields(loop, "Loop", &Loop::series, &Loop::stats, &Loop::wall_seconds);
    auto crawler = py::reinterpret_borrow<py::class_<CrawlerRun>>(m.attr("CrawlerRun"));
    pickle_fields(crawler, "CrawlerRun", &CrawlerRun::series, &CrawlerRun::advance_per_cycle_m, &CrawlerRun::stats,
                  &CrawlerRun::wall_seconds);
    auto nap = py::reinterpret_borrow<py::class_<NapEffect>>(m.attr("NapEffect"));
    pickle_fields(nap, "NapEffect", &NapEffect::rho_with_N, &NapEffect::rho_against_N, &NapEffect::alpha_with_N,
                  &NapEffect::alpha_against_N, &NapEffect::mu_with, &NapEffect::mu_against, &NapEffect::tension_with_N,
                  &NapEffect::tension_against_N, &NapEffect::warnings);
    using State = LimitSystem::State;
    auto limit_state = py::reinterpret_borrow<py::class_<State>>(m.attr("LimitState"));
    pickle_fields(limit_state, "LimitState", &State::t, &State::z, &State::l, &State::dissipation, &State::power);
    using Point = WigglyPotential::Point;
    auto point = py::reinterpret_borrow<py::class_<Point>>(m.attr("PotentialPoint"));
    pickle_fields(point, "PotentialPoint", &Point::p, &Point::y, &Point::dy, &Point::d2y, &Point::V, &Point::dV,
                  &Point::d2V);
  }
  {  // profiles, loadings and what is built on them pickle by how they were made (docs/python.md, "Pickling")
    auto profile = py::reinterpret_borrow<py::class_<Profile>>(m.attr("Profile"));
    profile.def("__reduce__", [](const Profile& p) -> py::tuple {
      const Profile::Recipe& r = p.recipe();
      if (r.params) return reduce_to(py::type::of<Profile>(), *r.params);
      if (r.mirror_of) return reduce_by("directional.Profile.mirrored", *r.mirror_of);
      py::dict kwargs;
      kwargs["harmonics"] = r.harmonics;
      return py::make_tuple(py::module_::import("bristle._conventions").attr("call_factory_kw"),
                            py::make_tuple("directional.Profile.custom", kwargs, python_function(r.w, "profile.w"),
                                           python_function(r.dw, "profile.dw"), python_function(r.d2w, "profile.d2w")));
    });
    auto loading = py::reinterpret_borrow<py::class_<Loading>>(m.attr("Loading"));
    loading.def("__reduce__", [](const Loading& l) -> py::tuple {
      const Loading::Recipe& r = l.recipe();
      const auto& x = r.numbers;
      if (r.kind == "piecewise_linear") return reduce_by("directional.Loading.piecewise_linear", r.t, r.value);
      if (r.kind == "ramp") return reduce_by("directional.Loading.ramp", x.at(0), x.at(1));
      if (r.kind == "sine") return reduce_by("directional.Loading.sine", x.at(0), x.at(1), x.at(2), x.at(3));
      if (r.kind == "triangle") return reduce_by("directional.Loading.triangle", x.at(0), x.at(1), x.at(2), x.at(3));
      if (r.kind == "custom")
        return reduce_by("directional.Loading.custom", python_function(r.value_fn, "loading.value"),
                         python_function(r.rate_fn, "loading.rate"), x.at(0));
      if (r.kind == "affine") return reduce_by("directional.Loading.affine", *r.base, x.at(0), x.at(1));
      throw py::type_error("Loading of kind '" + r.kind + "' does not pickle");
    });
    auto mechanism = py::reinterpret_borrow<py::class_<Mechanism>>(m.attr("Mechanism"));
    mechanism.def("__reduce__", [](const Mechanism& x) {
      return reduce_to(py::type::of<Mechanism>(), x.params(), x.profile());
    });
    auto perceived = py::reinterpret_borrow<py::class_<PerceivedProfile>>(m.attr("PerceivedProfile"));
    perceived.def("__reduce__", [](const PerceivedProfile& x) {
      return reduce_to(py::type::of<PerceivedProfile>(), x.profile(), x.a());
    });
    auto potential = py::reinterpret_borrow<py::class_<WigglyPotential>>(m.attr("WigglyPotential"));
    potential.def("__reduce__", [](const WigglyPotential& x) {
      return reduce_to(py::type::of<WigglyPotential>(), x.mechanism(), x.epsilon());
    });
    auto convex = py::reinterpret_borrow<py::class_<ConvexEnergy>>(m.attr("ConvexEnergy"));
    convex.def("__reduce__", [](const ConvexEnergy& x) { return reduce_to(py::type::of<ConvexEnergy>(), x.params()); });
    auto wiggly_system = py::reinterpret_borrow<py::class_<WigglySystem>>(m.attr("WigglySystem"));
    wiggly_system.def("__reduce__", [](const WigglySystem& x) {
      return reduce_to(py::type::of<WigglySystem>(), x.potential(), x.phi(), x.loading(), x.gamma());
    });
    auto limit_system = py::reinterpret_borrow<py::class_<LimitSystem>>(m.attr("LimitSystem"));
    limit_system.def("__reduce__", [](const LimitSystem& x) {
      return reduce_to(py::type::of<LimitSystem>(), x.phi(), x.loading(), x.rho_plus(), x.rho_minus());
    });
  }
}

}  // namespace bristle::python
