// Shared helpers for the conformance-vector tests: locating and reading the vector files,
// hex, and GoogleTest assertions for byte strings and pqkem::Error codes.
//
// Every helper that reads data throws std::runtime_error when a file is missing or malformed:
// GoogleTest reports the exception as a failure of the test, so missing vectors can never
// make a test pass or skip.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <filesystem>
#include <map>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "error.hpp"
#include "pqkem.hpp"
#include "secret.hpp"

namespace pqkem::test {

/// PQKEM_VECTORS_DIR (the CMake cache variable, compiled in). Throws if it is not a directory.
std::filesystem::path vectors_dir();
/// vectors_dir() / relative; throws if that file does not exist.
std::filesystem::path vector_file(std::string_view relative);

/// Whole file contents (binary). Throws if it cannot be read.
std::string read_file(const std::filesystem::path& path);
/// Contents of a gzip file, decompressed by `gzip -dc` through popen (no library dependency).
/// Throws if the file is missing or gzip fails (exit status != 0).
std::string read_gzip_file(const std::filesystem::path& path);

/// A JSON file, parsed. Throws std::runtime_error naming the file if it cannot be read or is not
/// JSON. Accessors of nlohmann::json throw on a missing key or a wrong type (at(), get<T>()).
nlohmann::json read_json_file(const std::filesystem::path& path);

/// Splits text into lines at '\n' (a final newline does not start an empty line; '\r' is an error).
std::vector<std::string> split_lines(std::string_view text);

/// Parses CCTV-style "key = hexvalue" lines into a map. Blank lines are ignored; any other
/// line shape or a repeated key throws.
std::map<std::string, std::string> parse_key_values(std::string_view text);

/// Strict hex decoding (upper or lower case, even length, nothing else); throws on bad input.
Bytes hex_decode(std::string_view hex);
/// Lower-case hex.
std::string hex_encode(ByteView bytes);
/// Upper-case hex.
std::string hex_encode_upper(ByteView bytes);

/// The scheme of an ML-KEM parameter-set name ("ML-KEM-768"); throws if unknown.
Scheme scheme_named(std::string_view name);
/// Test-name-friendly scheme name ("MlKem768").
std::string scheme_test_name(Scheme s);

/// Byte equality with a short diagnostic (lengths, first differing offset) instead of two
/// multi-kilobyte hex dumps.
::testing::AssertionResult bytes_equal(ByteView got, ByteView want);

/// Runs f and checks that it throws pqkem::Error with code `want`.
template <class F>
::testing::AssertionResult throws_errc(F&& f, Errc want) {
  try {
    f();
  } catch (const Error& e) {
    if (e.code() == want) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "threw pqkem::Error(" << errc_name(e.code()) << ": " << e.what()
                                         << "), expected " << errc_name(want);
  } catch (const std::exception& e) {
    return ::testing::AssertionFailure() << "threw a non-pqkem exception (" << e.what() << "), expected pqkem::Error("
                                         << errc_name(want) << ")";
  } catch (...) {
    return ::testing::AssertionFailure() << "threw an unknown exception, expected pqkem::Error(" << errc_name(want)
                                         << ")";
  }
  return ::testing::AssertionFailure() << "did not throw, expected pqkem::Error(" << errc_name(want) << ")";
}

/// Runs one vector case. An exception escaping it (a library error on a valid input, a
/// malformed field) is recorded as a failure of this case and the loop goes on with the next;
/// ASSERT_* inside f likewise ends only this case. Use inside SCOPED_TRACE(case label).
template <class F>
void run_case(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    ADD_FAILURE() << "unexpected pqkem::Error(" << errc_name(e.code()) << "): " << e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "unexpected exception: " << e.what();
  }
}

/// Runs f and checks that it does not throw.
template <class F>
::testing::AssertionResult does_not_throw(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return ::testing::AssertionFailure() << "threw pqkem::Error(" << errc_name(e.code()) << ": " << e.what() << ")";
  } catch (const std::exception& e) {
    return ::testing::AssertionFailure() << "threw " << e.what();
  } catch (...) {
    return ::testing::AssertionFailure() << "threw an unknown exception";
  }
  return ::testing::AssertionSuccess();
}

}  // namespace pqkem::test

namespace pqkem {
/// Readable test parameters in GoogleTest output ("ML-KEM-768" instead of raw bytes).
inline void PrintTo(Scheme s, std::ostream* os) { *os << scheme_info(s).name; }
}  // namespace pqkem
