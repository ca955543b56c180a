"""Parameter sweeps on all cores: steady line-contact forces and lumped steady forces over grids.

The points are computed in C++ (``bristle.parallel``) by ``threads`` worker threads with the GIL
released; every point is one call of the same library function as the serial call
(``transport.steady_state`` or ``ContactModel.friction(steady_state(v), v)``), so the results are
bit-identical to the serial calls whatever the number of threads.

A sweep is a grid of *models* times a vector of *velocities*::

    def model(s, n2):                       # any parameters: s, rheology orders, tau, eps, ...
        return bristle.ContactModel(law, body1, substrate(s, n2))

    r = bristle.sweep_steady_line(model, grid={"s": [0.2, 0.4, 0.6, 0.8], "n2": [0, 1, 2]},
                                  V2=np.geomspace(0.01, 30, 200),
                                  line=bristle.LineContactParams(L_m=0.2, normal_load_N=10))
    r.Fx.shape      # (4, 3, 200): s x n2 x velocity
    r.Fx[1, 2]      # s = 0.4, n2 = 2, every velocity

``model`` may also be one ContactModel or a list of them (then the grid is the list), and the
callable may return ``(model, line)`` to vary the line parameters (L, F_z, pressure) too.

Progress: ``progress="auto"`` (default) prints a line on stderr for sweeps that run longer than half
a second; ``progress=None`` is silent; a callable receives ``(done, total)`` about every 0.1 s.
Ctrl-C stops a sweep (KeyboardInterrupt).

Models whose law calls a Python function (``LawParams(G_inverse=...)``, the FrBD general form) take
the GIL at every evaluation; sweeps over them run on one thread (``result.threads == 1``), with the
same results.

Beyond one machine: every sweep takes ``client=`` (a ``dask.distributed.Client``; Debian:
python3-distributed). Each grid point is then one Dask task that builds its case on a worker (the
``model``/``mechanism``/``structure`` callable travels there, so the grid form is required) and runs it
through the same library call as the threaded path, one thread per task: the results are bit for bit
those of the threaded sweep. Progress is reported per finished point; Ctrl-C, or an exception raised by
the progress callable, cancels the outstanding tasks and re-raises. What crosses to the workers
pickles: the callable (cloudpickle), numpy arrays and the parameter structs passed beside it
(``line``, ``belt``, ``friction``, ``options``, ...: every parameter class pickles, tests/python/test_pickle.py); results come back as
numpy arrays. docs/python.md gives the commands for a cluster of several machines.

Paper 2 and paper 3 sweeps: ``sweep_sliding_force`` (the eps-systems' sliding force against eps and
the limit thresholds rho_+-, over a grid of mechanisms) and ``sweep_stick_slip`` (stick-slip limit
cycles of a structure on a belt over a grid of structure, belt and friction parameters).
"""

from __future__ import annotations

import itertools
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from . import _bristle

__all__ = ["SweepResult", "StderrProgress", "sweep_steady_line", "sweep_steady_lumped", "default_threads",
           "EpsilonSweepResult", "sweep_sliding_force", "StickSlipSweepResult", "sweep_stick_slip"]


def default_threads() -> int:
    """Worker threads used when ``threads`` is None: every hardware thread.

    Units: - (a count). Example: ``sweep_steady_lumped(m, v=v, threads=default_threads())``
    """
    return int(_bristle.parallel.hardware_threads())


class StderrProgress:
    """A one-line progress report on stderr (no tqdm needed): ``label: done/total points (x%), t s``.

    Prints nothing for runs shorter than ``delay`` seconds; rewrites the line in place (carriage
    return) on a terminal, and prints a line every ``interval`` seconds otherwise (logs stay short).

    Units: delay and interval in s. Example: ``sweep_steady_line(..., progress=StderrProgress("fig5", delay=0.0))``
    """

    def __init__(self, label: str = "sweep", delay: float = 0.5, interval: float = None, stream=None):
        self.label = label
        self.delay = delay
        self.stream = stream if stream is not None else sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.interval = interval if interval is not None else (0.1 if self.tty else 5.0)
        self.start = time.perf_counter()
        self.last = -1e300
        self.printed = False

    def __call__(self, done: int, total: int) -> None:
        now = time.perf_counter()
        elapsed = now - self.start
        final = done >= total
        if elapsed < self.delay and not (final and self.printed):
            return
        if not final and now - self.last < self.interval:
            return
        self.last = now
        pct = 100.0 * done / total if total else 100.0
        eta = ""
        if 0 < done < total:
            eta = f", ~{elapsed * (total - done) / done:.1f} s left"
        text = f"{self.label}: {done}/{total} points ({pct:.0f}%), {elapsed:.1f} s{eta}"
        if self.tty:
            self.stream.write("\r" + text + ("\n" if final else ""))
        else:
            self.stream.write(text + "\n")
        self.stream.flush()
        self.printed = True


