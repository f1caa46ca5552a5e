# What zsh's completion system lists after each of LINES, with the completion from DIR:
# an interactive zsh on a pseudo-terminal (zsh/zpty) types each line and list-choices,
# then a marker; printed as "== LINE" and the listing, escape sequences stripped.
# Usage: zsh -f zsh-list.zsh DIR LINE...
setopt extended_glob
zmodload zsh/zpty || exit 77
dir=$1
shift
zpty -b z 'zsh -f -i' || exit 1
zpty -w z "stty rows 10000 columns 250; PS1='%% '; fpath=($dir \$fpath); autoload -Uz compinit; compinit -u -D; clbench() { :; }; bindkey '^X' list-choices; zstyle ':completion:*' list-prompt ''; LISTMAX=0"
n=0
for l in "$@"; do
    n=$((n + 1))
    print -r -- "== $l"
    zpty -w -n z "$l"$'\C-x'
    zpty -w -n z $'\C-a\C-k'"echo '=''=DONE $n'"$'\n'
    zpty -r -m z out "*==DONE $n*" || exit 1
    # What was typed shows too (the line, redrawn after the list, and the marker's echo).
    out=${out//$'\r'/}
    out=${out//(#m)$'\e'\[[0-9\;?]#[a-zA-Z]/}
    out=${out//${(b)l}/ }
    out=${out//echo \'=\'\'=DONE $n\'/ }
    out=${out//==DONE $n/}
    print -r -- "$out" | grep -v '^[#% ]*$' | grep -v 'stty rows'
done
zpty -d z
