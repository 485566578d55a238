// pqkem info: what a key, seed or ciphertext file is. Never prints secret material: for a
// secret key only its form, sizes and the fingerprint of its public key.
#include <algorithm>
#include <iterator>

#include <fmt/format.h>

#include "cmd_info.hpp"
#include "json.hpp"
#include "keys.hpp"
#include "options.hpp"
#include "output.hpp"
#include "report.hpp"

namespace pqkem::cli {
namespace {

enum class Kind { public_key, secret_key, seed, ciphertext, public_key_or_ciphertext };

/// The text and JSON names of each Kind, in the enum's order.
struct KindNames {
  const char* text;
  const char* json;
};
constexpr KindNames kKindNames[] = {{"public key", "public_key"},
                                    {"secret key", "secret_key"},
                                    {"seed", "seed"},
                                    {"ciphertext", "ciphertext"},
                                    {"public key or ciphertext", "public_key_or_ciphertext"}};
static_assert(std::size(kKindNames) == static_cast<std::size_t>(Kind::public_key_or_ciphertext) + 1);

const char* kind_text(Kind k) noexcept { return kKindNames[static_cast<int>(k)].text; }
const char* kind_json(Kind k) noexcept { return kKindNames[static_cast<int>(k)].json; }

/// What `info` reports, in order; each value as text and as a JSON value.
struct Report {
  struct Field {
    std::string text_key;
    std::string json_key;
    std::string text;
    JsonValue json;
  };
  std::vector<Field> fields;

  void add_string(const std::string& text_key, const std::string& json_key, const std::string& value) {
    fields.push_back({text_key, json_key, value, JsonValue::string(value)});
  }
  void add_number(const std::string& text_key, const std::string& json_key, std::size_t value) {
    fields.push_back({text_key, json_key, std::to_string(value), JsonValue::number(value)});
  }
  void add_null(const std::string& text_key, const std::string& json_key, const std::string& text) {
    fields.push_back({text_key, json_key, text, JsonValue()});
  }

  [[nodiscard]] std::string text() const {
    std::size_t width = 0;
    for (const auto& f : fields) width = std::max(width, f.text_key.size());
    std::string out;
    for (const auto& f : fields) out += fmt::format("{:<{}}  {}\n", f.text_key + ":", width + 1, f.text);
    return out;
  }
  [[nodiscard]] std::string json() const {
    JsonValue j = JsonValue::object();
    for (const auto& f : fields) j.add(f.json_key, f.json);
    return j.dump();
  }
};

/// "PKCS#8 (RFC 5958, RFC 9935)"; "SubjectPublicKeyInfo (RFC 5280, draft-connolly-cfrg-xwing-kem)".
std::string encoding_text(const KeyInput& in, Kind kind, Scheme s) {
  if (!in.der) return "raw";
  const std::string standard(keyfile::oid_standard(s).value_or("?"));
  return kind == Kind::secret_key ? "PKCS#8 (RFC 5958, " + standard + ")"
                                  : "SubjectPublicKeyInfo (RFC 5280, " + standard + ")";
}

/// What a hybrid is made of (hybrid/hybrid.hpp): both put the ML-KEM-768 part first in keys
/// and ciphertexts; they differ in the shared secret.
struct HybridParts {
  Scheme scheme;
  const char* shared_secret;
};
constexpr HybridParts kHybridParts[] = {
    {Scheme::XWing, "32 bytes, SHA3-256 of both secrets, ct_X, pk_X and the X-Wing label"},
    {Scheme::X25519MlKem768, "64 bytes, ML-KEM-768's secret || X25519's (no combiner)"},
};
constexpr const char* kHybridComponents[] = {"ML-KEM-768", "X25519"};

void add_algorithm(Report& r, Scheme s) {
  const auto& info = scheme_info(s);
  r.add_string("algorithm", "algorithm", std::string(info.name));
  if (const auto oid = keyfile::oid_text(s)) {
    r.add_string("OID", "oid", std::string(*oid));
  } else {
    r.add_null("OID", "oid", "none (no standard OID)");
  }
  for (const auto& h : kHybridParts) {
    if (h.scheme != s) continue;
    JsonValue parts = JsonValue::array();
    for (const char* c : kHybridComponents) parts.push(JsonValue::string(c));
    r.fields.push_back({"components", "components", "ML-KEM-768, X25519 (ML-KEM part first in keys and ciphertexts)",
                        std::move(parts)});
    r.add_string("shared secret", "shared_secret", h.shared_secret);
  }
}

/// The schemes (within `algorithm`, if given) for which `size_of` gives `n`.
template <class SizeOf>
std::vector<Scheme> fitting(std::size_t n, std::optional<Scheme> algorithm, SizeOf size_of) {
  std::vector<Scheme> out;
  for (const auto& info : all_schemes())
    if ((!algorithm || info.scheme == *algorithm) && size_of(info) == n) out.push_back(info.scheme);
  return out;
}

void add_fingerprint(Report& r, ByteView pk, const std::string& text_key) {
  r.add_string(text_key, "public_key_sha256", sha256_hex(pk));
}

/// The report of `pqkem info` on one input, a method per kind of input.
class InfoReport {
public:
  explicit InfoReport(const KeyInput& in) : m_format(in.format), m_file_bytes(in.file_bytes) {
    m_r.add_string("file", "file", in.file);
  }
  const Report& report() const noexcept { return m_r; }