def _progress_of(progress, label: str):
    if progress is None or progress is False:
        return None
    if progress is True or progress == "auto":
        return StderrProgress(label)
    if callable(progress):
        return progress
    raise TypeError("progress: expected None, 'auto', True, False or a callable(done, total)")


# ---- Dask: one task per grid point ----------------------------------------------------------------

def _dask_point(kind: str, build, point: dict, args: tuple):
    """One grid point on a worker: build the case, run it through the threaded path's call, 1 thread."""
    from . import _bristle as core  # the worker imports bristle here
    item = build(**point)
    if kind == "steady_line":
        line, v1, v2, vy = args
        m, own_line = item if isinstance(item, tuple) else (item, None)
        if not isinstance(m, core.contact.ContactModel):
            raise TypeError(f"model({point}) returned {type(m).__name__}, not a ContactModel")
        return core.parallel.steady_line([m], [own_line if own_line is not None else line], v1, v2, vy, 1, None)
    if kind == "steady_lumped":
        v, normal_load_N = args
        if not isinstance(item, core.contact.ContactModel):
            raise TypeError(f"model({point}) returned {type(item).__name__}, not a ContactModel")
        return core.parallel.steady_lumped([item], v, normal_load_N, 1, None)
    if kind == "sliding_forces":
        eps, gamma, dirs, opts, integrator = args
        if not isinstance(item, core.directional.Mechanism):
            raise TypeError(f"mechanism({point}): expected Mechanism, got {type(item).__name__}")
        return core.parallel.sliding_forces([item], eps, gamma, dirs, opts, integrator, 1, None)
    if kind == "stick_slip":
        base_belt, base_friction, dt, opts, mopts = args
        parts = item if isinstance(item, tuple) else (item,)
        if not isinstance(parts[0], core.structures.Structure):
            raise TypeError(f"structure({point}): expected Structure, got {type(parts[0]).__name__}")
        belt = parts[1] if len(parts) > 1 else base_belt
        friction = parts[2] if len(parts) > 2 else base_friction
        return core.parallel.stick_slip([parts[0]], [belt], [friction], dt, opts, mopts, 1, None)
    raise ValueError(f"_dask_point: unknown kind {kind!r}")


def _grid_axes(grid):
    """The points of a grid {name: values} (dicts, first name slowest), its axes and its shape; one check of
    the grid for the threaded and the Dask paths."""
    if not isinstance(grid, dict) or not grid:
        raise TypeError("grid: expected a non-empty dict {name: sequence of values}")
    names = list(grid)
    values = [list(grid[n]) for n in names]
    for n, v in zip(names, values):
        if not v:
            raise _bristle.InvalidInput(f"grid[{n!r}]: empty; give at least one value")
    points = [dict(zip(names, p)) for p in itertools.product(*values)]
    return points, dict(zip(names, values)), tuple(len(v) for v in values)


def _grid_points(build, grid, what: str):
    """The grid points, axes and shape for the Dask path."""
    if grid is None or not callable(build):
        raise TypeError(f"client: a Dask sweep builds its cases on the workers; give `{what}` as a "
                        f"callable(**point) with grid={{name: values}} (bristle objects do not cross to workers)")
    return _grid_axes(grid)


def _run_on_client(client, kind: str, build, points, args, progress):
    """Submits one task per point, reports progress per finished point, returns the results in point
    order; cancels the outstanding tasks on any exception (Ctrl-C, a progress callable that raises, a
    failed point) and re-raises it."""
    try:
        from distributed import as_completed
    except ImportError as e:  # pragma: no cover - python3-distributed is a dependency of the tests
        raise ImportError("client=: needs dask.distributed (Debian: apt-get install python3-distributed)") from e
    if not hasattr(client, "submit") or not hasattr(client, "cancel"):
        raise TypeError(f"client: expected a dask.distributed.Client, got {type(client).__name__}")
    futures = [client.submit(_dask_point, kind, build, point, args, pure=False) for point in points]
    index = {f.key: i for i, f in enumerate(futures)}
    results = [None] * len(futures)
    done = 0
    try:
        for future in as_completed(futures):
            results[index[future.key]] = future.result()
            done += 1
            if progress is not None:
                progress(done, len(futures))
    except BaseException:
        client.cancel(futures)
        raise
    return results


