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
#define SIM_RESTART "_opsdk_sim_restart"
#define SIM_RESTART_TYPE ""
#define SIM_MAIN "_opsdk_sim_fiber_main"
#else
#define SIM_SYM "opsdk_sim_switch"
#define SIM_TYPE ".hidden opsdk_sim_switch\n.type opsdk_sim_switch,@function\n"
#define SIM_RESTART "opsdk_sim_restart"
#define SIM_RESTART_TYPE ".hidden opsdk_sim_restart\n.type opsdk_sim_restart,@function\n"
#define SIM_MAIN "opsdk_sim_fiber_main"
#endif
asm(".text\n.globl " SIM_SYM "\n" SIM_TYPE SIM_SYM ":\n"
    "  pushq %rbp\n  pushq %rbx\n  pushq %r12\n  pushq %r13\n  pushq %r14\n  pushq %r15\n"
    "  movq %rsp, (%rdi)\n  movq %rsi, %rsp\n"
    "  popq %r15\n  popq %r14\n  popq %r13\n  popq %r12\n  popq %rbx\n  popq %rbp\n  ret\n");
// continues at fiber_main on the stack whose top is `top` (16-aligned), abandoning the current
// one: a fresh thread starting on the stack of the thread that just exited
asm(".text\n.globl " SIM_RESTART "\n" SIM_RESTART_TYPE SIM_RESTART ":\n"
    "  movq %rdi, %rsp\n  pushq $0\n  xorl %ebp, %ebp\n  jmp " SIM_MAIN "\n");
#elif defined(__aarch64__)
#if defined(__APPLE__)
#define SIM_SYM "_opsdk_sim_switch"
#define SIM_TYPE ""
#define SIM_RESTART "_opsdk_sim_restart"
#define SIM_RESTART_TYPE ""
#define SIM_MAIN "_opsdk_sim_fiber_main"
#else
#define SIM_SYM "opsdk_sim_switch"
#define SIM_TYPE ".hidden opsdk_sim_switch\n.type opsdk_sim_switch,%function\n"
#define SIM_RESTART "opsdk_sim_restart"
#define SIM_RESTART_TYPE ".hidden opsdk_sim_restart\n.type opsdk_sim_restart,%function\n"
#define SIM_MAIN "opsdk_sim_fiber_main"
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
asm(".text\n.globl " SIM_RESTART "\n" SIM_RESTART_TYPE ".p2align 2\n" SIM_RESTART ":\n"
    "  mov sp, x0\n  mov x29, #0\n  mov x30, #0\n  b " SIM_MAIN "\n");
#endif

// ---------------------------------------------------------------------------------------------
// fibers. A thread gets a stack when it first runs, from a pool (the most recently freed first),
// and gives it back when it exits; a thread that exits with a fresh thread next in the queue
// starts that one on its own stack, at once, with no context switch. So a block whose threads
// never wait runs them one after another on one stack that stays in the cache, and a block
// whose threads all wait at a barrier uses one stack per thread, as before.

static int g_free[OPSDK_SIM_MAX_THREADS];  // stacks not in use (indices), the next one last
static int g_nfree;

extern "C" __attribute__((visibility("hidden"), noreturn)) void opsdk_sim_fiber_main() {
    g_spec->entry(g_spec->args);
    lane_exit();
}

#if SIM_ASM_SWITCH
extern "C" __attribute__((visibility("hidden"), noreturn)) void opsdk_sim_restart(void *top);
#else
static void fiber_trampoline() { opsdk_sim_fiber_main(); }
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
    for (size_t i = 0; i < g_stack_count; i++) mprotect(g_stacks + i * (bytes + kPage), kPage, PROT_NONE);
}

// every stack free, stack 0 the first to be taken. A block of n threads never holds more than n
// stacks at once (one a thread that has run and not exited), so only the first n are handed out:
// a block of 32 threads costs 32 entries here, not the pool's 1024
void reset_stacks(int threads) {
    g_nfree = threads < (int)g_stack_count ? threads : (int)g_stack_count;
    for (int i = 0; i < g_nfree; i++) g_free[i] = g_nfree - 1 - i;
}

// the top a thread starting on stack s begins at. Stacks lie 132 KiB apart: each starts at
// another offset within its page, or every thread's frames would share one set of the cache
[[maybe_unused]] static char *stack_top(int s) {
    char *hi = g_stacks + (size_t)s * (g_stack_bytes + kPage) + kPage + g_stack_bytes;
    uintptr_t color = ((uintptr_t)s * 208) % kPage;
    return (char *)(((uintptr_t)hi - color) & ~(uintptr_t)15);
}

static void give_stack(Lane &l, int s) {
    l.stack = s;
    l.stack_lo = g_stacks + (size_t)s * (g_stack_bytes + kPage) + kPage;
    l.stack_hi = l.stack_lo + g_stack_bytes;
    l.state = READY;
}

void fiber_init(Lane &l) {
    l.state = FRESH;
    l.pc = 0;
}

// lane l, fresh, gets a stack of the pool and a first frame that "returns" into fiber_main
void fiber_start(Lane &l) {
    give_stack(l, g_free[--g_nfree]);
#if SIM_ASM_SWITCH
    void **sp = (void **)stack_top(l.stack);
#if defined(__x86_64__)
    *--sp = nullptr;                         // the return address of fiber_main (ends a backtrace)
    *--sp = (void *)&opsdk_sim_fiber_main;   // `ret` lands here
    for (int i = 0; i < 6; i++) *--sp = nullptr;  // rbp rbx r12 r13 r14 r15
#else
    sp -= 20;  // 160 bytes, x30 at offset 88
    memset(sp, 0, 160);
    sp[11] = (void *)&opsdk_sim_fiber_main;
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
    Lane &l = g_lanes[t];
    threadIdx = l.tid;
    if (l.state == FRESH) fiber_start(l);
#if SIM_ASM_SWITCH
    opsdk_sim_switch(&g_sched_sp, l.sp);
#else
    swapcontext(&g_sched_uc, &l.uc);
#endif
}

// the running lane has exited: the next ready one runs (on this stack, if it is fresh), or the
// scheduler
void leave_lane() {
    int next = pop_ready();
#if SIM_ASM_SWITCH
    Lane &me = g_lanes[g_cur];
    if (next >= 0 && g_lanes[next].state == FRESH) {
        Lane &n = g_lanes[next];
        give_stack(n, me.stack);
        g_cur = next;
        threadIdx = n.tid;
        opsdk_sim_restart(stack_top(n.stack));
    }
    g_free[g_nfree++] = me.stack;  // nothing runs on it again until the switch below is done
#endif  // (a ucontext fiber starting on it would overwrite this thread's frames before the switch)
    switch_to(next);
    fail(OPSDK_ERR_INTERNAL, nullptr, 0, "a finished thread was resumed");
}
