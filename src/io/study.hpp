#pragma once
// Private: the generic study (issue 15, item 5) -- what every kind's run shares, written once: the result's
// head (name, title, plot axes from the scenario's [output]), each case's timing (wall clock, solve_seconds),
// progress (0 at a case's start, the solver's fractions, 1 at its end), the cases' series, labels and sweep
// values, and the report's header (detail::report_header). A kind contributes its cases and two functions:
//   solve(i, on_progress) -> R                     the library solve of case i (timed);
//   describe(i, R& solved, Json& entry) -> TimeSeries
//                                                  case i's JSON entry (solve_seconds is appended after it) and
//                                                  its output series (not timed);
//   append(i, R& solved, Json& entry)              optional: the entry's fields after solve_seconds;
// then appends its own fields (parameters, columns, the entries under "cases", ...) to result.report. The cases'
// rows together are bounded (require_study_rows): each Study counts them before it runs (count_study_rows), and the
// run checks again at each case as it solves.
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "bristle/core/error.hpp"
#include "bristle/io/key_path.hpp"
#include "bristle/io/scenario.hpp"
#include "scenario_internal.hpp"

namespace bristle::io::detail {

/// The cases of a study: a sweep value and a progress label each.
struct StudyCases {
  std::string column;                          // the CSV column of the values ("" without one)
  std::vector<std::optional<double>> values{std::nullopt};
  std::vector<std::string> labels{std::string()};
  bool legend = false;                         // the labels are the plot's legend entries (case_labels)
};

struct StudyRun {
  RunResult result;
  Json entries = Json::array();  // each case's entry, with its solve_seconds last
};

/// The cases of a scenario with a key-path [sweep] (its `sweep`, io::Sweep): one copy per value, the value set by
/// key path (set_number: the reader's checks) and kept in `sweep_value`, then `check(case)` (the whole scenario's
/// checks, if the kind has any beyond the key path's); an error names the case ("sweep case 2 of 3 (pair.s = 2):
/// ..."). The scenario itself without a sweep.
template <class Sc, class Check>
std::vector<Sc> sweep_cases(const Sc& sc, Check&& check) {
  if (!sc.sweep) return {sc};
  const Sweep& sw = *sc.sweep;
  std::vector<Sc> cases;
  cases.reserve(sw.values.size());
  for (std::size_t i = 0; i < sw.values.size(); ++i) {
    Sc c = sc;
    try {
      set_number(c, sw.parameter, sw.values[i]);
      check(c);
    } catch (const InvalidInput& e) {
      throw InvalidInput(fmt::format("sweep case {} of {} ({} = {}): {}", i + 1, sw.values.size(), sw.parameter,
                                     format_value(sw.values[i]), e.what()));
    }
    c.sweep_value = sw.values[i];
    cases.push_back(std::move(c));
  }
  return cases;
}

template <class Sc>
std::vector<Sc> sweep_cases(const Sc& sc) {
  return sweep_cases(sc, [](const Sc&) {});
}

/// The StudyCases of sweep_cases(sc): the sweep column, each case's value and its label "<parameter> = <value>" (the
/// plot's legend); one unlabelled case without a sweep.
template <class Sc>
StudyCases study_cases(const Sc& sc, const std::vector<Sc>& cases) {
  StudyCases out;
  if (!sc.sweep) return out;
  out.column = sc.sweep->column;
  out.values.clear();
  out.labels.clear();
  out.legend = true;
  for (const Sc& c : cases) {
    out.values.push_back(c.sweep_value);
    out.labels.push_back(fmt::format("{} = {}", sc.sweep->parameter, format_value(*c.sweep_value)));
  }
  return out;
}

/// The study's rows counted before it runs, so that `bristle check` refuses what the run would (run_study counts
/// them again as it solves): `rows_of(c)`, the rows case c writes to <name>.csv, summed over `cases` and refused past
/// kMaxStudyRows (require_study_rows, whose message starts with `where`).
template <class Sc, class Rows>
void count_study_rows(std::string_view where, const std::vector<Sc>& cases, Rows&& rows_of) {
  double rows = 0.0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    rows += static_cast<double>(rows_of(cases[i]));
    require_study_rows(where, rows, i, cases.size());
  }
}

/// The prefix of a study-rows message of `cases` sweep cases: "sweep.values has N entries: " (none for one case).
inline std::string swept_where(std::size_t cases) {
  return cases > 1 ? fmt::format("sweep.values has {} entries: ", cases) : std::string();
}

/// count_study_rows of the cases of a key-path [sweep] (sweep_cases).
template <class Sc, class Rows>
void count_swept_rows(const std::vector<Sc>& cases, Rows&& rows_of) {
  count_study_rows(swept_where(cases.size()), cases, std::forward<Rows>(rows_of));
}

/// The summary's line of a [sweep] (`bristle check`; "" without one): parameter, values, case count, column.
std::string sweep_summary(const std::optional<Sweep>& sweep, std::size_t cases);

/// The report's "sweep" (parameter, column, values) and, if given, "cases" (each case's entry) of a swept study;
/// nothing without a sweep (the JSON of an unswept scenario is unchanged).
void report_sweep(Json& report, const std::optional<Sweep>& sweep, const Json* entries = nullptr);

/// A swept study's note (`note`) and report_sweep with each case's entry; nothing without a [sweep].
inline void report_swept(Json& report, const std::optional<Sweep>& sweep, const Json& entries,
                         std::string_view note = "parameters are those of the file; each case sets the swept key to "
                                                 "its value") {
  if (!sweep) return;
  report["note"] = std::string(note);
  report_sweep(report, sweep, &entries);
}

template <class Sc, class Solve, class Describe, class Append>
StudyRun run_study(std::string_view kind, const Sc& sc, const StudyCases& cases, Solve&& solve, Describe&& describe,
                   const ProgressCallback& progress, Append&& append) {
  StudyRun out;
  RunResult& result = out.result;
  result.name = sc.name;
  result.title = sc.output.title;
  result.plot_x = sc.output.plot_x;
  result.plot_y = sc.output.plot_y;
  result.sweep_column = cases.column;
  const std::size_t n = cases.values.size();
  double rows = 0.0;  // of every case so far
  for (std::size_t i = 0; i < n; ++i) {
    const std::string& label = cases.labels[i];
    if (progress) progress(Progress{i, n, 0.0, label});
    std::function<void(double)> on_progress;
    if (progress) on_progress = [&](double fraction) { progress(Progress{i, n, fraction, label}); };
    const auto start = std::chrono::steady_clock::now();
    auto solved = solve(i, on_progress);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (progress) progress(Progress{i, n, 1.0, label});
    Json entry = Json::object();
    TimeSeries series = describe(i, solved, entry);
    rows += static_cast<double>(series.rows());
    require_study_rows({}, rows, i, n);
    entry["solve_seconds"] = seconds;
    append(i, solved, entry);
    out.entries.push_back(std::move(entry));
    result.solve_seconds += seconds;
    if (cases.legend) result.case_labels.push_back(label);
    result.cases.push_back(CaseResult{cases.values[i], std::move(series), seconds});
  }
  report_header(result.report, kind, sc.name, sc.description, sc.source, result.solve_seconds);
  return out;
}

template <class Sc, class Solve, class Describe>
StudyRun run_study(std::string_view kind, const Sc& sc, const StudyCases& cases, Solve&& solve, Describe&& describe,
                   const ProgressCallback& progress) {
  return run_study(kind, sc, cases, std::forward<Solve>(solve), std::forward<Describe>(describe), progress,
                   [](std::size_t, auto&, Json&) {});
}

}  // namespace bristle::io::detail
