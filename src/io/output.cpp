#include "bristle/io/output.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>

#include <algorithm>
#include <array>
#include <atomic>
#include <tuple>
#include <utility>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <system_error>

#include "csv_table.hpp"
#include "input_file.hpp"

extern char** environ;

namespace bristle::io {

namespace {

namespace fs = std::filesystem;

std::string number(double v) { return fmt::format("{}", v); }

std::string gnuplot_number(double v) { return std::isfinite(v) ? fmt::format("{}", v) : std::string("NaN"); }

/// A gnuplot single-quoted string ('' stands for a quote inside).
std::string gp_quote(std::string_view s) {
  std::string out = "'";
  for (const char c : s) {
    if (c == '\'') out += "''";
    else if (c == '\n' || c == '\r') out += ' ';
    else out += c;
  }
  return out + "'";
}

std::size_t column_index(const TimeSeries& series, const std::string& name) {
  for (std::size_t i = 0; i < series.names.size(); ++i)
    if (series.names[i] == name) return i;
  throw OutputError(fmt::format("no column \"{}\" in the results", name));
}

std::string case_label(const RunResult& r, const CaseResult& c) {
  const auto i = static_cast<std::size_t>(&c - r.cases.data());
  if (i < r.case_labels.size() && !r.case_labels[i].empty()) return r.case_labels[i];
  if (r.sweep_column.empty() || !c.sweep_value) return r.name;
  return fmt::format("{} = {}", r.sweep_column, number(*c.sweep_value));
}

void write_file(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw OutputError(fmt::format("cannot write {}: {}", path.string(), std::strerror(errno)));
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  out.flush();
  if (!out) throw OutputError(fmt::format("cannot write {}: {}", path.string(), std::strerror(errno)));
  out.close();
  if (out.fail()) throw OutputError(fmt::format("cannot write {}: {}", path.string(), std::strerror(errno)));
}

// ---- what a signal handler removes ----------------------------------------------------------------------------
// The temporaries (and created directories) of the write_outputs calls in progress, in fixed slots: a handler may
// only read memory that no one is writing and call async-signal-safe functions (unlink, rmdir, kill). SIGINT while a
// 2e6-row CSV was written left its 128 MB temporary; SIGTERM while gnuplot ran left every temporary, and the orphaned
// gnuplot wrote its PNG temporary after the exit.
struct Slot {
  std::atomic<bool> claimed{false};  // owned by a Held
  std::atomic<bool> ready{false};    // its path is complete: the handler may read it
  bool directory = false;
  std::array<char, 4096> path{};
};
std::array<Slot, 64> g_slots;
std::atomic<pid_t> g_child{0};

/// Holds `path` in a free slot for the handler while it lives (nothing if none is free or the path is too long).
class Held {
 public:
  Held(const fs::path& path, bool directory) {
    const std::string& s = path.native();
    if (s.size() >= std::tuple_size_v<decltype(Slot::path)>) return;
    for (Slot& slot : g_slots) {
      bool expected = false;
      if (!slot.claimed.compare_exchange_strong(expected, true)) continue;
      std::copy(s.begin(), s.end(), slot.path.begin());
      slot.path[s.size()] = '\0';
      slot.directory = directory;
      slot_ = &slot;
      slot.ready.store(true, std::memory_order_release);
      return;
    }
  }
  ~Held() {
    if (!slot_) return;
    slot_->ready.store(false, std::memory_order_release);
    slot_->claimed.store(false, std::memory_order_release);
  }
  Held(Held&& other) noexcept : slot_(std::exchange(other.slot_, nullptr)) {}
  Held(const Held&) = delete;
  Held& operator=(const Held&) = delete;
  Held& operator=(Held&&) = delete;