def _client_threads(client) -> int:
    """Worker threads of the cluster (the tasks' parallelism)."""
    try:
        return int(sum(client.nthreads().values()))
    except Exception:  # noqa: BLE001 - informative only
        return 0


def _concat(results, key=None):
    parts = [r if key is None else r[key] for r in results]
    return np.concatenate([np.asarray(p) for p in parts], axis=0)


@dataclass
class SweepResult:
    """Result of a sweep.

    force_N: array of shape ``shape + (N, 2)`` (N velocities, (x, y) components), in N.
    exact: for line sweeps, whether each point was solved by the matrix exponential (else the
    adaptive solver in xi); None for lumped sweeps.
    axes: the grid axes in order (name -> values), then the velocity arrays.
    models: the ContactModel of every grid point (flattened, in grid order).
    seconds: wall time of the parallel part; threads: workers used.

    Units: force_N in N, velocities in m/s, seconds in s. Example: ``sweep_steady_lumped(papers.sliding_model(0.4, 1), v=[0.1, 1.0], progress=None).Fx``
    """

    force_N: np.ndarray
    exact: Optional[np.ndarray]
    axes: Dict[str, Any]
    shape: Tuple[int, ...]
    models: List[Any] = field(repr=False)
    seconds: float = 0.0
    threads: int = 1

    @property
    def Fx(self) -> np.ndarray:
        """x component of the force (N), shape ``shape + (N,)``."""
        return self.force_N[..., 0]

    @property
    def Fy(self) -> np.ndarray:
        """y component of the force (N), shape ``shape + (N,)``."""
        return self.force_N[..., 1]

    @property
    def points(self) -> int:
        return int(np.prod(self.force_N.shape[:-1]))


def _grid_models(model, grid: Optional[Dict[str, Sequence]]):
    """(models, lines or None, axes, shape) from the model argument and the grid."""
    ContactModel = _bristle.contact.ContactModel
    if grid is not None:
        if not callable(model) or isinstance(model, ContactModel):
            raise TypeError("grid: needs `model` to be a callable(**point) returning a ContactModel")
        points, axes, shape = _grid_axes(grid)
        models, lines = [], []
        for point in points:
            built = model(**point)
            m, line = built if isinstance(built, tuple) else (built, None)
            if not isinstance(m, ContactModel):
                raise TypeError(f"model({point}) returned {type(m).__name__}, not a ContactModel")
            models.append(m)
            lines.append(line)
    elif isinstance(model, ContactModel):
        models, lines, axes, shape = [model], [None], {}, ()
    elif isinstance(model, (list, tuple)):
        models, lines = [], []
        for item in model:
            m, line = item if isinstance(item, tuple) else (item, None)
            if not isinstance(m, ContactModel):
                raise TypeError(f"model: expected ContactModel items, got {type(m).__name__}")
            models.append(m)
            lines.append(line)
        if not models:
            raise _bristle.InvalidInput("model: empty list; give at least one ContactModel")
        axes, shape = {"model": list(range(len(models)))}, (len(models),)
    elif callable(model):
        raise TypeError("model: a callable needs a grid={name: values}")
    else:
        raise TypeError(f"model: expected a ContactModel, a list of them or a callable, got {type(model).__name__}")
    return models, lines, axes, shape


def _velocity_vector(value, name: str) -> np.ndarray:
    if value is None or isinstance(value, (str, bytes)):
        raise TypeError(f"{name}: expected a number or a 1-D array of velocities (m/s)")
    try:
        a = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"{name}: expected a number or a 1-D array of velocities (m/s)") from None
    if a.ndim > 1:
        raise _bristle.InvalidInput(f"{name}: expected a number or a 1-D array, got shape {a.shape}")
    return a


