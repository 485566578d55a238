// NTRU OW-CPA for every NTRU backend of the build (backends.hpp).
#include "backends/backends.hpp"
#include "ntru/owcpa_impl.hpp"

namespace pqkem::ntru {
namespace {

template <class B>
struct OwcpaFunctions {
  template <class P>
  static constexpr auto of() {
    return std::make_tuple(&owcpa_keypair<P, B>, &owcpa_enc<P, B>, &owcpa_dec<P, B>);
  }
  static constexpr auto get() {
    return std::tuple_cat(of<NtruHps2048509>(), of<NtruHps2048677>(), of<NtruHps4096821>(), of<NtruHrss701>());
  }
};

[[gnu::used]] constexpr auto kInstances = functions_of<OwcpaFunctions>(NtruInstances{});

}  // namespace
}  // namespace pqkem::ntru
