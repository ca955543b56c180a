// Python bindings of bristle/structures: linear elastic structures seen from their contact points
// (paper 3; docs/structures.md): modal structures (taut string, cantilever, simply supported beam,
// generic modes), memory kernels (eqs. III.10-III.11), the one-mode responses, the reduced model (the
// structure eliminated, eqs. III.11, III.20), the truncated modal model, and stick-slip on a belt.
//
// Kernel evaluation and stick-slip runs release the GIL. Results are numpy arrays; the TimeSeries of a
// stick-slip run gives read-only views of its columns.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "bristle/structures/contact_stepper.hpp"
#include "bristle/structures/kernels.hpp"
#include "bristle/structures/modal_model.hpp"
#include "bristle/structures/modal_structure.hpp"
#include "bristle/structures/mode_response.hpp"
#include "bristle/structures/reduced_model.hpp"
#include "bristle/structures/stick_slip.hpp"
#include "common.hpp"
#include "pickle_fields.hpp"
#include "schema_py.hpp"

BRISTLE_PY_TYPED_OBJECT(FrictionArg, "bristle._bristle.laws.CoulombStribeckParams | bristle._bristle.laws.StribeckParams | bristle._bristle.contact.ContactModel")

// The setup shared by the examples: a damped taut string (rho = 1 kg/m, l = 1 m, c = 1 m/s) with a contact
// point at 0.3 m.
#define STRING_EXAMPLE "    >>> s = bristle.structures.Structure.taut_string(damping_ratio=0.1, contact_positions_m=[0.3])\n"

// A stick-slip run on the damped string, for the examples of its results.
#define RUN_EXAMPLE                                                                                          \
  STRING_EXAMPLE                                                                                             \
  "    >>> r = bristle.structures.run_stick_slip(bristle.structures.make_reduced_model(s, 1e-3),\n"         \
  "    ...         bristle.structures.BeltParams(normal_load_N=1.0, belt_speed_m_per_s=0.1),\n"              \
  "    ...         bristle.StribeckParams(mu_s=0.5, mu_d=0.3, v_s=0.1), bristle.structures.StickSlipOptions(t_end_s=10.0))\n"

