#include "io.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "ct.hpp"
#include "text.hpp"
#include "util/hex.hpp"

namespace pqkem::cli {

void Fd::reset() noexcept {
  if (m_fd >= 0) ::close(m_fd);
  m_fd = -1;
}

namespace {

bool g_closed_at_start[3] = {false, false, false};

}  // namespace

bool guard_standard_descriptors() noexcept {
  // Lowest number first: open(2) returns the lowest free descriptor, which is then the one
  // being filled (0 before 1 before 2).
  constexpr int kModes[3] = {O_WRONLY, O_RDONLY, O_WRONLY};
  for (int fd = 0; fd < 3; ++fd) {
    if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    g_closed_at_start[fd] = true;
    const int opened = ::open("/dev/null", kModes[fd] | O_NOCTTY);
    if (opened != fd) {
      if (opened >= 0) ::close(opened);
      return false;
    }
  }
  return true;
}

bool standard_stream_closed(int fd) noexcept { return fd >= 0 && fd < 3 && g_closed_at_start[fd]; }

namespace {

// Hex digits of secret keys and seeds are secret: which range a digit falls in must not show in
// the timing, so the classifiers are branch-free (hex::digit_mask, ct::in_range_mask).
bool is_hex_digit(unsigned char c) noexcept { return hex::digit_mask(c) != 0; }

std::uint32_t space_mask(unsigned char c) noexcept {
  return ct::in_range_mask(c, '\t', '\r') | ct::in_range_mask(c, ' ', ' ');
}

/// How many bytes of `text` are hex digits, whitespace (space, \t \n \v \f \r) and other
/// printable ASCII. Counted with masks over every byte, so that the time depends only on the
/// length: the text may be a secret key, and only the totals decide its format.
struct TextShape {
  std::size_t hex_digits = 0;
  std::size_t spaces = 0;
  std::size_t other_printable = 0;

  [[nodiscard]] bool is_hex(std::size_t size) const noexcept { return hex_digits > 0 && hex_digits + spaces == size; }
  [[nodiscard]] bool is_text(std::size_t size) const noexcept { return hex_digits + spaces + other_printable == size; }
};

// text_shape counts eight bytes at a time (SWAR): for 64-bit words of eight 7-bit bytes, the
// masks below set bit 7 of each byte in a range, with no carry or borrow between bytes. Bytes of
// 0x80 and above are in no range. Plain arithmetic, so branch-free, and about ten times fewer
// instructions than classifying byte by byte (whole-process cost, docs/performance.md).
constexpr std::uint64_t kOnes = 0x0101010101010101u;
constexpr std::uint64_t kHigh = 0x8080808080808080u;

/// Bit 7 of each byte of `low7` (bytes below 0x80) set where lo <= byte <= hi (lo, hi < 0x80).
constexpr std::uint64_t swar_in_range(std::uint64_t low7, unsigned lo, unsigned hi) noexcept {
  const std::uint64_t at_least_lo = (low7 | kHigh) - lo * kOnes;   // bit 7 set iff byte >= lo
  const std::uint64_t at_most_hi = ((0x80u + hi) * kOnes) - low7;  // bit 7 set iff byte <= hi
  return at_least_lo & at_most_hi & kHigh;
}

/// The number of bytes whose bit 7 is set in `mask` (a mask of swar_in_range).
constexpr std::size_t swar_count(std::uint64_t mask) noexcept { return ((mask >> 7) * kOnes) >> 56; }

TextShape text_shape(ByteView text) noexcept {
  TextShape shape;
  for (std::size_t i = 0; i < text.size(); i += 8) {
    // The last word is padded with NUL bytes, which are in no range. Byte order does not matter
    // to a count.
    std::uint64_t word = 0;
    std::memcpy(&word, text.data() + i, std::min<std::size_t>(8, text.size() - i));
    const std::uint64_t ascii = ~word & kHigh;  // bit 7 set on the bytes below 0x80
    const std::uint64_t low7 = word & ~kHigh;
    const std::uint64_t hex =
        (swar_in_range(low7, '0', '9') | swar_in_range(low7, 'a', 'f') | swar_in_range(low7, 'A', 'F')) & ascii;
    const std::uint64_t space = (swar_in_range(low7, '\t', '\r') | swar_in_range(low7, ' ', ' ')) & ascii;
    const std::uint64_t printable = swar_in_range(low7, '!', '~') & ascii;
    shape.hex_digits += swar_count(hex);
    shape.spaces += swar_count(space);
    shape.other_printable += swar_count(printable & ~hex);
  }
  return shape;
}

/// Decodes hex digits, skipping whitespace. Pre: text_shape(text).is_hex(), with `digits` hex
/// digits, an even number.
SecretBytes decode_hex(ByteView text, std::size_t digits) {
  SecretBytes out(digits / 2);
  std::size_t n = 0;
  unsigned hi = 0;
  for (const auto c : text) {
    if (!is_hex_digit(c)) continue;
    if (n % 2 == 0) {
      hi = hex::digit_value(c);
    } else {
      out[n / 2] = static_cast<std::uint8_t>((hi << 4) | hex::digit_value(c));
    }
    ++n;
  }
  return out;
}

}  // namespace

InputStream::InputStream(const std::string& path) : m_name(input_name(path)) {
  if (path.empty()) throw_usage("empty file name; give a path or - for stdin");
  if (path == "-" && standard_stream_closed(STDIN_FILENO))
    throw_failure("stdin is closed; give the input as a file name instead of -", m_name);
  if (path != "-") {
    m_file = Fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY));
    if (m_file.get() < 0) throw_failure(fmt::format("cannot open input: {}", errno_text(errno)), m_name);
  }
  m_fd = path == "-" ? STDIN_FILENO : m_file.get();
  struct stat st {};
  if (::fstat(m_fd, &st) == 0) {
    if (S_ISDIR(st.st_mode)) throw_failure("input is a directory, not a file", m_name);
    if (S_ISREG(st.st_mode) && st.st_size > 0) m_known_size = static_cast<std::uint64_t>(st.st_size);
  }
}

