#pragma once
// Shared helpers of the Python bindings: conversions between Python objects and the library's value
// types (with the checks that keep bad input from ever reaching Eigen unchecked), numpy views of
// result columns, and the export_<area>() entry points (one file each, gathered in module.cpp).
//
// Conventions of the bindings
// - Parameter structs take keyword arguments only, have readable and writable attributes, copy()
//   and a repr that reads back as Python.
// - 2x2 matrices (stiffness, damping, Sigma) accept a number k (meaning k I) or a 2x2 array; 2-vectors
//   accept a length-2 sequence (velocities also a number v, meaning (v, 0)).
// - Results are numpy arrays; columns of a TimeSeries are read-only views (no copy) that keep the
//   series alive.
// - Library errors: bristle::InvalidInput -> bristle.InvalidInput (a ValueError),
//   bristle::SolverError -> bristle.SolverError (a RuntimeError), with the library's message.
//   Wrong types -> TypeError; wrong sizes and shapes -> InvalidInput (ValueError).
#include <pybind11/complex.h>
#include <pybind11/eigen.h>
#include <pybind11/functional.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <chrono>
#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "bristle/contact/signal.hpp"
#include "bristle/core/error.hpp"
#include "bristle/core/time_series.hpp"
#include "bristle/core/types.hpp"
#include "bristle/rheology/rheology.hpp"

namespace bristle::python {
namespace py = pybind11;
}  // namespace bristle::python

// ---- Typed Python arguments ---------------------------------------------------------------------------
// Arguments the bindings take as any Python object and check themselves (a number or an array, a Signal or a
// number, a callable or None, ...) are declared with these types instead of py::handle / py::object, so that
// help() and the .pyi stubs (scripts/gen_stubs.py) show what they accept instead of "handle" / "object". Each is
// a py::object (the binding's code is unchanged) whose caster accepts every object, as py::object does: the
// conversion and its error message stay where they were (to_vec2, to_mat2, PointArgs, to_signal, ...).
#define BRISTLE_PY_TYPED_OBJECT(Type, text)                                                 \
  namespace bristle::python {                                                               \
  struct Type : py::object {                                                                \
    Type() = default;                                                                       \
    explicit Type(py::object o) : py::object(std::move(o)) {}                               \
  };                                                                                        \
  }                                                                                         \
  namespace pybind11::detail {                                                              \
  template <>                                                                               \
  struct type_caster<bristle::python::Type> {                                               \
    PYBIND11_TYPE_CASTER(bristle::python::Type, const_name(text));                          \
    bool load(handle src, bool) {                                                           \
      if (!src) return false;                                                               \
      value = bristle::python::Type(reinterpret_borrow<object>(src));                       \
      return true;                                                                          \
    }                                                                                       \
    static handle cast(const bristle::python::Type& v, return_value_policy, handle) {       \
      return v.inc_ref();                                                                   \
    }                                                                                       \
  };                                                                                        \
  }

/// A number or an array-like of numbers (a velocity v meaning (v, 0), 2 values, an (n,) or (n, 2) array; a
/// matrix k meaning k I or 2x2; elementwise arguments).
BRISTLE_PY_TYPED_OBJECT(FloatOrArray, "float | numpy.ndarray")
/// An array-like of numbers (a state, a list of times, a 2-vector).
BRISTLE_PY_TYPED_OBJECT(ArrayLike, "numpy.ndarray")
/// An array-like of numbers or None.
BRISTLE_PY_TYPED_OBJECT(OptionalArray, "numpy.ndarray | None")
/// A number or None.
BRISTLE_PY_TYPED_OBJECT(OptionalFloat, "float | numpy.ndarray | None")
/// A Signal or a number (a constant).
BRISTLE_PY_TYPED_OBJECT(SignalOrFloat, "float | bristle._bristle.contact.Signal")
/// A name (str; the enum value is accepted too), parsed by the library, which suggests the nearest name.
BRISTLE_PY_TYPED_OBJECT(NameOrEnum, "str")
/// progress=: None or a callable.
BRISTLE_PY_TYPED_OBJECT(ProgressCallback, "Callable[..., None] | None")
/// A Python callable.
BRISTLE_PY_TYPED_OBJECT(PyFunction, "Callable[..., Any]")
/// A body (RheologyParams) or None (rigid).
BRISTLE_PY_TYPED_OBJECT(OptionalBody, "bristle._bristle.rheology.RheologyParams | None")
/// IntegratorOptions or None (the defaults).
BRISTLE_PY_TYPED_OBJECT(OptionalOptions, "bristle._bristle.integrate.IntegratorOptions | None")
/// A Python callable or None.
BRISTLE_PY_TYPED_OBJECT(OptionalFunction, "Callable[..., Any] | None")
/// An integer (checked by the binding, which names the key).
BRISTLE_PY_TYPED_OBJECT(IntArg, "int")
/// TautStringParams or None (Structure.taut_string: the parameters, or keywords).
BRISTLE_PY_TYPED_OBJECT(OptionalTautStringParams, "bristle._bristle.structures.TautStringParams | None")
/// BeamParams or None (Structure.cantilever, Structure.simply_supported_beam).
BRISTLE_PY_TYPED_OBJECT(OptionalBeamParams, "bristle._bristle.structures.BeamParams | None")

