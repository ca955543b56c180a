// Python bindings of bristle/rheology: GKV/GM rheologies (paper 1, eqs. 8-11) and the viscoelastic
// contact pair (eqs. 12-19).
#include "bristle/rheology/rheology.hpp"

#include "bristle/rheology/contact_pair.hpp"
#include "common.hpp"
#include "schema_py.hpp"

// The setup shared by the examples of Realisation.
#define REAL_EXAMPLE "    >>> r = bristle.realise(bristle.gkv(240.0, c=[100.0], tau=[0.1]))     # 1/m, s/m, s\n"

namespace bristle::python {

using rheology::Branch;
using rheology::ContactPair;
using rheology::Realisation;
using rheology::RheologyKind;
using rheology::RheologyParams;

namespace {

std::string repr(const Branch& b) { return "Branch(k=" + repr_mat2(b.k) + ", c=" + repr_mat2(b.c) + ")"; }

std::vector<Branch> to_branches(py::handle value) {
  if (!py::isinstance<py::sequence>(value) || py::isinstance<py::str>(value))
    throw py::type_error("branches: expected a list of Branch");
  std::vector<Branch> out;
  for (py::handle b : value) {
    if (!py::isinstance<Branch>(b)) throw py::type_error("branches: expected a list of Branch");
    out.push_back(b.cast<Branch>());
  }
  return out;
}

/// A body state zeta of `n` entries from Python (empty allowed when n == 0).
VecX zeta_of(py::handle value, Eigen::Index n, std::string_view what) {
  if (value.is_none()) return VecX::Zero(n);
  return to_vecx(value, what, n);
}

}  // namespace

rheology::RheologyParams params_of(const Realisation& r) {
  if (r.kind == RheologyKind::rigid) return rheology::rigid();
  RheologyParams p;
  p.kind = r.kind;
  p.k_elastic = r.kind == RheologyKind::gm ? r.K_inf : r.K0;
  p.branches = r.branches;
  return p;
}

namespace schema_py {

template <>
struct ChoiceParser<RheologyKind> : ParseWith<RheologyKind, rheology::rheology_kind_from_string> {};

/// RheologyParams: a [body1] / [body2] table. The branches are stored as (K_i, C_i) and written k and c (lists
/// of matrices); tau (relaxation times) completes k or c as in TOML.
template <>
struct Traits<RheologyParams> : PlainTraits<RheologyParams> {
  static constexpr const char* name = "RheologyParams";
  static constexpr const char* prefix = "body";
  static constexpr const char* extra_doc =
      "A branch list is two of c, k, tau (equal lengths; c = k tau), or c = \"eq58\" with tau (paper 1, eq. 58).\n"
      "  eq58_tau: the eq. 58 relaxation times (s) whose dampings follow k0 (Python only: kept by pickling and repr)\n"
      "Deprecated aliases: kind= (use type=), k_elastic= (k0= or k_inf=), branches= (k= and c=).\n"
      "Example: ``RheologyParams(type=\"gkv\", k0=240.0, c=[100.0], k=[1000.0])``\n";
  static void dump(const RheologyParams& p, std::vector<Entry>& es) {
    const bool branches = p.kind == RheologyKind::gkv || p.kind == RheologyKind::gm;
    py::list k, c;
    for (const Branch& b : p.branches) {
      k.append(to_py(b.k));
      c.append(to_py(b.c));
    }
    es.push_back(Entry{"c", c, branches, schema::Type::matrix_list, "branch dampings C_i (s/m), SPD", {}});
    es.push_back(Entry{"k", k, branches, schema::Type::matrix_list, "branch stiffnesses K_i (1/m), SPD", {}});
    // Python only (as TOML's c = "eq58" + tau): kept through pickling and eval(repr), or ContactPair would not
    // re-apply eq. 58 when k0 changes (helper-42: a pickled eq58 body gave other dampings).
    py::list taus;
    for (const double t : p.eq58_tau) taus.append(t);
    es.push_back(Entry{"eq58_tau", taus, branches && !p.eq58_tau.empty(), schema::Type::number_list,
                       "eq. 58: relaxation times whose dampings follow k0 (s)", {}});
  }
  static std::vector<Mat2> matrices(py::handle v, const std::string& what) {
    if (!py::isinstance<py::sequence>(v) || py::isinstance<py::str>(v))
      throw py::type_error(what + ": expected a list (one number or 2x2 matrix per branch)");
    std::vector<Mat2> out;
    for (py::handle x : v) out.push_back(to_mat2(x, what + "[" + std::to_string(out.size()) + "]"));
    return out;
  }
  static void load(RheologyParams& p, Load& l) {
    py::dict& kw = l.keywords();
    alias(kw, "kind", "type", "RheologyParams");
    if (py::object ke = pop(kw, "k_elastic")) {
      if (kw.contains("k0") || kw.contains("k_inf"))
        throw py::type_error("RheologyParams: give k0 or k_inf (the TOML keys), not also k_elastic");
      deprecated("RheologyParams(k_elastic=...): deprecated, use k0= (elastic, gkv) or k_inf= (gm)");
      p.k_elastic = to_mat2(ke, "body.k0");
    }
    pop(kw, "eq58_tau");  // set by after(), once the branch lists (which clear it) are read
    py::object branches = pop(kw, "branches");
    py::object c = pop(kw, "c"), k = pop(kw, "k"), tau = pop(kw, "tau");
    if (branches) {
      if (c || k || tau) throw py::type_error("RheologyParams: give k, c, tau (the TOML keys), not also branches");
      deprecated("RheologyParams(branches=...): deprecated, use k= and c= (the TOML keys)");
      p.branches = to_branches(branches);
      return;
    }
    const RheologyKind kind = l.choice_given("type", p.kind);
    // A constructor's lists that do not apply are warned of and dropped; a state (unpickling) restores them.
    if (l.strict() && kind != RheologyKind::gkv && kind != RheologyKind::gm) return;
    if (c && py::isinstance<py::str>(c)) {  // c = "eq58" (paper 1, eq. 58: c_i = tau_i k0), as in TOML
      if (c.cast<std::string>() != "eq58")
        throw InvalidInput("body.c = " + std::string(py::repr(c)) + ": a list of branch dampings or \"eq58\"");
      if (k) throw InvalidInput("key \"body.k\" cannot be combined with body.c = \"eq58\"; eq. 58 gives the dampings "
                                "from body.tau");
      if (!tau) throw InvalidInput("missing key \"body.tau\" (required: branch relaxation times tau_i (s), one per "
                                   "branch; body.c = \"eq58\" gives c from them)");
      p.eq58_tau.clear();
      for (const Mat2& t : matrices(tau, "body.tau")) {
        if (!(t(0, 1) == 0.0 && t(1, 0) == 0.0 && t(0, 0) == t(1, 1)))
          throw InvalidInput("body.tau[" + std::to_string(p.eq58_tau.size()) + "] = " + format_matrix(t) +
                             ": body.c = \"eq58\" needs scalar relaxation times");
        p.eq58_tau.push_back(t(0, 0));
      }
      p.branches.assign(p.eq58_tau.size(), Branch{});  // set by after(), once k0 is read
      return;
    }
    if (!c && !k && !tau) return;
    std::vector<Mat2> cs = c ? matrices(c, "body.c") : std::vector<Mat2>{};
    std::vector<Mat2> ks = k ? matrices(k, "body.k") : std::vector<Mat2>{};
    const std::vector<Mat2> taus = tau ? matrices(tau, "body.tau") : std::vector<Mat2>{};
    if (!l.fresh() && !tau && !p.branches.empty() && (c ? 1 : 0) + (k ? 1 : 0) == 1) {
      // An attribute set (body.c = [...]) keeps the other list: the branch stiffnesses, or the dampings.
      std::vector<Mat2>& kept = c ? ks : cs;
      for (const Branch& b : p.branches) kept.push_back(c ? b.k : b.c);
      const std::size_t given = c ? cs.size() : ks.size();
      if (given != kept.size())
        throw InvalidInput(std::string("body.") + (c ? "c" : "k") + ": " + std::to_string(given) +
                           " entries, but the body has " + std::to_string(kept.size()) +
                           (kept.size() == 1 ? " branch" : " branches") + "; a new branch count needs both lists (RheologyParams(type=..., k0=..., c=[...], "
                           "k=[...]))");
      if (c) k = py::cast(true);
      else c = py::cast(true);
    }
    if ((c ? 1 : 0) + (k ? 1 : 0) + (tau ? 1 : 0) != 2)
      throw InvalidInput("body: give two of c, k, tau for the branches (c = k tau)");
    const std::size_t n = c ? cs.size() : ks.size();
    const auto check = [n](const std::vector<Mat2>& v, const char* key, bool given) {
      if (given && v.size() != n)
        throw InvalidInput(std::string("body.") + key + ": " + std::to_string(v.size()) +
                           " entries, but the other branch list has " + std::to_string(n));
    };
    check(cs, "c", bool(c));
    check(ks, "k", bool(k));
    check(taus, "tau", bool(tau));
    p.eq58_tau.clear();  // branches given as lists: eq. 58 no longer sets them (b.c = [...] on an eq58 body was undone)
    p.branches.assign(n, Branch{});
    for (std::size_t i = 0; i < n; ++i) {
      Branch& b = p.branches[i];
      if (c && k) {
        b.c = cs[i];
        b.k = ks[i];
      } else if (c) {  // tau = K^-1 C (eq. 9): K = C tau^-1
        b.c = cs[i];
        // tau^-1 of tau / |tau|: the determinant of tau = 1e-200 underflowed, and k was NaN
        const double scale = taus[i].cwiseAbs().maxCoeff();
        b.k = scale > 0.0 ? Mat2(cs[i] * (taus[i] / scale).inverse() / scale) : Mat2(cs[i] * taus[i].inverse());
      } else {  // C = K tau
        b.k = ks[i];
        b.c = ks[i] * taus[i];
      }
      // Blamed on tau, which the user wrote (as the reader does), not on the derived branch matrix.
      if (const Mat2& derived = c ? b.k : b.c; tau && !(derived.cwiseAbs().maxCoeff() <= kMaxMagnitude))
        throw InvalidInput("body.tau[" + std::to_string(i) + "] = " + format_matrix(taus[i]) + ": gives the branch " +
                           (c ? "stiffness k = c / tau = " : "damping c = k tau = ") + format_matrix(derived) +
                           ", above " + format_value(kMaxMagnitude));
    }
  }
  static void after(RheologyParams& p, const py::dict& given) {
    if (given.contains("eq58_tau") && !given["eq58_tau"].is_none())
      p.eq58_tau = cast_arg<std::vector<double>>(given["eq58_tau"], "body.eq58_tau", "a list of numbers");
    if (given.contains("c") && py::isinstance<py::str>(given["c"])) rheology::apply_eq58(p, "body");
  }
};

}  // namespace schema_py

void export_rheology(py::module_& root) {
  py::module_ m = root.def_submodule(
      "rheology", "Linear viscoelastic rheologies (paper 1, eqs. 8-11) and the contact pair (eqs. 12-19).");

  py::enum_<RheologyKind>(m, "RheologyKind",
                          R"doc(Rheology: rigid, elastic, gkv (generalised Kelvin-Voigt), gm (generalised Maxwell).

Example:
    >>> bristle.gkv(240.0, c=[100.0], tau=[0.1]).kind        # k0 in 1/m, c in s/m, tau in s
    <RheologyKind.gkv: 2>
)doc")
      .value("rigid", RheologyKind::rigid)
      .value("elastic", RheologyKind::elastic)
      .value("gkv", RheologyKind::gkv)
      .value("gm", RheologyKind::gm);

  py::class_<Branch> branch(
      m, "Branch", R"doc(One dissipative branch: stiffness k (1/m) and damping c (s/m), SPD; tau = k^-1 c (eq. 9).

Example:
    >>> b = bristle.Branch(k=1000.0, c=100.0)        # 1/m, s/m: tau = 0.1 s
    >>> b.c[0, 0] / b.k[0, 0]                       # s
    0.1
)doc");
  branch
      .def(py::init([](FloatOrArray k, FloatOrArray c) {
             return Branch{to_mat2(k, "branch.k"), to_mat2(c, "branch.c")};
           }),
           py::kw_only(), py::arg("k") = 1.0, py::arg("c") = 1.0)
      .def_property(
          "k", [](const Branch& b) { return b.k; }, [](Branch& b, FloatOrArray v) { b.k = to_mat2(v, "branch.k"); },
          "branch stiffness (1/m, normalised by the load), SPD")
      .def_property(
          "c", [](const Branch& b) { return b.c; }, [](Branch& b, FloatOrArray v) { b.c = to_mat2(v, "branch.c"); },
          "branch damping (s/m), SPD")
      .def("__repr__", [](const Branch& b) { return repr(b); })
      // Hand-written (a branch is an entry of the k and c lists of RheologyParams, no table of its own).
      .def(py::pickle(
          [](const Branch& b) { return py::make_tuple(schema_py::to_py(b.k), schema_py::to_py(b.c)); },
          [](py::tuple t) {
            if (t.size() != 2) throw InvalidInput("Branch.__setstate__: expected (k, c)");
            return Branch{to_mat2(t[0], "branch.k"), to_mat2(t[1], "branch.c")};
          }))
      .def(
          "__eq__",
          [](const Branch& a, py::object b) -> py::object {
            if (!py::isinstance<Branch>(b)) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
            const auto& o = b.cast<const Branch&>();
            return py::bool_(a.k == o.k && a.c == o.c);
          },
          py::arg("other"));
  branch.attr("__hash__") = py::none();

  py::class_<RheologyParams> params(m, "RheologyParams", R"doc(
A body's rheology (paper 1, eqs. 8-11): type "rigid", "elastic", "gkv" or "gm" (attribute `kind`: the
RheologyKind); k0 / k_inf (1/m): K0 (elastic, GKV) or K_inf (GM), a number k (k I) or a 2x2 SPD matrix
(attribute `k_elastic`: either); k, c: the branch stiffnesses and dampings (GKV, GM; attribute `branches`:
a list of Branch). Stiffnesses are normalised by the reference normal load.
Prefer the constructors rigid(), elastic(k0), gkv(k0, c, tau), gm(k_inf, k, tau), which check their
arguments at once. `branches` returns a copy: assign a whole list.

Example:
    >>> body = bristle.RheologyParams(type="gkv", k0=240.0, c=[100.0, 50.0], tau=[0.1, 0.1])   # 1/m, s/m, s
    >>> body.kind, body.branch_count, body.branches[1].k[0, 0]                                  # k_i = c_i/tau_i (1/m)
    (<RheologyKind.gkv: 2>, 2, 500.0)
)doc");
  params
      .def_property(
          "kind", [](const RheologyParams& p) { return p.kind; },
          [](RheologyParams& p, NameOrEnum k) {
            p.kind = enum_from<RheologyKind>(k, "body.type", rheology::rheology_kind_from_string);
          })
      .def_property(
          "k_elastic", [](const RheologyParams& p) { return p.k_elastic; },
          [](RheologyParams& p, FloatOrArray v) { p.k_elastic = to_mat2(v, "body.k0"); },
          "K0 (elastic, GKV) or K_inf (GM), 1/m")
      .def_property(
          "branches", [](const RheologyParams& p) { return p.branches; },
          [](RheologyParams& p, FloatOrArray v) {
            p.branches = to_branches(v);
            p.eq58_tau.clear();  // given branches: eq. 58 no longer sets them (helper-42)
          },
          "list of Branch (a copy)")
      .def_property_readonly("branch_count", &RheologyParams::branch_count)
      .def("validate", &RheologyParams::validate, py::arg("prefix") = "body1",
           validate_doc("b = bristle.elastic(1.0); b.k0 = -5.0; b.validate()",
                        "body1.k0 = [[-5, 0], [0, -5]]: must be positive definite").c_str());
  add_copy<RheologyParams>(params);
  schema_py::bind_schema<RheologyParams>(
      params, "A body's rheology (paper 1, eqs. 8-11); keywords are the TOML keys of [body1] / [body2].");

