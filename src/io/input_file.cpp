#include "input_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <set>
#include <tuple>

#include "bristle/core/error.hpp"
#include "bristle/io/json.hpp"

namespace bristle::io::detail {

std::string format_bytes(std::uintmax_t bytes) {
  if (bytes >= (std::uintmax_t{1} << 20) && bytes % (std::uintmax_t{1} << 20) == 0)
    return fmt::format("{} MiB", bytes >> 20);
  if (bytes >= (std::uintmax_t{1} << 20)) return fmt::format("{:.1f} MiB", static_cast<double>(bytes) / 1048576.0);
  return fmt::format("{} bytes", bytes);
}

namespace {
/// The files read_input_file has read (device, inode, size, modification time) since refuse_inputs(), for
/// was_read_as_input; nothing is kept before (a library process that reads many files keeps no list).
class InputsRead {
 public:
  void add(const struct stat& st) {
    const std::lock_guard<std::mutex> lock(mutex_);
    files_.insert(key(st));
  }
  bool contains(const struct stat& st) {
    const std::lock_guard<std::mutex> lock(mutex_);
    return files_.contains(key(st));
  }
  std::atomic<bool> refusing{false};

 private:
  using Key = std::tuple<dev_t, ino_t, off_t, std::int64_t, std::int64_t>;
  static Key key(const struct stat& st) { return {st.st_dev, st.st_ino, st.st_size, st.st_mtim.tv_sec, st.st_mtim.tv_nsec}; }
  std::mutex mutex_;
  std::set<Key> files_;
};

InputsRead& inputs_read() {
  static InputsRead inputs;
  return inputs;
}

/// Closes a file descriptor on every path out.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};
}  // namespace

std::string read_input_file(const std::filesystem::path& path, std::uintmax_t max_bytes, std::string_view prefix,
                            std::string_view noun) {
  const std::string shown = path.string();
  const auto fail = [&](const std::string& reason) -> std::string {
    throw InvalidInput(fmt::format("{}cannot read {}{}: {}", prefix, noun, shown, reason));
  };
  // A NUL ends the path the system sees: "d.csv\u0000x" read d.csv (and cut every message at the NUL).
  if (path.native().find('\0') != std::string::npos)
    throw InvalidInput(fmt::format("{}cannot read {}{}: a path may not contain a NUL character", prefix, noun,
                                   json_quote(shown)));
  // O_NONBLOCK: opening a FIFO with no writer must not block (it is then refused as not regular).
  Fd f{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
  if (f.fd < 0) return fail(std::strerror(errno));
  struct stat st{};
  if (::fstat(f.fd, &st) != 0) return fail(std::strerror(errno));
  if (S_ISDIR(st.st_mode)) return fail("is a directory, not a regular file");
  if (!S_ISREG(st.st_mode)) return fail("not a regular file (a device, FIFO or socket)");
  if (static_cast<std::uintmax_t>(st.st_size) > max_bytes)
    return fail(fmt::format("{} is larger than the limit of {} for this file",
                            format_bytes(static_cast<std::uintmax_t>(st.st_size)), format_bytes(max_bytes)));
  std::string text;
  text.resize(static_cast<std::size_t>(st.st_size));
  std::size_t done = 0;
  while (true) {
    if (done == text.size()) {
      if (text.size() > max_bytes) break;
      text.resize(std::min<std::uintmax_t>(max_bytes + 1, text.size() + 65536));  // the file grew: read on, bounded
    }
    const ssize_t n = ::read(f.fd, text.data() + done, text.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return fail(std::strerror(errno));
    }
    if (n == 0) break;
    done += static_cast<std::size_t>(n);
  }
  if (done > max_bytes) return fail(fmt::format("larger than the limit of {} for this file", format_bytes(max_bytes)));
  text.resize(done);
  if (refusing_inputs()) inputs_read().add(st);
  return text;
}

bool was_read_as_input(const std::filesystem::path& path) {
  struct stat st{};
  return ::lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && inputs_read().contains(st);
}

void refuse_inputs() { inputs_read().refusing.store(true); }
bool refusing_inputs() { return inputs_read().refusing.load(); }

}  // namespace bristle::io::detail