def sweep_steady_line(model: Union[Any, Sequence[Any], Callable[..., Any]], *, V2, V1=0.0, v_y=0.0,
                      line=None, grid: Optional[Dict[str, Sequence]] = None, threads: Optional[int] = None,
                      progress="auto", client=None) -> SweepResult:
    """Steady line-contact forces (paper 1, §5; ``transport.steady_state``) over a grid.

    model: a ContactModel, a list of them, or a callable(**grid point) returning a ContactModel or
        (ContactModel, LineContactParams).
    V1, V2, v_y: material velocities of bodies 1 and 2 along xi and the lateral slip (m/s), numbers or
        1-D arrays broadcast to one velocity axis of length N. Sliding: V1 = 0, V2 = V_x. Rolling:
        V1 = V_r, V2 = V_r + v_x.
    line: LineContactParams (L_m, normal_load_N, pressure) for every model that does not bring its own;
        default LineContactParams() (L = 0.2 m, F_z = 1 N, uniform pressure).
    grid: {name: values}; the Cartesian product, first name slowest, is passed to `model`.
    threads: worker threads (None: every core); progress: "auto", None or callable(done, total).
    client: a dask.distributed.Client: one task per grid point on its workers (needs the grid form),
        the same numbers bit for bit; ``models`` is then empty (the models live on the workers).

    Returns a SweepResult; ``force_N[..., i, :]`` equals
    ``transport.steady_state(model_j, line_j, V1[i], V2[i], v_y[i]).force_N`` bit for bit.

    Units: V1, V2, v_y in m/s; forces in N. Example: ``sweep_steady_line(lambda s: papers.sliding_model(s, 1), grid={"s": [0.2, 0.4]}, V2=np.geomspace(0.01, 30.0, 50), line=bristle.LineContactParams(L_m=0.2, normal_load_N=10.0)).Fx``
    """
    if client is not None:
        points, axes, shape = _grid_points(model, grid, "model")
    else:
        models, lines, axes, shape = _grid_models(model, grid)
    v1, v2, vy = np.broadcast_arrays(_velocity_vector(V1, "V1"), _velocity_vector(V2, "V2"),
                                     _velocity_vector(v_y, "v_y"))
    v1, v2, vy = (np.ascontiguousarray(np.atleast_1d(a), dtype=float) for a in (v1, v2, vy))
    base = line if line is not None else _bristle.transport.LineContactParams()
    if not isinstance(base, _bristle.transport.LineContactParams):
        raise TypeError(f"line: expected LineContactParams, got {type(base).__name__}")
    n = v1.shape[0]
    if client is not None:
        start = time.perf_counter()
        res = _run_on_client(client, "steady_line", model, points, (base, v1, v2, vy),
                             _progress_of(progress, "sweep_steady_line"))
        seconds = time.perf_counter() - start
        force, exact = _concat([r[0] for r in res]), _concat([r[1] for r in res])
        return SweepResult(force.reshape(shape + (n, 2)), exact.reshape(shape + (n,)), dict(axes, V1=v1, V2=v2, v_y=vy),
                           shape, [], seconds, _client_threads(client))
    line_list = [l if l is not None else base for l in lines]
    if all(l is base for l in line_list):
        line_list = [base]
    nthreads = default_threads() if threads is None else int(threads)
    start = time.perf_counter()
    force, exact = _bristle.parallel.steady_line(models, line_list, v1, v2, vy, nthreads,
                                                 _progress_of(progress, "sweep_steady_line"))
    seconds = time.perf_counter() - start
    if _bristle.parallel.calls_python(models):
        nthreads = 1
    axes = dict(axes, V1=v1, V2=v2, v_y=vy)
    return SweepResult(force.reshape(shape + (n, 2)), exact.reshape(shape + (n,)), axes, shape, models, seconds,
                       nthreads if nthreads > 0 else default_threads())


