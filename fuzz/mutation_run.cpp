// Mutation run of `run` (issue 17, "Must show"): mutated copies of the examples parsed, checked and solved
// in-process, each in a child process of its own (fork) with a time and an address-space limit, and every
// result checked for finite outputs. The libFuzzer targets (fuzz/*_fuzzer.cpp) stop at `check`; this one
// runs the solve, so it can see what only a run shows: a crash or hang inside a solver, memory exhausted
// by sizes that `check` accepted, or a non-finite value that the output check (io::check_finite) let pass.
//
//   bristle_mutation_run EXAMPLES_DIR COUNT [SEED] [JOBS] [SECONDS]   (docs/validation.md, "Mutation run")
//
// COUNT inputs (fewer if SECONDS is given: no input starts after SECONDS of wall time).
//
// Bases: every examples/*.toml but the fit scenarios (their command is `bristle fit`), reduced so that a
// run is short: the end times (t_end_s, tau_end_s, field_times_s, cycles; integer cycles never below 2)
// scaled by the largest of 0.1, 0.02, 0.005, 0.001 with which the reduced example solves in < 0.05 s of
// CPU (examples slower at every scale are left out and listed), and integer counts >= 10 (points, cells,
// modes, outputs) by 0.1 (at least 10); with MUTATION_SCALE=x set, every example is reduced by x and none
// is left out (each base is run once, to report its CPU time); MUTATION_CPU_REF=c draws a base with weight
// min(1, c / its CPU time) instead of uniformly (costly bases less often, none never). Each input is a
// base with 1-4 random edits: a numeric literal scaled by 10^U(-3, 3) or replaced by a hostile token (5e-324, 1e300, -1,
// 0, nan, inf, 2^62, 1e400, 0x10, a string, a list, ...), a byte flipped, a span deleted, a token
// inserted, a line deleted or one of another base spliced in.
//
// Outcome per input (the child's exit): 0 solved with finite outputs; 2 InvalidInput; 3 SolverError
// (including a non-finite output refused by check_finite) - these three are clean. Findings: 1 another
// exception (e.g. std::bad_alloc under the 2 GiB address-space limit), 4 a CSV cell or report number that
// is not finite although check_finite passed, a signal (crash), a timeout (20 s of CPU; 600 s wall). Findings are written
// to mutation_findings/ (the input) and make the exit status 1; the counts per outcome go to stdout.
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <toml++/toml.h>
#include <vector>

#include "bristle/core/error.hpp"
#include "bristle/io/output.hpp"
#include "bristle/io/scenario.hpp"

namespace {

namespace fs = std::filesystem;

constexpr int kCpuLimitS = 20;             // CPU time per input (MUTATION_CPU_S overrides): then SIGXCPU
// A run stopped at the CPU limit is a hang unless its progress (the scenario's ProgressCallback, written by
// the child to a shared slot) projects completion within kSlowBoundS of CPU: then it is counted as "slow"
// (bounded; not a finding) with its projected CPU time, and the slowest are listed.
constexpr double kSlowBoundS = 3600.0;

/// Written by a child, read by the parent after the child ended: the run's overall progress (cases done +
/// fraction of the current case, over the case count) and the child's CPU time when it was reported.
struct ProgressSlot {
  volatile double fraction = 0.0;
  volatile double cpu_s = 0.0;
};
ProgressSlot* g_slot = nullptr;  // the child's slot (shared mapping)

double process_cpu_s() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}
int cpu_limit_s() {
  const char* e = std::getenv("MUTATION_CPU_S");
  return e ? std::max(1, std::atoi(e)) : kCpuLimitS;
}
constexpr int kWallLimitS = 600;           // wall time per input (the machine may be loaded)
constexpr rlim_t kAddressSpace = 2UL << 30;  // 2 GiB per child

bool is_end_time(const std::string& key) {
  return key == "t_end_s" || key == "tau_end_s" || key == "field_times_s" || key == "cycles";
}