  void secret_key(const SecretKeyInput& sk, const KeyInput& src) {
    const auto& key = sk.key;
    add_algorithm(m_r, key.scheme);
    common(Kind::secret_key, src, key.scheme);
    m_r.add_string("private key form", "private_key_form", std::string(keyfile::form_name(key.form)));
    if (!key.seed.empty()) m_r.add_number("seed bytes", "seed_bytes", key.seed.size());
    // A hybrid's expanded key is pqkem's in-memory form, never a file: not worth a line.
    if (!secret_key_is_seed(key.scheme)) m_r.add_number("expanded secret key bytes", "secret_key_bytes", key.dk.size());
    m_r.add_number("public key bytes", "public_key_bytes", key.pk.size());
    add_fingerprint(m_r, key.pk, "public key SHA-256");
  }

  void public_key(const PublicKeyInput& pk, const KeyInput& src) {
    add_algorithm(m_r, pk.scheme);
    common(Kind::public_key, src, pk.scheme);
    m_r.add_number("public key bytes", "public_key_bytes", pk.pk.size());
    add_fingerprint(m_r, pk.pk, "public key SHA-256");
  }

  /// Not a secret key of any scheme until -a names one: every scheme with seeds of this size is
  /// listed (32 bytes, X-Wing's, is also the size of most shared secrets).
  void seed(std::size_t n, const std::vector<Scheme>& seeds, const KeyInput& src) {
    m_r.add_null("algorithm", "algorithm", "unknown: a seed does not reveal its parameter set (give -a)");
    common(Kind::seed, src, seeds.front());
    m_r.add_number("seed bytes", "seed_bytes", n);
    JsonValue names = JsonValue::array();
    for (const auto s : seeds) names.push(JsonValue::string(scheme_info(s).name));
    m_r.fields.push_back({"seed of", "seed_of", scheme_names(seeds, "or"), std::move(names)});
    // 32 and 64 bytes are also shared secret sizes: the bytes alone cannot tell.
    const bool ss_size =
        std::any_of(all_schemes().begin(), all_schemes().end(), [&](const SchemeInfo& i) { return i.ss_bytes == n; });
    if (ss_size) m_r.add_string("also the size of", "also_size_of", "a shared secret");
  }

  /// A size that is both s's public key and its ciphertext (ML-KEM-1024, 1568 bytes, and every
  /// NTRU set). Where the public key check is strong (ML-KEM), a ciphertext fails it with
  /// overwhelming probability, so the check tells them apart; NTRU's cannot.
  void public_key_or_ciphertext(Scheme s, ByteView bytes, const KeyInput& src) {
    bool valid_pk = true;
    try {
      check_public_key(s, bytes);
    } catch (const pqkem::Error&) {
      valid_pk = false;
    }
    const bool strong = scheme_info(s).pk_check_strong;
    const Kind kind = !valid_pk ? Kind::ciphertext : strong ? Kind::public_key : Kind::public_key_or_ciphertext;
    if (kind == Kind::ciphertext) return ciphertext(s, bytes.size(), src);
    add_algorithm(m_r, s);
    common(kind, src, s);
    m_r.add_number("public key bytes", "public_key_bytes", bytes.size());
    add_fingerprint(m_r, bytes,
                    kind == Kind::public_key ? "public key SHA-256" : "public key SHA-256 (if a public key)");
  }

  void ciphertext(Scheme s, std::size_t n, const KeyInput& src) {
    add_algorithm(m_r, s);
    common(Kind::ciphertext, src, s);
    m_r.add_number("ciphertext bytes", "ciphertext_bytes", n);
  }

private:
  void common(Kind kind, const KeyInput& src, Scheme s) {
    m_r.add_string("kind", "kind", kind_text(kind));
    m_r.fields.back().json = JsonValue::string(kind_json(kind));
    m_r.add_string("format", "format", format_name(m_format));
    m_r.add_string("encoding", "encoding", encoding_text(src, kind, s));
    m_r.fields.back().json = JsonValue::string(!src.der ? "raw" : kind == Kind::secret_key ? "pkcs8" : "spki");
    m_r.add_number("file bytes", "file_bytes", m_file_bytes);
  }

