// ML-KEM (Kem<P, B>) for every ML-KEM backend of the build (backends.hpp).
#include "backends/backends.hpp"
#include "mlkem/kem_impl.hpp"

namespace pqkem::mlkem {
namespace {

template <class B>
struct KemFunctions {
  template <class P>
  static constexpr auto of() {
    return kem_entry_points<Kem<P, B>>();
  }
  static constexpr auto get() { return std::tuple_cat(of<MlKem512>(), of<MlKem768>(), of<MlKem1024>()); }
};

[[gnu::used]] constexpr auto kInstances = functions_of<KemFunctions>(MlKemInstances{});

}  // namespace
}  // namespace pqkem::mlkem