void reduce(toml::node& node, const std::string& key, double time_scale) {
  if (toml::table* t = node.as_table()) {
    for (auto&& [k, v] : *t) reduce(v, std::string(k.str()), time_scale);
  } else if (toml::array* a = node.as_array()) {
    for (toml::node& v : *a) reduce(v, key, time_scale);
  } else if (toml::value<double>* d = node.as_floating_point()) {
    if (is_end_time(key)) d->get() *= time_scale;
  } else if (toml::value<std::int64_t>* i = node.as_integer()) {
    const std::int64_t n = i->get();
    if (is_end_time(key))
      i->get() = std::max<std::int64_t>(std::min<std::int64_t>(n, 2), std::llround(static_cast<double>(n) * time_scale));
    else if (n >= 10)
      i->get() = std::max<std::int64_t>(10, n / 10);
  }
}

/// True if a cell of the CSV text spells a non-finite number (empty cells are "not available").
bool has_non_finite_cell(const std::string& csv) {
  std::istringstream in(csv);
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::stringstream cells(line);
    for (std::string cell; std::getline(cells, cell, ',');)
      if (cell == "inf" || cell == "-inf" || cell == "nan" || cell == "-nan") return true;
  }
  return false;
}

/// The child: parse, check, solve, check the outputs. Never returns.
[[noreturn]] void child(const std::string& text, const fs::path& dir, rlim_t cpu_limit_s) {
  const rlimit as{kAddressSpace, kAddressSpace};
  setrlimit(RLIMIT_AS, &as);
  const rlimit cpu{cpu_limit_s, cpu_limit_s + 1};
  setrlimit(RLIMIT_CPU, &cpu);
  alarm(kWallLimitS);
  int code = 0;
  try {
    const auto scenario = bristle::io::parse_scenario_string(text, "mutant", dir);
    (void)scenario->summary();
    (void)scenario->case_count();
    const bristle::io::RunResult result = scenario->run([](const bristle::io::Progress& p) {
      if (!g_slot || p.case_count == 0) return;
      const double f = (static_cast<double>(p.case_index) + std::clamp(p.fraction, 0.0, 1.0)) /
                       static_cast<double>(p.case_count);
      if (f > g_slot->fraction) {
        g_slot->fraction = f;
        g_slot->cpu_s = process_cpu_s();
      }
    });
    bristle::io::check_finite(result);
    bool bad = has_non_finite_cell(bristle::io::csv_text(result));
    result.report.for_each_number([&](const std::string&, double v) { bad = bad || !std::isfinite(v); });
    if (bad) code = 4;
  } catch (const bristle::InvalidInput&) {
    code = 2;
  } catch (const bristle::SolverError&) {
    code = 3;
  } catch (...) {
    code = 1;
  }
  std::fflush(nullptr);
  _exit(code);
}

struct Mutator {
  std::mt19937_64 rng;
  const std::vector<std::string>& bases;