  Report m_r;
  Format m_format;
  std::size_t m_file_bytes;
};

/// A raw (bin or hex) input: what its size can be, in the order a key is most likely. A size
/// that fits two schemes (the hybrids' public keys and ciphertexts) needs -a; a hybrid's
/// expanded key size is refused by secret_key_from_input.
void describe_raw(InfoReport& report, KeyInput in, std::optional<Scheme> algorithm) {
  const std::size_t n = in.bytes.size();
  const std::string file = in.file;
  const bool from_hex = in.from_hex;
  const auto sks = fitting(n, algorithm, [](const SchemeInfo& i) { return i.sk_bytes; });
  const auto pks = fitting(n, algorithm, [](const SchemeInfo& i) { return i.pk_bytes; });
  const auto cts = fitting(n, algorithm, [](const SchemeInfo& i) { return i.ct_bytes; });
  const auto seeds =
      fitting(n, algorithm, [](const SchemeInfo& i) { return seed_size(i.scheme).value_or(std::size_t{0}); });
  require_unambiguous_size("public key", n, from_hex, pks, file);
  require_unambiguous_size("ciphertext", n, from_hex, cts, file);
  const KeyInput shape{SecretBytes(), in.format, false, in.from_hex, {}, {}, 0, {}};
  if (!sks.empty() || (!seeds.empty() && algorithm)) {
    report.secret_key(secret_key_from_input(std::move(in), algorithm, true), shape);
  } else if (!seeds.empty()) {
    report.seed(n, seeds, shape);
  } else if (!pks.empty() && !cts.empty() && pks.front() == cts.front()) {
    report.public_key_or_ciphertext(pks.front(), in.bytes, shape);
  } else if (!pks.empty()) {
    report.public_key(public_key_from_input(std::move(in), algorithm), shape);
  } else if (!cts.empty()) {
    report.ciphertext(cts.front(), n, shape);
  } else {
    throw_failure(fmt::format("{} bytes ({}) is not the size of any key, seed or ciphertext{}", n, how_read(from_hex),
                              algorithm ? fmt::format(" of {}", scheme_info(*algorithm).name) : std::string()),
                  file);
  }
}

}  // namespace

void run(const InfoOptions& opts) {
  apply_engine_options({});  // checks PQKEM_IMPL / PQKEM_NTT_PLAN: secret keys are checked in full
  const auto algorithm = parse_algorithm(opts.algorithm);
  const std::vector<PathArg> inputs{{opts.path, "PATH"}};
  check_paths(inputs, {}, Format::bin, false, opts.json);
  KeyInput in = load_key_input(opts.path);
  InfoReport report(in);
  if (in.der) {
    const KeyInput shape{SecretBytes(), in.format, true, in.from_hex, {}, {}, 0, {}};
    if (container_is_private(in).value_or(false)) {
      report.secret_key(secret_key_from_input(std::move(in), algorithm, true), shape);
    } else {
      report.public_key(public_key_from_input(std::move(in), algorithm), shape);
    }
  } else {
    describe_raw(report, std::move(in), algorithm);
  }
  write_stdout(opts.json ? report.report().json() : report.report().text());
}

/// What `pqkem info --help` shows after the options. Its examples run as written, in order, in an
/// empty directory (ctest -L docs).
constexpr const char* kFooter =
    R"(Shows the algorithm, the kind (public key, secret key, seed, ciphertext), the file format
(bin, hex, pem, der), the private key form, the sizes and the SHA-256 of the public key's
raw bytes (the same for every encoding of one key). Keys are checked as when they are used
(secret keys in full: hash, modulus and pairwise checks); an invalid key fails with exit 1.
A raw NTRU public key and ciphertext have the same size and cannot be told apart. A raw seed
without -a is described as a seed with the algorithms it may belong to. For X-Wing and
X25519MLKEM768 the components (ML-KEM-768, X25519) and the shared secret are shown; a raw
public key or ciphertext of theirs needs -a (exit 2 without): both have the same sizes.

Examples:
  pqkem keygen -a ML-KEM-768 --pk alice.pub.pem --sk alice.pem --format pem
  pqkem info alice.pem
  pqkem encaps --pk alice.pub.pem --ct msg.ct --ss sender.ss
  pqkem info --json msg.ct
  pqkem keygen -a ML-KEM-768 --pk bob.pk --sk bob.seed.hex --format hex --sk-form seed
  pqkem info -a ML-KEM-768 bob.seed.hex
  pqkem keygen -a X-Wing --pk carol.pub.pem --sk carol.pem --format pem
  pqkem info carol.pem
)";

void declare(CommandBuilder& cmd, InfoOptions& opts) {
  cmd.path("path", opts.path, "File to describe (- for stdin)");
  cmd.algorithm(opts.algorithm,
                "Algorithm; names the algorithm of a raw seed (ML-KEM 64 bytes, X-Wing 32, X25519MLKEM768 96) "
                "and of a raw X-Wing or X25519MLKEM768 public key or ciphertext (they share their sizes), and "
                "restricts raw inputs to it");
  cmd.flag("--json", opts.json, "Print one JSON object instead of text");
  cmd.footer(kFooter);
}

}  // namespace pqkem::cli
