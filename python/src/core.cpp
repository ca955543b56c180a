// Python bindings of bristle/core: errors, TimeSeries, regularised norms, rotation; and the shared
// conversion helpers of common.hpp.
#include <fmt/format.h>

#include <cmath>
#include <sstream>

#include "bristle/core/norms.hpp"
#include "common.hpp"
#include "pickle_fields.hpp"

namespace bristle::python {

namespace {

std::string shape_text(const py::array& a) {
  std::string s = "(";
  for (py::ssize_t i = 0; i < a.ndim(); ++i) {
    s += std::to_string(a.shape(i));
    if (a.ndim() == 1 || i + 1 < a.ndim()) s += a.ndim() == 1 ? "," : ", ";
  }
  return s + ")";
}

std::string type_name(py::handle value) { return py::str(py::type::handle_of(value).attr("__name__")); }

/// The value as a float64 C-contiguous array, rejecting strings and None (which numpy would turn into
/// numbers or NaN) with a TypeError.
py::array_t<double, py::array::c_style | py::array::forcecast> as_array(py::handle value, std::string_view what,
                                                                        std::string_view expected) {
  if (value.is_none() || py::isinstance<py::str>(value) || py::isinstance<py::bytes>(value))
    throw py::type_error(std::string(what) + ": expected " + std::string(expected) + ", got " + type_name(value));
  auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(value);
  if (!a) throw py::type_error(std::string(what) + ": expected " + std::string(expected) + ", got " + type_name(value));
  return a;
}

}  // namespace

Mat2 to_mat2(py::handle value, std::string_view what) {
  const auto a = as_array(value, what, "a number or a 2x2 matrix");
  if (a.ndim() == 0) {  // k I with exact zeros off the diagonal (no -0 for negative k)
    Mat2 m = Mat2::Zero();
    m(0, 0) = m(1, 1) = a.data()[0];
    return m;
  }
  if (a.ndim() != 2 || a.shape(0) != 2 || a.shape(1) != 2)
    throw InvalidInput(std::string(what) + ": expected a number or a 2x2 matrix, got an array of shape " +
                       shape_text(a));
  Mat2 m;
  m << a.at(0, 0), a.at(0, 1), a.at(1, 0), a.at(1, 1);
  return m;
}

Vec2 to_vec2(py::handle value, std::string_view what, bool allow_scalar) {
  const auto a = as_array(value, what, allow_scalar ? "a number or 2 values (x, y)" : "2 values (x, y)");
  if (allow_scalar && a.ndim() == 0) return Vec2(a.data()[0], 0.0);
  if (a.ndim() != 1 || a.shape(0) != 2)
    throw InvalidInput(std::string(what) + ": expected 2 values (x, y), got " +
                       (a.ndim() == 0 ? std::string("a number") : "an array of shape " + shape_text(a)));
  return Vec2(a.data()[0], a.data()[1]);
}

VecX to_vecx(py::handle value, std::string_view what, Eigen::Index expected_size) {
  const auto a = as_array(value, what, "a 1-D array of numbers");
  if (a.ndim() != 1)
    throw InvalidInput(std::string(what) + ": expected a 1-D array, got " +
                       (a.ndim() == 0 ? std::string("a number") : "an array of shape " + shape_text(a)));
  if (expected_size >= 0 && a.shape(0) != expected_size)
    throw InvalidInput(std::string(what) + ": " + std::to_string(a.shape(0)) + " values; expected " +
                       std::to_string(expected_size));
  VecX v(a.shape(0));
  for (py::ssize_t i = 0; i < a.shape(0); ++i) v[i] = a.data()[i];
  return v;
}

std::vector<double> to_vector(py::handle value, std::string_view what) {
  const VecX v = to_vecx(value, what);
  return std::vector<double>(v.data(), v.data() + v.size());
}

void PointArgs::add_points(Arg& arg, py::ssize_t n, std::string_view what) {
  arg.batch = true;
  if (batch_ && n != n_)
    throw InvalidInput(std::string(what) + ": " + std::to_string(n) + " points, but " + batch_name_ + " has " +
                       std::to_string(n_));
  if (!batch_) {
    batch_ = true;
    n_ = n;
    batch_name_ = std::string(what);
  }
}

namespace {

void require_finite_points(const std::vector<double>& data, py::ssize_t width, bool batch, std::string_view what) {
  for (std::size_t k = 0; k < data.size(); ++k) {
    // Finite, and within the scenario reader's magnitude (helper-43: a velocity of 1e300 gave NaN forces, states and
    // G^-1: squares overflow)
    if (std::isfinite(data[k]) && std::abs(data[k]) <= kMaxMagnitude) continue;
    std::string where(what);
    if (batch) where += "[" + std::to_string(static_cast<py::ssize_t>(k) / width) + "]";  // the point
    throw InvalidInput(where + " = " + format_value(data[k]) +
                       (std::isfinite(data[k]) ? ": magnitude above " + format_value(kMaxMagnitude)
                                               : std::string(": must be finite")));
  }
}

}  // namespace

std::size_t PointArgs::velocity(py::handle value, std::string_view what) {
  const auto a = as_array(value, what, "a number, 2 values (x, y), or an (n,) or (n, 2) array of velocities");
  Arg arg;
  arg.width = 2;
  const bool is_ndarray = py::isinstance<py::array>(value);
  if (a.ndim() == 0) {
    arg.data = {a.data()[0], 0.0};
  } else if (a.ndim() == 1 && a.shape(0) == 2) {
    arg.data = {a.data()[0], a.data()[1]};
  } else if (a.ndim() == 1 && is_ndarray) {
    add_points(arg, a.shape(0), what);
    arg.data.assign(static_cast<std::size_t>(2 * a.shape(0)), 0.0);
    for (py::ssize_t i = 0; i < a.shape(0); ++i) arg.data[static_cast<std::size_t>(2 * i)] = a.data()[i];
  } else if (a.ndim() == 2 && a.shape(1) == 2) {
    add_points(arg, a.shape(0), what);
    arg.data.assign(a.data(), a.data() + a.size());
  } else if (a.ndim() == 1) {
    throw InvalidInput(std::string(what) + ": expected 2 values (x, y), got an array of shape " + shape_text(a));
  } else {
    throw InvalidInput(std::string(what) + ": expected a number, 2 values (x, y), or an (n,) or (n, 2) array, got an "
                       "array of shape " + shape_text(a));
  }
  require_finite_points(arg.data, arg.width, arg.batch, what);
  args_.push_back(std::move(arg));
  return args_.size() - 1;
}

std::size_t PointArgs::vector(py::handle value, std::string_view what, Eigen::Index size) {
  const auto a = as_array(value, what, "a 1-D array of numbers or an (n, " + std::to_string(size) + ") array");
  Arg arg;
  arg.width = size;
  if (a.ndim() == 1) {
    if (a.shape(0) != size)
      throw InvalidInput(std::string(what) + ": " + std::to_string(a.shape(0)) + " values; expected " +
                         std::to_string(size));
  } else if (a.ndim() == 2 && a.shape(1) == size) {
    add_points(arg, a.shape(0), what);
  } else {
    throw InvalidInput(std::string(what) + ": expected a 1-D array, got " +
                       (a.ndim() == 0 ? std::string("a number") : "an array of shape " + shape_text(a)));
  }
  arg.data.assign(a.data(), a.data() + a.size());
  require_finite_points(arg.data, arg.width, arg.batch, what);
  args_.push_back(std::move(arg));
  return args_.size() - 1;
}

py::array_t<double> PointArgs::result(std::vector<py::ssize_t> item_shape) const {
  if (batch_) item_shape.insert(item_shape.begin(), n_);
  return py::array_t<double>(item_shape);
}

py::array_t<double> view(const double* data, std::size_t n, py::handle owner) {
  py::array_t<double> a({static_cast<py::ssize_t>(n)}, {static_cast<py::ssize_t>(sizeof(double))}, data, owner);
  py::detail::array_proxy(a.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return a;
}

py::array_t<double> copy_array(const std::vector<double>& v) {
  py::array_t<double> a(static_cast<py::ssize_t>(v.size()));
  std::copy(v.begin(), v.end(), a.mutable_data());
  return a;
}

py::array_t<double> copy_array(const VecX& v) {
  py::array_t<double> a(static_cast<py::ssize_t>(v.size()));
  std::copy(v.data(), v.data() + v.size(), a.mutable_data());
  return a;
}

std::string repr_double(double value) {
  if (std::isnan(value)) return "float('nan')";
  if (std::isinf(value)) return value > 0 ? "float('inf')" : "float('-inf')";
  return py::repr(py::float_(value));
}

std::string repr_mat2(const Mat2& m) {
  if (m(0, 1) == 0.0 && m(1, 0) == 0.0 && m(0, 0) == m(1, 1)) return repr_double(m(0, 0));
  return "[[" + repr_double(m(0, 0)) + ", " + repr_double(m(0, 1)) + "], [" + repr_double(m(1, 0)) + ", " +
         repr_double(m(1, 1)) + "]]";
}

std::string repr_vec2(const Vec2& v) { return "[" + repr_double(v[0]) + ", " + repr_double(v[1]) + "]"; }

std::string repr_list(const std::vector<double>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + repr_double(v[i]);
  return s + "]";
}

void check_unpickled(const char* name, const TimeSeries& t) {
  if (t.columns.size() != t.names.size())
    throw InvalidInput(fmt::format("{}: pickled state of {} names and {} columns; expected one column per name", name,
                                   t.names.size(), t.columns.size()));
  for (std::size_t c = 0; c < t.columns.size(); ++c)
    if (t.columns[c].size() != t.rows())
      throw InvalidInput(fmt::format("{}: pickled column \"{}\" has {} rows, column \"{}\" {}; all columns have the "
                                     "same length",
                                     name, t.names[c], t.columns[c].size(), t.names.front(), t.rows()));
}

namespace {

std::size_t column_index(const TimeSeries& ts, const std::string& name) {
  for (std::size_t i = 0; i < ts.names.size(); ++i)
    if (ts.names[i] == name) return i;
  std::string valid;
  for (const auto& n : ts.names) valid += (valid.empty() ? "" : ", ") + n;
  const std::string near = nearest_word(name, ts.names);
  throw py::key_error("TimeSeries: no column named \"" + name + "\"" +
                      (near.empty() ? std::string() : "; did you mean \"" + near + "\"?") + " (columns: " + valid +
                      ")");
}

}  // namespace

void export_core(py::module_& m) {
  py::register_exception<InvalidInput>(m, "InvalidInput", PyExc_ValueError);
  py::register_exception<SolverError>(m, "SolverError", PyExc_RuntimeError);
  m.attr("InvalidInput").attr("__doc__") =
      "Invalid input (parameters, scenario files, tables, array sizes): a ValueError carrying the library's "
      "message, which names the key, the value and the rule, e.g. \"law.mu_s = -1: must be > 0\".";
  m.attr("SolverError").attr("__doc__") =
      "A numerical solve failed (step-size collapse, non-finite state, exhausted step budget): a RuntimeError "
      "carrying the library's message.";

  py::class_<TimeSeries>(m, "TimeSeries", R"doc(
A table of named columns, one row per output time: the result type of every solver.

Column names carry SI units ("t_s", "x_m", "v_mps", "F_N"). ``ts["F_N"]`` is a read-only numpy view of
a column (no copy; it keeps the series alive), ``ts.columns`` a dict of all of them, ``ts.names`` the
names in order, ``len(ts)`` the number of rows. Use ``ts.to_dict()`` for writable copies.

Example:
    >>> ts = bristle.TimeSeries.from_columns({"t_s": [0.0, 0.5, 1.0], "F_N": [0.0, -0.8, -1.0]})
    >>> len(ts), ts.names, ts["F_N"][-1]          # rows, columns, N at t = 1 s
    (3, ['t_s', 'F_N'], -1.0)
)doc")
      .def_static(
          "from_columns",
          [](const py::dict& columns) {
            TimeSeries ts;
            for (const auto& [key, value] : columns) {
              ts.names.push_back(py::str(key));
              const std::vector<double> v = to_vector(value, "column \"" + ts.names.back() + "\"");
              if (!ts.columns.empty() && v.size() != ts.columns.front().size())
                throw InvalidInput("column \"" + ts.names.back() + "\": " + std::to_string(v.size()) +
                                   " values; the first column has " + std::to_string(ts.columns.front().size()));
              ts.columns.push_back(v);
            }
            return ts;
          },
          py::arg("columns"),
          R"doc(A TimeSeries from a dict {name: 1-D array}; all columns must have the same length. The series is
immutable afterwards (views of its columns stay valid). Name columns with their unit (t_s, F_N, v_mps).

Example:
    >>> t = np.linspace(0.0, 1.0, 11)                                         # s
    >>> ts = bristle.TimeSeries.from_columns({"t_s": t, "v_mps": 0.1 * t})    # m/s
    >>> ts.rows, ts["v_mps"][10]
    (11, 0.1)
)doc")
      .def_property_readonly(
          "names", [](const TimeSeries& ts) { return ts.names; }, "Column names, in order.")
      .def_property_readonly("rows", &TimeSeries::rows, "Number of rows.")
      .def("__len__", &TimeSeries::rows)
      .def("__contains__", [](const TimeSeries& ts, const std::string& name) { return ts.has(name); })
      .def(
          "keys", [](const TimeSeries& ts) { return ts.names; }, R"doc(Column names (with their units), in order.

Example:
    >>> ts = bristle.TimeSeries.from_columns({"t_s": [0.0, 0.5, 1.0], "F_N": [0.0, -0.8, -1.0]})
    >>> ts.keys()
    ['t_s', 'F_N']
)doc")
      .def(
          "__iter__", [](const TimeSeries& ts) { return py::iter(py::cast(ts.names)); },
          "Iterates over the column names (like a dict).")
      .def(
          "__getitem__",
          [](const TimeSeries& ts, const std::string& name) {
            // The Python object of `ts` (registered: this is a method call on it) owns the view.
            const py::object self = py::cast(&ts, py::return_value_policy::reference);
            const auto& col = ts.columns[column_index(ts, name)];
            return view(col.data(), col.size(), self);
          },
          py::arg("name"), "Read-only numpy view of the column `name` (KeyError naming the columns if absent).")
      .def_property_readonly(
          "columns",
          [](py::object self) {
            const TimeSeries& ts = self.cast<const TimeSeries&>();
            py::dict d;
            for (std::size_t i = 0; i < ts.names.size(); ++i)
              d[py::str(ts.names[i])] = view(ts.columns[i].data(), ts.columns[i].size(), self);
            return d;
          },
          "dict {name: read-only numpy view}, in column order.")
      .def(
          "to_dict",
          [](const TimeSeries& ts) {
            py::dict d;
            for (std::size_t i = 0; i < ts.names.size(); ++i) d[py::str(ts.names[i])] = copy_array(ts.columns[i]);
            return d;
          },
          R"doc(dict {name: numpy array} of writable copies (units in the names).

Example:
    >>> ts = bristle.TimeSeries.from_columns({"t_s": [0.0, 0.5, 1.0], "F_N": [0.0, -0.8, -1.0]})
    >>> d = ts.to_dict(); d["F_N"] *= -1.0           # a copy: the series is unchanged
    >>> d["F_N"][-1], ts["F_N"][-1]                    # N
    (1.0, -1.0)
)doc")
      .def(
          "to_array",
          [](const TimeSeries& ts) {
            py::array_t<double> a({static_cast<py::ssize_t>(ts.rows()), static_cast<py::ssize_t>(ts.names.size())});
            auto w = a.mutable_unchecked<2>();
            for (std::size_t j = 0; j < ts.columns.size(); ++j)
              for (std::size_t i = 0; i < ts.rows(); ++i)
                w(static_cast<py::ssize_t>(i), static_cast<py::ssize_t>(j)) = ts.columns[j][i];
            return a;
          },
          R"doc(A (rows, columns) numpy array (a copy), columns in the order of `names`.

Example:
    >>> ts = bristle.TimeSeries.from_columns({"t_s": [0.0, 0.5, 1.0], "F_N": [0.0, -0.8, -1.0]})
    >>> ts.to_array()                                  # t_s (s), F_N (N)
    array([[ 0. ,  0. ],
           [ 0.5, -0.8],
           [ 1. , -1. ]])
)doc")
      .def("__repr__", [](const TimeSeries& ts) {
        std::string s = "TimeSeries(rows=" + std::to_string(ts.rows()) + ", names=[";
        for (std::size_t i = 0; i < ts.names.size(); ++i) s += (i ? ", '" : "'") + ts.names[i] + "'";
        return s + "])";
      });

  m.def("format_value", &format_value, py::arg("value"),
        R"doc(A number as the library's messages quote it (shortest round-trip form; nan and inf spelled out).

Example:
    >>> bristle.format_value(0.1), bristle.format_value(1e-3), bristle.format_value(float("nan"))
    ('0.1', '0.001', 'nan')
)doc");
  m.def(
      "regularised_norm", [](FloatOrArray y, double eps) { return regularised_norm(to_vec2(y, "y"), eps); }, py::arg("y"),
      py::arg("eps"), R"doc(||y||_{2,eps} = sqrt(||y||^2 + eps), y (m/s, 2 values), eps in m^2/s^2 (paper 1, §2.2.1).

Example:
    >>> bristle.regularised_norm([3.0, 4.0], 0.0), bristle.regularised_norm([0.0, 0.0], 1e-4)   # m/s
    (5.0, 0.01)
)doc");
  m.def(
      "regularised_abs",
      [](FloatOrArray y, double eps) { return map_array(y, "y", [eps](double v) { return regularised_abs(v, eps); }); },
      py::arg("y"), py::arg("eps"), R"doc(|y|_eps = sqrt(y^2 + eps) (y in m/s, eps in m^2/s^2; paper 1, eqs. 60-62); elementwise on arrays.

Example:
    >>> bristle.regularised_abs(np.array([-3.0, 0.0]), 1e-4)          # m/s
    array([3.00001667, 0.01      ])
)doc");
  m.def(
      "regularised_sign",
      [](FloatOrArray y, double eps) { return map_array(y, "y", [eps](double v) { return regularised_sign(v, eps); }); },
      py::arg("y"), py::arg("eps"), R"doc(sgn_eps(y) = y / |y|_eps (-; y in m/s, eps in m^2/s^2; 0 at y = 0 when eps = 0); elementwise on arrays.

Example:
    >>> bristle.regularised_sign(np.array([-1.0, 0.0, 1e-3]), 0.0)
    array([-1.,  0.,  1.])
)doc");
  m.def("rotation", &rotation, py::arg("theta"), R"doc(2x2 rotation matrix by theta (rad), paper 1, eq. 41.

Example:
    >>> bristle.rotation(math.pi / 2).round(12)       # a quarter turn
    array([[ 0., -1.],
           [ 1.,  0.]])
)doc");
  {  // results pickle by their fields (pickle_fields.hpp)
    auto ts = py::reinterpret_borrow<py::class_<TimeSeries>>(m.attr("TimeSeries"));
    pickle_fields(ts, "TimeSeries", &TimeSeries::names, &TimeSeries::columns);
  }
}

double PyCallable::scalar(double x) const {
  py::gil_scoped_acquire gil;
  const py::object r = (*fn_)(x);
  double value = 0.0;
  try {
    value = r.cast<double>();
  } catch (const py::cast_error&) {
    throw py::type_error(what_ + ": the callable must return a number, got " +
                         std::string(py::str(py::type::handle_of(r).attr("__name__"))));
  }
  require_finite(what_ + "(" + format_value(x) + ")", value);
  return value;
}

Mat2 PyCallable::matrix(const Vec2& v) const {
  py::gil_scoped_acquire gil;
  py::array_t<double> arg(2);
  arg.mutable_data()[0] = v[0];
  arg.mutable_data()[1] = v[1];
  const py::object r = (*fn_)(arg);
  const Mat2 m = to_mat2(r, what_ + " result");
  const std::string key = what_ + "((" + format_value(v[0]) + ", " + format_value(v[1]) + "))";
  require_finite(key, m);
  require_spd(key, m);
  return m;
}

}  // namespace bristle::python
