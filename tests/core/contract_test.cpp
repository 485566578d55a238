// The run-time contract checks (lib/contract.hpp): Checked<B> passes every valid input through
// unchanged and stops at a bound a kernel's caller broke, naming the kernel and the condition.
// Checked<B> is compiled into every build; PQKEM_CONTRACTS only decides whether operations use it.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>

#include "mlkem/checked_backend.hpp"
#include "ntru/checked_backend.hpp"

namespace pqkem {
namespace {

using CheckedMlKem = mlkem::Checked<mlkem::RefBackend>;
using CheckedNtru = ntru::Checked<ntru::RefBackend>;
using P = ntru::NtruHps2048509;

TEST(Contracts, MlKemCheckedGivesTheBackendsResults) {
  mlkem::Poly f;
  for (int i = 0; i < mlkem::kN; ++i) f.c[i] = static_cast<std::int16_t>((i * 37) % mlkem::kQ - mlkem::kQ / 2);
  const mlkem::NttPoly bare = mlkem::RefBackend::ntt(f);
  const mlkem::NttPoly checked = CheckedMlKem::ntt(f);
  EXPECT_EQ(checked.c, bare.c);
  EXPECT_EQ(CheckedMlKem::inverse_ntt(checked).c, mlkem::RefBackend::inverse_ntt(bare).c);
}

TEST(ContractsDeathTest, MlKemNttInputOutOfBounds) {
  mlkem::Poly f;
  f.c[17] = mlkem::kQ;  // |f_i| < q is the NTT's precondition
  EXPECT_DEATH(CheckedMlKem::ntt(f), "contract violated: ntt: in: \\|f_i\\| < q");
}

TEST(ContractsDeathTest, MlKemAddReduceOverflow) {
  mlkem::Poly r, a;
  r.c[3] = 20000;
  a.c[3] = 20000;  // the sum leaves int16
  EXPECT_DEATH(CheckedMlKem::add_reduce(r, a, nullptr), "contract violated: add_reduce");
}

TEST(ContractsDeathTest, MlKemEncode12InputOutOfBounds) {
  mlkem::NttPoly f;
  f.c[255] = -mlkem::kQ;
  std::array<std::uint8_t, mlkem::kPolyBytes> out{};
  EXPECT_DEATH(CheckedMlKem::encode12(f, out), "contract violated: encode12");
}

TEST(Contracts, NtruCheckedGivesTheBackendsResults) {
  ntru::Poly<P> a, r_bare, r_checked;
  for (std::size_t i = 0; i + 1 < P::n; ++i) a.c[i] = static_cast<std::uint16_t>(i % 3);
  ntru::RefBackend::poly_s3_inv(r_bare, a);
  CheckedNtru::poly_s3_inv(r_checked, a);
  EXPECT_EQ(r_checked.c, r_bare.c);
}

TEST(ContractsDeathTest, NtruS3InverseNeedsTrits) {
  ntru::Poly<P> a, r;
  a.c[5] = 3;  // not in Z3
  EXPECT_DEATH(CheckedNtru::poly_s3_inv(r, a), "contract violated: poly_s3_inv: in: Z3");
}

TEST(ContractsDeathTest, NtruLiftNeedsTrits) {
  ntru::Poly<P> m, r;
  m.c[0] = 7;
  EXPECT_DEATH(CheckedNtru::poly_lift(r, m), "contract violated: poly_lift");
}

}  // namespace
}  // namespace pqkem
