// pqkem: the backends of this build, one list per family, in order of preference (the portable
// one last: the fallback). The one place that names them: with_kem (lib/scheme.cpp) dispatches
// over these lists, and the other files of this directory instantiate each family's code for
// every entry. A backend is a struct in lib/simd/<subject>/ that satisfies its family's concept
// (mlkem::MlKemBackend, ntru::NtruBackend) plus one line per family here; docs/architecture.md,
// "How to add a backend", has the recipe.
//
// PQKEM_HAVE_<ISA> is 1 when lib/CMakeLists.txt compiles that ISA's kernels, which it does only
// for the architecture they run on: on x86-64, AVX2 and AVX-512; on any other CPU the lists hold
// the portable backends alone.
#pragma once

#include <tuple>
#include <type_traits>

#include "kem.hpp"
#include "mlkem/backend.hpp"
#include "mlkem/checked_backend.hpp"
#include "ntru/backend.hpp"
#include "ntru/checked_backend.hpp"

#ifndef PQKEM_HAVE_AVX2
#define PQKEM_HAVE_AVX2 0
#endif
#ifndef PQKEM_HAVE_AVX512
#define PQKEM_HAVE_AVX512 0
#endif
#if PQKEM_HAVE_AVX2
#include "simd/mlkem/backend_avx2.hpp"
#include "simd/ntru/backend_avx2.hpp"
#endif
#if PQKEM_HAVE_AVX512
#include "simd/mlkem/backend_avx512.hpp"
#include "simd/ntru/backend_avx512.hpp"
#endif

namespace pqkem {

template <class... B>
struct Backends {};

/// The backends of each family as written: every entry's kernels, bare.
using MlKemKernels = Backends<
#if PQKEM_HAVE_AVX512
    mlkem::Avx512Backend,
#endif
#if PQKEM_HAVE_AVX2
    mlkem::Avx2Backend,
#endif
    mlkem::RefBackend>;

using NtruKernels = Backends<
#if PQKEM_HAVE_AVX512
    ntru::Avx512Backend,
#endif
#if PQKEM_HAVE_AVX2
    ntru::Avx2Backend,
#endif
    ntru::RefBackend>;

template <template <class> class Wrap, class List>
struct WrapEach;
template <template <class> class Wrap, class... B>
struct WrapEach<Wrap, Backends<B...>> {
  using type = Backends<Wrap<B>...>;
};
template <class L1, class L2>
struct Concat;
template <class... B1, class... B2>
struct Concat<Backends<B1...>, Backends<B2...>> {
  using type = Backends<B1..., B2...>;
};

/// What operations run on (with_kem): each backend with its contracts checked in the builds
/// that enable them (lib/contract.hpp), else the bare backend.
using MlKemBackends = WrapEach<mlkem::Contracted, MlKemKernels>::type;
using NtruBackends = WrapEach<ntru::Contracted, NtruKernels>::type;

/// What the files of this directory instantiate: the dispatch lists, and in contract builds
/// the bare backends too, which tests name directly to compare implementations.
template <class Dispatch, class Bare>
using InstanceList = std::conditional_t<contract::kEnabled, typename Concat<Dispatch, Bare>::type, Bare>;
using MlKemInstances = InstanceList<MlKemBackends, MlKemKernels>;
using NtruInstances = InstanceList<NtruBackends, NtruKernels>;

/// The functions Functions<B>::get() names (a tuple of their addresses) for every B of the list,
/// as one tuple. A translation unit that sees the template definitions instantiates them all by
/// keeping this value in a [[gnu::used]] constant: the explicit instantiation that a list cannot
/// spell. The other translation units see only declarations and link to these.
template <template <class> class Functions, class... B>
constexpr auto functions_of(Backends<B...> /*list*/) {
  return std::tuple_cat(Functions<B>::get()...);
}

/// The KemInstance entry points of K (lib/kem.hpp), by address, for functions_of.
template <class K>
constexpr auto kem_entry_points() {
  static_assert(KemInstance<K>);
  return std::make_tuple(&K::keygen_derand, &K::encaps_derand, &K::decaps, &K::check_pk, &K::check_sk, &K::pk_from_sk);
}

}  // namespace pqkem
