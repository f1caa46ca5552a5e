# What the host offers against what the bundle needs: sourced by the bundle's
# clbench wrapper and by run-gpu (POSIX sh, no GNU sort -V: awk compares).
# REQUIRES (written by ci/bundle from objdump -T of every carried file) holds
# "KEY VERSION ..." lines: glibc, GLIBCXX, fallback-glibc, fallback-GLIBCXX.
# Callers set bundle_root; helpers keep their own variables under h_.

# version_ge A B: A >= B, both dotted numbers (2.34, 3.4.29).
version_ge() {
    awk -v a="$1" -v b="$2" 'BEGIN {
        n = split(a, x, "."); m = split(b, y, "."); if (m > n) n = m
        for (i = 1; i <= n; i++) {
            if (x[i] + 0 > y[i] + 0) exit 0
            if (x[i] + 0 < y[i] + 0) exit 1
        }
        exit 0 }'
}

# version_max: the highest of the dotted numbers on stdin, one a line.
version_max() {
    awk 'function ge(a, b,   x, y, n, m, i) {
            n = split(a, x, "."); m = split(b, y, "."); if (m > n) n = m
            for (i = 1; i <= n; i++) {
                if (x[i] + 0 > y[i] + 0) return 1
                if (x[i] + 0 < y[i] + 0) return 0
            }
            return 1 }
         NF { if (best == "" || !ge(best, $1)) best = $1 }
         END { if (best != "") print best }'
}

# requires KEY: that line's version in the bundle's REQUIRES.
requires() {
    # shellcheck disable=SC2154 # the caller's
    awk -v k="$1" '$1 == k { print $2; exit }' "$bundle_root/REQUIRES"
}

# ldconfig_cmd: ldconfig from PATH, else where distributions keep it (not on PATH for users).
ldconfig_cmd() {
    command -v ldconfig 2>/dev/null && return
    for h_c in /sbin/ldconfig /usr/sbin/ldconfig; do
        [ -x "$h_c" ] && echo "$h_c" && return
    done
}

# ldconfig_find NAME-PREFIX: paths the loader's cache knows for names starting so,
# this machine's word size first (ldconfig -p also lists 32-bit copies).
ldconfig_find() {
    h_ldc=$(ldconfig_cmd)
    [ -n "$h_ldc" ] || return 0
    case $(uname -m) in
        x86_64) h_tag=x86-64 ;;
        aarch64) h_tag=AArch64 ;;
        *) h_tag=, ;;
    esac
    "$h_ldc" -p 2>/dev/null | awk -v p="$1" -v tag="$h_tag" '
        index($1, p) == 1 && / => / {
            path = $0; sub(/.* => /, "", path)
            if (index($0, tag)) print path; else other = other path "\n" }
        END { printf "%s", other }'
}

# elf64 FILE: FILE (through links) is a 64-bit ELF object, as the bundle's binary is.
elf64() {
    [ "$(od -An -tx1 -j0 -N5 "$1" 2>/dev/null | tr -d ' \n')" = 7f454c4602 ]
}

# host_libstdcxx: the libstdc++.so.6 the loader would give clbench: the first in
# LD_LIBRARY_PATH, else ldconfig's, else the usual folders; nothing if none.
host_libstdcxx() {
    h_old_ifs=$IFS
    IFS=:
    for h_d in ${LD_LIBRARY_PATH:-}; do
        [ -n "$h_d" ] && elf64 "$h_d/libstdc++.so.6" &&
            { IFS=$h_old_ifs; echo "$h_d/libstdc++.so.6"; return; }
    done
    IFS=$h_old_ifs
    for h_f in $(ldconfig_find 'libstdc++.so.6') /usr/lib/x86_64-linux-gnu/libstdc++.so.6 \
        /usr/lib64/libstdc++.so.6 /lib64/libstdc++.so.6 /usr/lib/libstdc++.so.6; do
        elf64 "$h_f" && { echo "$h_f"; return; }
    done
}

# host_glibcxx: the highest GLIBCXX version the host's libstdc++ provides
# (RUN_GPU_HOST_GLIBCXX pretends one; "none": no libstdc++); nothing if none.
host_glibcxx() {
    if [ -n "${RUN_GPU_HOST_GLIBCXX:-}" ]; then
        [ "$RUN_GPU_HOST_GLIBCXX" = none ] || echo "$RUN_GPU_HOST_GLIBCXX"
        return
    fi
    h_lib=$(host_libstdcxx)
    [ -n "$h_lib" ] || return 0
    grep -ao 'GLIBCXX_[0-9][0-9.]*[0-9]' "$h_lib" | sed 's/^GLIBCXX_//' | version_max
}

# host_glibc: the host's glibc version (RUN_GPU_HOST_GLIBC pretends one); nothing if
# it has none (musl).
host_glibc() {
    if [ -n "${RUN_GPU_HOST_GLIBC:-}" ]; then
        echo "$RUN_GPU_HOST_GLIBC"
        return
    fi
    h_v=$(getconf GNU_LIBC_VERSION 2>/dev/null | awk '$1 == "glibc" { print $2 }')
    [ -n "$h_v" ] || h_v=$(ldd --version 2>&1 | awk 'NR == 1 && /GLIBC|GNU libc/ { print $NF }')
    echo "$h_v"
}

# use_fallback: the bundle's libstdc++ and libgcc_s (lib/fallback) are needed: the
# host's libstdc++ is missing or lacks the GLIBCXX version the carried files need.
use_fallback() {
    h_have=$(host_glibcxx)
    [ -z "$h_have" ] || ! version_ge "$h_have" "$(requires GLIBCXX)"
}
