// Parallel parameter sweeps: steady line-contact forces (transport::steady_state) and lumped steady
// forces over (model, velocity) grids, computed by std::thread workers with the GIL released.
//
// Every point is one independent call of the same library function with the same arguments as the
// serial call, written to its own slot of a preallocated array: the results are bit-identical to the
// serial C++ calls whatever the number of threads or the order the points are taken in. Points are
// handed out one at a time from an atomic counter by bristle::parallel_for (dynamic scheduling:
// general-solver points can be 100x slower than exact ones). While the workers run, the calling thread
// wakes every 0.1 s to report progress to Python and check for Ctrl-C (the GIL taken only then). The first failing point (lowest index among those that failed) stops the sweep; its
// exception reaches Python with the library's message and the point named.
#include <algorithm>
#include <thread>

#include "bristle/contact/contact_model.hpp"
#include "bristle/core/parallel.hpp"
#include "bristle/directional/drive.hpp"
#include "bristle/structures/reduced_model.hpp"
#include "bristle/structures/stick_slip.hpp"
#include "bristle/transport/line_contact.hpp"
#include "common.hpp"

namespace bristle::python {

namespace {

/// Runs fn(k) for k in [0, n) on `threads` workers (bristle::parallel_for). Called with the GIL held;
/// releases it while the workers run and takes it back every 0.1 s to report progress and check for
/// Ctrl-C. `describe(k)` names point k in error messages.
void parallel_for(std::size_t n, int threads, py::handle progress, const std::function<void(std::size_t)>& fn,
                  const std::function<std::string(std::size_t)>& describe) {
  if (n == 0) return;
  ParallelOptions options;
  options.threads = threads;
  options.describe = describe;
  options.poll = [&](std::size_t done) {
    py::gil_scoped_acquire gil;
    if (PyErr_CheckSignals() != 0) throw py::error_already_set();
    if (!progress.is_none()) progress(done, n);
  };
  {
    py::gil_scoped_release release;
    bristle::parallel_for(n, [&](std::size_t k, std::size_t) { fn(k); }, options);
  }
  if (!progress.is_none()) progress(n, n);
}

std::vector<const contact::ContactModel*> model_pointers(const py::sequence& models) {
  std::vector<const contact::ContactModel*> out;
  for (py::handle m : models) {
    if (!py::isinstance<contact::ContactModel>(m))
      throw py::type_error("models: expected a sequence of ContactModel, got an item of type " +
                           std::string(py::str(py::type::handle_of(m).attr("__name__"))));
    out.push_back(&m.cast<const contact::ContactModel&>());
  }
  if (out.empty()) throw InvalidInput("models: empty; at least one ContactModel is needed");
  return out;
}

std::string number(double v) { return format_value(v); }

/// Whether a model's law calls back into Python (LawParams.G_inverse set from Python): such points
/// take the GIL at every evaluation, so they run on one worker (no speed-up to gain, less contention).
bool calls_python(const contact::ContactModel& model) {
  return static_cast<bool>(model.law().params().G_inverse.target<MatrixCallable>());
}

int workers_for(const std::vector<const contact::ContactModel*>& models, int threads) {
  for (const auto* m : models)
    if (calls_python(*m)) return 1;
  return resolve_threads(threads);
}

template <class T>
std::vector<T> cast_list(const py::sequence& items, const char* what, const char* type) {
  std::vector<T> out;
  for (py::handle h : items) out.push_back(cast_arg<T>(h, what, type));
  return out;
}

}  // namespace

void export_sweeps(py::module_& root) {
  py::module_ m = root.def_submodule("parallel", R"doc(
Parallel kernels of the sweeps (see bristle.sweeps for the grid interface): std::thread workers, GIL
released, results bit-identical to the serial library calls.)doc");

  m.def(
      "hardware_threads", [] { return std::max(1u, std::thread::hardware_concurrency()); },
      R"doc(Number of hardware threads (the default number of workers, threads=0).

Example:
    >>> bristle.parallel.hardware_threads() >= 1
    True
)doc");

  m.def(
      "steady_line",
      [](const py::sequence& models, const py::sequence& lines, ArrayLike V1, ArrayLike V2, ArrayLike v_y,
         int threads, ProgressCallback progress) {
        const auto model_ptrs = model_pointers(models);
        const std::size_t M = model_ptrs.size();
        std::vector<transport::LineContactParams> line_params;
        for (py::handle l : lines) {
          if (!py::isinstance<transport::LineContactParams>(l))
            throw py::type_error("lines: expected a sequence of LineContactParams");
          line_params.push_back(l.cast<transport::LineContactParams>());
        }
        if (line_params.size() != 1 && line_params.size() != M)
          throw InvalidInput("lines: " + std::to_string(line_params.size()) + " LineContactParams for " +
                             std::to_string(M) + " models; give one, or one per model");
        for (const auto& l : line_params) l.validate("line");
        const VecX v1 = to_vecx(V1, "V1"), v2 = to_vecx(V2, "V2"), vy = to_vecx(v_y, "v_y");
        const Eigen::Index N = v1.size();
        if (v2.size() != N || vy.size() != N)
          throw InvalidInput("V1, V2, v_y: " + std::to_string(v1.size()) + ", " + std::to_string(v2.size()) + ", " +
                             std::to_string(vy.size()) + " values; they must have the same length");
        for (Eigen::Index i = 0; i < N; ++i) {  // the library's own checks, once, before any thread starts
          require_finite("line.V1", v1[i]);
          require_finite("line.V2", v2[i]);
          require_finite("line.v_y", vy[i]);
        }
        const int workers = workers_for(model_ptrs, threads);
        py::array_t<double> force({static_cast<py::ssize_t>(M), static_cast<py::ssize_t>(N), py::ssize_t{2}});
        py::array_t<bool> exact({static_cast<py::ssize_t>(M), static_cast<py::ssize_t>(N)});
        double* force_out = force.mutable_data();
        bool* exact_out = exact.mutable_data();
        const std::size_t n = M * static_cast<std::size_t>(N);
        parallel_for(
            n, workers, progress,
            [&](std::size_t k) {
              const std::size_t j = k / static_cast<std::size_t>(N);
              const auto i = static_cast<Eigen::Index>(k % static_cast<std::size_t>(N));
              const auto& line = line_params.size() == 1 ? line_params.front() : line_params[j];
              const transport::SteadyLine st = transport::steady_state(*model_ptrs[j], line, v1[i], v2[i], vy[i]);
              force_out[2 * k] = st.force_N[0];
              force_out[2 * k + 1] = st.force_N[1];
              exact_out[k] = st.exact;
            },
            [&](std::size_t k) {
              const std::size_t j = k / static_cast<std::size_t>(N);
              const auto i = static_cast<Eigen::Index>(k % static_cast<std::size_t>(N));
              return "sweep point: model " + std::to_string(j) + ", V1 = " + number(v1[i]) + ", V2 = " + number(v2[i]) +
                     ", v_y = " + number(vy[i]) + " m/s";
            });
        return py::make_tuple(force, exact);
      },
      py::arg("models"), py::arg("lines"), py::arg("V1"), py::arg("V2"), py::arg("v_y"), py::arg("threads") = 0,
      py::arg("progress") = py::none(),
      R"doc(Steady line-contact forces for every (model, velocity) pair.

models: sequence of M ContactModel; lines: one LineContactParams, or one per model; V1, V2, v_y: 1-D
arrays of N velocities (m/s). Returns (force_N (M, N, 2), exact (M, N) bool), force_N[j, i] equal bit
for bit to transport.steady_state(models[j], lines[j], V1[i], V2[i], v_y[i]).force_N.
threads: workers (0: every core); progress: optional callable(done, total).

Example:
    >>> V2 = np.array([0.1, 1.0, 10.0])                                       # m/s, sliding
    >>> F, exact = bristle.parallel.steady_line([papers.sliding_model(0.4, 1)],
    ...                                         [bristle.LineContactParams(L_m=0.2, normal_load_N=10.0)],
    ...                                         np.zeros(3), V2, np.zeros(3), threads=2)
    >>> F.shape, bool(exact.all()), round(float(F[0, 1, 0]), 2)               # N at V2 = 1 m/s
    ((1, 3, 2), True, -9.67)
)doc");

  m.def(
      "steady_lumped",
      [](const py::sequence& models, ArrayLike v, double normal_load_N, int threads, ProgressCallback progress) {
        const auto model_ptrs = model_pointers(models);
        const std::size_t M = model_ptrs.size();
        require_positive("normal_load_N", normal_load_N);
        auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(v);
        if (!a || v.is_none() || py::isinstance<py::str>(v))
          throw py::type_error("v: expected an (N, 2) array of velocities");
        if (a.ndim() != 2 || a.shape(1) != 2)
          throw InvalidInput("v: expected an (N, 2) array of velocities (v_x, v_y), got " + std::to_string(a.ndim()) +
                             " dimensions");
        const auto N = static_cast<std::size_t>(a.shape(0));
        std::vector<Vec2> vel(N);
        for (std::size_t i = 0; i < N; ++i) {
          vel[i] = Vec2(a.data()[2 * i], a.data()[2 * i + 1]);
          require_finite("v_r", vel[i]);
        }
        const int workers = workers_for(model_ptrs, threads);
        py::array_t<double> force({static_cast<py::ssize_t>(M), static_cast<py::ssize_t>(N), py::ssize_t{2}});
        double* out = force.mutable_data();
        parallel_for(
            M * N, workers, progress,
            [&](std::size_t k) {
              const contact::ContactModel& model = *model_ptrs[k / N];
              const Vec2& v_r = vel[k % N];
              const Vec2 f = normal_load_N * model.friction(model.steady_state(v_r).data(), v_r);
              out[2 * k] = f[0];
              out[2 * k + 1] = f[1];
            },
            [&](std::size_t k) {
              return "sweep point: model " + std::to_string(k / N) + ", v_r = (" + number(vel[k % N][0]) + ", " +
                     number(vel[k % N][1]) + ") m/s";
            });
        return force;
      },
      py::arg("models"), py::arg("v"), py::arg("normal_load_N") = 1.0, py::arg("threads") = 0,
      py::arg("progress") = py::none(),
      R"doc(Lumped steady friction forces (eq. 1 without advection) for every (model, velocity) pair.

models: sequence of M ContactModel; v: (N, 2) array of relative velocities v_r (m/s). Returns
force_N (M, N, 2) = normal_load_N * model.friction(model.steady_state(v_r), v_r), bit for bit.
threads: workers (0: every core); progress: optional callable(done, total).

Example:
    >>> v = np.column_stack([np.geomspace(1e-3, 10.0, 5), np.zeros(5)])     # (5, 2) velocities (m/s)
    >>> F = bristle.parallel.steady_lumped([papers.sliding_model(0.4, 1)], v, normal_load_N=10.0, threads=2)
    >>> F.shape, round(float(F[0, 0, 0]), 3)                                 # N: -F_z mu(1e-3 m/s)
    ((1, 5, 2), -10.0)
)doc");

  m.def(
      "calls_python",
      [](const py::sequence& models) {
        for (const auto* p : model_pointers(models))
          if (calls_python(*p)) return true;
        return false;
      },
      py::arg("models"),
      R"doc(Whether any model's law calls a Python function (LawParams.G_inverse): such sweeps run on one thread.

Example:
    >>> law = bristle.LawParams(type="frbd", mu_s=1.0, mu_d=0.7, v_s=6.0, G_inverse=lambda v: 1.0)   # m/s
    >>> bristle.parallel.calls_python([bristle.ContactModel(law, bristle.elastic(240.0)),
    ...                                papers.sliding_model(0.4, 1)])
    True
)doc");

  m.def(
      "sliding_forces",
      [](const py::sequence& mechanisms, FloatOrArray epsilon, double gamma, ArrayLike directions,
         const directional::SlidingOptions& options, OptionalOptions integrator, int threads, ProgressCallback progress) {
        const auto mechs = cast_list<directional::Mechanism>(mechanisms, "mechanisms", "Mechanism");
        if (mechs.empty()) throw InvalidInput("mechanisms: empty; at least one Mechanism is needed");
        const std::vector<double> eps = to_vector(epsilon, "epsilon");
        if (eps.empty()) throw InvalidInput("epsilon: empty; at least one value is needed");
        std::vector<int> dirs;
        for (double d : to_vector(directions, "directions")) {
          if (d != 1.0 && d != -1.0)
            throw InvalidInput("directions: " + format_value(d) + ": must be +1 (rightward) or -1 (leftward)");
          dirs.push_back(static_cast<int>(d));
        }
        if (dirs.empty()) throw InvalidInput("directions: empty; give +1 and/or -1");
        for (double e : eps) directional::EpsilonParams{e, gamma}.validate("");  // before any thread starts
        const bool custom = !integrator.is_none();
        const integrate::Options opts =
            custom ? cast_arg<integrate::Options>(integrator, "integrator", "IntegratorOptions") : integrate::Options{};
        const int workers = resolve_threads(threads);
        const std::size_t M = mechs.size(), E = eps.size(), D = dirs.size(), n = M * E * D;
        const std::vector<py::ssize_t> shape{static_cast<py::ssize_t>(M), static_cast<py::ssize_t>(E),
                                             static_cast<py::ssize_t>(D)};
        py::array_t<double> mean(shape), lo(shape), hi(shape), limit(shape), seconds(shape);
        double *mean_out = mean.mutable_data(), *lo_out = lo.mutable_data(), *hi_out = hi.mutable_data(),
               *limit_out = limit.mutable_data(), *sec_out = seconds.mutable_data();
        parallel_for(
            n, workers, progress,
            [&](std::size_t k) {
              const std::size_t a = k / (E * D), b = (k / D) % E, c = k % D;
              const directional::EpsilonParams ep{eps[b], gamma};
              const directional::SlidingForce f =
                  custom ? directional::measure_sliding_force(mechs[a], ep, dirs[c], options, opts)
                         : directional::measure_sliding_force(mechs[a], ep, dirs[c], options);
              mean_out[k] = f.mean_N;
              lo_out[k] = f.min_N;
              hi_out[k] = f.max_N;
              limit_out[k] = f.limit_N;
              sec_out[k] = f.wall_seconds;
            },
            [&](std::size_t k) {
              return "sweep point: mechanism " + std::to_string(k / (E * D)) + ", epsilon = " +
                     number(eps[(k / D) % E]) + " m, direction " + std::to_string(dirs[k % D]);
            });
        py::dict out;
        out["mean_N"] = mean;
        out["min_N"] = lo;
        out["max_N"] = hi;
        out["limit_N"] = limit;
        out["wall_seconds"] = seconds;
        out["threads"] = workers;
        return out;
      },
      py::arg("mechanisms"), py::arg("epsilon"), py::arg("gamma") = 1.0, py::arg("directions") = std::vector<double>{1.0, -1.0},
      py::arg("options") = directional::SlidingOptions{}, py::arg("integrator") = py::none(), py::arg("threads") = 0,
      py::arg("progress") = py::none(),
      R"doc(The eps-systems' mean sliding forces (paper 2, eq. 2.8 driven through a horizontal spring) for every
(mechanism, eps, direction): a dict of (M, E, D) arrays mean_N, min_N, max_N, limit_N (rho_+- of eq.
2.17, N), wall_seconds; each point equal bit for bit to directional.measure_sliding_force(mechanisms[a],
EpsilonParams(epsilon=eps[b], gamma=gamma), directions[c], options[, integrator]).

Example:
    >>> w = bristle.directional.Profile(bristle.directional.ProfileParams(kind="sine", amplitude=0.5 / (2 * math.pi)))
    >>> m = bristle.directional.Mechanism(bristle.directional.MechanismParams(kind="slanted", k=1.0, height_m=1.0,
    ...                                   rest_length_m=1.5, theta_rad=0.5), w)
    >>> r = bristle.parallel.sliding_forces([m], [0.05], directions=[1.0], threads=1)       # eps = 5 cm
    >>> r["mean_N"].shape                                                  # (M, E, D), N
    (1, 1, 1)
)doc");

  m.def(
      "stick_slip",
      [](const py::sequence& structures, const py::sequence& belts, const py::sequence& frictions, double dt,
         const structures::StickSlipOptions& options, const structures::ReducedModelOptions& model_options,
         int threads, ProgressCallback progress) {
        const auto S = cast_list<structures::Structure>(structures, "structures", "Structure");
        const auto B = cast_list<structures::BeltParams>(belts, "belts", "BeltParams");
        const auto F = cast_list<laws::StribeckParams>(frictions, "frictions", "StribeckParams");
        const std::size_t n = S.size();
        if (n == 0) throw InvalidInput("structures: empty; at least one Structure is needed");
        if (B.size() != n || F.size() != n)
          throw InvalidInput("structures, belts, frictions: " + std::to_string(n) + ", " + std::to_string(B.size()) +
                             ", " + std::to_string(F.size()) + " items; they must have the same length");
        require_positive("run.dt_s", dt);
        options.validate("run");
        model_options.validate("model");
        for (std::size_t k = 0; k < n; ++k) {
          B[k].validate("contact", S[k].contact_count());
          F[k].validate("friction");
        }
        const int workers = resolve_threads(threads);
        const auto N = static_cast<py::ssize_t>(n);
        py::array_t<double> period(N), spread(N), amp_w(N), amp_v(N), fmin(N), fmax(N), stick(N), admittance(N);
        py::array_t<bool> found(N), well_posed(N);
        py::array_t<int> breakaways(N);
        double *o_period = period.mutable_data(), *o_spread = spread.mutable_data(), *o_amp_w = amp_w.mutable_data(),
               *o_amp_v = amp_v.mutable_data(), *o_fmin = fmin.mutable_data(), *o_fmax = fmax.mutable_data(),
               *o_stick = stick.mutable_data(), *o_adm = admittance.mutable_data();
        bool *o_found = found.mutable_data(), *o_well = well_posed.mutable_data();
        int* o_break = breakaways.mutable_data();
        parallel_for(
            n, workers, progress,
            [&](std::size_t k) {
              const auto model = structures::make_reduced_model(S[k], dt, model_options);
              const auto r = structures::run_stick_slip(*model, B[k], F[k], options);
              o_period[k] = r.cycle.period_s;
              o_spread[k] = r.cycle.period_spread_s;
              o_amp_w[k] = r.cycle.amplitude_w_m;
              o_amp_v[k] = r.cycle.amplitude_v_mps;
              o_fmin[k] = r.cycle.force_min_N;
              o_fmax[k] = r.cycle.force_max_N;
              o_stick[k] = r.cycle.stick_fraction;
              o_adm[k] = r.admittance_m_per_N_s;
              o_found[k] = r.cycle.found;
              o_well[k] = r.well_posed;
              o_break[k] = r.cycle.breakaways_per_cycle;
            },
            [&](std::size_t k) {
              return "sweep point " + std::to_string(k) + ": belt speed " + number(B[k].belt_speed_m_per_s) +
                     " m/s, normal load " + number(B[k].normal_load_N) + " N";
            });
        py::dict out;
        out["period_s"] = period;
        out["period_spread_s"] = spread;
        out["amplitude_w_m"] = amp_w;
        out["amplitude_v_mps"] = amp_v;
        out["force_min_N"] = fmin;
        out["force_max_N"] = fmax;
        out["stick_fraction"] = stick;
        out["admittance_m_per_N_s"] = admittance;
        out["found"] = found;
        out["well_posed"] = well_posed;
        out["breakaways_per_cycle"] = breakaways;
        out["threads"] = workers;
        return out;
      },
      py::arg("structures"), py::arg("belts"), py::arg("frictions"), py::arg("dt"),
      py::arg("options") = structures::StickSlipOptions{}, py::arg("model_options") = structures::ReducedModelOptions{},
      py::arg("threads") = 0, py::arg("progress") = py::none(),
      R"doc(Stick-slip limit cycles (paper 3) for P points (structures[k], belts[k], frictions[k] a StribeckParams):
each point runs structures.run_stick_slip(make_reduced_model(structures[k], dt, model_options), belts[k],
frictions[k], options) on a worker thread. Returns a dict of length-P arrays (period_s, period_spread_s,
amplitude_w_m, amplitude_v_mps, force_min_N, force_max_N, stick_fraction, admittance_m_per_N_s, found,
well_posed, breakaways_per_cycle) and the threads used.

Example:
    >>> s = bristle.structures.Structure.taut_string(damping_ratio=0.1, contact_positions_m=[0.3])
    >>> r = bristle.parallel.stick_slip([s, s], [bristle.structures.BeltParams(belt_speed_m_per_s=v) for v in (0.1, 0.2)],
    ...                                 [bristle.StribeckParams(mu_s=0.5, mu_d=0.3, v_s=0.1)] * 2, 1e-3,
    ...                                 bristle.structures.StickSlipOptions(t_end_s=5.0), threads=2)   # dt (s)
    >>> r["period_s"].shape, r["found"].dtype                             # s, per point
    ((2,), dtype('bool'))
)doc");
}

}  // namespace bristle::python
