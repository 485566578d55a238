// The hybrids (Kem<P, B>, B an ML-KEM backend) for every ML-KEM backend of the build
// (backends.hpp).
#include "backends/backends.hpp"
#include "hybrid/hybrid_impl.hpp"

namespace pqkem::hybrid {
namespace {

template <class B>
struct HybridFunctions {
  template <class P, class K = Kem<P, B>>
  static constexpr auto of() {
    return std::tuple_cat(kem_entry_points<K>(), std::make_tuple(&K::invalid_pk_reason));
  }
  static constexpr auto get() { return std::tuple_cat(of<XWing>(), of<X25519MlKem768>()); }
};

[[gnu::used]] constexpr auto kInstances = functions_of<HybridFunctions>(MlKemInstances{});

}  // namespace
}  // namespace pqkem::hybrid
