// K-PKE for every ML-KEM backend of the build (backends.hpp).
#include "backends/backends.hpp"
#include "mlkem/kpke_impl.hpp"

namespace pqkem::mlkem {
namespace {

template <class B>
struct KpkeFunctions {
  template <class P>
  static constexpr auto of() {
    return std::make_tuple(&kpke_keygen<P, B>, &kpke_encrypt<P, B>, &kpke_decrypt<P, B>);
  }
  static constexpr auto get() { return std::tuple_cat(of<MlKem512>(), of<MlKem768>(), of<MlKem1024>()); }
};

[[gnu::used]] constexpr auto kInstances = functions_of<KpkeFunctions>(MlKemInstances{});

}  // namespace
}  // namespace pqkem::mlkem
