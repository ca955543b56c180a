#pragma once
// Writing a run's results: DIR/<name>.csv, DIR/<name>.json and DIR/<name>.png.
//
//   <name>.csv   header row, then one row per output time; numbers in the shortest form that reads back
//                to the same double. With a sweep: long format, the sweep column first and one block
//                of rows per case, in the order of sweep.values.
//   <name>.json  the run report (RunResult::report): parameters as used, per-case derived quantities,
//                final and steady values, integrator statistics, solve times, version, scenario path.
//   <name>.png   gnuplot (pngcairo): one panel per plot_y column against plot_x, one line per case.
//   <name><suffix> any RunResult::extra_files (e.g. the line contact's "_fields.csv").
//
// Before anything is written every output value is checked for finiteness (check_finite): an infinity
// in a CSV cell, an extra file or a JSON number, or a NaN in a CSV column or under a JSON key that is not
// one of RunResult::optional_columns (JSON nulls the writer put there on purpose are not numbers), throws NonFiniteOutput (a SolverError: `bristle run` exits 3) naming the
// file, the column (or JSON key path), the value, the time (the t_s column, else the first column) and
// the case; nothing is written.
//
// Writing is all-or-nothing: every file goes to a temporary name in DIR first and is renamed into
// place only when all of them succeeded; on any error the temporaries are removed, and DIR (with any
// parents) is removed again if this call created it. A missing or failing gnuplot is an error unless
// the plot is switched off.
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "bristle/core/error.hpp"
#include "bristle/io/scenario.hpp"

namespace bristle::io {

/// Thrown when results cannot be written (file system, gnuplot).
class OutputError : public std::runtime_error {
 public:
  explicit OutputError(const std::string& message) : std::runtime_error(message) {}
};

/// A non-finite value in a result about to be written (see the file comment).
class NonFiniteOutput : public SolverError {
 public:
  explicit NonFiniteOutput(const std::string& message) : SolverError(message) {}
};

/// Throws NonFiniteOutput at the first non-finite output value of `result` (see the file comment).
void check_finite(const RunResult& result);

struct WriteOptions {
  bool plot = true;
  /// The gnuplot executable; empty: $BRISTLE_GNUPLOT if set, else "gnuplot" on PATH.
  std::string gnuplot;
};

/// The CSV text of a run (header + rows).
std::string csv_text(const RunResult& result);
/// The gnuplot script that renders `result` into `png` (data inline).
std::string gnuplot_script(const RunResult& result, const std::filesystem::path& png);

/// Writes the files into `dir` (created if needed) and returns their paths.
std::vector<std::filesystem::path> write_outputs(const RunResult& result, const std::filesystem::path& dir,
                                                 const WriteOptions& options = {});

/// Installs handlers of SIGINT, SIGTERM and SIGHUP that remove what a write_outputs in progress has made (its
/// temporary files, and the directories it created if they are empty), stop its gnuplot, and end the process by the
/// same signal; a signal ignored when it is called (nohup, a background job) stays ignored. For programs (the
/// bristle CLI); a library keeps its host's handlers.
void remove_temporaries_on_signal();

/// From now on write_outputs refuses to replace a file read as an input after this call (a scenario or table file,
/// unchanged since: device, inode, size and modification time): drive.toml with its table drive.csv, run in its own
/// directory, wrote its output over the table. For programs that run one scenario (the bristle CLI); off in the
/// library, whose user may read a file written earlier and write it again.
void refuse_to_replace_inputs();

}  // namespace bristle::io