def sweep_steady_lumped(model: Union[Any, Sequence[Any], Callable[..., Any]], *, v, normal_load_N: float = 1.0,
                        grid: Optional[Dict[str, Sequence]] = None, threads: Optional[int] = None,
                        progress="auto", client=None) -> SweepResult:
    """Lumped steady friction forces (eq. 1 without advection) over a grid of models and velocities.

    v: relative velocities v_r (m/s): a 1-D array of v_x (v_y = 0) or an (N, 2) array of (v_x, v_y).
    normal_load_N: F_z (N). Other arguments (client= for a Dask cluster too) as for sweep_steady_line.

    ``force_N[..., i, :]`` equals ``F_z * m.friction(m.steady_state(v_i), v_i)`` bit for bit: the
    steady force including LuGre's output terms (the Stribeck curve plus sigma2 v).

    Units: v in m/s, normal_load_N in N, forces in N. Example: ``sweep_steady_lumped(papers.sliding_model(0.4, 1), v=np.geomspace(1e-3, 10.0, 100), normal_load_N=10.0).Fx``
    """
    if client is not None:
        points, axes, shape = _grid_points(model, grid, "model")
    else:
        models, lines, axes, shape = _grid_models(model, grid)
        if any(l is not None for l in lines):
            raise TypeError("sweep_steady_lumped: the model callable must return a ContactModel (no line)")
    if v is None or isinstance(v, (str, bytes)):
        raise TypeError("v: expected a 1-D array of v_x or an (N, 2) array of (v_x, v_y), m/s")
    try:
        a = np.asarray(v, dtype=float)
    except (TypeError, ValueError):
        raise TypeError("v: expected a 1-D array of v_x or an (N, 2) array of (v_x, v_y), m/s") from None
    if a.ndim == 0:
        a = a.reshape(1)
    if a.ndim == 1:
        a = np.stack([a, np.zeros_like(a)], axis=1)
    if a.ndim != 2 or a.shape[1] != 2:
        raise _bristle.InvalidInput(f"v: expected a 1-D array of v_x or an (N, 2) array, got shape {a.shape}")
    a = np.ascontiguousarray(a)
    if client is not None:
        start = time.perf_counter()
        res = _run_on_client(client, "steady_lumped", model, points, (a, float(normal_load_N)),
                             _progress_of(progress, "sweep_steady_lumped"))
        seconds = time.perf_counter() - start
        return SweepResult(_concat(res).reshape(shape + (a.shape[0], 2)), None, dict(axes, v=a), shape, [], seconds,
                           _client_threads(client))
    nthreads = default_threads() if threads is None else int(threads)
    start = time.perf_counter()
    force = _bristle.parallel.steady_lumped(models, a, float(normal_load_N), nthreads,
                                            _progress_of(progress, "sweep_steady_lumped"))
    seconds = time.perf_counter() - start
    if _bristle.parallel.calls_python(models):
        nthreads = 1
    axes = dict(axes, v=a)
    return SweepResult(force.reshape(shape + (a.shape[0], 2)), None, axes, shape, models, seconds,
                       nthreads if nthreads > 0 else default_threads())


# ---- Paper 2: the eps-systems against the limit play law ------------------------------------------

def _grid_items(item, grid, kinds: tuple, what: str):
    """(items, axes, shape) for an object, a list of objects, or a callable over a grid."""
    def check(x, point=None):
        first = x[0] if isinstance(x, tuple) else x
        if not isinstance(first, kinds[0]):
            where = f"{what}({point})" if point is not None else what
            raise TypeError(f"{where}: expected {kinds[0].__name__}, got {type(first).__name__}")
        return x
    if grid is not None:
        if not callable(item) or isinstance(item, kinds):
            raise TypeError(f"grid: needs `{what}` to be a callable(**point)")
        points, axes, shape = _grid_axes(grid)
        return [check(item(**point), point) for point in points], axes, shape
    if isinstance(item, kinds):
        return [item], {}, ()
    if isinstance(item, (list, tuple)):
        items = [check(x) for x in item]
        if not items:
            raise _bristle.InvalidInput(f"{what}: empty list")
        return items, {what: list(range(len(items)))}, (len(items),)
    if callable(item):
        raise TypeError(f"{what}: a callable needs a grid={{name: values}}")
    raise TypeError(f"{what}: expected {kinds[0].__name__}, a list of them or a callable, got {type(item).__name__}")


