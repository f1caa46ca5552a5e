#!/bin/sh
# The code as GPU compilers see it (issue 27): compiles kernels/gemm.cl (every
# GPU default and tune candidate that GEMM_CONFIGS prints), kernels/peak.cl
# (every type and width, with the build options src/bench/peak.c passes) and
# kernels/stream.cl (fp32, fp64: src/bench/bandwidth_timing.c's options) with clang
# for NVIDIA sm_90 (nvptx64-nvidia-cuda, PTX) and AMD gfx942 and gfx1100
# (amdgcn-amd-amdhsa), and reads the assembly. No GPU is needed.
#
# clang-19 (Debian 12's; ci/install-deps installs it): clang-15 has neither
# sm_90 nor gfx942. clang links no OpenCL library for these targets, so
# gpu_prelude.h (beside this script) maps the built-ins the kernels use onto
# the instructions a driver emits for them (its header says how).
#
# Fails on:
#   - a kernel that does not build, is missing from the assembly, or keeps a
#     call (a built-in the prelude lacks), at any configuration;
#   - any spill, anywhere (tune candidates included): PTX's .local depot or
#     ld.local/st.local (private memory LLVM could not keep in registers;
#     ptxas's own register spills come later and are not visible in PTX), AMD's
#     private segment (ScratchSize) or a dynamic stack;
#   - a GEMM GPU default whose hot loop has fewer than 4 FMAs per local-memory
#     load instruction (PTX ld.shared*, AMD ds_read*/ds_load*, ds_read2* too;
#     a vector load is one instruction; a packed FMA is 2). Tune candidates are
#     reported and judged on spills alone: the tuner times them and keeps the
#     fastest;
#   - a peak type (fp32, fp64, fp16, int32, int16, int8, int8dot) none of whose
#     widths has a loop of >= 90 % multiply-add instructions. clbench reports
#     a type's fastest width as its peak, and a width whose loop carries more
#     than its multiply-adds is slower rather than wrong, so the other widths'
#     shares are printed, not judged. Multiply-add instructions: floating point
#     fma.rn.* / v_fma*, v_fmac*, v_pk_fma*, v_dual_fmac* (the instruction the
#     kernel's fma is); integers the instructions of x * a + b: PTX mad.lo.*,
#     or mul.lo.* and the add.* of two registers beside it (LLVM leaves 16-bit
#     ones apart; ptxas fuses them into one IMAD), AMD v_mad_* (v_mad_u64_u32
#     is gfx11's 32-bit one), v_pk_mad_u16, or v_mul_lo_* and the vector add
#     beside it (gfx942 has no 32-bit integer multiply-add); int8dot the dot
#     instruction (dp4a, v_dot4_u32_u8 clamp). int8dot on sm_90 is printed,
#     not judged: PTX's dp4a does not saturate, so the prelude's dot_acc_sat
#     is dp4a, a compare and a select (NVIDIA's driver lists no
#     cl_khr_integer_dot_product, so clbench reports the type unavailable
#     there anyway);
#   - a canary (codegen-canary.cl) that does not show its known counts.
# The loop: the range from a label to the branch back to it (PTX: the bra,
# AMD: the s_cbranch) that holds the most multiply-adds, the innermost of
# those that tie. Counts are static: one pass of the loop body.
# Columns: spill (bytes), insts (in the loop; stream: the whole kernel), madd
# (multiply-adds in it), lds (local loads in it), madd/ld (GEMM), share (peak:
# the multiply-add instructions' share of the loop), verdict.
#
# Prints one line per kernel and configuration: the counts are the GPU
# kernels' benchmark until a GPU is lent (ci/bench-gpu-codegen prints them
# too).
#
# Usage: codegen.sh SOURCE_ROOT GEMM_CONFIGS
#   GEMM_CONFIGS: a program (tests/source/gemm-gpu-configs) printing one line
#   per configuration: TARGET<TAB>LABEL<TAB>PRECISION<TAB>KERNEL<TAB>OPTIONS,
#   TARGET sm_90|gfx942|gfx1100, LABEL default|candidate-N.
# Exit: 0 pass, 1 fail, 77 clang-19 missing.
set -eu
[ $# -eq 2 ] || { echo "usage: codegen.sh SOURCE_ROOT GEMM_CONFIGS" >&2; exit 2; }
root=$1 configs=$2
here=$(cd "$(dirname "$0")" && pwd)
clang=$(command -v clang-19) ||
    { echo "SKIP: clang-19 is not installed (ci/install-deps installs it)"; exit 77; }
start=$(date +%s)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/jobs"

# What the host passes, per target: no -cl-std (OpenCL C 1.2), and the extensions its
# driver predefines. sm_90: clang defines no cl_khr_fp16 for PTX (nor does NVIDIA's driver
# list it, so clbench reports fp16 unavailable there): it is forced on to see sm_90's
# half code anyway. int8dot: OpenCL C 3.0 and cl_khr_integer_dot_product with both
# 4x8-bit features, which clang does not predefine for these targets.
common="-x cl -O3 -S -Xclang -finclude-default-header -include $here/gpu_prelude.h"
flags_sm_90="-target nvptx64-nvidia-cuda -march=sm_90"
flags_gfx942="-target amdgcn-amd-amdhsa -mcpu=gfx942 -nogpulib"
flags_gfx1100="-target amdgcn-amd-amdhsa -mcpu=gfx1100 -nogpulib"
dot="-cl-std=CL3.0 -Dcl_khr_integer_dot_product=1 -D__opencl_c_integer_dot_product_input_4x8bit=1 -D__opencl_c_integer_dot_product_input_4x8bit_packed=1"
targets="sm_90 gfx942 gfx1100"

# One job: ID TARGET SOURCE KERNELS WORK CHECK NAME OPTIONS (tab-separated; KERNELS
# space-separated). Each becomes a script; xargs runs two at a time.
n=0
job() { # target source kernels work check name options
    n=$((n + 1))
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$n" "$@" >>"$tmp/jobs.tsv"
    eval "tflags=\$flags_$1"
    printf '%s %s %s %s -o %s %s 2>%s || echo fail >%s\n' "$clang" "$common" "$tflags" "$7" \
        "$tmp/$n.s" "$2" "$tmp/$n.log" "$tmp/$n.failed" >"$tmp/jobs/$n"
}

# The canaries first: kernels whose counts are known (codegen-canary.cl says which).
for target in $targets; do
    job "$target" "$here/codegen-canary.cl" "clb_canary_spill clb_canary_mix clb_canary_lds" fp \
        canary "canary" ""
done

# GEMM: the configurations the host builds, as the program prints them.
if ! "$configs" >"$tmp/gemm.tsv" 2>"$tmp/gemm.err" || [ ! -s "$tmp/gemm.tsv" ]; then
    echo "FAIL: $configs printed no GEMM configurations:"
    cat "$tmp/gemm.err"
    exit 1
fi
while IFS="$(printf '\t')" read -r target label prec kernel options; do
    case $target in sm_90 | gfx942 | gfx1100) ;;
        *) echo "FAIL: $configs: unknown target '$target'"; exit 1 ;; esac
    case $label in default) check=gemm-default ;; candidate-*) check=gemm-candidate ;;
        *) echo "FAIL: $configs: unknown label '$label'"; exit 1 ;; esac
    job "$target" "$root/kernels/gemm.cl" "$kernel" fp "$check" "gemm $prec $label" "$options"
