// A tiny program using an installed pqkem: ML-KEM-768 keygen, encaps, decaps through the
// library API. Exit 0 when both sides get the same shared secret.
#include <pqkem/kat.hpp>
#include <pqkem/pqkem.hpp>

#include <algorithm>
#include <cstdio>

int main() {
  try {
    const auto s = pqkem::Scheme::MlKem768;
    const auto& info = pqkem::scheme_info(s);
    pqkem::KeyPair kp = pqkem::keygen(s);
    pqkem::Encapsulation e = pqkem::encaps(s, kp.pk);
    pqkem::SecretBytes ss = pqkem::decaps(s, kp.sk, e.ct);
    if (kp.pk.size() != info.pk_bytes || kp.sk.size() != info.sk_bytes || e.ct.size() != info.ct_bytes ||
        ss.size() != info.ss_bytes) {
      std::fprintf(stderr, "consumer: unexpected sizes\n");
      return 1;
    }
    if (!std::equal(ss.view().begin(), ss.view().end(), e.ss.view().begin(), e.ss.view().end())) {
      std::fprintf(stderr, "consumer: shared secrets differ\n");
      return 1;
    }
    std::printf("consumer: %.*s round trip ok (pqkem %.*s)\n", static_cast<int>(info.name.size()), info.name.data(),
                static_cast<int>(pqkem::version().size()), pqkem::version().data());
    return 0;
  } catch (const pqkem::Error& err) {
    std::fprintf(stderr, "consumer: %s\n", err.what());
    return 1;
  }
}
