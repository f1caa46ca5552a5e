# Counts in one kernel of clang's assembly (tests/source/codegen.sh): PTX
# (isa=ptx) or AMDGPU (isa=amd), kernel=NAME, work=fp|int|dot (what counts as
# the kernel's multiply-add). Prints one line of NAME=VALUE fields:
#   found     1 when the kernel is in the file
#   spill     bytes of private memory the kernel uses: PTX's .local depot (and
#             any ld.local/st.local), AMD's private segment (scratch; -1 for a
#             dynamic stack); 0 is the only good value
#   calls     calls left in the kernel (a built-in the prelude lacks)
#   loop      1 when the counts below are one loop's, 0 when the kernel has
#             no back edge (the counts are then the whole kernel's)
#   insts     instructions in that loop
#   fma       multiply-adds in it: an instruction each, a packed (x2, v_pk_)
#             one 2, each half of an AMD dual-issue (VOPD) pair one; for the
#             integer types a multiply (mad or mul) is one multiply-add
#   fmainsts  instructions that do the multiply-adds (a VOPD pair with one
#             such half counts 1/2; for the integer types the adds beside the
#             multiplies too, see arith): fmainsts / insts is the share
#   lds       local-memory load instructions in it (a vector load is one)
#   regs      AMD: VGPRs (NumVgprs); PTX: -
#   other     the loop's other instructions, OPCODE:COUNT,... (- if none)
# The loop (unless whole=1: then the whole kernel): the range from a label to
# a branch back to it, the one holding the most multiply-adds (the innermost of
# those that tie): the hot loop.
# Instructions: PTX statements (not directives, labels or braces); AMD lines
# of an instruction, s_delay_alu excepted (a scheduling hint for the
# instruction buffer, not issued).
function work(op, s,   n) {
    if (isa == "ptx") {
        if (wk == "fp" && op ~ /^fma\.rn/) return op ~ /x2(\.|$)/ ? 2 : 1
        if (wk == "int" && op ~ /^(mad|mul)\.lo\./) return op ~ /x2(\.|$)/ ? 2 : 1
        if (wk == "dot" && op ~ /^dp4a\./) return 1
        return 0
    }
    sub(/_e(32|64)(_dpp|_sdwa)?$|_(dpp|sdwa)$/, "", op)
    if (wk == "fp") {
        if (op ~ /^v_pk_fma_f(16|32|64)$/) return 2
        if (op ~ /^v_(dual_)?fma(c|ak|mk)?_f(16|32|64)$/ || op ~ /^v_fma_mix(lo|hi)?_f(16|32)$/) return 1
        return 0
    }
    if (wk == "int") {
        if (op ~ /^v_pk_(mad|mul_lo)_[iu]16$/) return 2
        if (op ~ /^v_(dual_)?(mad|mul_lo|mul)_(legacy_)?[iu](16|24|32|64)(_[iu](16|24|32))?$/) return 1
        return 0
    }
    if (wk == "dot") return op ~ /^v_dot4_u32_u8$/ ? 1 : 0
    return 0
}
# Whether the instruction is part of the multiply-add: for the integer types the add
# that a compiler left beside its multiply too (PTX's ptxas fuses such pairs into IMAD;
# AMD has no 32-bit integer multiply-add before gfx11): a vector add on AMD, an integer
# add of two registers in PTX (an add of a constant is a loop counter or an address).
function arith(op, s, w) {
    if (w) return 1
    if (wk != "int") return 0
    if (isa == "ptx") return op ~ /^add\.[su](16|32)(x2)?$/ && s !~ /, *-?[0-9]+;?$/
    sub(/_e(32|64)(_dpp|_sdwa)?$|_(dpp|sdwa)$/, "", op)
    return op ~ /^v_(dual_)?(pk_)?add(_nc|3)?_[iu](16|32)$/
}
function is_lds(op) {
    if (isa == "ptx") return op ~ /^ld\.shared/
    return op ~ /^ds_(read|load)/
}
# One instruction (s, the text without label or comment) at position n.
function inst(s,   f, nf, op, w, wi, t, halves, h, i) {
    nf = split(s, f, /[ \t,]+/)
    op = f[1]
    if (isa == "ptx" && op ~ /^@/) op = f[2]
    if (isa == "amd" && op == "s_delay_alu") return
    n_inst++
    ops[n_inst] = op
    if (isa == "ptx" && (op ~ /^(ld|st)\.local/)) spill_ops++
    if (isa == "amd" && op ~ /^scratch_/) spill_ops++
    if (op ~ /^call/ || op ~ /^s_(swappc|setpc)/) n_calls++
    w = 0; wi = 0
    if (isa == "amd" && index(s, "::")) {
        split(s, halves, /::/)
        for (h = 1; h <= 2; h++) {
            sub(/^[ \t]+/, "", halves[h]); split(halves[h], f, /[ \t,]+/)
            i = work(f[1]); w += i; if (arith(f[1], halves[h], i)) wi += 0.5
        }
    } else {
        w = work(op); wi = arith(op, s, w)
    }
    is_work[n_inst] = wi > 0
    c_fma[n_inst] = c_fma[n_inst - 1] + w
    c_fi[n_inst] = c_fi[n_inst - 1] + wi
    c_lds[n_inst] = c_lds[n_inst - 1] + (is_lds(op) ? 1 : 0)
    # A branch: remember its target for the back edges.
    if ((isa == "ptx" && op ~ /^bra/) || (isa == "amd" && op ~ /^s_c?branch/)) {
        t = f[nf]; sub(/;$/, "", t)
        n_br++; br_at[n_br] = n_inst; br_to[n_br] = t
    }
}
BEGIN { wk = work_kind; n_inst = 0; inside = 0; found = 0; spill = 0; spill_ops = 0
        n_calls = 0; n_br = 0; regs = "-"; dyn = 0 }
