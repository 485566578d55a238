// pqkem CLI: the --json report of keygen, encaps, decaps, seal and open (report.cpp): one JSON object on
// stdout describing what was written (never secret material).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "hpke.hpp"
#include "io.hpp"
#include "json.hpp"
#include "output.hpp"
#include "pqkem.hpp"

namespace pqkem::cli {

/// The fields every report starts with: command, algorithm and data format.
JsonValue json_report(std::string_view command, const SchemeInfo& info, Format format);
/// The JSON array describing `outputs` as written: option, path, kind (`kinds`, one per output)
/// and the bytes written.
JsonValue json_files(const std::vector<PendingOutput>& outputs, const std::vector<std::string_view>& kinds);
/// The --json report of seal and open up to their files: command, algorithm, form (sealed or
/// raw), mode (base or psk) and the HPKE suite's names.
JsonValue json_hpke_report(std::string_view command, Scheme s, const hpke::Suite& suite, bool raw, bool psk);
/// Its end: the sizes (`chunk_bytes` 0 for --raw, which has no chunks) and the SHA-256 of enc.
void add_hpke_sizes(JsonValue& report, std::uint64_t plaintext_bytes, std::uint64_t sealed_bytes,
                    std::uint32_t chunk_bytes, std::uint64_t chunks, ByteView enc);
/// Lower-case hex SHA-256 of `data` (fingerprints of public keys and ciphertexts).
std::string sha256_hex(ByteView data);
/// Queues `report` for stdout with the other outputs, so write_outputs prints it before any
/// file is renamed into place: if stdout fails, no file is written (all-or-nothing).
void add_json_report(std::vector<PendingOutput>& outputs, const JsonValue& report);

}  // namespace pqkem::cli