 private:
  Slot* slot_ = nullptr;
};

extern "C" void remove_temporaries_and_reraise(int signal) {
  if (const pid_t child = g_child.load(); child > 0) {  // gnuplot first, so that it writes nothing after the unlinks
    ::kill(child, SIGKILL);
    ::waitpid(child, nullptr, 0);
  }
  for (const Slot& slot : g_slots)
    if (slot.ready.load(std::memory_order_acquire) && !slot.directory) ::unlink(slot.path.data());
  for (int pass = 0; pass < 8; ++pass)  // created directories, if empty: nested ones empty the outer ones
    for (const Slot& slot : g_slots)
      if (slot.ready.load(std::memory_order_acquire) && slot.directory) ::rmdir(slot.path.data());
  std::raise(signal);  // SA_RESETHAND: the default action now
}

/// Runs argv, returning its exit status (or -1 if it could not be started, with `error` set) and its
/// combined stdout + stderr.
int run_process(const std::vector<std::string>& args, std::string& output, std::string& error) {
  int fds[2];
  if (pipe(fds) != 0) {
    error = std::strerror(errno);
    return -1;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addclose(&actions, fds[0]);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDERR_FILENO);
  posix_spawn_file_actions_addclose(&actions, fds[1]);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc == 0) g_child.store(pid);
  close(fds[1]);
  if (rc != 0) {
    close(fds[0]);
    error = std::strerror(rc);
    return -1;
  }
  char buffer[4096];
  while (true) {
    const ssize_t n = read(fds[0], buffer, sizeof buffer);
    if (n > 0) {
      if (output.size() < (1u << 20)) output.append(buffer, static_cast<std::size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    break;
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) {
      g_child.store(0);
      error = std::strerror(errno);
      return -1;
    }
  g_child.store(0);
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  error = WIFSIGNALED(status) ? fmt::format("killed by signal {}", WTERMSIG(status)) : "abnormal exit";
  return 128;
}

std::string first_lines(const std::string& text, std::size_t max_lines) {
  std::string out;
  std::size_t lines = 0, start = 0;
  while (start < text.size() && lines < max_lines) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    line.erase(0, line.find_first_not_of(" \t\r"));
    if (!line.empty() && line.find_first_not_of("^ \t") != std::string::npos) {
      if (!out.empty()) out += " | ";
      out += line;
      ++lines;
    }
    start = end + 1;
  }
  return out;
}

std::string unique_suffix() {
  std::random_device rd;
  return fmt::format("{}.{:08x}", static_cast<long>(getpid()), rd());
}

}  // namespace

std::string csv_text(const RunResult& result) {
  std::string out;
  if (result.cases.empty()) return out;
  const bool sweep = !result.sweep_column.empty();
  const auto& names = result.cases.front().series.names;
  if (sweep) out += result.sweep_column + ",";
  out += fmt::format("{}\n", fmt::join(names, ","));
  for (const CaseResult& c : result.cases) {
    const std::string prefix = sweep ? number(c.sweep_value.value_or(std::nan(""))) + "," : std::string();
    const std::size_t rows = c.series.rows();
    for (std::size_t r = 0; r < rows; ++r) {
      out += prefix;
      for (std::size_t k = 0; k < c.series.columns.size(); ++k) {
        if (k > 0) out += ',';
        const double v = c.series.columns[k][r];
        if (!std::isnan(v)) out += number(v);  // NaN marks a value that is not available: an empty cell
      }
      out += '\n';
    }
  }
  return out;
}

std::string gnuplot_script(const RunResult& result, const fs::path& png) {
  const std::size_t panels = std::max<std::size_t>(1, result.plot_y.size());
  const bool legend = (!result.sweep_column.empty() || !result.case_labels.empty()) && result.cases.size() > 1;
  std::string s;
  s += fmt::format("set terminal pngcairo size 1000,{} noenhanced font 'sans,10'\n", 120 + 300 * panels);
  s += fmt::format("set output {}\n", gp_quote(png.string()));
  for (std::size_t i = 0; i < result.cases.size(); ++i) {
    const TimeSeries& series = result.cases[i].series;
    const std::size_t ix = column_index(series, result.plot_x);
    std::vector<std::size_t> iy;
    for (const auto& y : result.plot_y) iy.push_back(column_index(series, y));
    s += fmt::format("$case{} << EOD\n", i);
    for (std::size_t r = 0; r < series.rows(); ++r) {
      s += gnuplot_number(series.columns[ix][r]);
      for (const std::size_t k : iy) {
        s += ' ';
        s += gnuplot_number(series.columns[k][r]);
      }
      s += '\n';
    }
    s += "EOD\n";
  }
  s += "set grid\n";
  if (result.log_x) s += "set logscale x\n";
  s += legend ? "set key outside right top noenhanced\n" : "unset key\n";
  s += fmt::format("set multiplot layout {},1 title {} noenhanced\n", panels, gp_quote(result.title));
  for (std::size_t p = 0; p < result.plot_y.size(); ++p) {
    s += fmt::format("set xlabel {} noenhanced\n", gp_quote(result.plot_x));
    s += fmt::format("set ylabel {} noenhanced\n", gp_quote(result.plot_y[p]));
    s += "plot ";
    for (std::size_t i = 0; i < result.cases.size(); ++i) {
      if (i > 0) s += ", \\\n     ";
      s += fmt::format("$case{} using 1:{} with lines linewidth 1.5 title {}", i, p + 2,
                       gp_quote(case_label(result, result.cases[i])));
    }
    s += '\n';
  }
  s += "unset multiplot\n";
  s += "set output\n";
  return s;
}

namespace {

/// "t_s = 0.5": the time of row r (the t_s column, else the first column: the abscissa of the table).
std::string row_position(const std::vector<std::string>& names, const std::vector<std::string>& cells) {
  std::size_t k = 0;
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == "t_s") k = i;
  if (k >= names.size() || k >= cells.size()) return "row without a time";
  return fmt::format("{} = {}", names[k], cells[k]);
}

/// A CSV cell that spells a non-finite number (as fmt writes them).
bool non_finite_cell(std::string_view cell) {
  return cell == "inf" || cell == "-inf" || cell == "+inf" || cell == "nan" || cell == "-nan" || cell == "+nan";
}

std::vector<std::string> split_cells(std::string_view line) {
  const std::vector<std::string_view> cells = detail::split_at(line, ',');
  return {cells.begin(), cells.end()};
}

}  // namespace

