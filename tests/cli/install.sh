#!/bin/sh
# meson install into a DESTDIR, then the installed clbench as a user meets it: the files
# installed are exactly the expected ones; the binary runs from another folder with no
# source tree; man -l renders clbench(1) without a warning; and the man page, the bash
# completion (run in bash) and the zsh one (parsed by zsh) name every option each
# command's --help names, in that command's place.
# Usage: install.sh BUILDDIR
set -eu
build=$(cd "$1" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
    echo "install: $*" >&2
    exit 1
}

dest=$tmp/dest
meson install -C "$build" --destdir "$dest" --no-rebuild --quiet >"$tmp/install.log" 2>&1 ||
    { cat "$tmp/install.log" >&2; fail "meson install failed"; }
prefix=$(meson introspect "$build" --buildoptions | jq -r '.[] | select(.name == "prefix") | .value')
root=$dest$prefix

# Everything a user needs and nothing else: no generator, no library, no headers.
(cd "$root" && find . -type f | sed 's|^\./||' | sort) >"$tmp/files"
man=$(grep -x 'share/man/man1/clbench\.1' "$tmp/files") || fail "no share/man/man1/clbench.1"
bash_c=$(grep -E '(^|/)bash-completion/completions/clbench$' "$tmp/files") ||
    fail "no bash completion named clbench"
zsh_c=$(grep -E '(^|/)zsh/(site-functions|vendor-completions)/_clbench$' "$tmp/files") ||
    fail "no zsh completion named _clbench"
cat >"$tmp/want" <<EOF2
bin/clbench
$bash_c
$man
share/doc/clbench/README.md
share/doc/clbench/findings.md
share/doc/clbench/peers.md
share/doc/clbench/result-schema.md
$zsh_c
EOF2
sort -o "$tmp/want" "$tmp/want"
diff "$tmp/want" "$tmp/files" >&2 || fail "installed files differ from the expected ones (< expected, > installed)"

# The installed binary from an empty folder, with a bare environment: help, version, and
# the commands whose data is embedded (the datasheet, the model presets).
mkdir "$tmp/elsewhere" "$tmp/home"
run() {
    (cd "$tmp/elsewhere" && env -i PATH=/usr/bin:/bin HOME="$tmp/home" "$root/bin/clbench" "$@")
}
run --help | grep -q '^Commands:' || fail "installed clbench --help"
run --version | grep -Eq '^clbench [0-9.]+ \(commit ' || fail "installed clbench --version"
run datasheet --format json | jq -e '.accelerators | length > 10' >/dev/null ||
    fail "installed clbench datasheet: no embedded rows"
run fit --list-models | grep -q 'llama-2-7b' || fail "installed clbench fit --list-models"

# The page renders (man-db, groff), and groff has nothing to warn about.
MANWIDTH=200 LC_ALL=C.UTF-8 man -l "$root/$man" >"$tmp/man.txt" 2>"$tmp/man.err" ||
    fail "man -l failed: $(head -3 "$tmp/man.err")"
LC_ALL=C.UTF-8 groff -k -man -ww -z -Tutf8 "$root/$man" 2>"$tmp/groff.err"
[ ! -s "$tmp/groff.err" ] || fail "groff warns: $(head -3 "$tmp/groff.err")"
grep -q '^NAME' "$tmp/man.txt" && grep -q '^EXIT STATUS' "$tmp/man.txt" &&
    grep -q '^ENVIRONMENT' "$tmp/man.txt" && grep -q '^FILES' "$tmp/man.txt" ||
    fail "the page lacks a section (NAME, EXIT STATUS, ENVIRONMENT, FILES)"
bash -n "$root/$bash_c" || fail "bash cannot parse the completion"
zsh -n "$root/$zsh_c" || fail "zsh cannot parse the completion"

# bash: what a Tab after WORDS... offers, one word a line.
complete_bash() {
    bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _clbench
             printf "%s\n" "${COMPREPLY[@]}"' sh "$root/$bash_c" "$@"
}

commands=$(run --help | sed -n '/^Commands:/,/^$/s/^  \([a-z]*\) .*/\1/p')
[ "$(echo "$commands" | wc -l)" -ge 13 ] || fail "clbench --help lists too few commands: $commands"
complete_bash clbench '' >"$tmp/c"
for c in $commands; do
    grep -qx "$c" "$tmp/c" || fail "bash: 'clbench <Tab>' does not offer $c"
done
# zsh: what its completion system lists, typed on a pseudo-terminal (zsh-list.zsh).
set -- 'clbench ' 'clbench gemm --format=' 'clbench gemm -p fp32,' 'clbench fit --model llama-2'
for c in $commands; do
    set -- "$@" "clbench $c -"
done
zsh_dir=$(dirname "$root/$zsh_c")
timeout 120 zsh -f "$(dirname "$0")/zsh-list.zsh" "$zsh_dir" "$@" >"$tmp/zsh-listed" ||
    fail "zsh: listing the completions failed"