namespace bristle::python {

namespace schema_py {

/// A built-in structure's parameters (their keys of [structure]): contact_positions_m (declared: a list) is converted
/// here. The constructors are the classes' own.
template <class P>
struct StructureTraits : PlainTraits<P> {
  static constexpr const char* prefix = "structure";
  static void dump(const P& p, std::vector<Entry>& es) {
    insert_after(es, "damping_ratio",
                 Entry{"contact_positions_m", to_py(p.contact_positions_m), true, schema::Type::number_list,
                       doc_of(structures::structure_keys::kContactPositions), {}});
  }
  static void load(P& p, Load& l) {
    if (py::object v = pop(l.keywords(), "contact_positions_m"))
      p.contact_positions_m = to_vector(v, "structure.contact_positions_m");
  }
};
template <>
struct Traits<structures::TautStringParams> : StructureTraits<structures::TautStringParams> {
  static constexpr const char* name = "TautStringParams";
};
template <>
struct Traits<structures::BeamParams> : StructureTraits<structures::BeamParams> {
  static constexpr const char* name = "BeamParams";
};

/// JumpDetectionOptions: no scenario table holds it (its keys are its attribute names).
template <>
struct Traits<structures::JumpDetectionOptions> : PlainTraits<structures::JumpDetectionOptions> {
  static constexpr const char* name = "JumpDetectionOptions";
  static constexpr const char* prefix = "jumps";
};

/// The structures' option tables (no choice: every key applies), bound from their serialize() beside the structs.
template <>
struct Traits<structures::BeltParams> : PlainTraits<structures::BeltParams> {
  static constexpr const char* name = "BeltParams";
  static constexpr const char* prefix = "contact";
  static constexpr const char* extra_doc = "Example: ``BeltParams(normal_load_N=2.0, belt_speed_m_per_s=0.3)``\n";
};

template <>
struct Traits<structures::StickSlipOptions> : PlainTraits<structures::StickSlipOptions> {
  static constexpr const char* name = "StickSlipOptions";
  static constexpr const char* prefix = "run";
  static constexpr const char* extra_doc = "The step dt_s of [run] is the model's dt (make_reduced_model(structure, dt), ModalModel(..., dt)).\n";
};

template <>
struct Traits<structures::KernelOptions> : PlainTraits<structures::KernelOptions> {
  static constexpr const char* name = "KernelOptions";
  static constexpr const char* prefix = "kernel";
  static constexpr const char* extra_doc = "Example: ``KernelOptions(max_modes=33)``\n";
};

/// ReducedModelOptions: window_steps and far_tolerance of [model], and `kernel` (the near-field weights'
/// KernelOptions: not a TOML key, kept in the state and the repr).
template <>
struct Traits<structures::ReducedModelOptions> : PlainTraits<structures::ReducedModelOptions> {
  static constexpr const char* name = "ReducedModelOptions";
  static constexpr const char* prefix = "model";
  static constexpr const char* extra_doc = "kernel: the KernelOptions of the near-field weights.\n";
  static void dump(const structures::ReducedModelOptions& p, std::vector<Entry>& es) {
    es.push_back(Entry{"kernel", py::cast(p.kernel), true, schema::Type::table,
                       "the KernelOptions of the near-field weights", {}});
  }
  static void load(structures::ReducedModelOptions& p, Load& l) {
    if (py::object v = pop(l.keywords(), "kernel"))
      p.kernel = py::isinstance<py::dict>(v) ? from_kwargs<structures::KernelOptions>(py::dict(v), "model.kernel")
                                             : cast_arg<structures::KernelOptions>(v, "kernel", "KernelOptions");
  }
};

}  // namespace schema_py

using namespace bristle::structures;

namespace {

/// A contact index checked against the structure (IndexError-free: InvalidInput naming `key`).
int contact_index(const Structure& s, int i, const char* key) {
  if (i < 0 || i >= s.contact_count())
    throw InvalidInput(std::string(key) + " = " + std::to_string(i) + ": must be in [0, " +
                       std::to_string(s.contact_count()) + ") (the structure has " +
                       std::to_string(s.contact_count()) + " contact point(s))");
  return i;
}

py::array_t<double> copy_matrix(const MatX& m) {
  py::array_t<double> out({static_cast<py::ssize_t>(m.rows()), static_cast<py::ssize_t>(m.cols())});
  for (Eigen::Index r = 0; r < m.rows(); ++r)
    for (Eigen::Index c = 0; c < m.cols(); ++c) out.mutable_at(r, c) = m(r, c);
  return out;
}

/// A (N, M) array-like of mode values as rows.
std::vector<std::vector<double>> to_rows(py::handle value, std::string_view what) {
  if (value.is_none() || py::isinstance<py::str>(value))
    throw py::type_error(std::string(what) + ": expected an (N, M) array of numbers");
  auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(value);
  if (!a) {
    if (py::isinstance<py::sequence>(value))  // e.g. rows of different lengths: a shape problem
      throw InvalidInput(std::string(what) + ": expected an (N, M) array (N modes, M contact points): rows of "
                         "equal length holding numbers");
    throw py::type_error(std::string(what) + ": expected an (N, M) array of numbers");
  }
  if (a.ndim() == 1 && a.shape(0) == 0) return {};  // no modes: the default (validate() rejects it)
  if (a.ndim() != 2)
    throw InvalidInput(std::string(what) + ": expected an (N, M) array (N modes, M contact points), got " +
                       std::to_string(a.ndim()) + " dimension(s)");
  std::vector<std::vector<double>> rows(static_cast<std::size_t>(a.shape(0)));
  for (py::ssize_t r = 0; r < a.shape(0); ++r)
    for (py::ssize_t c = 0; c < a.shape(1); ++c) rows[static_cast<std::size_t>(r)].push_back(a.at(r, c));
  return rows;
}

py::dict samples_dict(const KernelSamples& k) {
  py::dict d;
  d["tau_s"] = copy_array(k.tau_s);
  d["value"] = copy_array(k.value);
  d["error_bound"] = copy_array(k.error_bound);
  return d;
}

using KernelFn = KernelSamples (*)(const Structure&, int, int, const std::vector<double>&, const KernelOptions&);

void def_kernel(py::module_& m, const char* name, KernelFn fn, const char* doc) {
  m.def(
      name,
      [fn](const Structure& s, FloatOrArray tau, int i, int j, const KernelOptions& options) {
        contact_index(s, i, "i");
        contact_index(s, j, "j");
        const std::vector<double> t = to_vector(tau, "tau");
        py::gil_scoped_release release;
        return fn(s, i, j, t, options);
      },
      py::arg("structure"), py::arg("tau"), py::arg("i") = 0, py::arg("j") = 0, py::arg("options") = KernelOptions{},
      doc);
}

}  // namespace

void check_unpickled(const char* name, const KernelSamples& k) {
  const std::size_t n = k.tau_s.size();
  if (k.value.size() != n || k.error_bound.size() != n || k.modes.size() != n)
    throw InvalidInput(fmt::format("{}: pickled state of {} tau_s, {} value, {} error_bound and {} modes entries; all "
                                   "have one per delay",
                                   name, n, k.value.size(), k.error_bound.size(), k.modes.size()));
}

void check_unpickled(const char* name, const ModeTable& m) {
  if (m.damping.size() != m.omega.size() || m.values.rows() != m.omega.size())
    throw InvalidInput(fmt::format("{}: pickled state of {} omega, {} damping and {} rows of values; one each per mode",
                                   name, m.omega.size(), m.damping.size(), m.values.rows()));
}

void export_structures(py::module_& root) {
  py::module_ m = root.def_submodule("structures", R"doc(
Elastic structures with frictional point contacts (paper 3; docs/structures.md). SI units: lengths m,
times s, forces N, frequencies rad/s, mode values 1/sqrt(kg), kernels L1 in m/(N s), step responses in m/N.

Structure (taut string, cantilever, simply supported beam, generic modes), the memory kernels
(displacement_kernel = L1, velocity_kernel = K, step_response = S, eqs. III.10-III.11), ModeResponse,
the contact steppers ReducedModel / StringDelayModel (the structure eliminated) and ModalModel (N
modes), and run_stick_slip (a contact point on a moving belt).)doc");

  // ---- Structures ---------------------------------------------------------------------------------------
  py::enum_<StructureKind>(m, "StructureKind", "Structure kind: generic, taut_string, cantilever, simply_supported_beam." "\n\nExample:\n" "    >>> bristle.structures.Structure.cantilever().kind\n" "    <StructureKind.cantilever: 2>\n")
      .value("generic", StructureKind::generic)
      .value("taut_string", StructureKind::taut_string)
      .value("cantilever", StructureKind::cantilever)
      .value("simply_supported_beam", StructureKind::simply_supported_beam);

  py::class_<TautStringParams> string_params(m, "TautStringParams", R"doc(
A taut string fixed at both ends: density_kg_per_m rho (kg/m, > 0), length_m l (m, > 0),
wave_speed_m_per_s c = sqrt(T/rho) (m/s, > 0), damping_ratio D (every mode, [0, 1)),
contact_positions_m chi_j (m, in (0, l)).

Example:
    >>> p = bristle.structures.TautStringParams(damping_ratio=0.1, contact_positions_m=[0.3])
    >>> p.tension_N() == p.density_kg_per_m * p.wave_speed_m_per_s ** 2        # T = rho c^2 (N)
    True
)doc");
  string_params
      .def(py::init([](double rho, double l, double c, double D, ArrayLike chi) {
             TautStringParams p;
             p.density_kg_per_m = rho;
             p.length_m = l;
             p.wave_speed_m_per_s = c;
             p.damping_ratio = D;
             p.contact_positions_m = to_vector(chi, "structure.contact_positions_m");
             return p;
           }),
           py::kw_only(), py::arg("density_kg_per_m") = 1.0, py::arg("length_m") = 1.0,
           py::arg("wave_speed_m_per_s") = 1.0, py::arg("damping_ratio") = 0.0,
           py::arg("contact_positions_m") = std::vector<double>{0.3})
      .def_readwrite("density_kg_per_m", &TautStringParams::density_kg_per_m)
      .def_readwrite("length_m", &TautStringParams::length_m)
      .def_readwrite("wave_speed_m_per_s", &TautStringParams::wave_speed_m_per_s)
      .def_readwrite("damping_ratio", &TautStringParams::damping_ratio)
      .def_property(
          "contact_positions_m", [](const TautStringParams& p) { return copy_array(p.contact_positions_m); },
          [](TautStringParams& p, ArrayLike v) {
            p.contact_positions_m = to_vector(v, "structure.contact_positions_m");
          })
      .def("tension_N", &TautStringParams::tension_N, "T = rho c^2 (N)" "\n\nExample:\n"  "    >>> bristle.structures.TautStringParams(density_kg_per_m=0.5, wave_speed_m_per_s=2.0).tension_N()\n" "    2.0\n")
      .def("validate", &TautStringParams::validate, py::arg("prefix") = "structure",
           validate_doc("p = bristle.structures.TautStringParams(); p.length_m = -1.0; p.validate()",
                        "structure.length_m...").c_str());
  add_copy<TautStringParams>(string_params);
  schema_py::bind_schema<TautStringParams>(string_params, "", false);

  py::class_<BeamParams> beam_params(m, "BeamParams", R"doc(
An Euler-Bernoulli beam: bending_stiffness_N_m2 EI (N m^2, > 0), mass_per_length_kg_per_m rho A (kg/m,
> 0), length_m l (m, > 0), damping_ratio D ([0, 1)), contact_positions_m (m; cantilever (0, l], simply
supported (0, l)).

Example:
    >>> p = bristle.structures.BeamParams(damping_ratio=0.05)
    >>> bristle.structures.Structure.cantilever(p).kind
    <StructureKind.cantilever: 2>
)doc");
  beam_params
      .def(py::init([](double EI, double rhoA, double l, double D, ArrayLike chi) {
             BeamParams p;
             p.bending_stiffness_N_m2 = EI;
             p.mass_per_length_kg_per_m = rhoA;
             p.length_m = l;
             p.damping_ratio = D;
             p.contact_positions_m = to_vector(chi, "structure.contact_positions_m");
             return p;
           }),
           py::kw_only(), py::arg("bending_stiffness_N_m2") = 1.0, py::arg("mass_per_length_kg_per_m") = 1.0,
           py::arg("length_m") = 1.0, py::arg("damping_ratio") = 0.0,
           py::arg("contact_positions_m") = std::vector<double>{1.0})
      .def_readwrite("bending_stiffness_N_m2", &BeamParams::bending_stiffness_N_m2)
      .def_readwrite("mass_per_length_kg_per_m", &BeamParams::mass_per_length_kg_per_m)
      .def_readwrite("length_m", &BeamParams::length_m)
      .def_readwrite("damping_ratio", &BeamParams::damping_ratio)
      .def_property(
          "contact_positions_m", [](const BeamParams& p) { return copy_array(p.contact_positions_m); },
          [](BeamParams& p, ArrayLike v) { p.contact_positions_m = to_vector(v, "structure.contact_positions_m"); })
      .def("flexural_constant", &BeamParams::flexural_constant, "a = sqrt(EI / (rho A)) (m^2/s)" "\n\nExample:\n"  "    >>> bristle.structures.BeamParams(bending_stiffness_N_m2=4.0, mass_per_length_kg_per_m=1.0).flexural_constant()\n" "    2.0\n")
      .def("validate", &BeamParams::validate, py::arg("prefix") = "structure", py::arg("cantilever") = true,
           validate_doc("p = bristle.structures.BeamParams(); p.length_m = -1.0; p.validate()",
                        "structure.length_m...").c_str());
  add_copy<BeamParams>(beam_params);
  schema_py::bind_schema<BeamParams>(beam_params, "", false);

  py::class_<GenericModalParams> generic_params(m, "GenericModalParams", R"doc(
N modes as data: frequencies_rad_per_s omega_k (> 0), damping_ratios D_k ([0, 1)), mode_values
n_k(chi_j) as an (N, M) array (1/sqrt(kg)).

Example:
    >>> p = bristle.structures.GenericModalParams(frequencies_rad_per_s=[1.0, 3.0], damping_ratios=[0.1, 0.1],
    ...                                           mode_values=[[1.0], [0.5]])      # rad/s, -, 1/sqrt(kg)
    >>> len(p.mode_values), len(p.mode_values[0])                              # modes, contacts
    (2, 1)
)doc");
  generic_params
      .def(py::init([](ArrayLike omega, ArrayLike D, ArrayLike values) {
             GenericModalParams p;
             p.frequencies_rad_per_s = to_vector(omega, "structure.frequencies_rad_per_s");
             p.damping_ratios = to_vector(D, "structure.damping_ratios");
             p.mode_values = to_rows(values, "structure.mode_values");
             return p;
           }),
           py::kw_only(), py::arg("frequencies_rad_per_s") = std::vector<double>{},
           py::arg("damping_ratios") = std::vector<double>{},
           py::arg("mode_values") = std::vector<std::vector<double>>{})
      .def_property(
          "frequencies_rad_per_s", [](const GenericModalParams& p) { return copy_array(p.frequencies_rad_per_s); },
          [](GenericModalParams& p, ArrayLike v) {
            p.frequencies_rad_per_s = to_vector(v, "structure.frequencies_rad_per_s");
          })
      .def_property(
          "damping_ratios", [](const GenericModalParams& p) { return copy_array(p.damping_ratios); },
          [](GenericModalParams& p, ArrayLike v) { p.damping_ratios = to_vector(v, "structure.damping_ratios"); })
      .def_property(
          "mode_values", [](const GenericModalParams& p) { return p.mode_values; },
          [](GenericModalParams& p, ArrayLike v) { p.mode_values = to_rows(v, "structure.mode_values"); })
      .def("validate", &GenericModalParams::validate, py::arg("prefix") = "structure",
           validate_doc("bristle.structures.GenericModalParams(frequencies_rad_per_s=[-1.0], damping_ratios=[0.1], "
                        "mode_values=[[1.0]]).validate()",
                        "structure.frequencies_rad_per_s[0] = -1: must be > 0").c_str())
      .def(
          "__eq__",
          [](const GenericModalParams& a, const GenericModalParams& b) {
            return a.frequencies_rad_per_s == b.frequencies_rad_per_s && a.damping_ratios == b.damping_ratios &&
                   a.mode_values == b.mode_values;
          },
          py::is_operator())
      .def("__repr__", [](const GenericModalParams& p) {
        std::string rows;
        for (const auto& row : p.mode_values) rows += (rows.empty() ? "" : ", ") + repr_list(row);
        return "GenericModalParams(frequencies_rad_per_s=" + repr_list(p.frequencies_rad_per_s) +
               ", damping_ratios=" + repr_list(p.damping_ratios) + ", mode_values=[" + rows + "])";
      });
  generic_params.attr("__hash__") = py::none();
  pickle_fields(generic_params, "GenericModalParams", &GenericModalParams::frequencies_rad_per_s,
                &GenericModalParams::damping_ratios, &GenericModalParams::mode_values);
  add_copy<GenericModalParams>(
      generic_params,
      "    >>> p = bristle.structures.GenericModalParams(frequencies_rad_per_s=[1.0], damping_ratios=[0.1],\n"
      "    ...                                           mode_values=[[1.0]])      # rad/s, -, 1/sqrt(kg)\n"
      "    >>> q = p.copy(); q.damping_ratios = [0.2]\n"
      "    >>> p.damping_ratios, q.damping_ratios\n    (array([0.1]), array([0.2]))\n");

  py::class_<ModeTable>(m, "ModeTable", "Modes 1..N: omega (rad/s), damping (-), values (N, M) n_k(chi_j) (1/sqrt(kg)).\n\nExample:\n" STRING_EXAMPLE
                                "    >>> t = s.modes(3); len(t)\n    3\n")
      .def_property_readonly("omega", [](const ModeTable& t) { return copy_array(t.omega); })
      .def_property_readonly("damping", [](const ModeTable& t) { return copy_array(t.damping); })
      .def_property_readonly("values", [](const ModeTable& t) { return copy_matrix(t.values); })
      .def("__len__", &ModeTable::size);

  m.def(
      "cantilever_root",
      [](long k) {
        if (k < 1) throw InvalidInput("k = " + std::to_string(k) + ": must be >= 1");
        return cantilever_root(k);
      },
      py::arg("k"), "beta_k (k >= 1, dimensionless): the root of 1 + cos(beta) cosh(beta) = 0 (full precision).\n\n"
      "Example:\n    >>> round(bristle.structures.cantilever_root(1), 6)\n    1.875104\n");
  m.def(
      "cantilever_mode_shape",
      [](double beta, FloatOrArray s) {
        require_positive("beta", beta);
        return map_array(s, "s", [beta](double x) {
          require_closed_interval("s", x, 0.0, 1.0);
          return cantilever_mode_shape(beta, x);
        });
      },
      py::arg("beta"), py::arg("s"), "phi_k(s), s in [0, 1] (position / length), of the cantilever (elementwise on "
      "arrays).\n\nExample:\n    >>> beta = bristle.structures.cantilever_root(1)\n"
      "    >>> bristle.structures.cantilever_mode_shape(beta, 0.0)        # clamped end\n    0.0\n");

  py::class_<Structure>(m, "Structure", R"doc(
An immutable structure: Structure.taut_string(TautStringParams), .cantilever(BeamParams),
.simply_supported_beam(BeamParams), .generic(GenericModalParams), .truncated(continuum, n_modes).
Keyword shortcuts: Structure.taut_string(damping_ratio=0.1, contact_positions_m=[0.3]) etc. Units: positions m,
frequencies rad/s, compliances m/N.

Example:
    >>> s = bristle.structures.Structure.taut_string(damping_ratio=0.1, contact_positions_m=[0.3])
    >>> s.kind, s.contact_count, s.finite
    (<StructureKind.taut_string: 1>, 1, False)
)doc")
      .def_static(
          "taut_string",
          [](OptionalTautStringParams params, py::kwargs kwargs) {
            TautStringParams p = params.is_none() ? TautStringParams{}
                                                  : cast_arg<TautStringParams>(params, "params", "TautStringParams");
            if (kwargs.size() > 0) {
              py::object cls = py::module_::import("bristle._bristle").attr("structures").attr("TautStringParams");
              p = cast_arg<TautStringParams>(cls(**kwargs), "params", "TautStringParams");
              if (!params.is_none()) throw InvalidInput("Structure.taut_string: give params or keywords, not both");
            }
            return Structure::taut_string(p);
          },
          py::arg("params") = py::none(),
          "A taut string (TautStringParams, or its keywords).\n\nExample:\n"
          "    >>> bristle.structures.Structure.taut_string(damping_ratio=0.1, contact_positions_m=[0.3]).contact_count\n"
          "    1\n")
      .def_static(
          "cantilever",
          [](OptionalBeamParams params, py::kwargs kwargs) {
            BeamParams p = params.is_none() ? BeamParams{} : cast_arg<BeamParams>(params, "params", "BeamParams");
            if (kwargs.size() > 0) {
              if (!params.is_none()) throw InvalidInput("Structure.cantilever: give params or keywords, not both");
              py::object cls = py::module_::import("bristle._bristle").attr("structures").attr("BeamParams");
              p = cast_arg<BeamParams>(cls(**kwargs), "params", "BeamParams");
            }
            return Structure::cantilever(p);
          },
          py::arg("params") = py::none(),
          "A cantilever (BeamParams, or its keywords).\n\nExample:\n"
          "    >>> bristle.structures.Structure.cantilever(bristle.structures.BeamParams(damping_ratio=0.05)).finite\n"
          "    False\n")
      .def_static(
          "simply_supported_beam",
          [](OptionalBeamParams params, py::kwargs kwargs) {
            BeamParams p;
            p.contact_positions_m = {0.5};
            if (!params.is_none()) p = cast_arg<BeamParams>(params, "params", "BeamParams");
            if (kwargs.size() > 0) {
              if (!params.is_none())
                throw InvalidInput("Structure.simply_supported_beam: give params or keywords, not both");
              py::object cls = py::module_::import("bristle._bristle").attr("structures").attr("BeamParams");
              p = cast_arg<BeamParams>(cls(**kwargs), "params", "BeamParams");
            }
            return Structure::simply_supported_beam(p);
          },
          py::arg("params") = py::none(),
          "A simply supported beam (BeamParams, or its keywords; contact at mid-span by default).\n\nExample:\n"
          "    >>> bristle.structures.Structure.simply_supported_beam().contact_positions_m   # m\n"
          "    array([0.5])\n")
      .def_static(
          "generic", [](const GenericModalParams& p) { return Structure::generic(p); }, py::arg("params"),
          "A structure given by its modes (GenericModalParams)." "\n\nExample:\n"  "    >>> p = bristle.structures.GenericModalParams(frequencies_rad_per_s=[1.0, 3.0], damping_ratios=[0.1, 0.1],\n" "    ...                                           mode_values=[[1.0], [0.5]])          # 2 modes, 1 contact\n" "    >>> s = bristle.structures.Structure.generic(p); s.finite, s.mode_count\n" "    (True, 2)\n")
      .def_static("truncated", &Structure::truncated, py::arg("continuum"), py::arg("n_modes"),
                  "The first n_modes modes of a continuum as a finite structure.\n\nExample:\n" STRING_EXAMPLE
                  "    >>> t = bristle.structures.Structure.truncated(s, 10); t.finite, t.mode_count\n    (True, 10)\n")
      .def_property_readonly("kind", &Structure::kind)
      .def_property_readonly("contact_count", &Structure::contact_count)
      .def_property_readonly("finite", &Structure::finite)
      .def_property_readonly(
          "mode_count",
          [](const Structure& s) -> py::object {
            if (!s.finite()) return py::none();
            return py::int_(s.mode_count());
          },
          "number of modes of a finite structure; None for a continuum")
      .def(
          "modes",
          [](const Structure& s, long count) {
            if (count < 1) throw InvalidInput("count = " + std::to_string(count) + ": must be >= 1");
            return s.modes(count);
          },
          py::arg("count"), "ModeTable of modes 1..count (omega in rad/s, values in 1/sqrt(kg)).\n\nExample:\n"
          STRING_EXAMPLE "    >>> len(s.modes(5))\n    5\n")
      .def(
          "mode",
          [](const Structure& s, long k) {
            if (k < 1 || k > s.mode_count())
              throw InvalidInput("k = " + std::to_string(k) + ": must be in [1, " +
                                 (s.finite() ? std::to_string(s.mode_count()) : std::string("inf")) + ")");
            double omega = 0.0, D = 0.0;
            py::array_t<double> values(s.contact_count());
            s.mode(k, omega, D, values.mutable_data());
            return py::make_tuple(omega, D, values);
          },
          py::arg("k"), "(omega_k (rad/s), D_k (-), n_k(chi_j) (1/sqrt(kg))) of mode k (1-based).\n\nExample:\n"
          STRING_EXAMPLE "    >>> omega, D, n = s.mode(1); round(omega, 6), D        # pi c / l (rad/s)\n"
          "    (3.141593, 0.1)\n")
      .def_property_readonly(
          "static_compliance", [](const Structure& s) { return copy_matrix(s.static_compliance()); },
          "G_ij (m/N), (M, M)")
      .def("mode_product_bound", &Structure::mode_product_bound,
           "sup_k max_ij |n_k(chi_i) n_k(chi_j)| (1/kg): bounds the tail of the kernel sums.\n\nExample:\n" STRING_EXAMPLE
           "    >>> s.mode_product_bound() > 0                          # 1/kg\n    True\n")
      .def("frequency_lower_bound", &Structure::frequency_lower_bound, py::arg("k"),
           "A lower bound of omega_k (rad/s) for the tail estimates.\n\nExample:\n" STRING_EXAMPLE
           "    >>> s.frequency_lower_bound(3) <= s.mode(3)[0]          # rad/s\n    True\n")
      .def_property_readonly("min_damping_ratio", &Structure::min_damping_ratio)
      .def_property_readonly("uniform_damping", &Structure::uniform_damping)
      .def_property_readonly("contact_positions_m",
                             [](const Structure& s) { return copy_array(s.contact_positions_m()); })
      .def_property_readonly("string_params", &Structure::string_params)
      .def_property_readonly("beam_params", &Structure::beam_params)
      .def("__repr__", [](const Structure& s) {
        return "<bristle.structures.Structure " + std::string(to_string(s.kind())) + ", " +
               std::to_string(s.contact_count()) + " contact point(s)>";
      });

  // ---- Kernels ------------------------------------------------------------------------------------------
  py::class_<KernelOptions> kernel_options(m, "KernelOptions",
                                           "max_modes (cap for a continuum without closed form), relative_tolerance (-).\n\nExample:\n"
                                           "    >>> bristle.structures.KernelOptions(max_modes=33)\n"
                                           "    KernelOptions(max_modes=33)\n");
  kernel_options
      .def(py::init([](long max_modes, double tol) { return KernelOptions{max_modes, tol}; }), py::kw_only(),
           py::arg("max_modes") = 1L << 17, py::arg("relative_tolerance") = 1e-13)
      .def("validate", &KernelOptions::validate, py::arg("prefix") = "kernel",
           validate_doc("p = bristle.structures.KernelOptions(); p.max_modes = 0; p.validate()",
                        "kernel.max_modes...").c_str());
  add_copy<KernelOptions>(kernel_options);
  schema_py::bind_schema<KernelOptions>(kernel_options, "", false);

  py::class_<KernelSamples>(m, "KernelSamples", R"doc(
Samples of a kernel entry: tau_s (s), value, error_bound (bound on the truncation error, 0 for closed
forms), modes (modes summed; 0 for a closed form), method; max_error_bound(). Arrays are read-only views.

Example:
    >>> s = bristle.structures.Structure.taut_string(damping_ratio=0.1, contact_positions_m=[0.3])
    >>> k = bristle.structures.displacement_kernel(s, [0.1, 0.2])     # tau (s) -> L1 (m/(N s))
    >>> k.tau_s, isinstance(k.method, str)
    (array([0.1, 0.2]), True)
)doc")
      .def_property_readonly("tau_s",
                             [](py::object self) {
                               const auto& k = self.cast<const KernelSamples&>();
                               return view(k.tau_s.data(), k.tau_s.size(), self);
                             })
      .def_property_readonly("value",
                             [](py::object self) {
                               const auto& k = self.cast<const KernelSamples&>();
                               return view(k.value.data(), k.value.size(), self);
                             })
      .def_property_readonly("error_bound",
                             [](py::object self) {
                               const auto& k = self.cast<const KernelSamples&>();
                               return view(k.error_bound.data(), k.error_bound.size(), self);
                             })
      .def_property_readonly("modes",
                             [](const KernelSamples& k) {
                               py::array_t<long> out(static_cast<py::ssize_t>(k.modes.size()));
                               std::copy(k.modes.begin(), k.modes.end(), out.mutable_data());
                               return out;
                             })
      .def_readonly("method", &KernelSamples::method)
      .def("max_error_bound", &KernelSamples::max_error_bound,
           "The largest error_bound (the unit of the kernel): a bound on the truncation error of every value.\n\n"
           "Example:\n" STRING_EXAMPLE
           "    >>> bristle.structures.displacement_kernel(s, [0.1, 0.2]).max_error_bound() < 1e-9     # m/(N s)\n"
           "    True\n")
      .def("to_dict", &samples_dict, "{tau_s, value, error_bound} as writable copies (tau_s in s).\n\nExample:\n"
           STRING_EXAMPLE "    >>> sorted(bristle.structures.displacement_kernel(s, [0.1]).to_dict())\n"
           "    ['error_bound', 'tau_s', 'value']\n");

  def_kernel(m, "displacement_kernel", &displacement_kernel,
             "L1_ij(tau) (m/(N s)) for tau >= 0 (s): the velocity step response (right-continuous).\n\nExample:\n"
             STRING_EXAMPLE "    >>> k = bristle.structures.displacement_kernel(s, [0.0, 0.1, 0.2])      # tau in s\n"
             "    >>> k.value.shape, k.max_error_bound() < 1e-9                          # m/(N s)\n    ((3,), True)\n");
  def_kernel(m, "velocity_kernel", &velocity_kernel,
             "K_ij(tau) = dL1/dtau (m/(N s^2)) for tau > 0 (InvalidInput for an undamped beam).\n\nExample:\n"
             STRING_EXAMPLE "    >>> bristle.structures.velocity_kernel(s, [0.1, 0.2]).value.shape     # m/(N s^2)\n"
             "    (2,)\n");
  def_kernel(m, "step_response", &step_response, "S_ij(tau) = int_0^tau L1 (m/N).\n\nExample:\n" STRING_EXAMPLE
             "    >>> S = bristle.structures.step_response(s, [0.0, 50.0]).value             # m/N\n"
             "    >>> float(S[0]), round(float(S[1]) / float(s.static_compliance[0, 0]), 3)  # -> G (static)\n"
             "    (0.0, 1.0)\n");
  def_kernel(m, "step_response_oscillating", &step_response_oscillating, "S0_ij(tau) = S - G (m/N).\n\nExample:\n"
             STRING_EXAMPLE "    >>> S0 = bristle.structures.step_response_oscillating(s, [50.0]).value   # m/N\n"
             "    >>> abs(float(S0[0])) < 1e-6                                                # S -> G\n    True\n");

  m.def(
      "right_limit",
      [](const Structure& s, int i, int j) {
        return right_limit(s, contact_index(s, i, "i"), contact_index(s, j, "j"));
      },
      py::arg("structure"), py::arg("i") = 0, py::arg("j") = 0,
      "L1_ij(0+) (m/(N s)): arccos(D)/(pi rho c sqrt(1-D^2)) for the string at i = j, 0 otherwise (eq. III.30).\n\n"
      "Example:\n    >>> s = bristle.structures.Structure.taut_string()        # undamped, rho c = 1 kg/s\n"
      "    >>> bristle.structures.right_limit(s)                    # arccos(0) / pi = 1/2 m/(N s)\n    0.5\n");
  m.def(
      "sqrt_law_coefficient",
      [](const Structure& s, int i) { return sqrt_law_coefficient(s, contact_index(s, i, "i")); },
      py::arg("structure"), py::arg("i") = 0, "C of L1_ii(tau) ~ C sqrt(tau) for the beams (m/(N s^1.5)).\n\n"
      "Example:\n    >>> b = bristle.structures.Structure.cantilever(damping_ratio=0.0)\n"
      "    >>> bristle.structures.sqrt_law_coefficient(b) > 0        # m/(N s^1.5)\n    True\n");

  py::enum_<KernelQuantity>(m, "KernelQuantity", "The kernel of truncated_kernel: displacement (L1, m/(N s)), velocity (K, m/(N s^2)), step (S, m/N)." "\n\nExample:\n" "    >>> bristle.structures.KernelQuantity.step.name\n" "    'step'\n")
      .value("displacement", KernelQuantity::displacement)
      .value("velocity", KernelQuantity::velocity)
      .value("step", KernelQuantity::step);
  m.def(
      "truncated_kernel",
      [](const Structure& s, long n_modes, KernelQuantity q, FloatOrArray tau, int i, int j) {
        contact_index(s, i, "i");
        contact_index(s, j, "j");
        if (n_modes < 1) throw InvalidInput("n_modes = " + std::to_string(n_modes) + ": must be >= 1");
        const std::vector<double> t = to_vector(tau, "tau");
        std::vector<double> out;
        {
          py::gil_scoped_release release;
          out = truncated_kernel(s, i, j, n_modes, q, t);
        }
        return copy_array(out);
      },
      py::arg("structure"), py::arg("n_modes"), py::arg("quantity"), py::arg("tau"), py::arg("i") = 0,
      py::arg("j") = 0, "The first n_modes terms of a kernel sum (no tail): the brute-force reference (units of the\n"
      "quantity: L1 m/(N s), K m/(N s^2), S m/N).\n\nExample:\n" STRING_EXAMPLE
      "    >>> L = bristle.structures.truncated_kernel(s, 2000, bristle.structures.KernelQuantity.displacement, [0.2])\n"
      "    >>> bool(abs(L[0] - bristle.structures.displacement_kernel(s, [0.2]).value[0]) < 1e-3)\n    True\n");

  py::class_<KernelJump>(m, "KernelJump", "A jump of L1 at tau_s (s) > 0: jump (m/(N s)), a discrete delay gain.\n\nExample:\n"
      "    >>> s = bristle.structures.Structure.taut_string(contact_positions_m=[0.3])       # undamped\n"
      "    >>> round(bristle.structures.kernel_jumps(s, 1.0)[0].tau_s, 12)                   # s: 2 x 0.3 m / 1 m/s\n"
      "    0.6\n")
      .def_readonly("tau_s", &KernelJump::tau_s)
      .def_readonly("jump", &KernelJump::jump)
      .def("__repr__", [](const KernelJump& j) {
        return "KernelJump(tau_s=" + repr_double(j.tau_s) + ", jump=" + repr_double(j.jump) + ")";
      });
  m.def(
      "kernel_jumps",
      [](const Structure& s, double tau_max, int i, int j) {
        return kernel_jumps(s, contact_index(s, i, "i"), contact_index(s, j, "j"), tau_max);
      },
      py::arg("structure"), py::arg("tau_max"), py::arg("i") = 0, py::arg("j") = 0,
      "The exact jumps of L1_ij in (0, tau_max] (undamped string; empty otherwise): a list of KernelJump\n"
      "(tau_s in s, jump in m/(N s)).\n\nExample:\n"
      "    >>> s = bristle.structures.Structure.taut_string(contact_positions_m=[0.3])     # undamped\n"
      "    >>> [round(j.tau_s, 12) for j in bristle.structures.kernel_jumps(s, 2.7)]        # reflections (s)\n"
      "    [0.6, 1.4, 2.0, 2.6]\n");
  py::class_<JumpDetectionOptions> jdo(m, "JumpDetectionOptions", "modes (summed), relative_threshold, consistency (-) of detect_kernel_jumps." "\n\nExample:\n"  "    >>> bristle.structures.JumpDetectionOptions(modes=256).modes\n" "    256\n");
  jdo.def(py::init([](long modes, double thr, double cons) { return JumpDetectionOptions{modes, thr, cons}; }),
          py::kw_only(), py::arg("modes") = 1024, py::arg("relative_threshold") = 0.05, py::arg("consistency") = 0.1)
      .def_readwrite("modes", &JumpDetectionOptions::modes)
      .def_readwrite("relative_threshold", &JumpDetectionOptions::relative_threshold)
      .def_readwrite("consistency", &JumpDetectionOptions::consistency);
  schema_py::bind_schema<JumpDetectionOptions>(jdo, "", false);
  m.def(
      "detect_kernel_jumps",
      [](const Structure& s, double tau_max, int i, int j, const JumpDetectionOptions& o) {
        contact_index(s, i, "i");
        contact_index(s, j, "j");
        py::gil_scoped_release release;
        return detect_kernel_jumps(s, i, j, tau_max, o);
      },
      py::arg("structure"), py::arg("tau_max"), py::arg("i") = 0, py::arg("j") = 0,
      py::arg("options") = JumpDetectionOptions{}, "Jumps of L1 detected numerically from the mode data alone (a list of "
      "KernelJump: tau_s in s, jump in m/(N s))." "\n\nExample:\n"  "    >>> s = bristle.structures.Structure.taut_string(contact_positions_m=[0.3])\n" "    >>> [round(j.tau_s, 2) for j in bristle.structures.detect_kernel_jumps(s, 1.5)]       # s\n" "    [0.6, 1.4]\n");

  py::class_<ModeResponse>(m, "ModeResponse", R"doc(
One underdamped mode q'' + 2 D omega q' + omega^2 q = u: ModeResponse(omega_rad_per_s, damping_ratio).
h (impulse response, s), h_dot, S (step, s^2), S0, Q (ramp), Q0 evaluate elementwise on tau (s).

Example:
    >>> r = bristle.structures.ModeResponse(3.0, 0.2)                    # rad/s, -
    >>> round(float(r.S(1e3)), 12) == round(1 / 9, 12)                    # S -> 1/omega^2 (s^2)
    True
)doc")
      .def(py::init([](double omega, double D) {
             require_positive("omega_rad_per_s", omega);
             require_closed_interval("damping_ratio", D, 0.0, std::nextafter(1.0, 0.0));
             return ModeResponse(omega, D);
           }),
           py::arg("omega_rad_per_s"), py::arg("damping_ratio") = 0.0)
      .def("__reduce__",
           [](const ModeResponse& r) { return reduce_to(py::type::of<ModeResponse>(), r.omega, r.damping); })
      .def_readonly("omega", &ModeResponse::omega)
      .def_readonly("damping", &ModeResponse::damping)
      .def_readonly("omega_d", &ModeResponse::omega_d)
      .def(
          "h", [](const ModeResponse& r, FloatOrArray t) { return map_array(t, "t", [&](double x) { return r.h(x); }); },
          py::arg("tau"), "impulse response h(tau) (s) at tau (s); elementwise on arrays." "\n\nExample:\n" "    >>> r = bristle.structures.ModeResponse(3.0, 0.2)              # omega (rad/s), D (-)\n" "    >>> float(r.h(0.0))                                   # h(0) = 0\n" "    0.0\n")
      .def(
          "h_dot",
          [](const ModeResponse& r, FloatOrArray t) { return map_array(t, "t", [&](double x) { return r.h_dot(x); }); },
          py::arg("tau"), "dh/dtau (-) at tau (s); elementwise on arrays." "\n\nExample:\n" "    >>> r = bristle.structures.ModeResponse(3.0, 0.2)              # omega (rad/s), D (-)\n" "    >>> float(r.h_dot(0.0))                               # dh/dtau(0) = 1\n" "    1.0\n")
      .def(
          "S", [](const ModeResponse& r, FloatOrArray t) { return map_array(t, "t", [&](double x) { return r.S(x); }); },
          py::arg("tau"), "step response S(tau) (s^2) at tau (s); elementwise on arrays." "\n\nExample:\n" "    >>> r = bristle.structures.ModeResponse(3.0, 0.2)              # omega (rad/s), D (-)\n" "    >>> round(float(r.S(1e3)) * 9.0, 12)                 # -> 1/omega^2\n" "    1.0\n")
      .def(
          "S0", [](const ModeResponse& r, FloatOrArray t) { return map_array(t, "t", [&](double x) { return r.S0(x); }); },
          py::arg("tau"), "S0(tau) = S(tau) - 1/omega^2 (s^2); elementwise on arrays." "\n\nExample:\n" "    >>> r = bristle.structures.ModeResponse(3.0, 0.2)              # omega (rad/s), D (-)\n" "    >>> round(float(r.S0(0.0)) * 9.0, 12)                # S(0) = 0\n" "    -1.0\n")
      .def(
          "Q", [](const ModeResponse& r, FloatOrArray t) { return map_array(t, "t", [&](double x) { return r.Q(x); }); },
          py::arg("tau"), "ramp response Q(tau) (s^3) at tau (s); elementwise on arrays." "\n\nExample:\n" "    >>> r = bristle.structures.ModeResponse(3.0, 0.2)              # omega (rad/s), D (-)\n" "    >>> float(r.Q(0.0))\n" "    0.0\n")
      .def(
          "Q0", [](const ModeResponse& r, FloatOrArray t) { return map_array(t, "t", [&](double x) { return r.Q0(x); }); },
          py::arg("tau"), "Q0(tau): the ramp response less its asymptote (s^3); elementwise on arrays." "\n\nExample:\n" "    >>> r = bristle.structures.ModeResponse(3.0, 0.2)              # omega (rad/s), D (-)\n" "    >>> r.Q0(np.array([0.0, 1.0])).shape\n" "    (2,)\n");

  // ---- Contact steppers -----------------------------------------------------------------------------------
  py::class_<ContactStepper>(m, "ContactStepper", R"doc(
A structure seen from its M contact points, advanced in steps dt (s) with forces linear over each step:
v_{n+1} = v_pred + A (f_{n+1} - f_n). contact_count, step_s, steps_taken, time_s, predicted_velocity
(m/s), admittance A (m/(N s), (M, M)), force (N), velocity (m/s), displacement (m);
advance(f_next, compute_displacement=True).

Example:
    >>> s = bristle.structures.Structure.taut_string(damping_ratio=0.1, contact_positions_m=[0.3])
    >>> stepper = bristle.structures.make_reduced_model(s, 1e-3)          # dt = 1 ms
    >>> stepper.advance([0.1]); stepper.steps_taken, round(stepper.time_s, 12)   # f in N
    (1, 0.001)
)doc")
      .def_property_readonly("contact_count", &ContactStepper::contact_count)
      .def_property_readonly("step_s", &ContactStepper::step_s)
      .def_property_readonly("steps_taken", &ContactStepper::steps_taken)
      .def_property_readonly("time_s", &ContactStepper::time_s)
      .def_property_readonly("predicted_velocity",
                             [](const ContactStepper& s) { return copy_array(s.predicted_velocity()); })
      .def_property_readonly("admittance", [](const ContactStepper& s) { return copy_matrix(s.admittance()); })
      .def_property_readonly("force", [](const ContactStepper& s) { return copy_array(s.force()); })
      .def_property_readonly("velocity", [](const ContactStepper& s) { return copy_array(s.velocity()); })
      .def_property_readonly("displacement", [](const ContactStepper& s) { return copy_array(s.displacement()); })
      .def(
          "advance",
          [](ContactStepper& s, ArrayLike f, bool compute_displacement) {
            const VecX f_next = to_vecx(f, "f_next", s.contact_count());
            for (Eigen::Index k = 0; k < f_next.size(); ++k) require_finite("f_next", f_next[k]);
            s.advance(f_next, compute_displacement);
          },
          py::arg("f_next"), py::arg("compute_displacement") = true,
          "Accepts the forces f_{n+1} (N, M values) and moves to t_{n+1}." "\n\nExample:\n" STRING_EXAMPLE "    >>> r = bristle.structures.make_reduced_model(s, 1e-3)\n" "    >>> r.advance([0.5]); r.advance([0.5]); round(r.time_s, 12), r.velocity.shape     # s; m/s per contact\n" "    (0.002, (1,))\n")
      .def_property_readonly("history_terms", &ContactStepper::history_terms)
      .def_property_readonly("description", &ContactStepper::description)
      .def("__repr__", [](const ContactStepper& s) { return "<bristle.structures." + s.description() + ">"; });

  py::class_<ModalModel, ContactStepper>(m, "ModalModel", R"doc(
The truncated N-mode model (eq. II.3, k <= N), exact per step for forces linear over the step:
ModalModel(structure, modes, dt, track_energy=False).

Example:
    >>> s = bristle.structures.Structure.taut_string(damping_ratio=0.1, contact_positions_m=[0.3])
    >>> mm = bristle.structures.ModalModel(s, 50, 1e-3)                   # 50 modes, dt = 1 ms
    >>> mm.mode_count, mm.contact_count
    (50, 1)
)doc")
      .def(py::init([](const Structure& s, long modes, double dt, bool track_energy) {
             ModalModelOptions o;
             o.track_energy = track_energy;
             return std::make_unique<ModalModel>(s, modes, dt, o);
           }),
           py::arg("structure"), py::arg("modes"), py::arg("dt"), py::kw_only(), py::arg("track_energy") = false)
      .def_property_readonly("mode_count", &ModalModel::mode_count)
      .def("stored_energy", &ModalModel::stored_energy, "sum_k (q_k'^2 + omega_k^2 q_k^2)/2 (J)" "\n\nExample:\n" STRING_EXAMPLE "    >>> mm = bristle.structures.ModalModel(s, 20, 1e-3)\n" "    >>> e0 = mm.stored_energy(); mm.advance([1.0]); e0, mm.stored_energy() > 0     # J\n" "    (0.0, True)\n");

  py::class_<ReducedModelOptions> rmo(m, "ReducedModelOptions", R"doc(
window_steps n_w (0: chosen to minimise the work), far_tolerance (dropped far-field modes), kernel
(KernelOptions of the near-field weights).

Example:
    >>> bristle.structures.ReducedModelOptions(window_steps=17).window_steps          # steps of dt
    17
)doc");
  rmo.def(py::init([](long window, double tol, const KernelOptions& k) { return ReducedModelOptions{window, tol, k}; }),
          py::kw_only(), py::arg("window_steps") = 0, py::arg("far_tolerance") = 1e-10,
          py::arg("kernel") = ReducedModelOptions{}.kernel)
      .def_readwrite("kernel", &ReducedModelOptions::kernel)
      .def("validate", &ReducedModelOptions::validate, py::arg("prefix") = "model",
           validate_doc("p = bristle.structures.ReducedModelOptions(); p.far_tolerance = -1.0; p.validate()",
                        "model.far_tolerance = -1: must be > 0").c_str());
  add_copy<ReducedModelOptions>(rmo);
  schema_py::bind_schema<ReducedModelOptions>(rmo, "", false);

  py::class_<ReducedModel, ContactStepper>(m, "ReducedModel", R"doc(
The reduced model (eqs. III.11, III.20): the structure eliminated, a near-field window plus far-field
exponentials. ReducedModel(structure, dt, options=ReducedModelOptions()); every mode must be damped
(use StringDelayModel or make_reduced_model for the undamped string).

Example:
    >>> s = bristle.structures.Structure.taut_string(damping_ratio=0.1, contact_positions_m=[0.3])
    >>> r = bristle.structures.ReducedModel(s, 1e-3, bristle.structures.ReducedModelOptions())
    >>> r.window_steps > 0, r.far_error_bound >= 0                        # m/(N s)
    (True, True)
)doc")
      .def(py::init([](const Structure& s, double dt, const ReducedModelOptions& o) {
             py::gil_scoped_release release;
             return std::make_unique<ReducedModel>(s, dt, o);
           }),
           py::arg("structure"), py::arg("dt"), py::arg("options") = ReducedModelOptions{})
      .def_property_readonly("window_steps", &ReducedModel::window_steps)
      .def_property_readonly("far_modes", &ReducedModel::far_modes)
      .def_property_readonly("far_error_bound", &ReducedModel::far_error_bound, "m/(N s) per N of sup|f|")
      .def(
          "velocity_weight",
          [](const ReducedModel& r, long lag, int i, int j) {
            if (lag < 0 || lag >= r.window_steps())
              throw InvalidInput("lag = " + std::to_string(lag) + ": must be in [0, " +
                                 std::to_string(r.window_steps()) + ")");
            if (i < 0 || i >= r.contact_count() || j < 0 || j >= r.contact_count())
              throw InvalidInput("i, j: must be in [0, " + std::to_string(r.contact_count()) + ")");
            return r.velocity_weight(lag, i, j);
          },
          py::arg("lag"), py::arg("i") = 0, py::arg("j") = 0, "near-field weight e_lag (m/(N s))" "\n\nExample:\n" STRING_EXAMPLE "    >>> bool(np.isfinite(bristle.structures.ReducedModel(s, 1e-3, bristle.structures.ReducedModelOptions()).velocity_weight(0)))\n" "    True\n")
      .def(
          "displacement_weight",
          [](const ReducedModel& r, long lag, int i, int j) {
            if (lag < 0 || lag >= r.window_steps())
              throw InvalidInput("lag = " + std::to_string(lag) + ": must be in [0, " +
                                 std::to_string(r.window_steps()) + ")");
            if (i < 0 || i >= r.contact_count() || j < 0 || j >= r.contact_count())
              throw InvalidInput("i, j: must be in [0, " + std::to_string(r.contact_count()) + ")");
            return r.displacement_weight(lag, i, j);
          },
          py::arg("lag"), py::arg("i") = 0, py::arg("j") = 0, "near-field weight d_lag (m/N)" "\n\nExample:\n" STRING_EXAMPLE "    >>> bool(np.isfinite(bristle.structures.ReducedModel(s, 1e-3, bristle.structures.ReducedModelOptions()).displacement_weight(0)))\n" "    True\n");

  py::class_<StringDelayModel, ContactStepper>(m, "StringDelayModel", R"doc(
The exact neutral delay form of the undamped taut string: StringDelayModel(structure, dt), dt dividing
2 l / c (string_delay_step gives one).

Example:
    >>> s = bristle.structures.Structure.taut_string(contact_positions_m=[0.3])      # undamped, 2 l / c = 2 s
    >>> bristle.structures.StringDelayModel(s, 0.01).period_steps
    200
)doc")
      .def(py::init([](const Structure& s, double dt) { return std::make_unique<StringDelayModel>(s, dt); }),
           py::arg("structure"), py::arg("dt"))
      .def_property_readonly("period_steps", &StringDelayModel::period_steps);
  m.def("string_delay_step", &string_delay_step, py::arg("params"), py::arg("dt"),
        "The largest dt' <= dt (s) dividing 2 l / c.\n\nExample:\n"
        "    >>> bristle.structures.string_delay_step(bristle.structures.TautStringParams(), 0.3)   # 2 l/c = 2 s: 2/7\n"
        "    0.2857142857142857\n");
  m.def(
      "make_reduced_model",
      [](const Structure& s, double dt, const ReducedModelOptions& o) {
        py::gil_scoped_release release;
        return make_reduced_model(s, dt, o);
      },
      py::arg("structure"), py::arg("dt"), py::arg("options") = ReducedModelOptions{},
      "StringDelayModel for an undamped taut string, ReducedModel otherwise (dt in s).\n\nExample:\n" STRING_EXAMPLE
      "    >>> r = bristle.structures.make_reduced_model(s, 1e-3)        # dt = 1 ms\n"
      "    >>> type(r).__name__, r.step_s\n    ('ReducedModel', 0.001)\n");

  // ---- Stick-slip on a belt -------------------------------------------------------------------------------
  py::class_<BeltParams> belt(m, "BeltParams", R"doc(
normal_load_N N (N, > 0), belt_speed_m_per_s v_b (m/s, finite), contact_index (the contact point on the
belt, [0, M)).

Example:
    >>> bristle.structures.BeltParams(normal_load_N=2.0, belt_speed_m_per_s=0.3)      # N, m/s
    BeltParams(normal_load_N=2.0, belt_speed_m_per_s=0.3)
)doc");
  belt.def(py::init([](double N, double vb, int idx) { return BeltParams{N, vb, idx}; }), py::kw_only(),
           py::arg("normal_load_N") = 1.0, py::arg("belt_speed_m_per_s") = 0.1, py::arg("contact_index") = 0);
  add_copy<BeltParams>(belt);
  schema_py::bind_schema<BeltParams>(belt, "", false);

  py::class_<StickSlipOptions> sso(m, "StickSlipOptions", R"doc(
t_end_s (s, > 0), output_every (record every k-th step, >= 1), stick_tolerance_m_per_s (dynamic laws;
0: 1e-3 |v_b|), cycles (averaged for the period).

Example:
    >>> o = bristle.structures.StickSlipOptions(t_end_s=5.0, output_every=10)       # s, steps
    >>> o.t_end_s, o.output_every
    (5.0, 10)
)doc");
  sso.def(py::init([](double t_end, long every, double tol, int cycles) {
            return StickSlipOptions{t_end, every, tol, cycles};
          }),
          py::kw_only(), py::arg("t_end_s") = 10.0, py::arg("output_every") = 1, py::arg("stick_tolerance_m_per_s") = 0.0,
          py::arg("cycles") = 4);
  add_copy<StickSlipOptions>(sso);
  schema_py::bind_schema<StickSlipOptions>(sso, "", false);

  py::class_<StickSlipInterval>(m, "StickSlipInterval", "t_start_s, t_end_s (s), stick (bool).\n\nExample:\n"
      RUN_EXAMPLE "    >>> iv = r.intervals[0]; iv.t_end_s >= iv.t_start_s, type(iv.stick) is bool\n    (True, True)\n")
      .def_readonly("t_start_s", &StickSlipInterval::t_start_s)
      .def_readonly("t_end_s", &StickSlipInterval::t_end_s)
      .def_readonly("stick", &StickSlipInterval::stick);
  py::class_<LimitCycle>(m, "LimitCycle", R"doc(
found, cycles, breakaways_per_cycle, period_s, period_spread_s (s), amplitude_w_m (m), amplitude_v_mps
(m/s), mean_w_m (m), force_min_N, force_max_N (N), stick_fraction.

Example:
    >>> s = bristle.structures.Structure.taut_string(damping_ratio=0.1, contact_positions_m=[0.3])
    >>> r = bristle.structures.run_stick_slip(bristle.structures.make_reduced_model(s, 1e-3),
    ...         bristle.structures.BeltParams(normal_load_N=1.0, belt_speed_m_per_s=0.1),
    ...         bristle.StribeckParams(mu_s=0.5, mu_d=0.3, v_s=0.1), bristle.structures.StickSlipOptions(t_end_s=10.0))
    >>> c = r.cycle; c.found == (c.period_s > 0)
    True
)doc")
      .def_readonly("found", &LimitCycle::found)
      .def_readonly("cycles", &LimitCycle::cycles)
      .def_readonly("cycles_used", &LimitCycle::cycles_used)
      .def_readonly("breakaways_per_cycle", &LimitCycle::breakaways_per_cycle)
      .def_readonly("period_s", &LimitCycle::period_s)
      .def_readonly("period_spread_s", &LimitCycle::period_spread_s)
      .def_readonly("amplitude_w_m", &LimitCycle::amplitude_w_m)
      .def_readonly("amplitude_v_mps", &LimitCycle::amplitude_v_mps)
      .def_readonly("mean_w_m", &LimitCycle::mean_w_m)
      .def_readonly("force_min_N", &LimitCycle::force_min_N)
      .def_readonly("force_max_N", &LimitCycle::force_max_N)
      .def_readonly("stick_fraction", &LimitCycle::stick_fraction)
      .def("__repr__", [](const LimitCycle& c) {
        return "LimitCycle(found=" + std::string(c.found ? "True" : "False") + ", period_s=" + repr_double(c.period_s) +
               ", amplitude_w_m=" + repr_double(c.amplitude_w_m) + ", stick_fraction=" +
               repr_double(c.stick_fraction) + ")";
      });
  py::class_<EnergyAccount>(m, "EnergyAccount", R"doc(
available, belt_work_J, friction_dissipation_J, modal_damping_J, stored_energy_change_J (J), residual_J().

Example:
    >>> s = bristle.structures.Structure.taut_string(damping_ratio=0.1, contact_positions_m=[0.3])
    >>> r = bristle.structures.run_stick_slip(bristle.structures.make_reduced_model(s, 1e-3),
    ...         bristle.structures.BeltParams(normal_load_N=1.0, belt_speed_m_per_s=0.1),
    ...         bristle.StribeckParams(mu_s=0.5, mu_d=0.3, v_s=0.1), bristle.structures.StickSlipOptions(t_end_s=10.0))
    >>> type(r.energy.available) is bool
    True
)doc")
      .def_readonly("available", &EnergyAccount::available)
      .def_readonly("belt_work_J", &EnergyAccount::belt_work_J)
      .def_readonly("friction_dissipation_J", &EnergyAccount::friction_dissipation_J)
      .def_readonly("modal_damping_J", &EnergyAccount::modal_damping_J)
      .def_readonly("stored_energy_change_J", &EnergyAccount::stored_energy_change_J)
      .def("residual_J", &EnergyAccount::residual_J, "belt work - dissipations - stored energy change (J): ~0 when the "
           "account closes." "\n\nExample:\n" RUN_EXAMPLE "    >>> bool(np.isfinite(r.energy.residual_J()))\n    True\n");
  py::class_<StickSlipResult>(m, "StickSlipResult", R"doc(
series (t_s, w_m, v_mps, vr_mps, F_N, stick, ...), intervals, cycle (LimitCycle), energy (EnergyAccount),
steps, well_posed, admittance_m_per_N_s, max_stick_velocity_mps, max_stick_force_ratio.

Example:
    >>> s = bristle.structures.Structure.taut_string(damping_ratio=0.1, contact_positions_m=[0.3])
    >>> r = bristle.structures.run_stick_slip(bristle.structures.make_reduced_model(s, 1e-3),
    ...         bristle.structures.BeltParams(normal_load_N=1.0, belt_speed_m_per_s=0.1),
    ...         bristle.StribeckParams(mu_s=0.5, mu_d=0.3, v_s=0.1), bristle.structures.StickSlipOptions(t_end_s=10.0))
    >>> r.steps, r.well_posed                                 # 10 s at 1 ms
    (10000, True)
)doc")
      .def_readonly("series", &StickSlipResult::series)
      .def_readonly("intervals", &StickSlipResult::intervals)
      .def_readonly("cycle", &StickSlipResult::cycle)
      .def_readonly("energy", &StickSlipResult::energy)
      .def_readonly("steps", &StickSlipResult::steps)
      .def_readonly("well_posed", &StickSlipResult::well_posed)
      .def_readonly("admittance_m_per_N_s", &StickSlipResult::admittance_m_per_N_s)
      .def_readonly("max_stick_velocity_mps", &StickSlipResult::max_stick_velocity_mps)
      .def_readonly("max_stick_force_ratio", &StickSlipResult::max_stick_force_ratio);

  m.def(
      "run_stick_slip",
      [](ContactStepper& stepper, const BeltParams& belt_params, FrictionArg friction, const StickSlipOptions& options,
         ProgressCallback progress) {
        ProgressRelay relay(progress);
        const auto on_progress = relay.function();
        if (py::isinstance<laws::CoulombStribeckParams>(friction)) {
          const auto f = friction.cast<laws::CoulombStribeckParams>();
          py::gil_scoped_release release;
          return run_stick_slip(stepper, belt_params, f, options, on_progress);
        }
        if (py::isinstance<laws::StribeckParams>(friction)) {
          const auto f = friction.cast<laws::StribeckParams>();
          py::gil_scoped_release release;
          return run_stick_slip(stepper, belt_params, f, options, on_progress);
        }
        if (py::isinstance<contact::ContactModel>(friction)) {
          const auto& law = friction.cast<const contact::ContactModel&>();
          py::gil_scoped_release release;
          return run_stick_slip(stepper, belt_params, law, options, on_progress);
        }
        throw py::type_error("friction: expected a CoulombStribeckParams or StribeckParams (Coulomb-Stribeck, "
                             "set-valued stick) or a "
                             "ContactModel (a dynamic law), got " +
                             std::string(py::str(py::type::handle_of(friction).attr("__name__"))));
      },
      py::arg("structure"), py::arg("belt"), py::arg("friction"), py::arg("options") = StickSlipOptions{},
      py::arg("progress") = py::none(),
      R"doc(A contact point of `structure` (a ContactStepper, advanced in place from its current state) pressed
against a moving belt: friction a laws.CoulombStribeckParams (or its coefficient, a StribeckParams:
Coulomb-Stribeck, exact stick) or a ContactModel
(a dynamic law of the core). progress: optional callable(fraction of the steps done). GIL released;
Ctrl-C interrupts (KeyboardInterrupt; the structure is left at the step reached). Returns a StickSlipResult
(forces in N, velocities in m/s, times in s, energies in J).

Example:
    >>> s = bristle.structures.Structure.taut_string(damping_ratio=0.1, contact_positions_m=[0.3])
    >>> r = bristle.structures.run_stick_slip(bristle.structures.make_reduced_model(s, 1e-3),
    ...         bristle.structures.BeltParams(normal_load_N=1.0, belt_speed_m_per_s=0.1),   # N, m/s
    ...         bristle.StribeckParams(mu_s=0.5, mu_d=0.3, v_s=0.1),
    ...         bristle.structures.StickSlipOptions(t_end_s=10.0, output_every=50))      # s
    >>> r.well_posed, r.series.rows > 0
    (True, True)
)doc");
  {  // results pickle by their fields (pickle_fields.hpp)
    auto cycle = py::reinterpret_borrow<py::class_<LimitCycle>>(m.attr("LimitCycle"));
    pickle_fields(cycle, "LimitCycle", &LimitCycle::found, &LimitCycle::cycles, &LimitCycle::cycles_used,
                  &LimitCycle::breakaways_per_cycle, &LimitCycle::period_s, &LimitCycle::period_spread_s,
                  &LimitCycle::amplitude_w_m, &LimitCycle::amplitude_v_mps, &LimitCycle::mean_w_m,
                  &LimitCycle::force_min_N, &LimitCycle::force_max_N, &LimitCycle::stick_fraction);
    auto interval = py::reinterpret_borrow<py::class_<StickSlipInterval>>(m.attr("StickSlipInterval"));
    pickle_fields(interval, "StickSlipInterval", &StickSlipInterval::t_start_s, &StickSlipInterval::t_end_s,
                  &StickSlipInterval::stick);
    auto energy = py::reinterpret_borrow<py::class_<EnergyAccount>>(m.attr("EnergyAccount"));
    pickle_fields(energy, "EnergyAccount", &EnergyAccount::available, &EnergyAccount::belt_work_J,
                  &EnergyAccount::friction_dissipation_J, &EnergyAccount::modal_damping_J,
                  &EnergyAccount::stored_energy_change_J);
    auto result = py::reinterpret_borrow<py::class_<StickSlipResult>>(m.attr("StickSlipResult"));
    pickle_fields(result, "StickSlipResult", &StickSlipResult::series, &StickSlipResult::intervals,
                  &StickSlipResult::cycle, &StickSlipResult::energy, &StickSlipResult::steps,
                  &StickSlipResult::well_posed, &StickSlipResult::admittance_m_per_N_s,
                  &StickSlipResult::max_stick_velocity_mps, &StickSlipResult::max_stick_force_ratio);
    auto samples = py::reinterpret_borrow<py::class_<KernelSamples>>(m.attr("KernelSamples"));
    pickle_fields(samples, "KernelSamples", &KernelSamples::tau_s, &KernelSamples::value, &KernelSamples::error_bound,
                  &KernelSamples::modes, &KernelSamples::method);
    auto jump = py::reinterpret_borrow<py::class_<KernelJump>>(m.attr("KernelJump"));
    pickle_fields(jump, "KernelJump", &KernelJump::tau_s, &KernelJump::jump);
    auto modes = py::reinterpret_borrow<py::class_<ModeTable>>(m.attr("ModeTable"));
    pickle_fields(modes, "ModeTable", &ModeTable::omega, &ModeTable::damping, &ModeTable::values);
  }
  {  // structures (docs/python.md, "Pickling")
    // A structure by its factory and parameters; a generic (or truncated) one by its mode table, as
    // GenericModalParams (Structure.generic of the same table is the same structure).
    auto structure = py::reinterpret_borrow<py::class_<Structure>>(m.attr("Structure"));
    structure.def("__reduce__", [](const Structure& s) -> py::tuple {
      switch (s.kind()) {
        case StructureKind::taut_string:
          return reduce_by("structures.Structure.taut_string", s.string_params());
        case StructureKind::cantilever:
          return reduce_by("structures.Structure.cantilever", s.beam_params());
        case StructureKind::simply_supported_beam:
          return reduce_by("structures.Structure.simply_supported_beam", s.beam_params());
        case StructureKind::generic:
          break;
      }
      const ModeTable t = s.modes(s.mode_count());
      GenericModalParams p;
      p.frequencies_rad_per_s.assign(t.omega.data(), t.omega.data() + t.omega.size());
      p.damping_ratios.assign(t.damping.data(), t.damping.data() + t.damping.size());
      for (Eigen::Index k = 0; k < t.values.rows(); ++k) {
        std::vector<double> row(static_cast<std::size_t>(t.values.cols()));
        for (Eigen::Index j = 0; j < t.values.cols(); ++j) row[static_cast<std::size_t>(j)] = t.values(k, j);
        p.mode_values.push_back(std::move(row));
      }
      return reduce_by("structures.Structure.generic", p);
    });
    // Steppers by their structure, step and options, before their first advance(): an advanced one holds a
    // force history that cannot be set again, so it refuses (TypeError) instead of restarting silently at t = 0.
    const auto require_fresh = [](const ContactStepper& s, const char* name) {
      if (s.steps_taken() > 0)
        throw py::type_error(std::string(name) + ": a stepper that has advanced (" + std::to_string(s.steps_taken()) +
                             " steps) does not pickle: its force history cannot be set again; pickle it before the "
                             "first advance()");
    };
    auto modal = py::reinterpret_borrow<py::class_<ModalModel, ContactStepper>>(m.attr("ModalModel"));
    modal.def("__reduce__", [require_fresh](const ModalModel& x) {
      require_fresh(x, "ModalModel");
      py::dict kwargs;
      kwargs["track_energy"] = x.options().track_energy;
      return py::make_tuple(py::module_::import("bristle._conventions").attr("call_factory_kw"),
                            py::make_tuple("structures.ModalModel", kwargs, x.structure(), x.mode_count(), x.step_s()));
    });
    auto reduced = py::reinterpret_borrow<py::class_<ReducedModel, ContactStepper>>(m.attr("ReducedModel"));
    reduced.def("__reduce__", [require_fresh](const ReducedModel& x) {
      require_fresh(x, "ReducedModel");
      return reduce_to(py::type::of<ReducedModel>(), x.structure(), x.step_s(), x.options());
    });
    auto delay = py::reinterpret_borrow<py::class_<StringDelayModel, ContactStepper>>(m.attr("StringDelayModel"));
    delay.def("__reduce__", [require_fresh](const StringDelayModel& x) {
      require_fresh(x, "StringDelayModel");
      return reduce_to(py::type::of<StringDelayModel>(), x.structure(), x.step_s());
    });
  }
}

}  // namespace bristle::python
