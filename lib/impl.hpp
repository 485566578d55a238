// pqkem: the implementations an operation can run on. A vocabulary type of its own, so that the
// family code (lib/mlkem, lib/ntru) can name its portable backend without including lib/simd;
// simd/dispatch.hpp chooses among them.
#pragma once

namespace pqkem {

enum class Impl { portable, avx2, avx512 };

}  // namespace pqkem
