// ASCII case folding for names given on the command line (algorithms, implementations, random
// sources): locale-independent, unlike std::tolower.
#pragma once

#include <cstddef>
#include <string_view>

namespace pqkem::util {

inline constexpr char ascii_lower(char c) noexcept {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

inline constexpr bool equal_nocase(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
  return true;
}

}  // namespace pqkem::util
