#!/usr/bin/env bash
# readme_shape.sh SOURCE_DIR
# The README stays a manual: at most 450 lines, every section (## and ###) linked from its
# Contents paragraph, and every relative link of README.md and docs/*.md pointing at a file that
# exists and, where it names one, at a heading that exists there (GitHub's anchors: lower case,
# punctuation dropped, spaces to hyphens).
set -uo pipefail
src=${1:?usage: readme_shape.sh SOURCE_DIR}
readme=$src/README.md
failed=0
fail() { echo "readme_shape: FAIL: $*" >&2; failed=1; }

max_lines=450
lines=$(wc -l <"$readme")
((lines <= max_lines)) || fail "README.md has $lines lines, more than $max_lines: move rationale and tables to docs/"

# anchors FILE: the GitHub anchor of each heading outside code fences, one per line.
anchors() {
  awk '
    /^ *(```|~~~)/ { fence = !fence; next }
    fence { next }
    /^#+ / {
      h = $0; sub(/^#+ +/, "", h); h = tolower(h)
      gsub(/[^a-z0-9 _-]/, "", h); gsub(/ /, "-", h)
      print h
    }
  ' "$1"
}

# The Contents paragraph's anchors against the README's own sections.
contents=$(awk '/^\*\*Contents\*\*/ { on = 1 } on && /^$/ { exit } on' "$readme")
[[ -n $contents ]] || fail "README.md has no **Contents** paragraph"
while IFS= read -r a; do
  [[ $contents == *"(#$a)"* ]] || fail "README.md: section '#$a' is not in Contents"
done < <(anchors "$readme" | sed 1d)  # the first heading is the title

# Relative links: [text](target) outside code fences, in README.md and docs/*.md.
checked=0
for doc in "$readme" "$src"/docs/*.md; do
  dir=$(dirname "$doc")
  while IFS= read -r target; do
    checked=$((checked + 1))
    file=${target%%#*} anchor=""
    [[ $target == *"#"* ]] && anchor=${target#*#}
    if [[ -z $file ]]; then
      path=$doc
    else
      path=$dir/$file
      [[ -e $path ]] || { fail "${doc#"$src"/}: link to '$target': no such file"; continue; }
    fi
    if [[ -n $anchor && $path == *.md ]]; then
      anchors "$path" | grep -qxF -- "$anchor" || fail "${doc#"$src"/}: link to '$target': no such heading"
    fi
  done < <(awk '/^ *(```|~~~)/ { fence = !fence; next } !fence' "$doc" |
             grep -oE '\]\([^)[:space:]]+\)' | sed -E 's/^\]\((.*)\)$/\1/' | grep -vE '^[a-z]+:')
done
((checked > 20)) || fail "only $checked links found: the link scan is broken"
((failed == 0)) && echo "readme_shape: ok ($lines lines, $checked links)"
exit "$failed"
