// bristle.fit: the library fit of `bristle fit` (bristle/io/fit_scenario.hpp, bristle/fit/fit.hpp) from Python.
// The result is the JSON report as Python objects (the same names as DIR/<name>_fit.json), plus numpy arrays of
// the data and the fitted model per experiment. Progress goes to sys.stderr; Ctrl-C raises KeyboardInterrupt at
// the next optimiser iteration (PyErr_CheckSignals in the iteration callback). The fit runs with the GIL
// released (other Python threads run meanwhile); the callback takes it back.
#include <fmt/format.h>
#include <glog/logging.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>

#include "bristle/fit/fit.hpp"
#include "bristle/fit/steady_map.hpp"
#include "bristle/io/fit_map_scenario.hpp"
#include "bristle/io/fit_scenario.hpp"
#include "common.hpp"

#include <pybind11/stl/filesystem.h>

namespace bristle::python {

namespace {

py::object json_to_python(const io::Json& json) { return py::module_::import("json").attr("loads")(json.dump(0)); }

py::array_t<double> array_of(const std::vector<double>& v) {
  py::array_t<double> a(static_cast<py::ssize_t>(v.size()));
  std::copy(v.begin(), v.end(), a.mutable_data());
  return a;
}

/// The iteration callback: progress on sys.stderr (when asked) and Ctrl-C (a pending signal raises).
fit::IterationCallback progress_callback(bool progress) {
  return [progress](const fit::Iteration& it) {
    py::gil_scoped_acquire gil;  // the fit runs with the GIL released
    if (PyErr_CheckSignals() != 0) throw py::error_already_set();
    if (!progress) return;
    const std::string line =
        it.starts > 1 ? fmt::format("bristle fit: start {}/{}, iteration {}: cost {:.6g}\n", it.start + 1,
                                    it.starts, it.iteration, it.cost)
                      : fmt::format("bristle fit: iteration {}: cost {:.6g}\n", it.iteration, it.cost);
    py::module_::import("sys").attr("stderr").attr("write")(line);
  };
}

/// The report plus, per experiment, the data axis (axis(d, e): t_s, or a steady map's grid values under its
/// column's name), measured (per target) and fitted (the model's columns from `first_fitted` on) as arrays.
template <class Scenario, class Axis>
py::dict fit_result(const Scenario& sc, const io::Json& report, const fit::Result& r, Axis&& axis,
                    std::size_t first_fitted = 0) {
  py::dict out = json_to_python(report);
  py::list experiments = out["experiments"];
  for (std::size_t i = 0; i < sc.experiments.size(); ++i) {
    const auto& e = sc.experiments[i];
    py::dict d = experiments[i];
    axis(d, e);
    py::dict measured, fitted;
    for (const fit::Target& t : e.targets) measured[py::str(t.output)] = array_of(t.values);
    const TimeSeries& s = r.experiments[i].series;
    for (std::size_t k = first_fitted; k < s.names.size(); ++k) fitted[py::str(s.names[k])] = array_of(s.columns[k]);
    d["measured"] = measured;
    d["fitted"] = fitted;
  }
  return out;
}

/// fit::fit of a scenario's experiments with the GIL released (the callback takes it back).
template <class Scenario>
fit::Result fit_released(const Scenario& sc, bool progress) {
  const fit::IterationCallback callback = progress_callback(progress);
  py::gil_scoped_release release;
  return fit::fit(sc.experiments, sc.parameters, sc.options, callback);
}

const auto time_axis = [](py::dict& d, const auto& e) { d["t_s"] = array_of(e.times); };
const auto grid_axis = [](py::dict& d, const auto& e) { d[py::str(e.grid)] = array_of(e.grid_values); };

}  // namespace

void export_fit(py::module_& m) {
  // Ceres logs through glog: a model that fails at a trial point printed "Terminating: Residual and Jacobian
  // evaluation failed" on stderr although bristle.fit reports every outcome itself (its result or an exception), as
  // the CLI does (apps/bristle/main.cpp). Unless the user asked for glog's messages (GLOG_minloglevel set), only FATAL.
  if (std::getenv("GLOG_minloglevel") == nullptr) FLAGS_minloglevel = google::GLOG_FATAL;
  m.def(
      "fit",
      [](std::optional<std::filesystem::path> path, std::optional<std::string> toml,
         std::optional<std::filesystem::path> directory, std::optional<std::vector<std::string>> compare,
         bool progress) -> py::dict {
        if (path.has_value() == toml.has_value())
          throw InvalidInput("bristle.fit: give either a scenario file path or toml = \"...\" (the text)");
        const std::string kind = path ? io::scenario_kind(*path) : io::scenario_kind_of_text(*toml);
        const std::filesystem::path dir = directory.value_or(std::filesystem::path{});
        if (compare.has_value() && !kind.empty() && kind != "lumped")  // "": unreadable, the lumped reader says why
          throw InvalidInput("bristle.fit: compare: model comparison reads kind = \"lumped\" only");
        if (kind == "line_steady") {
          const auto sc = path ? io::load_line_steady_fit_scenario(*path) : io::parse_line_steady_fit_string(*toml, "scenario", dir);
          const fit::Result r = fit_released(sc, progress);
          return fit_result(sc, io::line_steady_fit_report(sc, r), r, grid_axis);
        }
        if (kind == "line_transient") {
          const auto sc =
              path ? io::load_line_transient_fit_scenario(*path) : io::parse_line_transient_fit_string(*toml, "scenario", dir);
          const fit::Result r = fit_released(sc, progress);
          return fit_result(sc, io::line_transient_fit_report(sc, r), r, time_axis);
        }
        if (kind == "patch_transient") {
          const auto sc = path ? io::load_transient_fit_scenario(*path) : io::parse_transient_fit_string(*toml, "scenario", dir);
          const fit::Result r = fit_released(sc, progress);
          return fit_result(sc, io::transient_fit_report(sc, r), r, time_axis);
        }
        if (io::is_structure_fit_kind(kind)) {
          const auto sc = path ? io::load_structure_fit_scenario(*path) : io::parse_structure_fit_string(*toml, "scenario", dir);
          const fit::Result r = fit_released(sc, progress);
          return fit_result(sc, io::structure_fit_report(sc, r), r, time_axis);
        }
        if (io::is_map_fit_kind(kind)) {
          const auto sc = path ? io::load_map_fit_scenario(*path) : io::parse_map_fit_string(*toml, "scenario", dir);
          const fit::Result r = fit_released(sc, progress);
          return fit_result(sc, io::map_fit_report(sc, r), r, grid_axis, 1);  // column 0: the grid itself
        }
        const bool comparing =
            compare.has_value() || (path && io::has_fit_models(*path)) ||
            (toml && toml->find("[[fit.model]]") != std::string::npos);
        if (comparing) {
          const std::vector<std::string> names = compare.value_or(std::vector<std::string>{});
          const io::FitComparison c =
              path ? io::load_fit_comparison(*path, names)
                   : io::parse_fit_comparison_string(*toml, names, "scenario", dir);
          // Progress lines name the model being fitted (on_model runs without the GIL: it touches no Python).
          auto label = std::make_shared<std::string>();
          const fit::IterationCallback callback = [label, progress](const fit::Iteration& it) {
            py::gil_scoped_acquire gil;
            if (PyErr_CheckSignals() != 0) throw py::error_already_set();
            if (progress)
              py::module_::import("sys").attr("stderr").attr("write")(
                  fmt::format("bristle fit: {}: iteration {}: cost {:.6g}\n", *label, it.iteration, it.cost));
          };
          std::vector<io::ModelFit> fits;
          {
            py::gil_scoped_release release;
            fits = io::fit_models(c, callback, [&](std::size_t m) { *label = c.models[m].label; });
          }
          return json_to_python(io::compare_report(c, fits));
        }
        const io::FitScenario sc = path ? io::load_fit_scenario(*path) : io::parse_fit_string(*toml, "scenario", dir);
        const fit::Result r = fit_released(sc, progress);
        py::dict out = fit_result(sc, io::fit_report(sc, r), r, time_axis);
        if (!sc.validation.empty()) {
          py::dict v;
          for (const fit::TargetResult& t : io::validation_rms(sc, r)) v[py::str(t.output)] = t.rms;
          out["validation_rms"] = v;
        }
        return out;
      },
      py::arg("path") = py::none(), py::kw_only(), py::arg("toml") = py::none(), py::arg("directory") = py::none(),
      py::arg("compare") = py::none(), py::arg("progress") = true,
      "Fit a scenario's [fit] parameters to measured data (docs/fitting.md), as `bristle fit` does.\n\n"
      "path: a scenario file with a [fit] table; or toml: its text (data files relative to `directory`,\n"
      "default the current directory). compare: model labels of [[fit.model]] or law names (dahl, lugre, frbd,\n"
      "bouc_wen) to fit in turn (a file with [[fit.model]] compares them all).\n"
      "Returns the report as a dict with the names of <name>_fit.json (parameters -> value, std_error, ci95, ...;\n"
      "correlation, rms, rms_N, aic, bic, converged, warnings, ...); each experiments[i] also holds t_s,\n"
      "measured (per target) and fitted (every model column) as numpy arrays. A comparison returns the dict of\n"
      "<name>_compare.json. A kind = \"patch_steady_map\" scenario (rows matched on fit.grid_column) gives the\n"
      "same report; its experiments[i] hold the grid values under the grid column's name (e.g. slip_angle_deg),\n"
      "measured and fitted (Fx_N, Fy_N, Mz_Nm, Mz_no_phi_Nm) at the data rows; kind = \"line_steady\" as\n"
      "patch_steady_map (grid column V_mps or vx_mps; fitted: every column of the map); kind = \"patch_transient\",\n"
      "\"line_transient\" and \"structure_stick_slip\" as lumped (t_s, measured, fitted). Progress (iteration, cost) on sys.stderr\n"
      "unless progress=False; Ctrl-C raises KeyboardInterrupt at the next iteration. Bad input raises InvalidInput\n"
      "naming the key. Units: those of the report's names (rms_N in N, t_s in s, the parameters in the units of their\n"
      "keys, e.g. body1.k0 in 1/m).\n\n"
      "Example:\n"
      "    >>> r = bristle.fit(\"examples/fit_tribometer_lugre.toml\", progress=False)     # LuGre, tribometer trace\n"
      "    >>> r[\"converged\"], \"law.mu_d\" in r[\"parameters\"], r[\"rms_N\"] < 1.0        # rms in N\n"
      "    (True, True, True)\n");
}

}  // namespace bristle::python
