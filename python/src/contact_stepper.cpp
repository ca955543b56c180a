// Python bindings of bristle/contact/contact.hpp: Contact (one friction element stepped in the caller's
// loop) and ContactArray (N of them, numpy arrays in and out). Registered in module.cpp after
// export_contact, into the same submodule bristle.contact.
#include <cmath>
#include <optional>
#include <string>
#include <string_view>

#include "bristle/contact/contact.hpp"
#include "common.hpp"
#include "schema_py.hpp"

namespace bristle::python {
/// A velocity argument: a number (along x) or 2 values (x, y); and the force returned in the same form.
/// Custom casters only so that signatures read "float | numpy.ndarray[2]", not "handle" / "object".
struct VelocityArg {
  py::handle value;
};
struct ForceResult {
  py::object value;
};
}  // namespace bristle::python

namespace pybind11::detail {
template <>
struct type_caster<bristle::python::VelocityArg> {
  PYBIND11_TYPE_CASTER(bristle::python::VelocityArg, const_name("float | numpy.ndarray[2]"));
  bool load(handle src, bool) {
    value.value = src;
    return true;
  }
};
template <>
struct type_caster<bristle::python::ForceResult> {
  PYBIND11_TYPE_CASTER(bristle::python::ForceResult, const_name("float | numpy.ndarray[2]"));
  static handle cast(const bristle::python::ForceResult& r, return_value_policy, handle) {
    return r.value.inc_ref();
  }
};
}  // namespace pybind11::detail