std::size_t InputStream::read(std::span<std::uint8_t> buffer) {
  std::size_t used = 0;
  while (used < buffer.size()) {
    const ssize_t n = ::read(m_fd, buffer.data() + used, buffer.size() - used);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw_failure(fmt::format("cannot read input: {}", errno_text(errno)), m_name);
    }
    if (n == 0) break;
    used += static_cast<std::size_t>(n);
  }
  return used;
}

SecretBytes read_input(const std::string& path) {
  InputStream in(path);
  const std::string& name = in.name();

  // A buffer of the file's size where fstat knows it, plus one byte to see the end (or that the
  // file grew past the limit); else 4 KiB, doubled as needed up to the limit plus one. So a key
  // costs a buffer of its own size to fill and to wipe, not one of the limit's.
  std::size_t capacity = 4096;
  if (in.known_size())
    capacity = static_cast<std::size_t>(std::min<std::uint64_t>(*in.known_size(), kMaxInputBytes)) + 1;
  SecretBytes buffer(capacity);
  std::size_t used = 0;
  for (;;) {
    if (used == buffer.size()) {
      if (used > kMaxInputBytes) break;
      SecretBytes bigger(std::min(2 * used, kMaxInputBytes + 1));
      std::memcpy(bigger.data(), buffer.data(), used);
      buffer = std::move(bigger);  // wipes the smaller one
    }
    const std::size_t n = in.read(std::span(buffer.data() + used, buffer.size() - used));
    used += n;
    if (used < buffer.size()) break;  // the end of the input
  }
  if (used == 0) throw_failure("input is empty", name);
  if (used > kMaxInputBytes)
    throw_failure(fmt::format("input is larger than {} bytes, the limit for any pqkem input", kMaxInputBytes), name);
  return SecretBytes(ByteView(buffer.data(), used));
}

Decoded decode_input(SecretBytes content, const std::string& file) {
  const TextShape shape = text_shape(content.view());
  const std::size_t n = content.size();
  if (shape.is_hex(n)) {
    if (shape.hex_digits % 2 != 0)
      throw_failure("input looks like hex but has an odd number of hex digits (one missing or extra?)", file);
    return {decode_hex(content.view(), shape.hex_digits), true};
  }
  if (shape.is_text(n)) {
    // Text that is not hex: say what is wrong with it rather than report its length as raw
    // bytes. "0x" then hex digits: the one printable non-hex character is the x.
    std::size_t first = 0;
    while (first < n && space_mask(content[first]) != 0) ++first;
    const bool prefixed = shape.other_printable == 1 && n - first >= 2 && content[first] == '0' &&
                          (content[first + 1] == 'x' || content[first + 1] == 'X');
    if (prefixed)
      throw_failure("input looks like hex with a 0x prefix; pqkem reads plain hex digits: remove the 0x", file);
    throw_failure("input is text but not hex: only hex digits and whitespace are allowed (and PEM for keys)", file);
  }
  return {std::move(content), false};
}

std::optional<SecretBytes> parse_hex(std::string_view text) {
  const ByteView bytes(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
  const TextShape shape = text_shape(bytes);
  if (!shape.is_hex(bytes.size()) || shape.hex_digits % 2 != 0) return std::nullopt;
  return decode_hex(bytes, shape.hex_digits);
}

const char* format_name(Format format) noexcept {
  switch (format) {
    case Format::bin: return "bin";
    case Format::hex: return "hex";
    case Format::pem: return "pem";
    case Format::der: return "der";
  }
  return "?";
}

SecretBytes encode_output(ByteView data, Format format) {
  if (format == Format::pem || format == Format::der)
    throw std::logic_error("encode_output: pem and der need a key structure");
  if (format == Format::bin) return SecretBytes(data);
  SecretBytes out(2 * data.size() + 1);
  hex::encode(data.data(), data.size(), out.data());  // secret keys too: constant time
  out[2 * data.size()] = '\n';
  return out;
}

}  // namespace pqkem::cli
