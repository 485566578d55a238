# branch_scan.awk: reads `objdump -d -C --no-show-raw-insn` output (AT&T syntax) and prints, for
# the *_avx512.cpp.o members, one tab-separated line per instruction of interest:
#   member  function  divsqrt  instruction
#   member  function  branch   instruction  why it is not a counted-loop back-edge
#   member  function  loop     instruction  the counter, its start, step(s) and bound
# Used by check_avx512_ct.sh, which fails on every divsqrt line and on the branch lines of
# functions that are not on the allowlist. POSIX awk (Debian's default is mawk).
#
# A conditional branch is a "loop" line, the back-edge of a counted loop, when its outcome is
# the same on every run whatever the data, because it is a function of constants only:
#  1. it jumps backward, to a target T in the same function: the loop body is [T, branch];
#  2. the instruction just before it sets the flags, and is `cmp $imm, %r`, `add/sub $imm, %r`
#     or `inc/dec %r` on a general-purpose register r (the counter), and no jump lands on the
#     branch itself (past that instruction): so the outcome depends on r alone (flags from
#     kortest, vptest, a GPR compared with a GPR ... are refused);
#  3. inside the body, r (or a part of it: %eax, %ax, %al, %ah for %rax) is written only by
#     add/sub of an immediate, inc, dec, or `lea imm(%r), %r`; the body has no call, ret,
#     indirect jump, jump out of the body, and no instruction with implicit register outputs
#     (mul, cltq, xchg, cmpxchg, pop, string instructions, rdtsc, cpuid ...);
#  4. r has a constant value when the loop is entered: going back from T, the nearest
#     instruction that writes r is `mov $imm, %r` or `xor/sub %r, %r` on the 32- or 64-bit
#     register, and the code from there to T is entered only by falling through: no jump of
#     the function lands in it or in T except this branch, no jump from outside the body lands
#     inside the body, and there is no call, jmp or ret on the way.
# Then every value r takes at the compare is the start plus constant steps, so the trip count
# is a constant. A function passes only if all its conditional branches are such back-edges
# (nested loops each satisfy 1-4 for their own counter), so its whole control flow is then
# data-independent. The rule is deliberately narrow: a loop over a public but run-time bound (a
# length, the rank k) fails it and needs an allowlist entry with its reason; so does any
# compiler output it does not recognize. tests/ct/ct_canary_avx512.cpp holds loops whose only
# branch is their back-edge (so "any backward branch is a loop" would accept them all), each
# breaking one of 2, 3 and 4, and nested counted loops that must pass.

function hex2num(s,    n, i, c) {
  n = 0
  s = tolower(s)
  for (i = 1; i <= length(s); ++i) {
    c = index("0123456789abcdef", substr(s, i, 1))
    if (c == 0) return -1
    n = n * 16 + c - 1
  }
  return n
}

# The 64-bit register a register operand ("%eax", "%r9b" ...) is part of; "" if none (memory,
# immediates, vector and mask registers, %rip).
function gpr(op,    r) {
  if (op !~ /^%/) return ""
  r = substr(op, 2)
  return (r in canon) ? canon[r] : ""
}

# Splits an AT&T operand list at the commas outside parentheses into ops[1..n]; returns n.
function split_ops(s, ops,    n, depth, i, c, cur) {
  n = 0
  depth = 0
  cur = ""
  for (i = 1; i <= length(s); ++i) {
    c = substr(s, i, 1)
    if (c == "(") depth++
    else if (c == ")") depth--
    if (c == "," && depth == 0) {
      ops[++n] = cur
      cur = ""
    } else {
      cur = cur c
    }
  }
  if (cur != "") ops[++n] = cur
  return n
}

# The mnemonic without the AT&T size suffix of the integer instructions we look at.
function base(m) {
  if (m ~ /^(add|sub|inc|dec|mov|xor|cmp|test|lea|imul)[bwlq]$/) return substr(m, 1, length(m) - 1)
  return m
}

# Instructions that write general-purpose registers other than (or besides) their last operand,
# or that leave the function: a loop body or entry path containing one is not a counted loop.
function implicit_writer(i,    m) {
  m = mn[i]
  if (m ~ /^(call|ret|syscall|sysenter|int|int3|ud2|cpuid|rdtscp?|rdrand|rdseed|rdpid|rdpmc|rdmsr|xgetbv|rdpkru)[wlq]?$/) return 1
  if (m ~ /^(mul|div|idiv|xchg|xadd|pop|popf|push|pushf|in|out|ins|outs|lods|stos|scas|xlat)[bwlq]?$/) return 1
  if (m ~ /^(mulx|cmpxchg.*|cbtw|cwtl|cltq|cwtd|cltd|cqto|enter[wq]?|leave[wq]?|lahf|loop.*|jrcxz|jecxz|rep.*|lock)$/) return 1
  if (base(m) == "imul" && nops[i] == 1) return 1
  if (opstr[i] ~ /%[de]s:/) return 1  # string instructions (movs, cmps ...) name %ds:/%es:
  return 0
}