  m.def("rigid", &rheology::rigid, R"doc(A rigid body (zero compliance, no keys): the default substrate.

Example:
    >>> bristle.realise(bristle.rigid()).static_compliance()     # m (normalised): none
    array([[0., 0.],
           [0., 0.]])
)doc");
  m.def("elastic", &rheology::elastic, py::arg("k0"), R"doc(Isotropic elastic body, k0 (1/m, per newton of normal load) > 0.

Example:
    >>> body = bristle.elastic(1e5)                   # the textbook LuGre sigma0 = 1e5 N/m under F_z = 1 N
    >>> body.k0                                       # 1/m (isotropic: a number)
    100000.0
)doc");
  m.def("gkv", &rheology::gkv, py::arg("k0"), py::arg("c"), py::arg("tau"),
        "Isotropic generalised Kelvin-Voigt body (eq. 8): k0 (1/m), branch dampings c_i (s/m) and relaxation "
        "times tau_i (s); k_i = c_i / tau_i.\n\nExample:\n"
        "    >>> body = bristle.gkv(240.0, c=[100.0, 50.0], tau=[0.1, 0.1])     # Table 1 block\n"
        "    >>> body.branch_count, body.branches[0].k[0, 0]                      # k_1 = 100/0.1 (1/m)\n"
        "    (2, 1000.0)\n");
  m.def("gkv_eq58", &rheology::gkv_eq58, py::arg("k0"), py::arg("tau"),
        "Isotropic GKV body under paper 1's eq. 58 (TOML c = \"eq58\"): k0 (1/m) and relaxation times tau_i (s); "
        "the dampings follow k0, c_i = tau_i k0 (re-applied by ContactPair when k0 changes: attribute eq58_tau). "
        "Example: ``bristle.rheology.gkv_eq58(160.0, [0.1, 0.1])`` (k02 = 240 (1 - 0.6)/0.6).");
  params.def_readwrite("eq58_tau", &RheologyParams::eq58_tau,
                       "eq. 58: relaxation times tau_i (s) whose dampings follow k0, c_i = tau_i k0 (empty: the "
                       "branches as given; not part of the pickled state, which holds the branches)");
  m.def("apply_eq58", [](RheologyParams p, std::string_view prefix) { rheology::apply_eq58(p, prefix); return p; },
        py::arg("params"), py::arg("prefix") = "body2",
        R"doc(A copy of params with its branches set by eq. 58 from eq58_tau (s) and k0 (1/m): c_i = tau_i k0 (s/m),
k_i = c_i / tau_i.

Example:
    >>> body = bristle.rheology.gkv_eq58(160.0, [0.1])          # k0 = 160 1/m, tau = 0.1 s
    >>> body.k0 = 200.0                                         # the dampings no longer follow ...
    >>> bristle.rheology.apply_eq58(body).branches[0].c[0, 0]   # ... until eq. 58 is applied again (s/m)
    20.0
)doc");
  m.def("gm", &rheology::gm, py::arg("k_inf"), py::arg("k"), py::arg("tau"),
        "Isotropic generalised Maxwell body (eq. 10): k_inf (1/m), branch stiffnesses k_i (1/m), relaxation times "
        "tau_i (s); c_i = k_i tau_i.\n\nExample:\n"
        "    >>> body = bristle.gm(10.0, k=[4.0], tau=[0.5])     # 1/m, 1/m, s\n"
        "    >>> body.kind, body.branches[0].c[0, 0]               # c_1 = k_1 tau_1 (s/m)\n"
        "    (<RheologyKind.gm: 3>, 2.0)\n");
  m.def("gm_equivalent_of_gkv", &rheology::gm_equivalent_of_gkv, py::arg("k0"), py::arg("c"), py::arg("tau"),
        R"doc(The GM body with the same relaxation function as the isotropic GKV body (k0 (1/m), c (s/m), tau (s)).

Example:
    >>> gm = bristle.gm_equivalent_of_gkv(240.0, [100.0], [0.1])
    >>> gkv = bristle.gkv(240.0, c=[100.0], tau=[0.1])
    >>> np.allclose(bristle.realise(gm).static_compliance(), bristle.realise(gkv).static_compliance())   # m
    True
)doc");