void check_finite(const RunResult& result) {
  const std::string csv_name = result.name + ".csv";
  for (const CaseResult& c : result.cases) {
    const TimeSeries& s = c.series;
    const std::string which = result.cases.size() > 1 || c.sweep_value ? fmt::format(" (case {})", case_label(result, c))
                                                                         : std::string();
    for (std::size_t k = 0; k < s.columns.size(); ++k) {
      const bool optional =
          std::find(result.optional_columns.begin(), result.optional_columns.end(), s.names[k]) !=
          result.optional_columns.end();
      const std::vector<double>& col = s.columns[k];
      for (std::size_t r = 0; r < col.size(); ++r) {
        const double v = col[r];
        if (std::isinf(v) || (std::isnan(v) && !optional)) {
          std::vector<std::string> cells;
          for (const auto& column : s.columns) cells.push_back(r < column.size() ? number(column[r]) : "");
          throw NonFiniteOutput(fmt::format("non-finite output: {} column {} = {} at {}{}; nothing written", csv_name,
                                            s.names[k], format_value(v), row_position(s.names, cells), which));
        }
      }
    }
  }
  for (const ExtraFile& extra : result.extra_files) {
    const std::string_view text = extra.text;
    std::vector<std::string> names;
    std::size_t start = 0;
    for (std::size_t line_number = 1; start < text.size(); ++line_number) {
      std::size_t end = text.find('\n', start);
      if (end == std::string_view::npos) end = text.size();
      const std::vector<std::string> cells = split_cells(text.substr(start, end - start));
      start = end + 1;
      if (line_number == 1) {
        names = cells;
        continue;
      }
      for (std::size_t k = 0; k < cells.size(); ++k)
        if (non_finite_cell(cells[k]))
          throw NonFiniteOutput(fmt::format("non-finite output: {}{} column {} = {} at {} (line {}); nothing written",
                                            result.name, extra.suffix, k < names.size() ? names[k] : "?", cells[k],
                                            row_position(names, cells), line_number));
    }
  }
  result.report.for_each_number([&](const std::string& path, double v) {
    // A NaN under the name of an optional column (e.g. "final.mu") is that column's "not available".
    const std::size_t dot = path.find_last_of(".]");
    const std::string key = dot == std::string::npos ? path : path.substr(dot + 1);
    const bool optional =
        std::find(result.optional_columns.begin(), result.optional_columns.end(), key) != result.optional_columns.end();
    if (std::isinf(v) || (std::isnan(v) && !optional))
      throw NonFiniteOutput(
          fmt::format("non-finite output: {}.json {} = {}; nothing written", result.name, path, format_value(v)));
  });
}