namespace bristle::python {

namespace py = pybind11;

void export_core(py::module_& m);
void export_laws(py::module_& m);
void export_rheology(py::module_& m);
void export_contact(py::module_& m);
void export_integrate(py::module_& m);
void export_transport(py::module_& m);
void export_io(py::module_& m);
void export_sweeps(py::module_& m);
void export_directional(py::module_& m);
void export_structures(py::module_& m);

/// A number k -> k I, or a 2x2 array-like. TypeError for other types, InvalidInput for other shapes.
Mat2 to_mat2(py::handle value, std::string_view what);
/// A length-2 sequence (or, with `allow_scalar`, a number v -> (v, 0)).
Vec2 to_vec2(py::handle value, std::string_view what, bool allow_scalar = false);
/// A 1-D sequence of numbers; `expected_size` >= 0 checks the length.
VecX to_vecx(py::handle value, std::string_view what, Eigen::Index expected_size = -1);
/// A 1-D sequence of numbers as std::vector.
std::vector<double> to_vector(py::handle value, std::string_view what);

/// The arguments of a numpy-native pointwise evaluation: each argument is one point or an array of n
/// points, and the result gets a leading axis of length n when any argument is an array of points.
///
/// - velocity(value, what): a number v means (v, 0) and 2 values (v_x, v_y) one 2-D velocity, as
///   before; a numpy array of shape (n,) with n != 2 means n velocities (v_i, 0); shape (n, 2) n 2-D
///   velocities (so n = 2 velocities along x are written as an (2, 2) array);
/// - vector(value, what, size): `size` values for one point, an (n, size) array for n points.
/// Every argument with n points must have the same n (arguments of one point are broadcast). Wrong
/// shapes and non-finite values raise InvalidInput (ValueError) naming the argument, e.g.
/// "v_r[3] = nan: must be finite".
class PointArgs {
 public:
  /// Adds a velocity argument (m/s); returns its index.
  std::size_t velocity(py::handle value, std::string_view what);
  /// Adds an argument of `size` values per point; returns its index.
  std::size_t vector(py::handle value, std::string_view what, Eigen::Index size);
  /// True if some argument is an array of points (then results get the leading axis n).
  bool batch() const { return batch_; }
  /// Number of points (1 when no argument is an array of points).
  py::ssize_t size() const { return n_; }
  /// Argument `arg` at point i (broadcast when the argument is one point).
  const double* at(std::size_t arg, py::ssize_t i) const {
    const Arg& a = args_[arg];
    return a.data.data() + (a.batch ? i * a.width : 0);
  }
  Vec2 vec2(std::size_t arg, py::ssize_t i) const {
    const double* p = at(arg, i);
    return Vec2(p[0], p[1]);
  }
  /// A new float64 array for the result: item_shape for one point, (n,) + item_shape for n points.
  py::array_t<double> result(std::vector<py::ssize_t> item_shape) const;