# PTX: .entry NAME( ... { ... } at column 0.
isa == "ptx" && /^\.(visible )?\.entry / {
    name = $0; sub(/^\.(visible )?\.entry /, "", name); sub(/\(.*/, "", name)
    inside = name == kernel; if (inside) found = 1; next
}
isa == "ptx" && inside && /^}/ { inside = 0; next }
isa == "ptx" && inside {
    s = $0; sub(/\/\/.*/, "", s); gsub(/^[ \t]+|[ \t]+$/, "", s)
    if (s == "" || s ~ /^[{}]/) next
    if (s ~ /^\.local/) { d = s; sub(/.*\[/, "", d); sub(/\].*/, "", d); spill += d + 0; next }
    if (s ~ /^\./) next
    if (s ~ /^[$A-Za-z_][$A-Za-z0-9_]*:$/) { lab[substr(s, 1, length(s) - 1)] = n_inst + 1; next }
    inst(s); next
}
# AMD: NAME: ... .Lfunc_endN: (the .amdhsa_kernel NAME block inside), then the comments.
isa == "amd" {
    s = $0; sub(/;.*/, "", s); gsub(/^[ \t]+|[ \t]+$/, "", s)
    if (s == kernel ":") { inside = 1; found = 1; next }
    if (s ~ /^\.amdhsa_kernel[ \t]/) { t = s; sub(/^\.amdhsa_kernel[ \t]+/, "", t); inblk = t == kernel }
    if (s ~ /^\.end_amdhsa_kernel/) inblk = 0
    if (inblk && s ~ /^\.amdhsa_uses_dynamic_stack[ \t]+1$/) dyn = 1
    if (inside && s ~ /^\.Lfunc_end/) { inside = 0; after = 1; next }
    if (after && $0 ~ /^; NumVgprs: /) regs = $3
    if (after && $0 ~ /^; ScratchSize: /) { spill += $3; after = 0 }
    if (!inside || s == "" || s ~ /^\./ && s !~ /:$/) next
    if (s ~ /^[.A-Za-z_$][.A-Za-z0-9_$]*:$/) { lab[substr(s, 1, length(s) - 1)] = n_inst + 1; next }
    inst(s); next
}
END {
    lo = 1; hi = n_inst; best = -1; loop = 0
    for (b = 1; b <= n_br && !whole; b++) {
        if (!(br_to[b] in lab) || lab[br_to[b]] > br_at[b]) continue
        i = lab[br_to[b]]; j = br_at[b]
        f = c_fma[j] - c_fma[i - 1]
        if (f > best || f == best && j - i < hi - lo) { best = f; lo = i; hi = j; loop = 1 }
    }
    if (spill_ops && !spill) spill = spill_ops
    if (dyn) spill = -1
    other = ""
    for (k = lo; k <= hi; k++) if (!is_work[k]) cnt[ops[k]]++
    for (o in cnt) other = other (other == "" ? "" : ",") o ":" cnt[o]
    if (other == "") other = "-"
    printf "found=%d spill=%d calls=%d loop=%d insts=%d fma=%d fmainsts=%s lds=%d regs=%s other=%s\n",
        found, spill, n_calls, loop, hi - lo + 1, c_fma[hi] - c_fma[lo - 1],
        c_fi[hi] - c_fi[lo - 1], c_lds[hi] - c_lds[lo - 1], regs, other
}
