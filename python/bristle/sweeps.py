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
"""

from __future__ import annotations

import itertools
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from . import _bristle

__all__ = ["SweepResult", "StderrProgress", "sweep_steady_line", "sweep_steady_lumped", "default_threads"]


def default_threads() -> int:
    """Worker threads used when ``threads`` is None: every hardware thread."""
    return int(_bristle.parallel.hardware_threads())


class StderrProgress:
    """A one-line progress report on stderr (no tqdm needed): ``label: done/total points (x%), t s``.

    Prints nothing for runs shorter than ``delay`` seconds; rewrites the line in place (carriage
    return) on a terminal, and prints a line every ``interval`` seconds otherwise (logs stay short).
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


@dataclass
class SweepResult:
    """Result of a sweep.

    force_N: array of shape ``shape + (N, 2)`` (N velocities, (x, y) components), in N.
    exact: for line sweeps, whether each point was solved by the matrix exponential (else the
    adaptive solver in xi); None for lumped sweeps.
    axes: the grid axes in order (name -> values), then the velocity arrays.
    models: the ContactModel of every grid point (flattened, in grid order).
    seconds: wall time of the parallel part; threads: workers used.
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
        if not isinstance(grid, dict) or not grid:
            raise TypeError("grid: expected a non-empty dict {name: sequence of values}")
        names = list(grid)
        values = [list(grid[n]) for n in names]
        for n, v in zip(names, values):
            if not v:
                raise _bristle.InvalidInput(f"grid[{n!r}]: empty; give at least one value")
        shape = tuple(len(v) for v in values)
        models, lines = [], []
        for point in itertools.product(*values):
            built = model(**dict(zip(names, point)))
            m, line = built if isinstance(built, tuple) else (built, None)
            if not isinstance(m, ContactModel):
                raise TypeError(f"model({dict(zip(names, point))}) returned {type(m).__name__}, not a ContactModel")
            models.append(m)
            lines.append(line)
        axes = dict(zip(names, values))
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
                      progress="auto") -> SweepResult:
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

    Returns a SweepResult; ``force_N[..., i, :]`` equals
    ``transport.steady_state(model_j, line_j, V1[i], V2[i], v_y[i]).force_N`` bit for bit.
    """
    models, lines, axes, shape = _grid_models(model, grid)
    v1, v2, vy = np.broadcast_arrays(_velocity_vector(V1, "V1"), _velocity_vector(V2, "V2"),
                                     _velocity_vector(v_y, "v_y"))
    v1, v2, vy = (np.ascontiguousarray(np.atleast_1d(a), dtype=float) for a in (v1, v2, vy))
    base = line if line is not None else _bristle.transport.LineContactParams()
    if not isinstance(base, _bristle.transport.LineContactParams):
        raise TypeError(f"line: expected LineContactParams, got {type(base).__name__}")
    line_list = [l if l is not None else base for l in lines]
    if all(l is base for l in line_list):
        line_list = [base]
    nthreads = default_threads() if threads is None else int(threads)
    start = time.perf_counter()
    force, exact = _bristle.parallel.steady_line(models, line_list, v1, v2, vy, nthreads,
                                                 _progress_of(progress, "sweep_steady_line"))
    seconds = time.perf_counter() - start
    n = v1.shape[0]
    axes = dict(axes, V1=v1, V2=v2, v_y=vy)
    return SweepResult(force.reshape(shape + (n, 2)), exact.reshape(shape + (n,)), axes, shape, models, seconds,
                       nthreads if nthreads > 0 else default_threads())


def sweep_steady_lumped(model: Union[Any, Sequence[Any], Callable[..., Any]], *, v, normal_load_N: float = 1.0,
                        grid: Optional[Dict[str, Sequence]] = None, threads: Optional[int] = None,
                        progress="auto") -> SweepResult:
    """Lumped steady friction forces (eq. 1 without advection) over a grid of models and velocities.

    v: relative velocities v_r (m/s): a 1-D array of v_x (v_y = 0) or an (N, 2) array of (v_x, v_y).
    normal_load_N: F_z (N). Other arguments as for sweep_steady_line.

    ``force_N[..., i, :]`` equals ``F_z * m.friction(m.steady_state(v_i), v_i)`` bit for bit: the
    steady force including LuGre's output terms (the Stribeck curve plus sigma2 v).
    """
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
    nthreads = default_threads() if threads is None else int(threads)
    start = time.perf_counter()
    force = _bristle.parallel.steady_lumped(models, a, float(normal_load_N), nthreads,
                                            _progress_of(progress, "sweep_steady_lumped"))
    seconds = time.perf_counter() - start
    axes = dict(axes, v=a)
    return SweepResult(force.reshape(shape + (a.shape[0], 2)), None, axes, shape, models, seconds,
                       nthreads if nthreads > 0 else default_threads())