zsh_listed() { # LINE: the words zsh listed after LINE
    awk -v l="== $1" '$0 == l { on = 1; next } on && /^== / { on = 0 } on' "$tmp/zsh-listed" |
        grep -oE -- '(^|[ ])[a-z0-9.,-]{2,}' | tr -d ' ' | sort -u | tr '\n' ' '
}
for c in $commands; do
    zsh_listed 'clbench ' | grep -q -- "^$c \| $c " || fail "zsh: 'clbench <Tab>' lists no $c"
done
[ "$(zsh_listed 'clbench gemm --format=')" = 'csv json table ' ] ||
    fail "zsh: 'clbench gemm --format=<Tab>' lists '$(zsh_listed 'clbench gemm --format=')'"
zsh_listed 'clbench gemm -p fp32,' | grep -q 'fp64' || fail "zsh: a comma list's next item"
[ "$(zsh_listed 'clbench fit --model llama-2')" = 'llama-2-13b llama-2-70b llama-2-7b ' ] ||
    fail "zsh: 'clbench fit --model llama-2<Tab>' lists '$(zsh_listed 'clbench fit --model llama-2')'"

n_checked=0
for c in $commands; do
    opts=$(run "$c" --help | grep -oE '^  (-[a-zA-Z],|   ) --[a-z0-9-]+' | sed 's/.*--//')
    [ -n "$opts" ] || fail "clbench $c --help names no option"
    # The page's section of the command: from its heading to the next command's.
    awk -v h="clbench $c [OPTIONS]" 'index($0, h) == 4 { on = 1; next }
        on && /^   clbench [a-z]+ \[OPTIONS\]/ { on = 0 } on' "$tmp/man.txt" >"$tmp/section"
    [ -s "$tmp/section" ] || fail "the page has no section 'clbench $c [OPTIONS]'"
    complete_bash clbench "$c" - >"$tmp/c"
    awk -v l="== clbench $c -" '$0 == l { on = 1; next } on && /^== / { on = 0 } on' \
        "$tmp/zsh-listed" >"$tmp/z"
    awk -v c="$c" '$0 == "  (" c ")" { on = 1; next } on && /^  \(/ { on = 0 } on' \
        "$root/$zsh_c" >"$tmp/zsh"
    [ -s "$tmp/zsh" ] || fail "zsh: no arm for $c"
    for o in $opts; do
        grep -Eq -- "(^|[ ,])--$o([ ,.]|$)" "$tmp/section" ||
            fail "the page's 'clbench $c' section does not name --$o"
        grep -qx -- "--$o" "$tmp/c" || fail "bash: 'clbench $c --<Tab>' does not offer --$o"
        grep -q -- "--${o}[=[]" "$tmp/zsh" || fail "zsh: clbench $c has no spec for --$o"
        grep -Eq -- "(^| )--$o( |$)" "$tmp/z" || fail "zsh: 'clbench $c -<Tab>' does not list --$o"
        n_checked=$((n_checked + 1))
    done
    for pair in $(run "$c" --help | grep -oE '^  -[a-zA-Z], --[a-z0-9-]+' | tr -d ' '); do
        short=${pair%%,*} long=${pair#*,}
        grep -qF -- "$short, $long" "$tmp/man.txt" || fail "the page does not name $short, $long"
        grep -qx -- "$short" "$tmp/c" || fail "bash: 'clbench $c -<Tab>' does not offer $short"
        grep -qF -- "'(${short} ${long})${short}" "$tmp/zsh" || fail "zsh: clbench $c has no spec for $short"
        grep -Eq -- "(^| )$short( |$)" "$tmp/z" || fail "zsh: 'clbench $c -<Tab>' does not list $short"
        n_checked=$((n_checked + 1))
    done
done
[ "$n_checked" -ge 150 ] || fail "only $n_checked options checked"

# Values: an enumeration, a registry's names, a comma list's last item, --opt=value, files.
expect_words() { # WANT WORDS...: the completion offers exactly WANT (space-separated)
    want=$1
    shift
    got=$(complete_bash "$@" | sort | tr '\n' ' ')
    # shellcheck disable=SC2086 # the words, one a line
    [ "$got" = "$(printf '%s\n' $want | sort | tr '\n' ' ')" ] ||
        fail "bash: '$*<Tab>' offers '$got', not '$want'"
}
expect_words 'table json csv' clbench devices --format ''
expect_words 'json' clbench gemm --format = j
expect_words 'fp16' clbench gemm -p fp1
expect_words 'fp32,fp64' clbench gemm --precision fp32,fp6
expect_words 'clblast clblast-untuned clbench clbench-untuned' clbench gemm -b clb
expect_words 'llama-2-7b llama-2-13b llama-2-70b' clbench fit --model llama-2
expect_words 'median best' clbench peak --stat ''
expect_words '' clbench gemm -n ''
touch "$tmp/elsewhere/run-a.json" "$tmp/elsewhere/run-b.json"
got=$(cd "$tmp/elsewhere" && complete_bash clbench report run- | sort | tr '\n' ' ')
[ "$got" = "run-a.json run-b.json " ] || fail "bash: 'clbench report run-<Tab>' offers '$got'"
echo "install: ok, $(wc -l <"$tmp/files") files, $n_checked options in the page and both completions"
