#pragma once
// Private: reading the files a scenario names (the scenario itself, CSV tables) with the limits of
// docs/scenarios.md ("Limits"): regular files only, and a size limit checked before reading.
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace bristle::io::detail {

/// Largest scenario file read, bytes (4 MiB: the largest scenario the list limits allow is ~2 MB of
/// inline lists, ~1 s for toml++ here; /dev/zero or a misnamed data file must not be read to exhaustion).
inline constexpr std::uintmax_t kMaxScenarioBytes = std::uintmax_t{4} << 20;
/// Largest CSV table read, bytes (64 MiB: ~10^6 rows of a few columns).
inline constexpr std::uintmax_t kMaxTableBytes = std::uintmax_t{64} << 20;

/// The whole content of `path`. Throws InvalidInput "<prefix>cannot read <noun><path>: <reason>" when the
/// file cannot be opened, is not a regular file (a directory, a device such as /dev/zero, a FIFO) or
/// is larger than `max_bytes`. Never blocks on a FIFO and never reads more than max_bytes + 1 bytes.
std::string read_input_file(const std::filesystem::path& path, std::uintmax_t max_bytes, std::string_view prefix,
                            std::string_view noun = {});

/// Whether `path` (not followed if a symbolic link: a rename replaces the link) is a file that read_input_file has
/// read since refuse_inputs() (io::refuse_to_replace_inputs) and that is unchanged since (device, inode, size,
/// modification time); write_outputs then refuses to replace it (drive.toml with its table drive.csv wrote its
/// output over the table, and the next run read its own output as the drive, exit 0).
bool was_read_as_input(const std::filesystem::path& path);
void refuse_inputs();
bool refusing_inputs();

/// "16 MiB", "64 MiB", "1.5 KiB": a byte count for messages.
std::string format_bytes(std::uintmax_t bytes);

}  // namespace bristle::io::detail