done <"$tmp/gemm.tsv"

# peak: src/bench/peak.c's ptypes (type, defines, rounds) at widths 1..16, with the chains
# the host gives a GPU (clb_peak_chains(true, width, bytes)): 8, or as many as keep
# chains x width elements, a 32-bit word each at least, within CLB_PEAK_GPU_WORDS; int8dot
# at width 1 (8 chains) in both forms the host picks from (packed where the device says so,
# else vector).
gpu_words=$(sed -n 's/.*CLB_PEAK_GPU_WORDS = \([0-9][0-9]*\).*/\1/p' "$root/include/clbench/bench/peak.h")
[ -n "$gpu_words" ] || { echo "FAIL: no CLB_PEAK_GPU_WORDS in include/clbench/bench/peak.h"; exit 1; }
chains() { # width, bytes per element
    c=$((gpu_words / ($1 * (($2 + 3) / 4))))
    [ "$c" -gt 8 ] && c=8
    [ "$c" -lt 1 ] && c=1
    echo "$c"
}
for target in $targets; do
    for w in 1 2 4 8 16; do
        job "$target" "$root/kernels/peak.cl" clb_peak fp peak "peak fp32 x$w" \
            "-DT=float -DWIDTH=$w -DITERS=1024 -DCHAINS=$(chains $w 4)"
        job "$target" "$root/kernels/peak.cl" clb_peak fp peak "peak fp64 x$w" \
            "-DT=double -DWIDTH=$w -DITERS=1024 -DCHAINS=$(chains $w 8) -DT_IS_DOUBLE"
        fp16=
        [ "$target" = sm_90 ] && fp16="-Xclang -cl-ext=+cl_khr_fp16"
        job "$target" "$root/kernels/peak.cl" clb_peak fp peak "peak fp16 x$w" \
            "-DT=half -DWIDTH=$w -DITERS=1024 -DCHAINS=$(chains $w 2) -DT_IS_HALF $fp16"
        job "$target" "$root/kernels/peak.cl" clb_peak int peak "peak int32 x$w" \
            "-DT=uint -DWIDTH=$w -DITERS=1024 -DCHAINS=$(chains $w 4) -DT_IS_UINT"
        job "$target" "$root/kernels/peak.cl" clb_peak int peak "peak int16 x$w" \
            "-DT=ushort -DWIDTH=$w -DITERS=1024 -DCHAINS=$(chains $w 2) -DT_IS_UINT -DT_IS_NARROW"
        job "$target" "$root/kernels/peak.cl" clb_peak int peak "peak int8 x$w" \
            "-DT=uchar -DWIDTH=$w -DITERS=1000 -DCHAINS=$(chains $w 1) -DT_IS_UINT -DT_IS_NARROW"
    done
    for form in PACKED VECTOR; do
        job "$target" "$root/kernels/peak.cl" clb_peak dot peak "peak int8dot $(echo $form | tr A-Z a-z)" \
            "-DT=uint -DWIDTH=1 -DITERS=1024 -DCHAINS=$(chains 1 4) -DT_IS_DOT -DDOT_$form $dot"
    done
