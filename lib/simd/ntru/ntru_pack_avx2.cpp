// The AVX2 build of the NTRU kernels of ntru_pack_x86.hpp, into simd::avx2 with `_avx2` names
// (ntru_isa.hpp). Compiled with the AVX2 flags (lib/CMakeLists.txt).
#include "simd/ntru/ntru_pack_x86.hpp"