@dataclass
class EpsilonSweepResult:
    """Result of sweep_sliding_force.

    mean_N, min_N, max_N: the eps-systems' sliding force (N) averaged over whole wiggles and its sampled
    extremes, shape ``shape + (E, D)`` (E values of eps, D directions); limit_N: rho_+ (direction +1)
    or rho_- (direction -1) of eq. 2.17, shape ``shape + (E, D)`` (constant along eps).
    axes: grid axes, then ``epsilon`` and ``direction``. error: mean_N - limit_N.

    Units: forces in N, epsilon in m. Example: ``sweep_sliding_force([m], epsilon=[1e-2, 1e-3]).mean_N``
    """

    mean_N: np.ndarray
    min_N: np.ndarray
    max_N: np.ndarray
    limit_N: np.ndarray
    axes: Dict[str, Any]
    shape: Tuple[int, ...]
    mechanisms: List[Any] = field(repr=False)
    seconds: float = 0.0
    threads: int = 1
    point_seconds: Optional[np.ndarray] = field(default=None, repr=False)

    @property
    def error(self) -> np.ndarray:
        """mean_N - limit_N (N): tends to 0 like eps^beta, beta = min(1, gamma) (Theorem 1)."""
        return self.mean_N - self.limit_N

    @property
    def points(self) -> int:
        return int(self.mean_N.size)


def sweep_sliding_force(mechanism, *, epsilon, gamma: float = 1.0, directions=(1, -1), grid=None,
                        options=None, integrator=None, threads: Optional[int] = None,
                        progress="auto", client=None) -> EpsilonSweepResult:
    """The eps-systems' sliding force against eps and the limit play law (paper 2, eq. 2.8 vs eq. 2.17).

    For every mechanism, eps and direction, ``directional.measure_sliding_force`` drives the bristle
    through a horizontal spring at constant speed and averages the spring force over whole wiggles;
    as eps -> 0 it tends to rho_+ (rightward) or rho_- (leftward).

    mechanism: a directional.Mechanism, a list of them, or a callable(**grid point) returning one.
    epsilon: 1-D array of eps (m, > 0); gamma: viscosity exponent (eps^gamma, > 0).
    directions: +1 (rightward) and/or -1 (leftward).
    options: directional.SlidingOptions (k_h, speed, wiggles); integrator: IntegratorOptions or None
        (the library's tight defaults).
    threads: worker threads (None: every core); progress: "auto", None or callable(done, total).
    client: a dask.distributed.Client (one task per grid point; the grid form; bit for bit the same).

    Every point equals the serial ``measure_sliding_force`` call bit for bit, whatever ``threads``.
    Profiles or loadings built from Python functions (Profile.custom) are correct on any number of
    threads but serialised by the GIL.

    Units: epsilon in m, forces in N. Example: ``sweep_sliding_force([mechanism], epsilon=np.logspace(-2, -4, 5), directions=(1, -1)).error``
    """
    d = _bristle.directional
    if client is not None:
        points, axes, shape = _grid_points(mechanism, grid, "mechanism")
        mechs = []
    else:
        mechs, axes, shape = _grid_items(mechanism, grid, (d.Mechanism,), "mechanism")
    eps = np.atleast_1d(np.asarray(epsilon, dtype=float)) if not isinstance(epsilon, (str, bytes)) else None
    if eps is None or eps.ndim != 1:
        raise TypeError("epsilon: expected a number or a 1-D array of eps values (m)")
    dirs = np.atleast_1d(np.asarray(directions, dtype=float))
    opts = options if options is not None else d.SlidingOptions()
    nthreads = default_threads() if threads is None else int(threads)
    start = time.perf_counter()
    if client is not None:
        res = _run_on_client(client, "sliding_forces", mechanism, points, (eps, float(gamma), dirs, opts, integrator),
                             _progress_of(progress, "sweep_sliding_force"))
        out = {k: _concat(res, k) for k in ("mean_N", "min_N", "max_N", "limit_N", "wall_seconds")}
        out["threads"] = _client_threads(client)
    else:
        out = _bristle.parallel.sliding_forces(mechs, eps, float(gamma), dirs, opts, integrator, nthreads,
                                               _progress_of(progress, "sweep_sliding_force"))
    seconds = time.perf_counter() - start
    full = shape + (eps.size, dirs.size)
    axes = dict(axes, epsilon=eps, direction=dirs)
    return EpsilonSweepResult(out["mean_N"].reshape(full), out["min_N"].reshape(full), out["max_N"].reshape(full),
                              out["limit_N"].reshape(full), axes, shape, mechs, seconds, int(out["threads"]),
                              out["wall_seconds"].reshape(full))


# ---- Paper 3: stick-slip of a structure on a belt ------------------------------------------------

