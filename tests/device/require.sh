# Sourced by the shell tests that need an OpenCL device (the shell side of
# require.h): skip (exit 77, one line why) when the built clbench lists none.
#   clb_require_device CLBENCH   any device, in the test's own environment
#   clb_require_pocl CLBENCH     a pocl device, its kernel cache in a writable
#                                folder (for the tests that make pocl fail)
# The probe is `clbench devices --format json` with no injected fault. It skips
# only on clbench's own "no platform / no usable device" (exit 1) or an empty
# list; a probe that crashes or raises a sanitizer report fails the test.

clb_probe_devices() { # CLBENCH JQ-FILTER WHAT [POCL_CACHE_DIR]
    _clb_err=$(mktemp) || exit 99
    _clb_json=$(
        for _clb_v in $(env | sed -n 's/^\(CLBENCH_FAULT_[A-Za-z0-9_]*\)=.*/\1/p'); do
            unset "$_clb_v"
        done
        [ -n "${4:-}" ] && export POCL_CACHE_DIR="$4"
        exec "$1" devices --format json </dev/null 2>"$_clb_err"
    )
    _clb_rc=$?
    _clb_why=$(grep -v '^$' "$_clb_err" | head -n 1)
    if grep -q -E 'AddressSanitizer|runtime error:|LeakSanitizer' "$_clb_err"; then
        cat "$_clb_err"
        rm -f "$_clb_err"
        echo "FAIL: device probe \`clbench devices\` raised a sanitizer report"
        exit 1
    fi
    rm -f "$_clb_err"
    case $_clb_rc in
        0) printf '%s' "$_clb_json" | jq -e "$2" >/dev/null 2>&1 ||
               { echo "SKIP: no $3 (none in \`clbench devices\`)"; exit 77; } ;;
        1) echo "SKIP: no $3 (${_clb_why:-clbench devices exited 1})"; exit 77 ;;
        *) echo "FAIL: device probe \`clbench devices\` exited $_clb_rc${_clb_why:+: $_clb_why}"; exit 1 ;;
    esac
}

clb_require_device() { # CLBENCH
    clb_probe_devices "$1" '.devices | length > 0' 'OpenCL device'
}

clb_require_pocl() { # CLBENCH
    _clb_cache=$(mktemp -d) || exit 99
    (clb_probe_devices "$1" 'any(.devices[]; .platform == "Portable Computing Language")' \
        'pocl device' "$_clb_cache")
    _clb_rc=$?
    rm -rf "$_clb_cache"
    [ $_clb_rc -eq 0 ] || exit $_clb_rc
}
