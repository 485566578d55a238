#!/usr/bin/env bash
# harness_test.sh PQKEM_BINARY DOC_EXAMPLES FIXTURES_DIR
# Tests doc_examples.sh itself, so that a broken harness cannot pass every walkthrough:
# fixtures/pass.md uses every convention (continuation lines, a loop, a here-document, an
# indented fence, variables across blocks, `# exit N`, `<!-- needs: -->` met and unmet, a console
# block) and must pass; fixtures/fail.md must fail at exactly its three wrong commands; a file with no
# runnable block, one whose blocks are all skipped, one that leaves the shell and one with a
# `# needs:` marker inside a block, where readers see it, must fail.
set -uo pipefail
pqkem=$1 harness=$2 fixtures=$3
t=$(mktemp -d "${TMPDIR:-/tmp}/pqkem-doc-harness.XXXXXX") || exit 1
trap 'rm -rf "$t"' EXIT
failed=0
fail() { echo "harness_test: FAIL: $*" >&2; failed=1; }

bash "$harness" "$pqkem" markdown "$fixtures/pass.md" >"$t/out" 2>&1 || { cat "$t/out"; fail "pass.md failed"; }
grep -q '^SKIP pass.md:22: block needs network' "$t/out" || fail "pass.md: the network block was not skipped"
grep -q '^== pass.md: 9 commands run, 0 failed$' "$t/out" || { cat "$t/out"; fail "pass.md: not 9 commands run"; }
grep -q 'this is not run' "$t/out" && fail "pass.md: a console block was run"

if bash "$harness" "$pqkem" markdown "$fixtures/fail.md" >"$t/out" 2>&1; then fail "fail.md passed"; fi
[[ $(grep '^FAIL ' "$t/out") == "FAIL fail.md:3: false
FAIL fail.md:4: true   # exit 3
FAIL fail.md:5: pqkem info missing.pk" ]] || { cat "$t/out"; fail "fail.md: not the three expected failures"; }
grep -qF '| pqkem: cannot open input: No such file or directory (missing.pk)' "$t/out" \
  || fail "fail.md: the failing command's stderr is not shown"

fence='```'  # markdown, not a command substitution
printf '%stext\nnothing\n%s\n' "$fence" "$fence" >"$t/none.md"
printf '<!-- needs: no-such-thing -->\n%ssh\ntrue\n%s\n' "$fence" "$fence" >"$t/skipped.md"
printf '%ssh\necho one\nexit 0\necho never\n%s\n' "$fence" "$fence" >"$t/exits.md"
printf '%ssh\n# needs: openssl-1.0\ntrue\n%s\n' "$fence" "$fence" >"$t/visible.md"
for f in none skipped exits visible; do
  if bash "$harness" "$pqkem" markdown "$t/$f.md" >"$t/$f.out" 2>&1; then fail "$f.md passed"; fi
done
grep -q 'stopped at the command of line 3' "$t/exits.out" || fail "exits.md: not reported as leaving the shell"
grep -q '^FAIL visible.md:2: a harness marker that readers see' "$t/visible.out" \
  || { cat "$t/visible.out"; fail "visible.md: the visible marker was not reported"; }
((failed == 0)) && echo "harness_test: ok"
exit "$failed"