 private:
  struct Arg {
    std::vector<double> data;
    py::ssize_t width = 0;
    bool batch = false;
  };
  void add_points(Arg& arg, py::ssize_t n, std::string_view what);
  std::vector<Arg> args_;
  py::ssize_t n_ = 1;
  bool batch_ = false;
  std::string batch_name_;
};

/// Evaluates fn(i, out) for every point of `args` into a result of `item_shape` per point (row-major):
/// one point gives an array of item_shape (a float for item_shape {}), n points (n,) + item_shape.
template <class Fn>
FloatOrArray evaluate_points(const PointArgs& args, std::vector<py::ssize_t> item_shape, Fn&& fn) {
  py::array_t<double> out = args.result(item_shape);
  py::ssize_t width = 1;
  for (py::ssize_t d : item_shape) width *= d;
  double* dst = out.mutable_data();
  for (py::ssize_t i = 0; i < args.size(); ++i) fn(i, dst + i * width);
  if (!args.batch() && item_shape.empty()) return FloatOrArray(py::float_(dst[0]));
  return FloatOrArray(std::move(out));
}

/// Row-major copies of small Eigen results into a result slot.
inline void put(double* out, const Vec2& v) {
  out[0] = v[0];
  out[1] = v[1];
}
inline void put(double* out, const Mat2& m) {
  out[0] = m(0, 0);
  out[1] = m(0, 1);
  out[2] = m(1, 0);
  out[3] = m(1, 1);
}

/// The RheologyParams a Realisation was made from (rheology.cpp): realise() keeps the kind, the branches and
/// K0 (K_inf for GM), so realise(params_of(r)) equals r. Models and solvers pickle their bodies this way.
rheology::RheologyParams params_of(const rheology::Realisation& r);

/// (callable, args) for __reduce__: pickle rebuilds the object by calling callable(*args) (a class: its
/// constructor, with its argument checks and keep_alive), i.e. models pickle by their parameters.
template <class... Args>
py::tuple reduce_to(py::handle callable, Args&&... args) {
  return py::make_tuple(py::reinterpret_borrow<py::object>(callable), py::make_tuple(std::forward<Args>(args)...));
}

/// (bristle._conventions.call_factory, (factory, args...)) for __reduce__ where the rebuilding function is a
/// function of the compiled module (`factory`, its path below bristle._bristle, e.g. "rheology.realise"): pickle
/// cannot refer to a compiled function itself (its __self__ is a capsule), so a pure-Python function calls it.
template <class... Args>
py::tuple reduce_by(const char* factory, Args&&... args) {
  return py::make_tuple(py::module_::import("bristle._conventions").attr("call_factory"),
                        py::make_tuple(factory, std::forward<Args>(args)...));
}

/// A Signal, or a number as a constant signal (contact.cpp).
contact::Signal to_signal(py::handle value, std::string_view what);

/// A read-only 1-D numpy view of `data` (n doubles) kept valid by `owner`.
py::array_t<double> view(const double* data, std::size_t n, py::handle owner);
/// A new 1-D numpy array holding a copy of `v`.
py::array_t<double> copy_array(const std::vector<double>& v);
py::array_t<double> copy_array(const VecX& v);

/// Python repr of a double (shortest round-trip form; nan and inf as float('nan'), float('inf')).
std::string repr_double(double value);
std::string repr_mat2(const Mat2& m);
std::string repr_vec2(const Vec2& v);
/// Python repr of a list of doubles: [a, b, ...].
std::string repr_list(const std::vector<double>& v);

/// The Python path of a bound class as the user spells it: bristle.patch.PatchParams (its __module__ is
/// bristle._bristle.patch), bristle.LineContactParams for the top level.
inline std::string python_path(py::handle cls) {
  std::string module = py::str(cls.attr("__module__"));
  if (module.rfind("bristle._bristle", 0) == 0) module = "bristle" + module.substr(16);
  return module + "." + std::string(py::str(cls.attr("__name__")));
}

/// Adds copy(), __copy__ and __deepcopy__ to a bound parameter class (plain values: a copy is T(self)).
/// The example of copy() is the same protocol for every parameter class, written with the class's own path.
/// `example`: the example's lines where the class has no default constructor or no equality.
template <class T, class Class>
void add_copy(Class& cls, const std::string& example = "") {
  const std::string doc = "A copy (parameters are plain values: changing the copy leaves the original as it was).\n\n"
                          "Example:\n" +
                          (example.empty() ? "    >>> p = " + python_path(cls) + "()\n    >>> q = p.copy()\n"
                                             "    >>> q == p, q is p\n    (True, False)\n"
                                           : example);
  cls.def(
         "copy", [](const T& self) { return T(self); }, doc.c_str())
      .def("__copy__", [](const T& self) { return T(self); })
      .def(
          "__deepcopy__", [](const T& self, py::dict) { return T(self); }, py::arg("memo"));
}

/// The docstring of a parameter class's validate(prefix): what it does and, as its example, `bad_call` (a
/// Python statement with one value out of range) and the start of its message (`message`, "..." after it).
inline std::string validate_doc(const std::string& bad_call, const std::string& message) {
  return "Raises InvalidInput (ValueError) naming prefix.key, the value and the rule if a value is out of range or\n"
         "not finite (the check a model or solver does when the parameters enter it); returns None otherwise.\n\n"
         "Example:\n    >>> " + bad_call + "\n    Traceback (most recent call last):\n    ...\n    bristle._bristle.InvalidInput: " +
         message + "\n";
}

/// Converts a Python string or enum value into an enum via the library's parser (which throws
/// InvalidInput naming `key` and suggesting the nearest valid name).
template <class Enum, class Parser>
Enum enum_from(py::handle value, std::string_view key, Parser parse) {
  if (py::isinstance<py::str>(value)) return parse(key, value.cast<std::string>());
  try {
    return value.cast<Enum>();
  } catch (const py::cast_error&) {
    throw py::type_error(std::string(key) + ": expected a name (str) or the enum, got " +
                         std::string(py::str(py::type::handle_of(value).attr("__name__"))));
  }
}

/// value.cast<T>() with a TypeError naming `what` (pybind11's own cast_error would be a RuntimeError).
template <class T>
T cast_arg(py::handle value, std::string_view what, std::string_view expected) {
  try {
    return value.cast<T>();
  } catch (const py::cast_error&) {
    throw py::type_error(std::string(what) + ": expected " + std::string(expected) + ", got " +
                         std::string(py::str(py::type::handle_of(value).attr("__name__"))));
  }
}

/// A Python number as a double, for the key or argument `what`: TypeError for a bool (numpy's too: True was taken
/// as 1.0, where the reader refuses `key = true`), an array (a one-entry one was taken as its entry), or an int
/// beyond the range of a double.
inline double number_arg(py::handle value, const std::string& what) {
  const std::string type = py::str(py::type::handle_of(value).attr("__name__"));
  if (py::isinstance<py::bool_>(value) || type == "bool_")
    throw py::type_error(what + " = " + std::string(py::str(value)) + ": expected a number, got bool");
  if (py::hasattr(value, "ndim") && value.attr("ndim").cast<long>() != 0)
    throw py::type_error(what + ": expected a number, got an array (" + type + ")");
  try {
    return value.cast<double>();
  } catch (const py::cast_error&) {
    if (py::isinstance<py::int_>(value))  // 10**400
      throw py::type_error(what + " = " + std::string(py::str(value)).substr(0, 40) +
                           "...: an int beyond the range of a double");
    throw py::type_error(what + ": expected a number, got " + type);
  }
}

/// Applies fn(double) -> double elementwise: a number gives a float, an array-like an array of the
/// same shape.
template <class Fn>
FloatOrArray map_array(py::handle x, const char* name, Fn&& fn) {
  // Non-finite arguments are refused, naming the argument (helper-43: mu(nan), Profile.w(nan), Signal(nan), ...
  // returned NaN): "speed = nan: must be finite", "speed[3] = inf: must be finite".
  if (py::isinstance<py::float_>(x) || py::isinstance<py::int_>(x)) {
    const double v = x.cast<double>();
    require_finite(name, v);
    return FloatOrArray(py::float_(fn(v)));
  }
  if (x.is_none() || py::isinstance<py::str>(x) || py::isinstance<py::bytes>(x))  // numpy would parse "0.1"
    throw py::type_error("expected a number or an array of numbers, got " +
                         std::string(py::str(py::type::handle_of(x).attr("__name__"))));
  auto in = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(x);
  if (!in) throw py::type_error("expected a number or an array of numbers");
  py::array_t<double> out(std::vector<py::ssize_t>(in.shape(), in.shape() + in.ndim()));
  const double* src = in.data();
  double* dst = out.mutable_data();
  for (py::ssize_t i = 0; i < in.size(); ++i) {
    if (!std::isfinite(src[i]))
      require_finite(in.ndim() == 0 ? std::string(name) : std::string(name) + "[" + std::to_string(i) + "]", src[i]);
    dst[i] = fn(src[i]);
  }
  if (in.ndim() == 0) return FloatOrArray(py::float_(dst[0]));
  return FloatOrArray(std::move(out));
}

/// TypeError unless a progress= argument is None or callable (`expected` names the signature): raised
/// before any work, not at the first report.
inline void require_progress_callable(py::handle callback, const std::string& expected) {
  if (!callback.is_none() && PyCallable_Check(callback.ptr()) == 0)
    throw py::type_error("progress: expected a " + expected + " or None, got " +
                         std::string(py::str(py::type::handle_of(callback).attr("__name__"))));
}

/// Relays the progress of a solve that runs with the GIL released to an optional Python callable
/// callback(fraction) (fraction of the run done, 0..1): at most every 0.1 s and at the end, with the GIL
/// taken. Also checks for Ctrl-C at the same times, so that long runs raise KeyboardInterrupt. The
/// callable is borrowed: the caller keeps it alive for the duration of the solve.
class ProgressRelay {
 public:
  /// TypeError at once (before any work) unless `callback` is None or callable.
  explicit ProgressRelay(py::handle callback) : callback_(callback) {
    require_progress_callable(callback, "callable(fraction)");
  }
  void operator()(double fraction) {
    const auto now = std::chrono::steady_clock::now();
    if (fraction < 1.0 && now - last_ < std::chrono::milliseconds(100)) return;
    last_ = now;
    py::gil_scoped_acquire gil;
    if (PyErr_CheckSignals() != 0) throw py::error_already_set();
    if (!callback_.is_none()) callback_(fraction);
  }
  std::function<void(double)> function() {
    return [this](double fraction) { (*this)(fraction); };
  }

