#!/usr/bin/env bash
# cpp_snippets.sh CMAKE BUILD_DIR WORK_DIR CONSUMER_SRC CXX README.md
# Compiles every ```cpp block of README.md against the installed package: BUILD_DIR is installed
# into WORK_DIR/prefix, and CONSUMER_SRC (a find_package(pqkem) project that sets no C++
# standard) builds each block as its own target:
#  - a block containing `int main` is a whole program: compiled, linked, and run; it must exit 0;
#  - any other block is compiled on its own as one translation unit (an object, not linked), so
#    it must include what it uses and hold only what may stand at namespace scope.
# A failure names README.md's line of the block and shows the compiler's or the program's output.
# A README without a cpp block fails: a test that compiles nothing must not pass.
set -uo pipefail
cmake=$1 build=$2 work=$3 src=$4 cxx=$5 readme=$6

rm -rf "$work"
mkdir -p "$work/snippets"
"$cmake" --install "$build" --prefix "$work/prefix" >"$work/install.log" 2>&1 \
  || { cat "$work/install.log"; echo "cpp_snippets: FAIL: cmake --install" >&2; exit 1; }

# Each block becomes snippets/snippet_<line of its opening fence>.cpp (and .main if it has main).
out=""
while IFS=$'\t' read -r kind num text; do
  case $kind in
    B) out=$(printf '%s/snippets/snippet_%04d.cpp' "$work" "$num") && : >"$out" ;;
    L) printf '%s\n' "$text" >>"$out" ;;
  esac
done < <(awk -v langs="cpp c++ cxx" -f "$(dirname "${BASH_SOURCE[0]}")/md_blocks.awk" "$readme")
shopt -s nullglob
snippets=("$work"/snippets/snippet_*.cpp)
if ((${#snippets[@]} == 0)); then
  echo "cpp_snippets: FAIL: $(basename "$readme") has no \`\`\`cpp block: nothing would be tested" >&2
  exit 1
fi
for f in "${snippets[@]}"; do
  if grep -qE '(^|[^A-Za-z0-9_])int[[:space:]]+main[[:space:]]*\(' "$f"; then : >"${f%.cpp}.main"; fi
done

"$cmake" -S "$src" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="$cxx" \
  -DCMAKE_PREFIX_PATH="$work/prefix" -DSNIPPET_DIR="$work/snippets" >"$work/configure.log" 2>&1 \
  || { cat "$work/configure.log"; echo "cpp_snippets: FAIL: configuring the snippets' project" >&2; exit 1; }

failed=0
for f in "${snippets[@]}"; do
  name=$(basename "$f" .cpp)
  line=$((10#${name#snippet_}))
  where="$(basename "$readme"):$line"
  if [[ -e ${f%.cpp}.main ]]; then kind="program"; else kind="fragment (compiled, not linked)"; fi
  if ! "$cmake" --build "$work/build" --target "$name" >"$work/$name.log" 2>&1; then
    echo "FAIL $where: the C++ block does not compile as a $kind:" >&2
    sed 's/^/  | /' "$work/$name.log" >&2
    failed=$((failed + 1))
    continue
  fi
  if [[ -e ${f%.cpp}.main ]]; then
    (cd "$work" && env -u LD_LIBRARY_PATH "$work/build/$name") >"$work/$name.run" 2>&1
    rc=$?
    if ((rc != 0)); then
      echo "FAIL $where: the C++ program exits $rc (expected 0):" >&2
      sed 's/^/  | /' "$work/$name.run" >&2
      failed=$((failed + 1))
      continue
    fi
  fi
  echo "ok   $where: $kind"
done
if ((failed > 0)); then
  echo "cpp_snippets: $failed of ${#snippets[@]} C++ blocks failed" >&2
  exit 1
fi
echo "cpp_snippets: all ${#snippets[@]} C++ blocks ok"
