// Signals: a fault inside a kernel ends the launch with a report, never the process.
#include "sim_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <execinfo.h>
#include <ucontext.h>

// ---------------------------------------------------------------------------------------------
// signals: a fault inside a kernel ends the launch with a report, never the process

#define SIM_SIGNALS 5
static struct sigaction g_old[SIM_SIGNALS];
static const int kSignals[SIM_SIGNALS] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
static __thread char *t_altstack;

static void on_signal(int sig, siginfo_t *info, void *uc_) {
    if (!g_in_kernel || !pthread_equal(pthread_self(), g_launch_thread)) {
        for (int i = 0; i < SIM_SIGNALS; i++)
            if (kSignals[i] == sig) {
                sigaction(sig, &g_old[i], nullptr);  // let the previous handler see the re-raised fault
                return;
            }
        return;
    }
    opsdk_sim_report *r = &g_result->main;
    uintptr_t a = (uintptr_t)info->si_addr;
    int status = OPSDK_ERR_FAULT;
    const char *what = "";
    if (sig == SIGFPE) status = OPSDK_ERR_FPE, what = "an integer division by zero (or INT_MIN / -1)";
    else if (sig == SIGILL) status = OPSDK_ERR_ILLEGAL, what = "an illegal instruction";
    else if (sig == SIGABRT) status = OPSDK_ERR_TRAP, what = "abort() (a failed assert of <assert.h>?)";
    else if (g_cur >= 0 && g_stacks && a >= (uintptr_t)g_lanes[g_cur].stack_lo - kPage &&
             a < (uintptr_t)g_lanes[g_cur].stack_lo)
        status = OPSDK_ERR_STACK, what = "the thread overflowed its stack";
    // SI_KERNEL: a general-protection fault, which reports no address (a misaligned SSE access
    // such as a float4 load the compiler made `movaps`, or a non-canonical pointer)
    if (sig == SIGSEGV && info->si_code == SI_KERNEL) what = "general-protection fault";
    uintptr_t pc = 0;
    int is_write = -1;
#if defined(__x86_64__) && defined(__linux__)
    ucontext_t *uc = (ucontext_t *)uc_;
    if (sig == SIGSEGV) is_write = (uc->uc_mcontext.gregs[REG_ERR] & 2) ? 1 : 0;
    pc = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__) && defined(__linux__)
    pc = (uintptr_t)((ucontext_t *)uc_)->uc_mcontext.pc;
#else
    (void)uc_;
#endif
    if (r->status == OPSDK_OK) {
        memset(r, 0, sizeof *r);
        r->status = status;
        record_position(r, g_cur);
        r->address = a;
        r->is_write = is_write;
        snprintf(r->message, sizeof r->message, "%s", what);
        // the faulting instruction, then its callers in the kernel's module (a stack overflow
        // has no room left to walk)
        uintptr_t off = module_offset(pc);
        if (off) r->pcs[r->npcs++] = off, r->pc_exact = 1;
        if (status != OPSDK_ERR_STACK) {
            void *raw[64];
            int n = backtrace(raw, 64);
            for (int i = 0; i < n && r->npcs < OPSDK_SIM_FRAMES; i++) {
                uintptr_t o = module_offset((uintptr_t)raw[i]);
                if (o && !(r->npcs >= 1 && r->pc_exact && o == r->pcs[0])) r->pcs[r->npcs++] = o;
            }
        }
        if (g_result->first.status != OPSDK_OK) {  // a race seen first: the fault follows from it
            g_result->main = g_result->first;
            g_result->first.status = OPSDK_OK;
        }
    }
    siglongjmp(g_abort, 1);
}

void install_handlers() {
    if (!t_altstack) {
        size_t size = 256 * 1024;
        t_altstack = (char *)malloc(size);
        stack_t ss;
        ss.ss_sp = t_altstack;
        ss.ss_size = size;
        ss.ss_flags = 0;
        sigaltstack(&ss, nullptr);
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_signal;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < SIM_SIGNALS; i++) sigaction(kSignals[i], &sa, &g_old[i]);
}

void restore_handlers() {
    for (int i = 0; i < SIM_SIGNALS; i++) sigaction(kSignals[i], &g_old[i], nullptr);
}