  std::size_t pick(std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng); }

  /// Positions [begin, end) of the numeric literals of `s` (after '=', ',', '[' or a space).
  static std::vector<std::pair<std::size_t, std::size_t>> numbers(const std::string& s) {
    std::vector<std::pair<std::size_t, std::size_t>> out;
    for (std::size_t i = 0; i < s.size(); ++i) {
      const char c = s[i];
      const bool start = (std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '+' || c == '.') &&
                         (i == 0 || s[i - 1] == ' ' || s[i - 1] == '=' || s[i - 1] == ',' || s[i - 1] == '[');
      if (!start) continue;
      std::size_t j = i + 1;
      while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '.' || s[j] == '-' ||
                              s[j] == '+' || s[j] == '_'))
        ++j;
      if (std::any_of(s.begin() + static_cast<long>(i), s.begin() + static_cast<long>(j),
                      [](char d) { return std::isdigit(static_cast<unsigned char>(d)); }))
        out.emplace_back(i, j);
      i = j;
    }
    return out;
  }

  std::string mutate(std::string s) {
    static const std::vector<std::string> tokens = {
        "5e-324", "1e300", "-1", "0", "nan", "inf", "-inf", "4611686018427387904", "1e-200", "1e400", "0x10",
        "100000", "2147483648", "-0.0", "1e-12", "1e12", "\"x\"", "[]", "[1, 2]", "true", "{}", "\"\"",
        "\n[sweep]\nparameter = \"law.mu_s\"\nvalues = [0.5, 1, 2]\n", "\nintegrator.rtol = 1e-14\n",
        "\r\n", std::string(1, '\0'), "\xef\xbb\xbf", std::string(300, 'a')};
    const int edits = 1 + static_cast<int>(pick(4));
    for (int e = 0; e < edits && !s.empty(); ++e) {
      const std::size_t what = pick(10);
      const auto nums = numbers(s);
      if (what < 4 && !nums.empty()) {  // scale a number
        const auto [b, end] = nums[pick(nums.size())];
        try {
          const double x = std::stod(s.substr(b, end - b));
          const double f = std::pow(10.0, std::uniform_real_distribution<double>(-3.0, 3.0)(rng));
          std::ostringstream v;
          v.precision(6);
          const bool integer = s.substr(b, end - b).find_first_of(".eE") == std::string::npos;
          if (integer)
            v << static_cast<long long>(std::clamp(std::round(x * f), -9e18, 9e18));
          else
            v << std::scientific << x * f;
          s.replace(b, end - b, v.str());
        } catch (const std::exception&) {
        }
      } else if (what < 6 && !nums.empty()) {  // replace a number by a token
        const auto [b, end] = nums[pick(nums.size())];
        s.replace(b, end - b, tokens[pick(tokens.size())]);
      } else if (what == 6) {  // flip a bit
        s[pick(s.size())] ^= static_cast<char>(1 << pick(8));
      } else if (what == 7) {  // delete a span
        const std::size_t b = pick(s.size());
        s.erase(b, 1 + pick(20));
      } else if (what == 8) {  // insert a token
        s.insert(pick(s.size() + 1), tokens[pick(tokens.size())]);
      } else {  // delete a line, or splice one in from another base
        const std::string& other = bases[pick(bases.size())];
        const std::size_t b = s.rfind('\n', pick(s.size()));
        const std::size_t start = b == std::string::npos ? 0 : b + 1;
        if (pick(2) == 0) {
          const std::size_t stop = s.find('\n', start);
          s.erase(start, stop == std::string::npos ? std::string::npos : stop - start + 1);
        } else {
          const std::size_t ob = other.rfind('\n', pick(other.size()));
          const std::size_t os = ob == std::string::npos ? 0 : ob + 1;
          const std::size_t oe = other.find('\n', os);
          s.insert(start, other.substr(os, oe == std::string::npos ? std::string::npos : oe - os + 1));
        }
      }
    }
    return s;
  }
};

struct Running {
  pid_t pid;
  std::string text;
};