  py::class_<Realisation>(m, "Realisation",
                          "State-space realisation of one body (eq. 11): f = K0 z + C zeta, zeta' = A zeta + B f (K0 in 1/m, "
                          "A in 1/s).\n\nExample:\n" REAL_EXAMPLE
                          "    >>> r.n, r.A.shape\n    (1, (2, 2))\n")
      .def_readonly("kind", &Realisation::kind)
      .def_readonly("n", &Realisation::n, "number of branches (zeta has 2n entries)")
      .def_property_readonly("K0", [](const Realisation& r) -> Mat2 { return r.K0; })
      .def_property_readonly("K0_inv", [](const Realisation& r) -> Mat2 { return r.K0_inv; })
      .def_property_readonly("A", [](const Realisation& r) -> MatX { return r.A; })
      .def_property_readonly("B", [](const Realisation& r) -> MatX { return r.B; })
      .def_property_readonly("C", [](const Realisation& r) -> MatX { return r.C; })
      .def_property_readonly("K_inf", [](const Realisation& r) -> Mat2 { return r.K_inf; })
      .def_property_readonly("branches", [](const Realisation& r) { return r.branches; })
      .def("__reduce__", [](const Realisation& r) { return reduce_by("rheology.realise", params_of(r)); })
      .def("static_compliance", &Realisation::static_compliance, "K0^-1 (I + C A^-1 B) (m); 0 if rigid.\n\nExample:\n"
           REAL_EXAMPLE "    >>> round(float(r.static_compliance()[0, 0]), 12) == round(1 / 240 + 1 / 1000, 12)   # 1/k0 + 1/k1 (m)\n    True\n")
      .def(
          "stored_energy",
          [](const Realisation& r, ArrayLike f, OptionalArray zeta) {
            const VecX z = zeta_of(zeta, 2 * r.n, "zeta");
            return r.stored_energy(to_vec2(f, "f"), z.data());
          },
          py::arg("f"), py::arg("zeta") = py::none(), "Stored energy (normalised, m; times F_z in J), eqs. 82-83.\n\nExample:\n"
          REAL_EXAMPLE "    >>> round(r.stored_energy([0.48, 0.0]), 12)    # f^2 / (2 k0) with zeta = 0: 0.48^2 / 480\n    0.00048\n")
      .def(
          "deformation",
          [](const Realisation& r, ArrayLike f, OptionalArray zeta) {
            const VecX z = zeta_of(zeta, 2 * r.n, "zeta");
            return r.deformation(to_vec2(f, "f"), z.data());
          },
          py::arg("f"), py::arg("zeta") = py::none(), "Body deformation z_j = K0^-1 (f_j - C zeta_j) (m), eq. 14.\n\nExample:\n"
          REAL_EXAMPLE "    >>> r.deformation([0.48, 0.0])          # f / k0 with zeta = 0 (m)\n    array([0.002, 0.   ])\n");
  m.def("realise", &rheology::realise, py::arg("params"), "The state-space realisation of a body (validates it).\n\nExample:\n"
        REAL_EXAMPLE "    >>> r.kind, r.K0[0, 0]                   # K0 in 1/m\n    (<RheologyKind.gkv: 2>, 240.0)\n");
  m.def(
      "compliance",
      [](const Realisation& r, std::complex<double> s) -> Eigen::Matrix2cd { return rheology::compliance(r, s); },
      py::arg("realisation"), py::arg("s"), "Transfer function z(s)/f(s) (m), complex 2x2, eq. 11 (s in 1/s).\n\nExample:\n"
      "    >>> r = bristle.realise(bristle.elastic(100.0))\n"
      "    >>> bristle.rheology.compliance(r, 1j)[0, 0]          # 1/k0 at any frequency (m)\n    (0.01+0j)\n");