 private:
  py::handle callback_;
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

/// A Python callable held by C++ objects that may be copied, called and destroyed on threads that do
/// not hold the GIL (solvers run with the GIL released; sweeps on worker threads). The object is
/// shared through a std::shared_ptr (copies touch no Python reference count); the last owner takes the
/// GIL to release it, and every call takes the GIL (so a solver with a Python callable is correct on
/// any thread, but the calls are serialised by the GIL: no parallel speed-up).
class PyCallable {
 public:
  PyCallable(py::object fn, std::string what) : what_(std::move(what)) {
    if (!PyCallable_Check(fn.ptr()))
      throw py::type_error(what_ + ": expected a callable, got " +
                           std::string(py::str(py::type::handle_of(fn).attr("__name__"))));
    fn_ = std::shared_ptr<py::object>(new py::object(std::move(fn)), [](py::object* p) {
      if (Py_IsInitialized() != 0) {
        py::gil_scoped_acquire gil;
        delete p;
      } else {
        (void)p->release();  // the interpreter is gone: leak the reference rather than touch it
        delete p;
      }
    });
  }
  /// f(x) as a finite double (GIL taken). TypeError for a non-number, InvalidInput for NaN or inf.
  double scalar(double x) const;
  /// f(v) for a 2-vector v (passed as a numpy array of 2), as a 2x2 matrix (GIL taken).
  Mat2 matrix(const Vec2& v) const;
  const py::object& object() const { return *fn_; }
  const std::string& what() const { return what_; }

 private:
  std::shared_ptr<py::object> fn_;
  std::string what_;
};

/// std::function wrappers of a PyCallable (the wrapper type is named so that C++ code can find out
/// whether a std::function holds a Python callable: target<ScalarCallable>() / target<MatrixCallable>()).
struct ScalarCallable {
  PyCallable fn;
  double operator()(double x) const { return fn.scalar(x); }
};
struct MatrixCallable {
  PyCallable fn;
  bool invert = false;  // fn gives G(v); the std::function returns G(v)^-1 (FrBD general form given by G)
  Mat2 operator()(const Vec2& v) const {
    const Mat2 m = fn.matrix(v);  // finite and SPD (checked), so invertible
    return invert ? Mat2(m.inverse()) : m;
  }
};

}  // namespace bristle::python