/// Waits for one child; returns its outcome name.
std::string outcome(int status) {
  if (WIFEXITED(status)) {
    switch (WEXITSTATUS(status)) {
      case 0: return "exit 0 (solved, finite)";
      case 2: return "exit 2 (invalid input)";
      case 3: return "exit 3 (solver failure or non-finite output)";
      case 1: return "FINDING exit 1 (other exception)";
      case 4: return "FINDING non-finite value past check_finite";
      default: return "FINDING exit " + std::to_string(WEXITSTATUS(status));
    }
  }
  if (WIFSIGNALED(status) && (WTERMSIG(status) == SIGXCPU || WTERMSIG(status) == SIGKILL))
    return "FINDING timeout (CPU limit)";
  if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) return "FINDING timeout (600 s wall)";
  return "FINDING signal " + std::to_string(WIFSIGNALED(status) ? WTERMSIG(status) : -1);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s EXAMPLES_DIR COUNT [SEED] [JOBS] [SECONDS]\n", argv[0]);
    return 2;
  }
  const fs::path examples = argv[1];
  const long count = std::atol(argv[2]);
  const unsigned long seed = argc > 3 ? std::strtoul(argv[3], nullptr, 10) : 1;
  const int jobs = argc > 4 ? std::max(1, std::atoi(argv[4])) : 2;
  const double budget_s = argc > 5 ? std::atof(argv[5]) : 1e300;
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(examples))
    if (e.path().extension() == ".toml" && e.path().filename().string().rfind("fit_", 0) != 0) files.push_back(e.path());
  std::sort(files.begin(), files.end());

  // Bases: each example reduced by the largest time scale with which it solves in under kBaseCpuS of CPU;
  // an example that needs more even at the smallest scale (setup costs: kernels, modal tables) is left out.
  // MUTATION_SCALE=x: one time scale for every base and none left out; each base is run once to measure its
  // CPU time (and to see that it solves), which MUTATION_CPU_REF uses.
  constexpr double kBaseCpuS = 0.05;
  std::vector<std::string> bases;
  std::vector<std::string> base_names;  // the example each base came from
  std::vector<double> base_cpu;         // CPU seconds of the unmutated base
  const auto solve_cpu = [&](const std::string& text, bool& solved, rlim_t limit_s) {
    std::fflush(stdout);  // else the child's exit flushes the parent's buffered lines again
    const pid_t pid = fork();
    if (pid == 0) child(text, examples, limit_s);
    int status = 0;
    rusage usage{};
    wait4(pid, &status, 0, &usage);
    solved = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
           1e-6 * static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
  };
  const char* fixed = std::getenv("MUTATION_SCALE");
  for (const fs::path& f : files) {
    const toml::table original = toml::parse_file(f.string());
    bool taken = false;
    if (fixed) {
      toml::table t = original;
      reduce(t, "", std::atof(fixed));
      std::ostringstream text;
      text << t << "\n";
      bool solved = false;
      const double cpu = solve_cpu(text.str(), solved, static_cast<rlim_t>(cpu_limit_s()));
      bases.push_back(text.str());
      base_names.push_back(f.filename().string());
      base_cpu.push_back(cpu);
      std::printf("base %s: end times x %s (%.3f s CPU%s)\n", f.filename().c_str(), fixed, cpu,
                  solved ? "" : "; the unmutated base does not solve");
      continue;
    }
    for (const double scale : {0.1, 0.02, 0.005, 0.001}) {
      toml::table t = original;
      reduce(t, "", scale);
      std::ostringstream text;
      text << t << "\n";
      bool solved = false;
      const double cpu = solve_cpu(text.str(), solved, 1);
      if (solved && cpu < kBaseCpuS) {
        std::printf("base %s: end times x %g (%.3f s CPU)\n", f.filename().c_str(), scale, cpu);
        bases.push_back(text.str());
        base_names.push_back(f.filename().string());
        base_cpu.push_back(cpu);
        taken = true;
        break;
      }
    }
    if (!taken) std::printf("left out %s: more than %g s CPU at every scale\n", f.filename().c_str(), kBaseCpuS);
  }
  // MUTATION_CPU_REF=c (seconds): a base is drawn with weight min(1, c / its CPU time), so that the costly
  // bases (crawlers, kernels, maps) are drawn less often but every one is drawn, and the mean CPU per solved
  // input stays about c; unset: every base equally often. The draws per base are listed at the end.
  std::vector<double> weights(bases.size(), 1.0);
  if (const char* ref = std::getenv("MUTATION_CPU_REF"))
    for (std::size_t b = 0; b < bases.size(); ++b)
      weights[b] = std::min(1.0, std::atof(ref) / std::max(base_cpu[b], 1e-4));
  std::discrete_distribution<std::size_t> draw_base(weights.begin(), weights.end());
  std::fflush(stdout);

  Mutator mutator{std::mt19937_64(seed), bases};
  std::map<std::string, long> counts;
  struct Running {
    std::string text;
    ProgressSlot* slot;
    std::size_t base;
  };
  // Per base: inputs, and those solved with finite outputs (exit 0): each kind is seen to run, not only
  // to be refused.
  std::vector<long> per_base(bases.size(), 0), per_base_solved(bases.size(), 0);
  std::map<pid_t, Running> running;
  const int cpu_limit = cpu_limit_s();
  std::vector<ProgressSlot*> free_slots;
  for (int j = 0; j < jobs; ++j) {
    void* m = mmap(nullptr, sizeof(ProgressSlot), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) return 1;
    free_slots.push_back(new (m) ProgressSlot{});
  }
  std::vector<std::pair<double, std::string>> slow;  // projected CPU s, input (kept: the 5 slowest)
  long slow_count = 0;
  const fs::path findings = "mutation_findings";
  long started = 0, done = 0, bad = 0;
  const auto start = std::chrono::steady_clock::now();
  const auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  long total = count;
  while (done < total) {
    if (elapsed() > budget_s) total = started;
    while (started < total && static_cast<int>(running.size()) < jobs) {
      const std::size_t base = draw_base(mutator.rng);
      std::string text = mutator.mutate(bases[base]);
      ProgressSlot* slot = free_slots.back();
      free_slots.pop_back();
      slot->fraction = 0.0;
      slot->cpu_s = 0.0;
      std::fflush(stdout);
      const pid_t pid = fork();
      if (pid == 0) {
        g_slot = slot;
        child(text, examples, static_cast<rlim_t>(cpu_limit));
      }
      running.emplace(pid, Running{std::move(text), slot, base});
      ++started;
    }
    int status = 0;
    const pid_t pid = wait(&status);
    if (pid <= 0) break;
    const auto it = running.find(pid);
    if (it == running.end()) continue;
    std::string what = outcome(status);
    free_slots.push_back(it->second.slot);
    if (what == "FINDING timeout (CPU limit)" && it->second.slot->fraction > 0.0) {
      // Projected CPU time of the whole run from its progress (linear in the fraction done): at least the
      // CPU limit over the fraction reached by then.
      const double fraction = it->second.slot->fraction;
      const double projected_at_limit = cpu_limit / fraction;
      if (projected_at_limit <= kSlowBoundS) {
        what = "slow (stopped at the CPU limit; progress projects completion within 1 h of CPU)";
        ++slow_count;
        slow.emplace_back(projected_at_limit, it->second.text);
        std::sort(slow.begin(), slow.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
        if (slow.size() > 5) slow.resize(5);
      } else {
        what = "FINDING timeout (progress projects more than 1 h of CPU)";
      }
    }
    ++counts[what];
    ++per_base[it->second.base];
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) ++per_base_solved[it->second.base];
    if (what.rfind("FINDING", 0) == 0) {
      fs::create_directories(findings);
      std::ofstream(findings / ("finding_" + std::to_string(++bad) + ".toml"), std::ios::binary) << it->second.text;
      std::printf("%s: %s\n", what.c_str(), (findings / ("finding_" + std::to_string(bad) + ".toml")).c_str());
    }
    running.erase(it);
    if (++done % 5000 == 0) {  // a running tally, so that a run stopped early still has its counts
      std::printf("%ld done, %.0f s:", done, elapsed());
      for (const auto& [w, n] : counts) std::printf(" [%s] %ld", w.c_str(), n);
      std::printf("\n");
      std::fflush(stdout);
    }
  }
  std::printf("mutation run: %ld inputs from %zu bases (seed %lu, %d jobs) in %.0f s\n", done, bases.size(), seed, jobs,
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  for (const auto& [what, n] : counts) std::printf("  %s: %ld\n", what.c_str(), n);
  for (std::size_t b = 0; b < bases.size(); ++b)
    std::printf("  base %s: %ld inputs, %ld solved with finite outputs\n", base_names[b].c_str(), per_base[b],
                per_base_solved[b]);
  std::printf("CPU limit per input %d s; slow inputs: %ld", cpu_limit, slow_count);
  if (!slow.empty()) {
    fs::create_directories("mutation_slow");
    std::printf(" (slowest projected: %.0f s CPU; the 5 slowest in mutation_slow/)", slow.front().first);
    for (std::size_t i = 0; i < slow.size(); ++i)
      std::ofstream(fs::path("mutation_slow") / ("slow_" + std::to_string(i + 1) + ".toml"), std::ios::binary)
          << slow[i].second;
  }
  std::printf("\n");
  return bad > 0 ? 1 : 0;
}