std::vector<fs::path> write_outputs(const RunResult& result, const fs::path& dir, const WriteOptions& options) {
  check_finite(result);  // before the file system is touched
  // Everything is prepared in memory before the file system is touched.
  const std::string csv = csv_text(result);
  const std::string json = result.report.dump(2);

  struct Item {
    fs::path temporary, final_path;
    bool renamed = false;
  };
  const std::string suffix = unique_suffix();
  const auto temporary = [&](const std::string& ext) {
    return dir / fmt::format(".{}.{}.{}.tmp", result.name, ext, suffix);
  };
  std::vector<Item> items = {{temporary("csv"), dir / (result.name + ".csv")},
                             {temporary("json"), dir / (result.name + ".json")}};
  if (options.plot) items.push_back({temporary("png"), dir / (result.name + ".png")});
  const std::size_t first_extra = items.size();
  for (std::size_t i = 0; i < result.extra_files.size(); ++i)
    items.push_back({temporary(fmt::format("extra{}", i)), dir / (result.name + result.extra_files[i].suffix)});
  const fs::path script_path = temporary("gp");
  for (const Item& item : items) {
    if (detail::refusing_inputs() && detail::was_read_as_input(item.final_path))
      throw InvalidInput(fmt::format("{} was read as an input of this run (a data or scenario file): the output would "
                                     "replace it; give another output directory (--out) or another name",
                                     item.final_path.string()));
    // A rename onto a directory fails after the files before it replaced their old versions, which the clean-up
    // then removed: a directory o/t.json cost the previous o/t.csv.
    std::error_code ec;
    if (fs::is_directory(item.final_path, ec))
      throw OutputError(fmt::format("cannot create {}: a directory of that name exists", item.final_path.string()));
  }

  // Create DIR lazily, remembering which directories this call made.
  std::vector<fs::path> created;
  std::vector<Held> held;  // what a signal handler removes until this call returns
  held.reserve(items.size() + 64);
  std::error_code ec;
  {
    std::vector<fs::path> missing;
    for (fs::path p = dir.empty() ? fs::path(".") : dir; !p.empty() && !fs::exists(p, ec);
         p = p.parent_path()) {
      missing.push_back(p);
      if (p == p.parent_path()) break;
    }
    for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
      held.emplace_back(*it, true);
      if (!fs::create_directory(*it, ec) && ec)
        throw OutputError(fmt::format("cannot create directory {}: {}", it->string(), ec.message()));
      created.push_back(*it);
    }
    for (const Item& item : items) held.emplace_back(item.temporary, false);
    held.emplace_back(script_path, false);
    if (!fs::is_directory(dir.empty() ? fs::path(".") : dir, ec))
      throw OutputError(fmt::format("cannot write into {}: not a directory", dir.string()));
  }

  const auto clean_up = [&]() {
    std::error_code ignore;
    for (const Item& item : items) {
      fs::remove(item.temporary, ignore);
      if (item.renamed) fs::remove(item.final_path, ignore);
    }
    fs::remove(script_path, ignore);
    for (auto it = created.rbegin(); it != created.rend(); ++it) fs::remove(*it, ignore);  // only if empty
  };

  try {
    write_file(items[0].temporary, csv);
    write_file(items[1].temporary, json);
    for (std::size_t i = 0; i < result.extra_files.size(); ++i)
      write_file(items[first_extra + i].temporary, result.extra_files[i].text);
    if (options.plot) {
      write_file(script_path, result.plot_script ? result.plot_script(items[2].temporary)
                                                 : gnuplot_script(result, items[2].temporary));
      std::string gnuplot = options.gnuplot;
      if (gnuplot.empty()) {
        const char* env = std::getenv("BRISTLE_GNUPLOT");
        gnuplot = env && *env ? env : "gnuplot";
      }
      std::string output, error;
      const int status = run_process({gnuplot, script_path.string()}, output, error);
      fs::remove(script_path, ec);
      if (status < 0)
        throw OutputError(fmt::format("cannot run gnuplot ({}): {}; install gnuplot or use --no-plot", gnuplot,
                                      error));
      if (status != 0)
        throw OutputError(fmt::format("gnuplot ({}) failed with exit status {}{}; use --no-plot to skip the plot",
                                      gnuplot, status,
                                      output.empty() ? error : ": " + first_lines(output, 3)));
      if (!fs::exists(items[2].temporary, ec) || fs::file_size(items[2].temporary, ec) == 0)
        throw OutputError(fmt::format("gnuplot ({}) wrote no image{}; use --no-plot to skip the plot", gnuplot,
                                      output.empty() ? "" : ": " + first_lines(output, 3)));
    }
    for (Item& item : items) {
      fs::rename(item.temporary, item.final_path, ec);
      if (ec)
        throw OutputError(fmt::format("cannot create {}: {}", item.final_path.string(), ec.message()));
      item.renamed = true;
    }
  } catch (...) {
    clean_up();
    throw;
  }
  std::vector<fs::path> written;
  for (const Item& item : items) written.push_back(item.final_path);
  return written;
}

void refuse_to_replace_inputs() { detail::refuse_inputs(); }

void remove_temporaries_on_signal() {
  for (const int s : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction old{};
    if (::sigaction(s, nullptr, &old) != 0 || old.sa_handler == SIG_IGN) continue;  // nohup, a background job: kept
    struct sigaction action{};
    action.sa_handler = remove_temporaries_and_reraise;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESETHAND;  // the handler runs once, then the default action ends the process
    ::sigaction(s, &action, nullptr);
  }
}

}  // namespace bristle::io
