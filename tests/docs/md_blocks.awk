# md_blocks.awk -v langs="sh bash" FILE.md
# The fenced code blocks of a markdown file whose info string's first word is one of `langs`,
# as records: "B<TAB>LINE" (a block opens at LINE), "L<TAB>LINE<TAB>TEXT" (one of its lines,
# with the fence's indentation removed), "E" (it ends). ``` and ~~~ fences, indented or not; a
# block of another language is skipped whole, so a fence shown inside it is not read as one.
# An HTML comment `<!-- needs: WHAT -->` on the line just before a fence of a wanted language,
# which readers of the rendered page do not see, gives the record "N<TAB>LINE<TAB>WHAT" right
# after the block's "B" (LINE: the comment's).
BEGIN { n = split(langs, l, / +/); for (i = 1; i <= n; i++) want[l[i]] = 1 }
{ sub(/\r$/, "") }
!infence && match($0, /^ *(```+|~~~+)/) {
  match($0, /^ */); indent = RLENGTH
  rest = substr($0, indent + 1); match(rest, /^(```+|~~~+)/)
  fence = substr(rest, 1, RLENGTH); info = substr(rest, RLENGTH + 1)
  sub(/^[ \t]+/, "", info); split(info, words, /[ \t{]/)
  infence = 1; take = (words[1] in want)
  if (take) {
    print "B\t" NR
    if (match(prev, /^ *<!-- *needs: *[^ ].*-->[ \t]*$/)) {
      need = prev; sub(/^ *<!-- *needs: */, "", need); sub(/ *-->[ \t]*$/, "", need)
      print "N\t" (NR - 1) "\t" need
    }
  }
  next
}
!infence { prev = $0; next }
infence {
  line = $0
  # A closing fence: the same character, at least as long, nothing after it.
  if (match(line, /^ *(```+|~~~+)[ \t]*$/)) {
    c = line; gsub(/[ \t]/, "", c)
    if (substr(c, 1, 1) == substr(fence, 1, 1) && length(c) >= length(fence)) {
      if (take) print "E"
      infence = 0; prev = ""; next
    }
  }
  if (take) {
    for (i = 0; i < indent && substr(line, 1, 1) == " "; i++) line = substr(line, 2)
    print "L\t" NR "\t" line
  }
}
END { if (infence && take) print "E" }
