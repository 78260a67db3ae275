// Fibers: one stack per simulated thread (a guard page below each), switched by a few
// instructions of assembly (ucontext elsewhere). A thread that waits hands the CPU straight to
// the next ready thread; only when none is ready does the scheduler run.
#include "sim_internal.h"

#include <string.h>
#include <sys/mman.h>

// ---------------------------------------------------------------------------------------------
// context switch: saves the callee-saved registers on the current stack, stores the stack
// pointer in *from and continues on the stack `to` (a fresh fiber "returns" into fiber_main).
// The floating-point control state is not switched: every fiber of a launch shares the one
// opsdk_sim_run sets.

#if defined(__x86_64__)
#if defined(__APPLE__)
#define SIM_SYM "_opsdk_sim_switch"
#define SIM_TYPE ""
#else
#define SIM_SYM "opsdk_sim_switch"
#define SIM_TYPE ".type opsdk_sim_switch,@function\n"
#endif
asm(".text\n.globl " SIM_SYM "\n" SIM_TYPE SIM_SYM ":\n"
    "  pushq %rbp\n  pushq %rbx\n  pushq %r12\n  pushq %r13\n  pushq %r14\n  pushq %r15\n"
    "  movq %rsp, (%rdi)\n  movq %rsi, %rsp\n"
    "  popq %r15\n  popq %r14\n  popq %r13\n  popq %r12\n  popq %rbx\n  popq %rbp\n  ret\n");
#elif defined(__aarch64__)
#if defined(__APPLE__)
#define SIM_SYM "_opsdk_sim_switch"
#define SIM_TYPE ""
#else
#define SIM_SYM "opsdk_sim_switch"
#define SIM_TYPE ".type opsdk_sim_switch,%function\n"
#endif
asm(".text\n.globl " SIM_SYM "\n" SIM_TYPE ".p2align 2\n" SIM_SYM ":\n"
    "  sub sp, sp, #160\n"
    "  stp x19, x20, [sp, #0]\n  stp x21, x22, [sp, #16]\n  stp x23, x24, [sp, #32]\n"
    "  stp x25, x26, [sp, #48]\n  stp x27, x28, [sp, #64]\n  stp x29, x30, [sp, #80]\n"
    "  stp d8, d9, [sp, #96]\n  stp d10, d11, [sp, #112]\n  stp d12, d13, [sp, #128]\n"
    "  stp d14, d15, [sp, #144]\n"
    "  mov x9, sp\n  str x9, [x0]\n  mov sp, x1\n"
    "  ldp x19, x20, [sp, #0]\n  ldp x21, x22, [sp, #16]\n  ldp x23, x24, [sp, #32]\n"
    "  ldp x25, x26, [sp, #48]\n  ldp x27, x28, [sp, #64]\n  ldp x29, x30, [sp, #80]\n"
    "  ldp d8, d9, [sp, #96]\n  ldp d10, d11, [sp, #112]\n  ldp d12, d13, [sp, #128]\n"
    "  ldp d14, d15, [sp, #144]\n"
    "  add sp, sp, #160\n  ret\n");
#endif

// ---------------------------------------------------------------------------------------------
// fibers

void fiber_main() {
    g_spec->entry(g_spec->args);
    lane_exit();
}

#if !SIM_ASM_SWITCH
static void fiber_trampoline() { fiber_main(); }
#endif

void ensure_stacks(int threads, size_t bytes) {
    if (g_stacks && g_stack_count >= (size_t)threads && g_stack_bytes == bytes) return;
    if (g_stacks) munmap(g_stacks, g_stack_count * (g_stack_bytes + kPage));
    g_stack_bytes = bytes;
    g_stack_count = OPSDK_SIM_MAX_THREADS;
    size_t total = g_stack_count * (bytes + kPage);
    void *p = mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
        g_stacks = nullptr;
        return;
    }
    g_stacks = (char *)p;
    for (size_t i = 0; i < g_stack_count; i++) {
        char *guard = g_stacks + i * (bytes + kPage);
        mprotect(guard, kPage, PROT_NONE);
        g_lanes[i].stack_lo = guard + kPage;
        g_lanes[i].stack_hi = guard + kPage + bytes;
    }
}

void fiber_init(Lane &l) {
    l.state = READY;
    l.pc = 0;
#if SIM_ASM_SWITCH
    // stacks lie 132 KiB apart: start each at another offset within its page, or every thread's
    // frames would share one set of the cache
    uintptr_t color = ((uintptr_t)(&l - g_lanes) * 208) % kPage;
    uintptr_t top = ((uintptr_t)l.stack_hi - color) & ~(uintptr_t)15;
    void **sp = (void **)top;
#if defined(__x86_64__)
    *--sp = nullptr;               // the return address of fiber_main (ends a backtrace)
    *--sp = (void *)&fiber_main;   // `ret` lands here
    for (int i = 0; i < 6; i++) *--sp = nullptr;  // rbp rbx r12 r13 r14 r15
#else
    sp -= 20;  // 160 bytes, x30 at offset 88
    memset(sp, 0, 160);
    sp[11] = (void *)&fiber_main;
#endif
    l.sp = sp;
#else
    getcontext(&l.uc);
    l.uc.uc_stack.ss_sp = l.stack_lo;
    l.uc.uc_stack.ss_size = l.stack_hi - l.stack_lo;
    l.uc.uc_link = nullptr;
    makecontext(&l.uc, fiber_trampoline, 0);
#endif
}

// from the scheduler's stack into lane t (returns when the lanes hand control back)
void run_lane(int t) {
    g_cur = t;
    threadIdx = g_lanes[t].tid;
#if SIM_ASM_SWITCH
    opsdk_sim_switch(&g_sched_sp, g_lanes[t].sp);
#else
    swapcontext(&g_sched_uc, &g_lanes[t].uc);
#endif
}

// from the running lane straight into lane `next`, or back to the scheduler (next < 0); returns
// when some lane or the scheduler switches back to this one
void switch_to(int next) {
    int me = g_cur;
    if (next == me) return;
    if (next < 0) {
#if SIM_ASM_SWITCH
        opsdk_sim_switch(&g_lanes[me].sp, g_sched_sp);
#else
        swapcontext(&g_lanes[me].uc, &g_sched_uc);
#endif
        return;
    }
    g_cur = next;
    threadIdx = g_lanes[next].tid;
#if SIM_ASM_SWITCH
    opsdk_sim_switch(&g_lanes[me].sp, g_lanes[next].sp);
#else
    swapcontext(&g_lanes[me].uc, &g_lanes[next].uc);
#endif
}

void make_ready(int t) {
    g_lanes[t].state = READY;
    g_queue[g_qtail] = t;
    g_qtail = (g_qtail + 1) & (kQueue - 1);
}

int pop_ready() {
    while (g_qhead != g_qtail) {
        int t = g_queue[g_qhead];
        g_qhead = (g_qhead + 1) & (kQueue - 1);
        if (g_lanes[t].state == READY) return t;
    }
    return -1;
}

void block_current() { switch_to(pop_ready()); }
