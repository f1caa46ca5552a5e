# Sourced: three hosts of a fleet on this machine, each a network and UTS
# namespace with its own hostname and address on a private link (a bridge in
# a fourth namespace), and Open MPI across them over TCP as on a cluster:
# a hostfile, and a launcher agent (plm_rsh_agent) that enters a host's
# namespaces instead of ssh. Nothing leaves the machine: the addresses exist
# only inside the namespaces. Needs root (or CAP_SYS_ADMIN and CAP_NET_ADMIN),
# ip (iproute2) and unshare (util-linux); a test skips (77) without them.
#   clb_hosts_up TMP        make h1 h2 h3 (10.231.N.1-3); tear down at exit
#   clb_hosts_mpirun ARGS   mpirun in h1, across the hostfile $TMP/hosts
#                           (h1 slots=2, h2 slots=1, h3 slots=1: ranks 0 1
#                           on h1, 2 on h2, 3 on h3 with -np 4 --map-by slot;
#                           CLB_HOSTS_MAP=node deals them round robin: 0 h1,
#                           1 h2, 2 h3, 3 h1)
#   clb_hosts_down          remove them (the EXIT trap calls it)

clb_hosts_down() {
    for _h in sw h1 h2 h3; do ip netns del "$clb_ns$_h" 2>/dev/null; done
    return 0
}

clb_hosts_up() { # TMP
    clb_hosts_tmp=$1
    # A name and subnet of this test's own (the pid), so that a leftover of a
    # killed run or another checkout's test never collides with this one.
    clb_ns=clb$$
    clb_net=10.231.$(($$ % 250 + 1))
    [ "$(id -u)" = 0 ] || { echo "SKIP: namespaces need root"; exit 77; }
    command -v ip >/dev/null && command -v unshare >/dev/null ||
        { echo "SKIP: no ip (iproute2) or unshare (util-linux)"; exit 77; }
    ip netns add "${clb_ns}sw" 2>/dev/null ||
        { echo "SKIP: cannot make a network namespace here"; exit 77; }
    trap 'clb_hosts_down; rm -rf "$clb_hosts_tmp"' EXIT
    trap 'exit 130' INT TERM
    ip -n "${clb_ns}sw" link add br0 type bridge &&
        ip -n "${clb_ns}sw" link set br0 up || { echo "FAIL: no bridge"; exit 1; }
    for _i in 1 2 3; do
        ip netns add "${clb_ns}h$_i" &&
            ip link add v0 netns "${clb_ns}h$_i" type veth peer name "p$_i" netns "${clb_ns}sw" &&
            ip -n "${clb_ns}sw" link set "p$_i" master br0 up &&
            ip -n "${clb_ns}h$_i" addr add "$clb_net.$_i/24" dev v0 &&
            ip -n "${clb_ns}h$_i" link set v0 up &&
            ip -n "${clb_ns}h$_i" link set lo up || { echo "FAIL: cannot make host h$_i"; exit 1; }
    done
    # The agent Open MPI starts each host's daemon with: `agent HOST COMMAND...`.
    cat >"$clb_hosts_tmp/agent" <<AGENT
#!/bin/sh
h=\$1; shift
exec ip netns exec "$clb_ns\$h" unshare --uts sh -c 'hostname "\$0" && exec sh -c "\$*"' "\$h" "\$@"
AGENT
    chmod +x "$clb_hosts_tmp/agent"
    printf 'h1 slots=2\nh2 slots=1\nh3 slots=1\n' >"$clb_hosts_tmp/hosts"
}

clb_hosts_mpirun() { # ARGS...: mpirun's own options, then the command
    ip netns exec "${clb_ns}h1" unshare --uts sh -c 'hostname h1 && exec "$@"' sh \
        "${MPIRUN:-mpirun}" --hostfile "$clb_hosts_tmp/hosts" --map-by "${CLB_HOSTS_MAP:-slot}" \
        --mca plm_rsh_agent "$clb_hosts_tmp/agent" \
        --mca pml ob1 --mca btl tcp,self \
        --mca btl_tcp_if_include "$clb_net.0/24" --mca oob_tcp_if_include "$clb_net.0/24" "$@"
}