@dataclass
class StickSlipSweepResult:
    """Result of sweep_stick_slip: limit-cycle quantities with the grid's shape.

    period_s, period_spread_s (s), amplitude_w_m (m), amplitude_v_mps (m/s), force_min_N, force_max_N
    (N), stick_fraction, admittance_m_per_N_s, found (a limit cycle was found), well_posed,
    breakaways_per_cycle; axes: the grid.

    Units: period_s in s, amplitude_w_m in m. Example: ``sweep_stick_slip(...).period_s``
    """

    values: Dict[str, np.ndarray]
    axes: Dict[str, Any]
    shape: Tuple[int, ...]
    seconds: float = 0.0
    threads: int = 1

    def __getattr__(self, name):
        values = self.__dict__.get("values")
        if values is not None and name in values:
            return values[name]
        raise AttributeError(name)

    @property
    def points(self) -> int:
        return int(np.prod(self.shape)) if self.shape else 1


def sweep_stick_slip(structure, *, dt: float, belt=None, friction=None, options=None, model_options=None,
                     grid=None, threads: Optional[int] = None, progress="auto", client=None) -> StickSlipSweepResult:
    """Stick-slip limit cycles of a structure pressed against a moving belt (paper 3) over a grid.

    structure: a structures.Structure, a list of them, or a callable(**grid point) returning a
        Structure or (Structure, BeltParams) or (Structure, BeltParams, StribeckParams).
    dt: step (s) of the reduced model (make_reduced_model); belt: BeltParams for the points that do
        not bring their own (default BeltParams()); friction: StribeckParams (Coulomb-Stribeck with
        exact stick) likewise; options: StickSlipOptions (t_end_s, output_every, cycles);
        model_options: ReducedModelOptions.

    client: a dask.distributed.Client (one task per grid point; the grid form; bit for bit the same).

    Every point equals ``run_stick_slip(make_reduced_model(structure, dt, model_options), belt,
    friction, options).cycle`` bit for bit, whatever ``threads`` (and on a Dask cluster).

    Units: dt in s, belt speeds in m/s, periods in s, amplitudes in m. Example: ``sweep_stick_slip(lambda vb: (string, st.BeltParams(belt_speed_m_per_s=vb)), grid={"vb": [0.05, 0.1]}, dt=1e-3, friction=bristle.StribeckParams(mu_s=0.5, mu_d=0.3)).period_s``
    """
    s = _bristle.structures
    if client is not None:
        points, axes, shape = _grid_points(structure, grid, "structure")
        items = []
    else:
        items, axes, shape = _grid_items(structure, grid, (s.Structure,), "structure")
    base_belt = belt if belt is not None else s.BeltParams()
    base_friction = friction if friction is not None else _bristle.laws.StribeckParams(mu_s=0.5, mu_d=0.3, v_s=0.1)
    if not isinstance(base_belt, s.BeltParams):
        raise TypeError(f"belt: expected BeltParams, got {type(base_belt).__name__}")
    if not isinstance(base_friction, _bristle.laws.StribeckParams):
        raise TypeError(f"friction: expected StribeckParams, got {type(base_friction).__name__}")
    structures, belts, frictions = [], [], []
    for it in items:
        parts = it if isinstance(it, tuple) else (it,)
        structures.append(parts[0])
        belts.append(parts[1] if len(parts) > 1 else base_belt)
        frictions.append(parts[2] if len(parts) > 2 else base_friction)
    opts = options if options is not None else s.StickSlipOptions()
    mopts = model_options if model_options is not None else s.ReducedModelOptions()
    nthreads = default_threads() if threads is None else int(threads)
    start = time.perf_counter()
    if client is not None:
        res = _run_on_client(client, "stick_slip", structure, points, (base_belt, base_friction, float(dt), opts, mopts),
                             _progress_of(progress, "sweep_stick_slip"))
        out = {k: _concat(res, k) for k in res[0] if k != "threads"}
        out["threads"] = _client_threads(client)
    else:
        out = _bristle.parallel.stick_slip(structures, belts, frictions, float(dt), opts, mopts, nthreads,
                                           _progress_of(progress, "sweep_stick_slip"))
    seconds = time.perf_counter() - start
    threads_used = int(out.pop("threads"))
    values = {k: np.asarray(v).reshape(shape) for k, v in out.items()}
    return StickSlipSweepResult(values, axes, shape, seconds, threads_used)