# Whether instruction i writes register r (a canon name) through its last operand.
function writes(i, r,    m) {
  m = base(mn[i])
  if (m == "cmp" || m == "test" || m == "bt" || m ~ /^(j|nop)/) return 0  # read their last operand only
  return nops[i] >= 1 && gpr(op[i, nops[i]]) == r
}

function is_imm(s) { return s ~ /^\$/ }
function is_wide(s) { return s ~ /^%(r[a-z0-9]+|e[a-z]+)$/ && s !~ /^%r[0-9]+[bw]$/ }

# Whether instruction i, which writes the counter r, is a constant step of it.
function is_step(i, r,    m, disp) {
  m = base(mn[i])
  if ((m == "add" || m == "sub") && nops[i] == 2 && is_imm(op[i, 1]) && gpr(op[i, 2]) == r) return 1
  if ((m == "inc" || m == "dec") && nops[i] == 1 && gpr(op[i, 1]) == r) return 1
  if (m == "lea" && nops[i] == 2 && gpr(op[i, 2]) == r && op[i, 1] ~ /^-?(0x[0-9a-f]+)?\(%[a-z0-9]+\)$/) {
    disp = op[i, 1]
    sub(/^[^(]*\(/, "", disp)
    sub(/\)$/, "", disp)
    return gpr(disp) == r
  }
  return 0
}

# Whether instruction i, which writes r, sets it to a constant.
function is_init(i, r,    m) {
  m = base(mn[i])
  if (m == "mov" && nops[i] == 2 && is_imm(op[i, 1]) && gpr(op[i, 2]) == r && is_wide(op[i, 2])) return 1
  if ((m == "xor" || m == "sub") && nops[i] == 2 && op[i, 1] == op[i, 2] && gpr(op[i, 2]) == r && is_wide(op[i, 2])) return 1
  return 0
}

function is_jump(i) { return mn[i] ~ /^(j|loop)/ }
function is_cond(i) { return mn[i] ~ /^(j|loop)/ && mn[i] !~ /^jmp/ }

# "" if the conditional branch at index b is a counted-loop back-edge (rule above); else why not.
# On success, sets `loopnote`.
function why_not_loop(b,    t, ti, s, ms, r, k, init, steps, a0, aT, aB, tg) {
  if (tgt[b] < 0) return "an indirect or unresolved target"
  if (mn[b] ~ /^(jrcxz|jecxz|loop)/) return mn[b] " is not a counted-loop form this check knows"
  t = tgt[b]
  if (t > addr[b]) return "a forward branch"
  if (!(t in at)) return "its target is outside the function"
  if (has_indirect) return "the function has an indirect jump"
  ti = at[t]
  s = b - 1
  if (s < ti) return "no flag-setting instruction inside the loop"
  ms = base(mn[s])
  if (ms == "cmp" && nops[s] == 2 && is_imm(op[s, 1]) && gpr(op[s, 2]) != "") r = gpr(op[s, 2])
  else if ((ms == "add" || ms == "sub") && nops[s] == 2 && is_imm(op[s, 1]) && gpr(op[s, 2]) != "") r = gpr(op[s, 2])
  else if ((ms == "inc" || ms == "dec") && nops[s] == 1 && gpr(op[s, 1]) != "") r = gpr(op[s, 1])
  else if (ms == "cmp" && nops[s] == 2 && gpr(op[s, 1]) != "" && gpr(op[s, 2]) != "")
    return "a backward branch, but its compare `" txt[s] "` has no constant operand (the bound is a run-time value)"
  else
    return "a backward branch, but its flags come from `" txt[s] "`, not from a counter compared with a constant"
  if (r == "rsp") return "a backward branch on %rsp"

  # 3. the body
  steps = ""
  for (k = ti; k < b; ++k) {
    if (implicit_writer(k)) return "a backward branch, but the loop body has `" txt[k] "`"
    if (mn[k] == "jmp" && (tgt[k] < addr[ti] || tgt[k] > addr[b])) return "a backward branch, but the loop body jumps out (`" txt[k] "`)"
    if (writes(k, r)) {
      if (!is_step(k, r)) return "a backward branch, but its counter %" r " is also set by `" txt[k] "` in the loop"
      steps = steps (steps == "" ? "" : ", ") txt[k]
    }
  }
  if (steps == "") return "a backward branch, but its counter %" r " does not change in the loop"

  # 4. the entry value
  init = 0
  for (k = ti - 1; k >= 1; --k) {
    if (mn[k] == "jmp" || implicit_writer(k)) return "a backward branch, but the loop entry path from its counter's start has `" txt[k] "`"
    if (writes(k, r)) {
      if (!is_init(k, r)) return "a backward branch, but its counter %" r " starts at the run-time value `" txt[k] "`, not a constant"
      init = k
      break
    }
  }
  if (init == 0) return "a backward branch, but its counter %" r " is not set in the function before the loop (an argument)"
  a0 = addr[init]
  aT = addr[ti]
  aB = addr[b]
  for (k = 1; k <= n; ++k) {
    if (!is_jump(k) || tgt[k] < 0 || k == b) continue
    tg = tgt[k]
    if (tg == aB) return "a backward branch, but `" txt[k] "` jumps to it, past the compare that sets its flags"
    if (tg > a0 && tg <= aT) return "a backward branch, but `" txt[k] "` also enters the loop or its entry path"
    if (tg > aT && tg <= aB && (k < ti || k > b)) return "a backward branch, but `" txt[k] "` enters the loop from outside"
  }
  loopnote = "counter %" r " set by `" txt[init] "`, stepped by `" steps "`, flags from `" txt[s] "`"
  return ""
}

function flush_function(    i, why) {
  if (fn == "" || member !~ /_avx512\.cpp\.o$/) { n = 0; return }
  for (i = 1; i <= n; ++i) {
    if (mn[i] ~ /^(i?div[bwlq]?|v?div[ps][sd]|v?sqrt[ps][sd]|v?rsqrt.*|vrcp.*)$/) {
      print member "\t" fn "\tdivsqrt\t" txt[i]
    } else if (is_cond(i)) {
      why = why_not_loop(i)
      if (why == "") print member "\t" fn "\tloop\t" txt[i] "\t" loopnote
      else print member "\t" fn "\tbranch\t" txt[i] "\t" why
    }
  }
  n = 0
}

BEGIN {
  split("rax rbx rcx rdx", q, " ")
  for (i = 1; i <= 4; ++i) {
    x = substr(q[i], 2, 1)  # a, b, c, d
    canon["r" x "x"] = canon["e" x "x"] = canon[x "x"] = canon[x "l"] = canon[x "h"] = q[i]
  }
  split("rsi rdi rbp rsp", q, " ")
  for (i = 1; i <= 4; ++i) {
    x = substr(q[i], 2, 2)  # si, di, bp, sp
    canon["r" x] = canon["e" x] = canon[x] = canon[x "l"] = q[i]
  }
  for (i = 8; i <= 15; ++i) canon["r" i] = canon["r" i "d"] = canon["r" i "w"] = canon["r" i "b"] = "r" i
  n = 0
}

/^[^ ]+\.o:[ \t]+file format/ { flush_function(); fn = ""; member = $1; sub(/:$/, "", member); next }
/^[0-9a-f]+ <.*>:$/ {
  flush_function()
  fn = $0
  sub(/^[0-9a-f]+ </, "", fn)
  sub(/>:$/, "", fn)
  has_indirect = 0
  for (k in at) delete at[k]
  next
}
/^Disassembly of section/ { flush_function(); fn = ""; next }
{
  if (fn == "") next
  nf = split($0, f, "\t")
  if (nf < 2) next
  a = f[1]
  gsub(/[ :]/, "", a)
  text = f[2]
  sub(/[ \t]*#.*$/, "", text)  # objdump's comments (rip-relative addresses)
  sub(/[ \t]+$/, "", text)
  nw = split(text, w, " ")
  # Prefixes: segment overrides and data16 (padding nops); notrack and bnd on jumps.
  first = 1
  while (first < nw && w[first] ~ /^(cs|ds|es|ss|fs|gs|data16|addr32|notrack|bnd|rex(\.[WRXB]+)?)$/) first++
  ++n
  addr[n] = hex2num(a)
  at[addr[n]] = n
  mn[n] = w[first]
  txt[n] = text
  sub(/[ \t]*<.*$/, "", txt[n])  # a jump's symbolic target
  rest = text
  for (k = 1; k <= first; ++k) sub(/^[^ ]+[ ]*/, "", rest)
  sub(/[ \t]*<.*$/, "", rest)
  opstr[n] = rest
  for (k = 1; k <= 3; ++k) delete op[n, k]
  split("", tmp)
  nops[n] = split_ops(rest, tmp)
  for (k = 1; k <= nops[n]; ++k) op[n, k] = tmp[k]
  tgt[n] = -1
  if (mn[n] ~ /^(j|loop)/) {
    if (rest ~ /^\*/) has_indirect = 1
    else if (rest ~ /^[0-9a-f]+$/) tgt[n] = hex2num(rest)
  }
}
END { flush_function() }
