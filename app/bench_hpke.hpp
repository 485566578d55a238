// pqkem bench: the rows of `pqkem seal` and `pqkem open`'s work, without their files.
#pragma once

#include <vector>

#include "bench_timer.hpp"
#include "pqkem.hpp"
#include "simd/dispatch.hpp"

namespace pqkem::cli {

/// For each scheme with an HPKE KEM (ML-KEM, X-Wing) and each implementation, with the tool's
/// default suite (HKDF-SHA256, AES-256-GCM):
///  - "seal 1 KiB" / "open 1 KiB": single-shot HPKE (the KEM, the key schedule, one message);
///  - "seal 64 MiB" / "open 64 MiB": a context set up, then 64 MiB in 64 KiB chunks and the
///    empty final one, in batches of 64 on two threads where the machine has them, as the tool
///    streams a file (in memory here: no reads or writes).
std::vector<Row> hpke_rows(const std::vector<Scheme>& schemes, const std::vector<simd::Impl>& impls);

}  // namespace pqkem::cli
