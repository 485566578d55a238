// NTRU (Kem<P, B>) for every NTRU backend of the build (backends.hpp).
#include "backends/backends.hpp"
#include "ntru/kem_impl.hpp"

namespace pqkem::ntru {
namespace {

template <class B>
struct KemFunctions {
  template <class P, class K = Kem<P, B>>
  static constexpr auto of() {
    return std::tuple_cat(kem_entry_points<K>(), std::make_tuple(&K::expand_coins));
  }
  static constexpr auto get() {
    return std::tuple_cat(of<NtruHps2048509>(), of<NtruHps2048677>(), of<NtruHps4096821>(), of<NtruHrss701>());
  }
};

[[gnu::used]] constexpr auto kInstances = functions_of<KemFunctions>(NtruInstances{});

}  // namespace
}  // namespace pqkem::ntru