namespace bristle::python {

namespace schema_py {
/// TextbookParams: the [law.textbook] table (every key; Dahl uses Fc_N and sigma0_N_per_m only).
template <>
struct Traits<contact::TextbookParams> : PlainTraits<contact::TextbookParams> {
  static constexpr const char* name = "TextbookParams";
  static constexpr const char* prefix = "law.textbook";
  static constexpr const char* extra_doc =
      "Example: ``TextbookParams(Fc_N=1.0, Fs_N=1.5, vs_mps=0.001, sigma0_N_per_m=1e5, sigma1_Ns_per_m=316.2, "
      "sigma2_Ns_per_m=0.4)``\n";
};
}  // namespace schema_py

using contact::Contact;
using contact::ContactArray;

namespace {

constexpr const char* kSign =
    "Sign convention: F is the force on the upper (moving) body, opposing v_mps: negative for v_mps > 0 at "
    "steady sliding (the textbook LuGre force F_tb of Canudas de Wit et al. 1995 is -F).";

/// A real number given as a Python float or int, a numpy scalar (np.float32, np.int64, ...) or a 0-d array of
/// those: the scalar form of v_mps (along x). Anything else is for to_vec2 (2 values, or its error).
std::optional<double> real_scalar(py::handle v) {
  if (PyFloat_Check(v.ptr()) || PyLong_Check(v.ptr())) return v.cast<double>();
  if (!py::isinstance<py::array>(v) && !py::isinstance(v, py::module_::import("numpy").attr("generic"))) return {};
  const py::array a = py::array::ensure(v);
  if (!a || a.ndim() != 0 || std::string_view("fiu").find(a.dtype().kind()) == std::string_view::npos) return {};
  return a.attr("item")().cast<double>();
}

std::string shape_of(const py::array& a) {
  std::string s = "(";
  for (py::ssize_t i = 0; i < a.ndim(); ++i) s += (i ? ", " : "") + std::to_string(a.shape(i));
  return s + (a.ndim() == 1 ? ",)" : ")");
}

using DoubleArray = py::array_t<double, py::array::c_style | py::array::forcecast>;

}  // namespace

void export_contact_stepper(py::module_& root) {
  py::module_ m = root.attr("contact").cast<py::module_>();

  py::class_<contact::TextbookParams> textbook(m, "TextbookParams", R"doc(
Textbook LuGre / Dahl parameters in newtons (Canudas de Wit et al. 1995), the keys of [law.textbook]: Fc_N,
Fs_N (N), vs_mps (m/s), sigma0_N_per_m (N/m), sigma1_Ns_per_m, sigma2_Ns_per_m (Ns/m), delta (-). Dahl uses
Fc_N and sigma0_N_per_m only. textbook_model(type, params, normal_load_N) maps them to the normalised law and
bodies (paper 1, eq. 53; body1 elastic k0 = sigma0 / F_z, body2 rigid).

Example:
    >>> p = bristle.contact.TextbookParams(Fc_N=1.0, Fs_N=1.5, vs_mps=1e-3, sigma0_N_per_m=1e5)
    >>> law, body1, body2 = bristle.contact.textbook_model("lugre", p, normal_load_N=10.0)
    >>> law.mu_s, body1.k0                       # Fs / F_z (-), sigma0 / F_z (1/m)
    (0.15, 10000.0)
)doc");
  add_copy<contact::TextbookParams>(textbook);
  schema_py::bind_schema<contact::TextbookParams>(textbook, "Textbook LuGre / Dahl parameters (N).");
  m.def(
      "textbook_model",
      [](const std::string& type, const contact::TextbookParams& p, double normal_load_N) {
        const contact::TextbookModel t =
            contact::textbook_model(laws::law_kind_from_string("type", type), p, normal_load_N, "law.textbook.");
        return py::make_tuple(t.law, t.body1, t.body2);
      },
      py::arg("type"), py::arg("params"), py::arg("normal_load_N") = 1.0, R"doc(
The normalised model of textbook parameters under the normal load F_z = normal_load_N (N): a tuple
(law, body1, body2) of LawParams and RheologyParams for ContactModel, Bench (with BenchParams(normal_load_N=F_z)
for forces in N) or Contact. type is "lugre" or "dahl". mu_d = Fc / F_z, mu_s = Fs / F_z, v_S = vs, delta_S =
delta (paper 1, eq. 53); body1 elastic with k0 = sigma0 / F_z and body2 rigid; sigma1, sigma2 divided by F_z.
The TOML form is [law.textbook] of the lumped kind. InvalidInput names law.textbook.<key>.

Example:
    >>> p = bristle.contact.TextbookParams(Fc_N=2.0, sigma0_N_per_m=1e4)
    >>> law, body1, body2 = bristle.contact.textbook_model("dahl", p, normal_load_N=4.0)
    >>> law.mu_d, body1.k0                       # Fc / F_z (-), sigma0 / F_z (1/m)
    (0.5, 2500.0)
)doc");

  py::class_<Contact>(m, "Contact", (std::string(R"doc(
A friction element to step inside one's own simulation or controller: one lumped contact
u' = h(u, v_r) (paper 1, eq. 1 without advection) driven by the relative velocity the caller gives at
each step; it returns the friction force F = F_z f_out(u, v_r) in newtons.

Contact(law, body1, body2=None, normal_load_N=1.0): law a LawParams, body1 (upper body) and body2
(substrate, default rigid) RheologyParams, normal_load_N the constant normal load F_z (N, > 0).
In textbook units (forces in N): Contact.lugre(...), Contact.dahl(...).

step(dt_s, v_mps) advances over dt_s (s) at the constant v_mps (m/s) with a fixed-step L-stable
SDIRK2 (stiff sigma0 at any dt, analytic Jacobian, no allocation); advance_to(t_s, v_mps) integrates
adaptively (rodas4). Stored, supplied and dissipated energies (J) satisfy
stored - stored(0) = supplied - dissipated to the method's order.

)doc") + kSign + R"doc(

Example:
    >>> c = bristle.Contact.lugre(Fc_N=1.0, Fs_N=1.5, vs_mps=1e-3, sigma0_N_per_m=1e5,
    ...                           sigma1_Ns_per_m=316.2, sigma2_Ns_per_m=0.4)
    >>> for _ in range(10000): F = c.step(1e-4, 1e-3)
    >>> round(F, 4)   # -(Fc + (Fs - Fc) e^-1 + sigma2 v)
    -1.1843
)doc")
                                         .c_str())
      .def(py::init([](const laws::LawParams& law, const rheology::RheologyParams& body1, OptionalBody body2,
                       double normal_load_N) {
             return Contact(law, body1,
                            body2.is_none() ? rheology::rigid()
                                            : cast_arg<rheology::RheologyParams>(body2, "body2", "RheologyParams"),
                            normal_load_N);
           }),
           py::arg("law"), py::arg("body1"), py::arg("body2") = py::none(), py::arg("normal_load_N") = 1.0)
      // Pickled by its parameters (law, bodies, F_z), its state u and energy_tracking (_contact_from_state
      // rebuilds it): its time_s and energy integrals start again from 0 (they are not settable).
      .def("__reduce__",
           [](const Contact& c) {
             const contact::ContactModel& model = c.model();
             return reduce_by("contact._contact_from_state", model.law().params(), params_of(model.pair().body1()),
                              params_of(model.pair().body2()), c.normal_load_N(), copy_array(c.state()),
                              c.energy_tracking());
           })
      .def_static("lugre", &Contact::lugre, py::arg("Fc_N"), py::arg("Fs_N"), py::arg("vs_mps"),
                  py::arg("sigma0_N_per_m"), py::arg("sigma1_Ns_per_m"), py::arg("sigma2_Ns_per_m"),
                  py::arg("delta") = 2.0, R"doc(
Textbook LuGre (Canudas de Wit et al. 1995), forces in newtons:
    z' = v - sigma0 |v| z / g(v),  g(v) = Fc + (Fs - Fc) exp(-(|v|/vs)^delta),
    F_tb = sigma0 z + sigma1 z' + sigma2 v.
Fc_N (Coulomb force, N), Fs_N (static force, N), vs_mps (Stribeck velocity, m/s), sigma0_N_per_m
(bristle stiffness, N/m) > 0; sigma1_Ns_per_m (micro-damping, Ns/m), sigma2_Ns_per_m (viscous, Ns/m),
delta (Stribeck exponent) >= 0. Mapped to the normalised form with F_z = 1 N (docs/python.md).
step() returns F = -F_tb: at steady sliding F = -(Fc + (Fs - Fc) exp(-(v/vs)^delta) + sigma2 v) for v > 0.

Example:
    >>> c = bristle.Contact.lugre(Fc_N=10.0, Fs_N=15.0, vs_mps=1e-3, sigma0_N_per_m=1e5,
    ...                           sigma1_Ns_per_m=316.2, sigma2_Ns_per_m=0.4)
    >>> round(c.advance_to(1.0, 0.1), 3)    # N at 0.1 m/s: -(Fc + sigma2 v)
    -10.04
)doc")
      .def_static("dahl", &Contact::dahl, py::arg("Fc_N"), py::arg("sigma0_N_per_m"), R"doc(
Textbook Dahl (Canudas de Wit et al. 1995): z' = v - sigma0 |v| z / Fc, F_tb = sigma0 z, with Fc_N
(Coulomb force, N) and sigma0_N_per_m (stiffness, N/m) > 0. step() returns F = -F_tb (-> -Fc for v > 0).

Example:
    >>> c = bristle.Contact.dahl(Fc_N=2.0, sigma0_N_per_m=1e4)    # 2 N, 1e4 N/m
    >>> round(c.advance_to(0.1, 0.1), 6)                           # N after 1 cm of sliding: -Fc
    -2.0
)doc")
      .def(
          "step",
          [](Contact& c, double dt_s, VelocityArg v) -> ForceResult {
            if (const auto x = real_scalar(v.value)) return {py::float_(c.step(dt_s, *x))};
            const Vec2 F = c.step(dt_s, to_vec2(v.value, "v_mps"));
            return {py::cast(F)};
          },
          py::arg("dt_s"), py::arg("v_mps"),
          (std::string(R"doc(
Advances the contact over dt_s (s, > 0) at the constant relative velocity v_mps (m/s): a number (along
x; returns F_x as a float) or 2 values (x, y; returns F as an array of 2). Returns the friction force
F (N) at the end of the step. InvalidInput (ValueError) for dt_s <= 0 or non-finite dt_s, v_mps; the
state is then unchanged. )doc") + kSign + R"doc(

Example:
    >>> c = bristle.Contact.dahl(Fc_N=2.0, sigma0_N_per_m=1e4)
    >>> F = [c.step(1e-3, 0.1) for _ in range(100)]    # 1 kHz for 0.1 s at 0.1 m/s
    >>> round(F[-1], 4), round(c.time_s, 6)              # N, s
    (-2.0, 0.1)
    >>> c.step(1e-3, [0.0, 0.1])                         # 2-D: (F_x, F_y) in N
    array([...])
)doc")
              .c_str())
      .def(
          "advance_to",
          [](Contact& c, double t_s, VelocityArg v, double rtol, double atol) -> ForceResult {
            const contact::AdvanceOptions o{rtol, atol};
            if (const auto x = real_scalar(v.value)) return {py::float_(c.advance_to(t_s, *x, o))};
            return {py::cast(c.advance_to(t_s, to_vec2(v.value, "v_mps"), o))};
          },
          py::arg("t_s"), py::arg("v_mps"), py::arg("rtol") = 1e-8, py::arg("atol") = 1e-12,
          (std::string(R"doc(
Integrates adaptively (rodas4, error control rtol |u| + atol) from time_s to t_s (s, >= time_s) at the
constant v_mps (m/s; a number or 2 values) and returns F (N) at t_s (a float or an array of 2). )doc") +
           kSign + R"doc(

Example:
    >>> c = bristle.Contact.lugre(Fc_N=1.0, Fs_N=1.5, vs_mps=1e-3, sigma0_N_per_m=1e5,
    ...                           sigma1_Ns_per_m=316.2, sigma2_Ns_per_m=0.4)
    >>> round(c.advance_to(2.0, 1e-3), 4)    # N at t = 2 s: -(Fc + (Fs - Fc) e^-1 + sigma2 v)
    -1.1843
)doc")
              .c_str())
      .def("reset", &Contact::reset, R"doc(Back to the relaxed state u = 0 at time_s = 0, energies 0.

Example:
    >>> c = bristle.Contact.dahl(Fc_N=2.0, sigma0_N_per_m=1e4)
    >>> F = c.advance_to(0.5, 0.01)                  # N
    >>> c.reset(); c.time_s, float(abs(c.state).max())   # s, relaxed state
    (0.0, 0.0)
)doc")
      .def_property(
          "state", [](const Contact& c) { return copy_array(c.state()); },
          [](Contact& c, ArrayLike u) { c.set_state(to_vecx(u, "state", c.state_size())); },
          "Contact state u = [f; zeta1; zeta2] (state_size values; f is the force per newton of normal load, "
          "the zeta the branch states of the bodies, eq. 33). A copy; assign an array of state_size finite values "
          "to set it (time and energies unchanged).")
      .def_property_readonly("state_size", &Contact::state_size)
      .def_property_readonly("time_s", &Contact::time_s, "Time (s) reached by the steps since reset.")
      .def_property_readonly(
          "friction_force_N", [](const Contact& c) { return c.friction_force_N(); },
          (std::string("Friction force (N, 2 values) at the current state and the last velocity. ") + kSign).c_str())
      .def_property_readonly("stored_energy_J", &Contact::stored_energy_J,
                             "Energy stored in the bodies' springs, F_z W_pair(u) (J, eq. 85).")
      .def_property_readonly("supplied_energy_J", &Contact::supplied_energy_J,
                             "Work done on the contact by the imposed motion since reset, int -F . v dt (J).")
      .def_property_readonly("dissipated_energy_J", &Contact::dissipated_energy_J,
                             "Energy dissipated since reset (J): stored - stored(0) = supplied - dissipated.")
      .def_property_readonly("normal_load_N", &Contact::normal_load_N, "Normal load F_z (N), constant.")
      .def("set_energy_tracking", &Contact::set_energy_tracking, py::arg("on"), R"doc(
Whether step() integrates supplied_energy_J and dissipated_energy_J (on by default). Off, a step skips
them (the state and the force are bitwise those of a tracked step) and both read nan until reset();
advance_to() always integrates them (from nan they stay nan).

Example:
    >>> c = bristle.Contact.lugre(Fc_N=1.0, Fs_N=1.5, vs_mps=1e-3, sigma0_N_per_m=1e5,
    ...                           sigma1_Ns_per_m=316.2, sigma2_Ns_per_m=0.4)
    >>> c.set_energy_tracking(False)
    >>> F = c.step(1e-3, 1e-3)          # N; c.supplied_energy_J is now nan
)doc")
      .def_property("energy_tracking", &Contact::energy_tracking, &Contact::set_energy_tracking,
                    "True if step() integrates the energies (bool; settable, as set_energy_tracking).")
      .def("copy", [](const Contact& c) { return Contact(c); }, R"doc(An independent copy (same parameters and state).

Example:
    >>> c = bristle.Contact.dahl(Fc_N=2.0, sigma0_N_per_m=1e4)
    >>> F = c.step(1e-3, 0.01)           # N
    >>> d = c.copy(); F = d.step(1e-3, 0.01)
    >>> c.time_s, d.time_s               # s: only the copy moved on
    (0.001, 0.002)
)doc")
      .def("__copy__", [](const Contact& c) { return Contact(c); })
      .def("__deepcopy__", [](const Contact& c, py::dict) { return Contact(c); }, py::arg("memo"))
      .def("__repr__", [](const Contact& c) {
        return "<bristle.Contact " + std::string(laws::to_string(c.model().law().params().kind)) +
               ", state_size=" + std::to_string(c.state_size()) + ", normal_load_N=" + repr_double(c.normal_load_N()) +
               ", time_s=" + repr_double(c.time_s()) + ">";
      });

  m.def(
      "_contact_from_state",
      [](const laws::LawParams& law, const rheology::RheologyParams& body1, const rheology::RheologyParams& body2,
         double normal_load_N, ArrayLike state, bool energy_tracking) {
        Contact c(law, body1, body2, normal_load_N);
        c.set_state(to_vecx(state, "state", c.state_size()));
        c.set_energy_tracking(energy_tracking);
        return c;
      },
      "A Contact from its pickled parameters and state (Contact.__reduce__).");

  py::class_<ContactArray>(m, "ContactArray", (std::string(R"doc(
N independent contacts stepped together (the joints of a robot, a field of bristles), numpy arrays in
and out. ContactArray(prototype, n): n copies of a Contact (each with its own state, starting relaxed);
ContactArray(contacts): a list of Contacts (copied, their states kept).

step(dt_s, v_mps, out=None): v_mps of shape (n,) (along x) or (n, 2) (x, y per contact); returns F (N)
of the same shape (into `out` if given, a float64 C-contiguous array of that shape). )doc") + kSign + R"doc(

Example:
    >>> a = bristle.ContactArray(bristle.Contact.dahl(Fc_N=2.0, sigma0_N_per_m=1e4), 3)
    >>> F = a.step(1e-3, numpy.array([1e-3, -1e-3, 0.0]))
)doc")
                                                .c_str())
      .def(py::init([](const Contact& prototype, int n) { return ContactArray(prototype, n); }), py::arg("prototype"),
           py::arg("n"))
      .def(py::init([](const std::vector<Contact>& contacts) { return ContactArray(contacts); }), py::arg("contacts"))
      .def("__reduce__",
           [](const ContactArray& a) {
             py::list contacts;
             for (int i = 0; i < a.size(); ++i) contacts.append(py::cast(a.at(i)));
             return reduce_to(py::type::of<ContactArray>(), contacts);
           })
      .def(
          "step",
          [](ContactArray& a, double dt_s, const DoubleArray& v, std::optional<py::array_t<double>> out) {
            const py::ssize_t n = a.size();
            const bool two_d = v.ndim() == 2 && v.shape(0) == n && v.shape(1) == 2;
            if (!(two_d || (v.ndim() == 1 && v.shape(0) == n)))
              throw InvalidInput("v_mps: expected shape (" + std::to_string(n) + ",) or (" + std::to_string(n) +
                                 ", 2), got " + shape_of(v));
            py::array_t<double> F;
            if (!out) {
              F = two_d ? py::array_t<double>({n, py::ssize_t{2}}) : py::array_t<double>({n});
            } else {
              F = *out;
              const bool c_contiguous = (F.flags() & py::array::c_style) != 0;
              if (F.ndim() != v.ndim() || F.shape(0) != n || (two_d && F.shape(1) != 2) || !c_contiguous ||
                  !F.writeable())
                throw InvalidInput("out: expected a writable C-contiguous float64 array of shape " + shape_of(v) +
                                   ", got shape " + shape_of(F));
            }
            const double* vp = v.data();
            double* Fp = F.mutable_data();
            {
              py::gil_scoped_release release;
              if (two_d)
                a.step_2d(dt_s, vp, Fp);
              else
                a.step(dt_s, vp, Fp);
            }
            return F;
          },
          py::arg("dt_s"), py::arg("v_mps"), py::arg("out").noconvert() = py::none(),
          (std::string(R"doc(
Steps every contact i over dt_s (s, > 0) at v_mps[i] (m/s) and returns the forces F[i] (N), same shape
as v_mps: (n,) or (n, 2). InvalidInput (ValueError) for a wrong shape, dt_s <= 0 or a non-finite value
(naming its index), before any contact moves. )doc") + kSign + R"doc(

Example:
    >>> a = bristle.ContactArray(bristle.Contact.dahl(Fc_N=2.0, sigma0_N_per_m=1e4), 3)
    >>> v = np.array([0.1, -0.1, 0.0])                   # m/s, one per contact
    >>> for _ in range(100): F = a.step(1e-3, v)         # 1 kHz, 0.1 s
    >>> F.round(4)                                       # N: -Fc sgn(v), 0 at rest
    array([-2.,  2.,  0.])
)doc")
              .c_str())
      .def("reset", &ContactArray::reset, R"doc(Every contact back to its relaxed state at time 0.

Example:
    >>> a = bristle.ContactArray(bristle.Contact.dahl(Fc_N=2.0, sigma0_N_per_m=1e4), 2)
    >>> F = a.step(1e-3, np.array([0.01, 0.02]))      # N
    >>> a.reset(); a[0].time_s, a[1].time_s            # s
    (0.0, 0.0)
)doc")
      .def("set_energy_tracking", &ContactArray::set_energy_tracking, py::arg("on"), R"doc(
Contact.set_energy_tracking on every contact: off, step() skips the energy integrals (the forces are the
same; each contact's supplied_energy_J and dissipated_energy_J read nan until reset()).

Example:
    >>> a = bristle.ContactArray(bristle.Contact.dahl(Fc_N=2.0, sigma0_N_per_m=1e4), 3)
    >>> a.set_energy_tracking(False)
    >>> F = a.step(1e-3, numpy.array([1e-3, -1e-3, 0.0]))   # N
)doc")
      .def_property("energy_tracking", &ContactArray::energy_tracking, &ContactArray::set_energy_tracking,
                    "True if every contact tracks its energies (bool; setting it sets every contact's).")
      .def("__len__", &ContactArray::size)
      .def_property_readonly("size", &ContactArray::size, "Number of contacts n.")
      .def(
          "__getitem__",
          [](ContactArray& a, int index) -> Contact& {
            const int i = index < 0 ? index + a.size() : index;
            if (i < 0 || i >= a.size())
              throw py::index_error("index = " + std::to_string(index) + ": must be in [-" + std::to_string(a.size()) +
                                    ", " + std::to_string(a.size()) + ")");
            return a.at(i);
          },
          py::arg("index"), py::return_value_policy::reference_internal,
          "Contact i (a live reference into the array; negative i counts from the end). IndexError out of range.")
      .def("__repr__", [](const ContactArray& a) { return "<bristle.ContactArray of " + std::to_string(a.size()) + " contacts>"; });
}

}  // namespace bristle::python