  py::class_<ContactPair>(m, "ContactPair", R"doc(
The viscoelastic contact pair (paper 1, eqs. 12-19): ContactPair(body1, body2). body1 is the upper
body, body2 the substrate; for isotropic elastic parts s = k01/(k01 + k02). Stiffnesses in 1/m (per newton of
normal load), dampings in s/m.

Example:
    >>> pair = bristle.rheology.ContactPair(bristle.elastic(240.0), bristle.elastic(360.0))   # 1/m
    >>> pair.K_static[0, 0]                  # springs in series: 240 * 360 / 600
    144.0
)doc")
      .def(py::init<const RheologyParams&, const RheologyParams&>(), py::arg("body1"), py::arg("body2"))
      .def("__reduce__",
           [](const ContactPair& p) {
             return reduce_to(py::type::of<ContactPair>(), params_of(p.body1()), params_of(p.body2()));
           })
      .def_property_readonly("body1", [](const ContactPair& p) { return p.body1(); })
      .def_property_readonly("body2", [](const ContactPair& p) { return p.body2(); })
      .def_property_readonly("n1", &ContactPair::n1)
      .def_property_readonly("n2", &ContactPair::n2)
      .def_property_readonly("zeta_size", &ContactPair::zeta_size)
      .def_property_readonly(
          "K0bar", [](const ContactPair& p) -> Mat2 { return p.K0bar(); }, "eq. 16a (1/m)")
      .def_property_readonly("K0bar_inv", [](const ContactPair& p) -> Mat2 { return p.K0bar_inv(); })
      .def_property_readonly(
          "K_static", [](const ContactPair& p) -> Mat2 { return p.K_static(); },
          "static stiffness (1/m), every branch relaxed")
      .def_property_readonly(
          "S1", [](const ContactPair& p) -> Mat2 { return p.S1(); }, "eq. 19b")
      .def_property_readonly(
          "S2", [](const ContactPair& p) -> Mat2 { return p.S2(); }, "eq. 19c")
      .def_property_readonly(
          "Cbar", [](const ContactPair& p) -> MatX { return p.Cbar(); }, "eq. 16b, 2 x 2n")
      .def_property_readonly(
          "S0", [](const ContactPair& p) -> MatX { return p.S0(); }, "eq. 19a, 2 x 2n")
      .def(
          "relative_deformation",
          [](const ContactPair& p, ArrayLike f, OptionalArray zeta) {
            const VecX z = zeta_of(zeta, p.zeta_size(), "zeta");
            return p.relative_deformation(to_vec2(f, "f"), z.data());
          },
          py::arg("f"), py::arg("zeta") = py::none(), R"doc(z = K0bar^-1 (f - Cbar zeta) (m), eq. 15.

Example:
    >>> pair = bristle.rheology.ContactPair(bristle.elastic(240.0), bristle.elastic(360.0))   # 1/m
    >>> pair.relative_deformation([0.72, 0.0])      # f / K_static (m)
    array([0.005, 0.   ])
)doc")
      .def(
          "stored_energy",
          [](const ContactPair& p, ArrayLike f, OptionalArray zeta) {
            const VecX z = zeta_of(zeta, p.zeta_size(), "zeta");
            return p.stored_energy(to_vec2(f, "f"), z.data());
          },
          py::arg("f"), py::arg("zeta") = py::none(), R"doc(Stored energy W at a point (normalised, m; times F_z in J), eq. 85.

Example:
    >>> pair = bristle.rheology.ContactPair(bristle.elastic(240.0), bristle.elastic(360.0))   # 1/m
    >>> round(pair.stored_energy([0.72, 0.0]), 12)  # f^2 / (2 K_static)
    0.0018
)doc");

  m.def(
      "substrate_stiffness_from_s",
      [](double s, double k01, const std::string& key) { return rheology::substrate_stiffness_from_s(key, s, k01); },
      py::arg("s"), py::arg("k01"), py::arg("key") = "pair.s",
      R"doc(k02 = k01 (1 - s) / s (1/m) for s in (0, 1) (paper 1, §5 with the errata); InvalidInput naming key outside.

Example:
    >>> bristle.substrate_stiffness_from_s(0.4, 240.0)       # 1/m
    360.0
)doc");
}

}  // namespace bristle::python