done

# stream: every kernel of the program, fp32 and fp64 (no -DCLB_WRAP: a test hook).
stream_kernels=$(sed -n 's/.*__kernel .*void[[:space:]]*\(clb_[a-z_]*\)(.*/\1/p; s/^\(clb_[a-z_]*\)(.*/\1/p' \
    "$root/kernels/stream.cl" | tr '\n' ' ')
for target in $targets; do
    job "$target" "$root/kernels/stream.cl" "$stream_kernels" - stream "stream fp32" ""
    job "$target" "$root/kernels/stream.cl" "$stream_kernels" - stream "stream fp64" "-DREAL=double -DCLB_FP64"
done

ls "$tmp/jobs" | (cd "$tmp/jobs" && xargs -P 2 -n 1 sh)

# The counts: one line per kernel and configuration, TARGET NAME KERNEL CHECK then
# codegen.awk's fields.
while IFS="$(printf '\t')" read -r id target file kernels work check name options; do
    if [ -e "$tmp/$id.failed" ]; then
        printf '%s\t%s\t-\t%s\tbuild=failed\n' "$target" "$name" "$check" >>"$tmp/counts.tsv"
        { echo "$target $name does not build ($options):"; head -n 20 "$tmp/$id.log"; } >>"$tmp/build.log"
        continue
    fi
    case $target in sm_90) isa=ptx ;; *) isa=amd ;; esac
    whole=0
    [ "$check" = stream ] && whole=1
    for k in $kernels; do
        printf '%s\t%s\t%s\t%s\t' "$target" "$name" "$k" "$check" >>"$tmp/counts.tsv"
        awk -v isa=$isa -v kernel="$k" -v work_kind="$work" -v whole=$whole \
            -f "$here/codegen.awk" "$tmp/$id.s" >>"$tmp/counts.tsv"
    done
done <"$tmp/jobs.tsv"

