#include "clbench/util/interrupt.h"

#include <signal.h>
#include <string.h>

static volatile sig_atomic_t received;
static int (*linked)(int received);
static int heard; /* through the link */

static void on_signal(int sig)
{
    /* A second Ctrl-C while the first is being honoured means "now". */
    if (received)
        signal(sig, SIG_DFL), raise(sig);
    received = sig;
}

void clb_interrupt_install(void)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

bool clb_interrupted(void)
{
    if (linked) {
        const int other = linked((int)received);
        if (!heard)
            heard = other;
    }
    return received != 0 || heard != 0;
}

int clb_interrupt_signal(void)
{
    return received ? (int)received : heard;
}

void clb_interrupt_link(int (*link)(int received))
{
    linked = link;
}