# Verdicts. A peak type is judged at its best width (the one whose row clbench reports as
# the type's peak is the fastest, and a width whose loop carries more than its
# multiply-adds is slower, not wrong): below 90 % there fails, below 90 % at another width
# is reported. Spills fail at every width.
awk -F '\t' '
    function num(f) { return v[f] + 0 }
    {
        delete v
        n_rows++; tg[n_rows] = $1; nm[n_rows] = $2; kn[n_rows] = $3; ck[n_rows] = $4
        split($5, fs, " ")
        for (i in fs) { eq = index(fs[i], "="); v[substr(fs[i], 1, eq - 1)] = substr(fs[i], eq + 1) }
        built[n_rows] = v["build"] != "failed"
        found[n_rows] = num("found"); spill[n_rows] = num("spill"); calls[n_rows] = num("calls")
        loop[n_rows] = num("loop"); insts[n_rows] = num("insts"); madd[n_rows] = num("fma")
        fi[n_rows] = num("fmainsts"); lds[n_rows] = num("lds"); other[n_rows] = v["other"]
        if (ck[n_rows] == "peak" && insts[n_rows] > 0) {
            split($2, w, " "); g = $1 " " w[2]; grp[n_rows] = g
            sh = fi[n_rows] / insts[n_rows]
            if (!(g in best) || sh > best[g]) best[g] = sh
        }
    }
    END {
        printf "%-8s %-24s %-26s %5s %5s %5s %5s %7s %6s %s\n", "target", "config", "kernel",
            "spill", "insts", "madd", "lds", "madd/ld", "share", "verdict"
        for (r = 1; r <= n_rows; r++) {
            why = ""; note = ""
            if (!built[r]) why = " does not build (log below);"
            else {
                if (!found[r]) why = why " not in the assembly;"
                if (calls[r] > 0) why = why " " calls[r] " calls left (a built-in gpu_prelude.h lacks);"
                if (spill[r] != 0)
                    why = why " spills (" (spill[r] < 0 ? "a dynamic stack" : spill[r] " bytes of private memory") ");"
            }
            ratio = (ck[r] ~ /^gemm/ || ck[r] == "canary") && lds[r] > 0 ? sprintf("%.2f", madd[r] / lds[r]) : "-"
            share = (ck[r] == "peak" || ck[r] == "canary") && insts[r] > 0 ? sprintf("%.1f%%", 100 * fi[r] / insts[r]) : "-"
            if (built[r] && ck[r] == "gemm-default" && (madd[r] == 0 || madd[r] < 4 * lds[r]))
                why = why " " ratio " FMAs per local load in the hot loop (target >= 4);"
            if (built[r] && ck[r] == "peak") {
                if (!loop[r]) why = why " no loop;"
                low = fi[r] < 0.9 * insts[r]
                if (tg[r] == "sm_90" && nm[r] ~ /int8dot/) {
                    if (low) note = " (not judged on sm_90: dot_acc_sat is dp4a + a saturation)"
                } else if (low && best[grp[r]] < 0.9)
                    why = why " the loop is " share " multiply-adds and no width of the type reaches 90%;"
                else if (low)
                    note = sprintf(" (below 90%%: the type'"'"'s best width has %.1f%%)", 100 * best[grp[r]])
            }
            if (built[r] && ck[r] == "canary") {
                # What each canary must show (codegen-canary.cl); anything else means the
                # counting no longer sees what it is there to see.
                if (kn[r] == "clb_canary_spill" && spill[r] <= 0) why = why " its private array is not seen as a spill;"
                if (kn[r] == "clb_canary_mix" && (!loop[r] || madd[r] != 8 || fi[r] >= 0.9 * insts[r]))
                    why = why " not seen as a loop of 8 FMAs under 90% of it;"
                if (kn[r] == "clb_canary_lds" && (!loop[r] || madd[r] != 4 || lds[r] != 2))
                    why = why " not seen as a loop of 4 FMAs and 2 local loads;"
                if (kn[r] == "clb_canary_spill") { sub(/ spills \([^)]*\);/, "", why) }
            }
            if (why == "" && ck[r] == "gemm-candidate") note = " (a candidate: judged on spills only)"
            verdict = why == "" ? "ok" note : "FAIL:" why
            printf "%-8s %-24s %-26s %5s %5d %5d %5d %7s %6s %s\n", tg[r], nm[r], kn[r],
                spill[r], insts[r], madd[r], lds[r], ratio, share, verdict
            if (why != "" && built[r]) print "    the loop'"'"'s other instructions: " other[r]
            if (why != "") fails++
        }
        printf "%d kernels x configurations, %d failed\n", n_rows, fails
        exit (fails > 0)
    }' "$tmp/counts.tsv" && ok=1 || ok=0
[ ! -s "$tmp/build.log" ] || cat "$tmp/build.log"
echo "$n compiles with $clang, $(($(date +%s) - start)) s"
[ "$ok" -eq 1 ]
