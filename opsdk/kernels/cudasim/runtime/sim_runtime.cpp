// The CUDA simulator's runtime: runs a kernel's blocks one after another, the threads of a block
// as cooperative fibers released at barriers and warp collectives, and reports what a GPU would
// fault or hang on (out-of-bounds accesses, shared memory read before any write, barriers and
// shuffles not reached by every thread that must reach them) instead of crashing or hanging.
//
// Built once per machine by cudasim/build.py (never instrumented itself); kernel modules are
// compiled with -fsanitize=thread and call the __tsan_* hooks below on every access.
#include "sim_abi.h"

#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <fenv.h>
#include <math.h>

#include <vector>

#define EXPORT extern "C" __attribute__((visibility("default")))

// -- the built-in variables kernels read (the scheduler sets them before resuming a thread) ----
extern "C" {
__attribute__((visibility("default"))) uint3 threadIdx = {0, 0, 0};
__attribute__((visibility("default"))) uint3 blockIdx = {0, 0, 0};
__attribute__((visibility("default"))) dim3 blockDim(1, 1, 1);
__attribute__((visibility("default"))) dim3 gridDim(1, 1, 1);
__attribute__((visibility("default"))) unsigned char *opsdk_sim_dynamic_shared = nullptr;
}

// ---------------------------------------------------------------------------------------------
// context switch: saves the callee-saved registers on the current stack, stores the stack
// pointer in *from and continues on the stack `to` (a fresh fiber "returns" into fiber_main)
extern "C" void opsdk_sim_switch(void **from, void *to);

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
    "  subq $8, %rsp\n  stmxcsr (%rsp)\n  fnstcw 4(%rsp)\n"
    "  movq %rsp, (%rdi)\n  movq %rsi, %rsp\n"
    "  ldmxcsr (%rsp)\n  fldcw 4(%rsp)\n  addq $8, %rsp\n"
    "  popq %r15\n  popq %r14\n  popq %r13\n  popq %r12\n  popq %rbx\n  popq %rbp\n  ret\n");
#define SIM_ASM_SWITCH 1
#elif defined(__aarch64__)
#if defined(__APPLE__)
#define SIM_SYM "_opsdk_sim_switch"
#define SIM_TYPE ""
#else
#define SIM_SYM "opsdk_sim_switch"
#define SIM_TYPE ".type opsdk_sim_switch,%function\n"
#endif
asm(".text\n.globl " SIM_SYM "\n" SIM_TYPE ".p2align 2\n" SIM_SYM ":\n"
    "  sub sp, sp, #176\n"
    "  stp x19, x20, [sp, #0]\n  stp x21, x22, [sp, #16]\n  stp x23, x24, [sp, #32]\n"
    "  stp x25, x26, [sp, #48]\n  stp x27, x28, [sp, #64]\n  stp x29, x30, [sp, #80]\n"
    "  stp d8, d9, [sp, #96]\n  stp d10, d11, [sp, #112]\n  stp d12, d13, [sp, #128]\n"
    "  stp d14, d15, [sp, #144]\n  mrs x9, fpcr\n  str x9, [sp, #160]\n"
    "  mov x9, sp\n  str x9, [x0]\n  mov sp, x1\n"
    "  ldp x19, x20, [sp, #0]\n  ldp x21, x22, [sp, #16]\n  ldp x23, x24, [sp, #32]\n"
    "  ldp x25, x26, [sp, #48]\n  ldp x27, x28, [sp, #64]\n  ldp x29, x30, [sp, #80]\n"
    "  ldp d8, d9, [sp, #96]\n  ldp d10, d11, [sp, #112]\n  ldp d12, d13, [sp, #128]\n"
    "  ldp d14, d15, [sp, #144]\n  ldr x9, [sp, #160]\n  msr fpcr, x9\n"
    "  add sp, sp, #176\n  ret\n");
#define SIM_ASM_SWITCH 1
#else
#include <ucontext.h>
#define SIM_ASM_SWITCH 0
#endif

// ---------------------------------------------------------------------------------------------
enum LaneState { READY, AT_BARRIER, AT_WARP, DONE };

enum WarpKind {
    SHFL_IDX, SHFL_UP, SHFL_DOWN, SHFL_XOR, VOTE_ALL, VOTE_ANY, VOTE_UNI, VOTE_BALLOT, SYNCWARP,
    MATCH_ANY, MATCH_ALL, RED_ADD, RED_MIN_U, RED_MAX_U, RED_MIN_S, RED_MAX_S, RED_AND, RED_OR,
    RED_XOR, ACTIVEMASK, WARP_KINDS
};

static const char *const kWarpNames[WARP_KINDS] = {
    "__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync", "__all_sync",
    "__any_sync", "__uni_sync", "__ballot_sync", "__syncwarp", "__match_any_sync",
    "__match_all_sync", "__reduce_add_sync", "__reduce_min_sync", "__reduce_max_sync",
    "__reduce_min_sync", "__reduce_max_sync", "__reduce_and_sync", "__reduce_or_sync",
    "__reduce_xor_sync", "__activemask"};

struct Lane {
    void *sp;
    char *stack_lo, *stack_hi;  // usable stack (a guard page lies below stack_lo)
#if !SIM_ASM_SWITCH
    ucontext_t uc;
#endif
    int state;
    uint3 tid;
    const char *file;  // where it waits (barrier or warp collective)
    int line;
    int bar_mode, pred;
    int group;
    unsigned mask;
    uint64_t value, result;
    int size, arg, width, result_pred;
};

struct Group {
    int used, kind;
    unsigned mask, arrived;
    const char *file;
    int line;
};

struct Warp {
    Group groups[OPSDK_SIM_WARP];
    unsigned exist, done;
    uint16_t sync_gen;
};

struct Shadow {  // one per byte of shared memory
    uint32_t w_epoch, r_epoch;
    uint16_t writer, reader, w_sync, r_sync;
};
static const uint16_t kManyReaders = 0xFFFF;

struct Slot {  // one static __shared__ variable
    size_t offset, size;
    const char *name, *file;
    int line;
};

struct Page {  // head and tail pages of device allocations, for precise bounds checks
    uint64_t page;
    uintptr_t lo, hi;  // the allocation's data
    int used;          // 0 free, 1 used, 2 deleted
};

struct Allocation {
    uintptr_t data;
    size_t nbytes;
    char *map;
    size_t map_bytes;
    uintptr_t rw_lo, rw_hi;  // the accessible pages
};

static const size_t kPage = 4096;
static const size_t kGuard = 64 * 1024;
static const size_t kStaticShared = 16u << 20;
static const size_t kRedzone = 32;

// -- state of the launch in progress (launches are serialised by the Python side) ----------------
static const opsdk_sim_launch *g_spec;
static opsdk_sim_result *g_result;
static sigjmp_buf g_abort;
static volatile sig_atomic_t g_in_kernel;
static pthread_t g_launch_thread;
static Lane g_lanes[OPSDK_SIM_MAX_THREADS];
static Warp g_warps[OPSDK_SIM_MAX_THREADS / OPSDK_SIM_WARP];
static int g_threads, g_cur;
static void *g_sched_sp;
#if !SIM_ASM_SWITCH
static ucontext_t g_sched_uc;
#endif
static int g_queue[OPSDK_SIM_MAX_THREADS + 1];
static int g_qhead, g_qtail;
static uint32_t g_epoch = 1, g_block_epoch = 1;
static uint32_t g_ticks;
static double g_deadline;

// fiber stacks, kept across launches
static char *g_stacks;
static size_t g_stack_bytes, g_stack_count;

// shared memory: [dynamic region | static slots], one arena for the process
static unsigned char *g_arena;
static size_t g_static_used;  // bytes of the static part in use (slots and redzones)
static std::vector<Slot> g_slots;
static unsigned char *g_zone;                // per static byte: 1 inside a slot
static Shadow *g_shadow;                   // per arena byte
static size_t g_dyn_bytes;                 // dynamic shared memory of this launch

// device allocations
static std::vector<Page> g_pages;
static size_t g_pages_used;
static std::vector<Allocation> g_allocations;

static double now_s() {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

// ---------------------------------------------------------------------------------------------
// errors: record what happened and abandon the launch (the fibers' stacks are simply dropped)

static void record_position(opsdk_sim_result *r) {
    r->block[0] = blockIdx.x, r->block[1] = blockIdx.y, r->block[2] = blockIdx.z;
    if (g_cur >= 0) {
        Lane &l = g_lanes[g_cur];
        r->thread[0] = l.tid.x, r->thread[1] = l.tid.y, r->thread[2] = l.tid.z;
    }
}

__attribute__((noreturn, format(printf, 4, 5))) static void fail(int status, const char *file, int line,
                                                                const char *fmt, ...) {
    opsdk_sim_result *r = g_result;
    if (r->status == OPSDK_OK) {
        r->status = status;
        record_position(r);
        if (file) snprintf(r->file, sizeof r->file, "%s", file);
        r->line = line;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->message, sizeof r->message, fmt, ap);
        va_end(ap);
    }
    siglongjmp(g_abort, 1);
}

static void append(char *buf, size_t cap, const char *fmt, ...) {
    size_t n = strlen(buf);
    if (n + 1 >= cap) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + n, cap - n, fmt, ap);
    va_end(ap);
}

// "0-15, 17" for a lane mask
static void lanes_text(char *buf, size_t cap, unsigned mask) {
    buf[0] = 0;
    for (int i = 0; i < OPSDK_SIM_WARP; i++) {
        if (!(mask >> i & 1)) continue;
        int j = i;
        while (j + 1 < OPSDK_SIM_WARP && (mask >> (j + 1) & 1)) j++;
        if (buf[0]) append(buf, cap, ", ");
        if (j > i) append(buf, cap, "%d-%d", i, j);
        else append(buf, cap, "%d", i);
        i = j;
    }
    if (!buf[0]) snprintf(buf, cap, "none");
}

// "threads 0-127 ((0,0,0)-(127,0,0))" for a run of linear thread ids
static void thread_text(char *buf, size_t cap, int first, int last) {
    const Lane &a = g_lanes[first], &b = g_lanes[last];
    if (first == last)
        snprintf(buf, cap, "thread (%u,%u,%u)", a.tid.x, a.tid.y, a.tid.z);
    else
        snprintf(buf, cap, "threads (%u,%u,%u)-(%u,%u,%u)", a.tid.x, a.tid.y, a.tid.z, b.tid.x, b.tid.y,
                 b.tid.z);
}

static void tick() {
    if ((++g_ticks & 0x3FFFF) == 0 && g_deadline > 0 && now_s() > g_deadline)
        fail(OPSDK_ERR_TIMEOUT, nullptr, 0,
             "the kernel ran longer than %.0f s (an endless loop? a thread waiting for another "
             "block, which the simulator runs later?)",
             g_spec->timeout_s);
}

// ---------------------------------------------------------------------------------------------
// fibers

static void lane_exit();

static void fiber_main() {
    g_spec->entry(g_spec->args);
    lane_exit();
}

#if !SIM_ASM_SWITCH
static void fiber_trampoline() { fiber_main(); }
#endif

static void ensure_stacks(int threads, size_t bytes) {
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

static void fiber_init(Lane &l) {
#if SIM_ASM_SWITCH
    uintptr_t top = ((uintptr_t)l.stack_hi) & ~(uintptr_t)15;
    void **sp = (void **)top;
#if defined(__x86_64__)
    *--sp = nullptr;               // the return address of fiber_main (never used)
    *--sp = (void *)&fiber_main;   // `ret` lands here
    for (int i = 0; i < 6; i++) *--sp = nullptr;  // rbp rbx r12 r13 r14 r15
    --sp;
    uint32_t *csr = (uint32_t *)sp;
    csr[0] = g_spec->fast_math ? 0x9FC0 : 0x1F80;  // MXCSR: to nearest, masked; FTZ+DAZ for fast math
    csr[1] = 0x037F;  // x87 control word
#else
    sp -= 22;  // 176 bytes, x30 at offset 88
    memset(sp, 0, 176);
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

static void resume(int t) {
    g_cur = t;
    threadIdx = g_lanes[t].tid;
#if SIM_ASM_SWITCH
    opsdk_sim_switch(&g_sched_sp, g_lanes[t].sp);
#else
    swapcontext(&g_sched_uc, &g_lanes[t].uc);
#endif
}

static void yield_to_scheduler() {
    Lane &l = g_lanes[g_cur];
#if SIM_ASM_SWITCH
    opsdk_sim_switch(&l.sp, g_sched_sp);
#else
    swapcontext(&l.uc, &g_sched_uc);
#endif
}

static void make_ready(int t) {
    g_lanes[t].state = READY;
    g_queue[g_qtail] = t;
    g_qtail = (g_qtail + 1) % (OPSDK_SIM_MAX_THREADS + 1);
}

// ---------------------------------------------------------------------------------------------
// warp collectives

static uint64_t poison_bits(int size) {
    switch (size) {
    case 1: return 0xF1;
    case 2: return 0x7FF1;
    case 4: return 0x7FF17FF1u;
    default: return 0x7FF17FF17FF17FF1ull;
    }
}

static uint64_t sized(uint64_t v, int size) {
    return size >= 8 ? v : (v & ((1ull << (8 * size)) - 1));
}

// the source lane of a shuffle, as PTX shfl.sync computes it (only b[4:0] is used; width is
// encoded as c = ((32 - width) << 8) | (mode == up ? 0 : 31))
static int shuffle_source(int kind, int lane, int b, int width) {
    int bval = b & 31;
    int segmask = (32 - width) & 31;
    int cval = kind == SHFL_UP ? 0 : 31;
    int max_lane = (lane & segmask) | (cval & ~segmask);
    int min_lane = lane & segmask;
    int j;
    bool ok;
    switch (kind) {
    case SHFL_UP: j = lane - bval; ok = j >= max_lane; break;
    case SHFL_DOWN: j = lane + bval; ok = j <= max_lane; break;
    case SHFL_XOR: j = lane ^ bval; ok = j <= max_lane; break;
    default: j = min_lane | (bval & ~segmask); ok = j <= max_lane; break;
    }
    return ok ? j : lane;
}

static void resolve(int w, int gi, int current) {
    Warp &warp = g_warps[w];
    Group &g = warp.groups[gi];
    int base = w * OPSDK_SIM_WARP;
    unsigned arrived = g.arrived;
    uint64_t ballot = 0;
    bool all = true, any = false, same = true;
    uint64_t first = 0;
    bool have_first = false;
    uint32_t red = 0;
    for (int i = 0; i < OPSDK_SIM_WARP; i++) {
        if (!(arrived >> i & 1)) continue;
        Lane &l = g_lanes[base + i];
        uint64_t v = sized(l.value, l.size);
        if (l.value) ballot |= 1ull << i;
        all = all && l.value;
        any = any || l.value;
        if (!have_first) {
            first = v, have_first = true;
            red = (uint32_t)v;
        } else {
            same = same && v == first;
            uint32_t x = (uint32_t)v;
            switch (g.kind) {
            case RED_ADD: red += x; break;
            case RED_MIN_U: red = x < red ? x : red; break;
            case RED_MAX_U: red = x > red ? x : red; break;
            case RED_MIN_S: red = (int32_t)x < (int32_t)red ? x : red; break;
            case RED_MAX_S: red = (int32_t)x > (int32_t)red ? x : red; break;
            case RED_AND: red &= x; break;
            case RED_OR: red |= x; break;
            case RED_XOR: red ^= x; break;
            }
        }
    }
    for (int i = 0; i < OPSDK_SIM_WARP; i++) {
        if (!(arrived >> i & 1)) continue;
        Lane &l = g_lanes[base + i];
        switch (g.kind) {
        case SHFL_IDX: case SHFL_UP: case SHFL_DOWN: case SHFL_XOR: {
            int j = shuffle_source(g.kind, i, l.arg, l.width);
            if (arrived >> j & 1) {
                l.result = sized(g_lanes[base + j].value, l.size);
            } else {
                l.result = poison_bits(l.size);
                if (g_result->undefined_reads++ == 0) {
                    char m[160];
                    lanes_text(m, sizeof m, arrived);
                    snprintf(g_result->note, sizeof g_result->note,
                             "%s at %s:%d: lane %d of warp %d in block (%u,%u,%u) read lane %d, which "
                             "is %s (lanes taking part: %s); a GPU returns an undefined value there",
                             kWarpNames[g.kind], g.file, g.line, i, w, blockIdx.x, blockIdx.y, blockIdx.z, j,
                             (g.mask >> j & 1) ? ((warp.exist >> j & 1) ? "in the mask but has exited"
                                                                        : "outside the block")
                                               : "not in the mask",
                             m);
                }
            }
            break;
        }
        case VOTE_ALL: l.result = all; break;
        case VOTE_ANY: l.result = any; break;
        case VOTE_UNI: l.result = all || !any; break;
        case VOTE_BALLOT: l.result = ballot; break;
        case MATCH_ANY: {
            uint64_t m = 0, mine = sized(l.value, l.size);
            for (int k = 0; k < OPSDK_SIM_WARP; k++)
                if ((arrived >> k & 1) && sized(g_lanes[base + k].value, l.size) == mine) m |= 1ull << k;
            l.result = m;
            break;
        }
        case MATCH_ALL: l.result = same ? arrived : 0; l.result_pred = same; break;
        case ACTIVEMASK: l.result = arrived; break;
        case SYNCWARP: l.result = 0; break;
        default: l.result = red; break;
        }
        if (base + i != current) make_ready(base + i);
        else l.state = READY;
    }
    g.used = 0;
    warp.sync_gen++;
}

static bool complete(int w, int gi) {
    Warp &warp = g_warps[w];
    Group &g = warp.groups[gi];
    if (g.kind == ACTIVEMASK) return false;  // resolved when the whole block is waiting
    unsigned needed = g.mask & warp.exist & ~warp.done;
    return (g.arrived & needed) == needed;
}

EXPORT uint64_t opsdk_sim_warp(int kind, unsigned mask, uint64_t value, int size, int arg, int width,
                               int *pred, const char *file, int line) {
    tick();
    int t = g_cur, w = t / OPSDK_SIM_WARP, lane = t % OPSDK_SIM_WARP;
    Warp &warp = g_warps[w];
    if (kind == ACTIVEMASK) mask = warp.exist;
    if (!(mask >> lane & 1))
        fail(OPSDK_ERR_WARP_CALLER, file, line,
             "%s(mask 0x%08x) called by lane %d of warp %d, which is not in its mask: every thread "
             "that calls it must be named in the mask (undefined on a GPU)",
             kWarpNames[kind], mask, lane, w);
    if (kind <= SHFL_XOR && (width < 1 || width > 32 || (width & (width - 1))))
        fail(OPSDK_ERR_WARP_WIDTH, file, line,
             "%s(..., width=%d) by lane %d of warp %d: width must be a power of two from 1 to 32",
             kWarpNames[kind], width, lane, w);
    int gi = -1, free_slot = -1;
    for (int i = 0; i < OPSDK_SIM_WARP; i++) {
        Group &g = warp.groups[i];
        if (!g.used) {
            if (free_slot < 0) free_slot = i;
            continue;
        }
        bool match = kind == ACTIVEMASK ? (g.kind == ACTIVEMASK && g.line == line && !strcmp(g.file, file))
                                        : (g.kind == kind && g.mask == mask);
        if (match) {
            gi = i;
            break;
        }
    }
    if (gi < 0) {
        gi = free_slot;
        Group &g = warp.groups[gi];
        g.used = 1, g.kind = kind, g.mask = mask, g.arrived = 0, g.file = file, g.line = line;
    }
    Lane &l = g_lanes[t];
    l.state = AT_WARP, l.group = gi, l.mask = mask, l.value = value, l.size = size, l.arg = arg;
    l.width = width, l.file = file, l.line = line, l.result_pred = 0;
    warp.groups[gi].arrived |= 1u << lane;
    if (complete(w, gi)) resolve(w, gi, t);
    else yield_to_scheduler();
    if (pred) *pred = l.result_pred;
    return l.result;
}

// ---------------------------------------------------------------------------------------------
// barriers and the scheduler

EXPORT int opsdk_sim_barrier(int mode, int pred, const char *file, int line) {
    tick();
    Lane &l = g_lanes[g_cur];
    l.state = AT_BARRIER, l.bar_mode = mode, l.pred = pred != 0, l.file = file, l.line = line;
    yield_to_scheduler();
    return (int)l.result;
}

static void lane_exit() {
    int t = g_cur, w = t / OPSDK_SIM_WARP;
    g_lanes[t].state = DONE;
    Warp &warp = g_warps[w];
    warp.done |= 1u << (t % OPSDK_SIM_WARP);
    for (int i = 0; i < OPSDK_SIM_WARP; i++)
        if (warp.groups[i].used && complete(w, i)) resolve(w, i, -1);
    yield_to_scheduler();
    fail(OPSDK_ERR_INTERNAL, nullptr, 0, "a finished thread was resumed");
}

static void where_is(char *buf, size_t cap, int t) {
    const Lane &l = g_lanes[t];
    if (l.state == DONE) snprintf(buf, cap, "has exited");
    else if (l.state == AT_BARRIER) snprintf(buf, cap, "waits at __syncthreads() at %s:%d", l.file, l.line);
    else if (l.state == AT_WARP)
        snprintf(buf, cap, "waits at %s(mask 0x%08x) at %s:%d", kWarpNames[g_warps[t / 32].groups[l.group].kind],
                 l.mask, l.file, l.line);
    else snprintf(buf, cap, "is running");
}

__attribute__((noreturn)) static void warp_deadlock(int w, int gi) {
    Warp &warp = g_warps[w];
    Group &g = warp.groups[gi];
    unsigned missing = g.mask & warp.exist & ~warp.done & ~g.arrived;
    char arrived[160], absent[160], where[256];
    lanes_text(arrived, sizeof arrived, g.arrived);
    lanes_text(absent, sizeof absent, missing);
    int first = -1;
    for (int i = 0; i < OPSDK_SIM_WARP; i++)
        if (missing >> i & 1) {
            first = w * OPSDK_SIM_WARP + i;
            break;
        }
    where[0] = 0;
    if (first >= 0) where_is(where, sizeof where, first);
    int lane0 = w * OPSDK_SIM_WARP + __builtin_ctz(g.arrived);
    g_cur = lane0;
    fail(OPSDK_ERR_WARP_DEADLOCK, g.file, g.line,
         "%s(mask 0x%08x) in warp %d is reached by lanes %s but not by lanes %s of its mask "
         "(lane %d %s): a shuffle or vote must be reached by every thread of its mask; a GPU hangs "
         "or returns garbage here",
         kWarpNames[g.kind], g.mask, w, arrived, absent, first % OPSDK_SIM_WARP, where);
}

static void release_barrier() {
    // every thread that has not exited waits at a barrier: all must have reached the same one
    int first_waiting = -1, exited_first = -1, exited_last = -1, exited = 0;
    for (int t = 0; t < g_threads; t++) {
        const Lane &l = g_lanes[t];
        if (l.state == DONE) {
            if (exited_first < 0) exited_first = t;
            exited_last = t;
            exited++;
        } else if (first_waiting < 0) {
            first_waiting = t;
        }
    }
    const Lane &a = g_lanes[first_waiting];
    if (exited) {
        char who[160];
        thread_text(who, sizeof who, exited_first, exited_last);
        g_cur = first_waiting;
        fail(OPSDK_ERR_BARRIER_EXITED, a.file, a.line,
             "__syncthreads() at %s:%d is reached by %d of the block's %d threads; %d exited without "
             "reaching it (%s%s): a barrier in code that not every thread of the block runs hangs or "
             "corrupts a GPU",
             a.file, a.line, g_threads - exited, g_threads, exited, who,
             exited_last - exited_first + 1 == exited ? "" : ", and others");
    }
    int count = 0;
    for (int t = 0; t < g_threads; t++) {
        const Lane &l = g_lanes[t];
        if (l.line != a.line || strcmp(l.file, a.file) || l.bar_mode != a.bar_mode) {
            int last = t;
            while (last + 1 < g_threads && g_lanes[last + 1].line == l.line && !strcmp(g_lanes[last + 1].file, l.file))
                last++;
            char one[160], two[160];
            thread_text(one, sizeof one, first_waiting, t - 1);
            thread_text(two, sizeof two, t, last);
            g_cur = t;
            fail(OPSDK_ERR_BARRIER_SITES, l.file, l.line,
                 "the threads of the block wait at different barriers: %s at %s:%d, %s at %s:%d "
                 "(a __syncthreads() in divergent code)",
                 one, a.file, a.line, two, l.file, l.line);
        }
        count += l.pred;
    }
    uint64_t result = a.bar_mode == 1 ? count : a.bar_mode == 2 ? (count == g_threads) : a.bar_mode == 3 ? (count > 0) : 0;
    g_epoch++;
    for (int t = 0; t < g_threads; t++) {
        g_lanes[t].result = result;
        make_ready(t);
    }
}

static void run_block() {
    g_qhead = g_qtail = 0;
    for (int t = 0; t < g_threads; t++) {
        Lane &l = g_lanes[t];
        fiber_init(l);
        make_ready(t);
    }
    for (;;) {
        while (g_qhead != g_qtail) {
            int t = g_queue[g_qhead];
            g_qhead = (g_qhead + 1) % (OPSDK_SIM_MAX_THREADS + 1);
            if (g_lanes[t].state == READY) resume(t);
        }
        // nobody can run: everyone has exited, or waits at a barrier or warp collective
        bool progress = false, at_warp = false, at_barrier = false;
        int warps = (g_threads + OPSDK_SIM_WARP - 1) / OPSDK_SIM_WARP;
        for (int w = 0; w < warps; w++)
            for (int i = 0; i < OPSDK_SIM_WARP; i++) {
                Group &g = g_warps[w].groups[i];
                if (g.used && g.kind == ACTIVEMASK) {
                    resolve(w, i, -1);
                    progress = true;
                }
            }
        if (progress) continue;
        for (int t = 0; t < g_threads; t++) {
            at_warp = at_warp || g_lanes[t].state == AT_WARP;
            at_barrier = at_barrier || g_lanes[t].state == AT_BARRIER;
        }
        if (at_warp) {
            for (int w = 0; w < warps; w++)
                for (int i = 0; i < OPSDK_SIM_WARP; i++)
                    if (g_warps[w].groups[i].used) warp_deadlock(w, i);
        }
        if (!at_barrier) return;  // every thread has exited
        release_barrier();
    }
}

// ---------------------------------------------------------------------------------------------
// shared memory: the arena, static slots, poison and shadow

static void poison(unsigned char *p, size_t n, uint32_t word) {
    for (size_t i = 0; i < n; i++) p[i] = (unsigned char)(word >> (8 * (((uintptr_t)(p + i)) & 3)));
}

static const uint32_t kSharedPoison = 0x7FF37FF3u;
static const uint32_t kEmptyPoison = 0x7FF57FF5u;
static const uint32_t kCanary = 0x7FF97FF9u;

static bool ensure_arena() {
    if (g_arena) return true;
    size_t total = OPSDK_SIM_MAX_DYNAMIC_SHARED + kStaticShared;
    void *p = mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) return false;
    void *s = mmap(nullptr, total * sizeof(Shadow), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (s == MAP_FAILED) return false;
    void *z = mmap(nullptr, kStaticShared, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (z == MAP_FAILED) return false;
    g_arena = (unsigned char *)p;
    g_shadow = (Shadow *)s;
    g_zone = (unsigned char *)z;
    opsdk_sim_dynamic_shared = g_arena;
    return true;
}

__attribute__((constructor)) static void init_runtime() { ensure_arena(); }

// storage for one static __shared__ variable (one per declaration and template instantiation)
EXPORT void *opsdk_sim_shared_slot(size_t size, size_t align, const char *name, const char *file, int line) {
    if (align < 16) align = 16;
    size_t at = (g_static_used + kRedzone + align - 1) / align * align;
    if (at + size + kRedzone > kStaticShared) {
        fprintf(stderr, "opsdk CUDA simulator: static __shared__ memory exhausted (%zu bytes)\n", kStaticShared);
        abort();
    }
    g_slots.push_back(Slot{at, size, name, file, line});
    memset(&g_zone[at], 1, size);
    g_static_used = at + size + kRedzone;
    unsigned char *p = g_arena + OPSDK_SIM_MAX_DYNAMIC_SHARED + at;
    poison(p, size, kSharedPoison);
    return p;
}

static const Slot *slot_near(size_t off) {
    const Slot *best = nullptr;
    size_t dist = (size_t)-1;
    for (const Slot &s : g_slots) {
        size_t d = off < s.offset ? s.offset - off : off >= s.offset + s.size ? off - (s.offset + s.size) + 1 : 0;
        if (d < dist) dist = d, best = &s;
    }
    return best;
}

__attribute__((noreturn)) static void shared_oob(uintptr_t a, size_t n, bool write) {
    size_t off = a - (uintptr_t)g_arena;
    g_result->address = a, g_result->size = (int)n, g_result->is_write = write;
    if (off < OPSDK_SIM_MAX_DYNAMIC_SHARED)
        fail(OPSDK_ERR_OOB_SHARED, nullptr, 0,
             "%s of %zu bytes at byte %zu of dynamic shared memory, beyond the %zu bytes launched "
             "(shared_mem=)",
             write ? "write" : "read", n, off, g_dyn_bytes);
    off -= OPSDK_SIM_MAX_DYNAMIC_SHARED;
    const Slot *s = slot_near(off);
    if (!s) fail(OPSDK_ERR_OOB_SHARED, nullptr, 0, "%s outside every __shared__ variable", write ? "write" : "read");
    long long rel = (long long)off - (long long)s->offset;
    fail(OPSDK_ERR_OOB_SHARED, nullptr, 0,
         "%s of %zu bytes at byte %lld of __shared__ '%s' (%s:%d), which has %zu bytes: out of bounds",
         write ? "write" : "read", n, rel, s->name, s->file, s->line, s->size);
}

static void describe_shared(char *buf, size_t cap, uintptr_t a) {
    size_t off = a - (uintptr_t)g_arena;
    if (off < OPSDK_SIM_MAX_DYNAMIC_SHARED) {
        snprintf(buf, cap, "byte %zu of dynamic shared memory", off);
        return;
    }
    off -= OPSDK_SIM_MAX_DYNAMIC_SHARED;
    const Slot *s = slot_near(off);
    if (s) snprintf(buf, cap, "byte %zu of __shared__ '%s' (%s:%d)", off - s->offset, s->name, s->file, s->line);
    else snprintf(buf, cap, "shared memory");
}

static bool same_warp_synced(uint16_t other, uint16_t sync) {
    int t = g_cur;
    return other / OPSDK_SIM_WARP == t / OPSDK_SIM_WARP && g_warps[t / OPSDK_SIM_WARP].sync_gen != sync;
}

static void shared_access(uintptr_t a, size_t n, bool reads, bool write, bool atomic) {
    size_t off = a - (uintptr_t)g_arena;
    for (size_t i = 0; i < n; i++) {
        size_t o = off + i;
        bool inside = o < OPSDK_SIM_MAX_DYNAMIC_SHARED ? o < g_dyn_bytes
                                                       : (o - OPSDK_SIM_MAX_DYNAMIC_SHARED < kStaticShared &&
                                                          g_zone[o - OPSDK_SIM_MAX_DYNAMIC_SHARED]);
        if (!inside) shared_oob(a, n, write && !reads);
    }
    uint16_t t = (uint16_t)g_cur;
    uint16_t sync = g_warps[g_cur / OPSDK_SIM_WARP].sync_gen;
    for (size_t i = 0; i < n; i++) {
        Shadow &s = g_shadow[off + i];
        if (reads) {
            if (s.w_epoch < g_block_epoch) {
                char what[256];
                describe_shared(what, sizeof what, a);
                g_result->address = a, g_result->size = (int)n, g_result->is_write = 0;
                fail(OPSDK_ERR_UNINIT_SHARED, nullptr, 0,
                     "read of %zu bytes at %s, which no thread of this block has written: shared "
                     "memory starts undefined in every block (a missing initialisation, or a read "
                     "before the __syncthreads() that follows the write)",
                     n, what);
            }
            if (g_spec->check_races && !atomic && s.w_epoch == g_epoch && s.writer != t &&
                !same_warp_synced(s.writer, s.w_sync)) {
                char what[256];
                describe_shared(what, sizeof what, a);
                const Lane &o = g_lanes[s.writer];
                g_result->address = a, g_result->size = (int)n, g_result->is_write = 0;
                fail(OPSDK_ERR_RACE_RAW, nullptr, 0,
                     "read of %s, which thread (%u,%u,%u) wrote since the last __syncthreads(): "
                     "a data race (on a GPU the read may see the old or the new value); put a "
                     "__syncthreads() between the write and the read",
                     what, o.tid.x, o.tid.y, o.tid.z);
            }
            if (!atomic) {
                if (s.r_epoch != g_epoch) s.r_epoch = g_epoch, s.reader = t, s.r_sync = sync;
                else if (s.reader != t) s.reader = kManyReaders;
            }
        }
        if (write) {
            if (g_spec->check_races && !atomic && s.r_epoch == g_epoch && s.reader != t &&
                !(s.reader != kManyReaders && same_warp_synced(s.reader, s.r_sync))) {
                char what[256], who[64];
                describe_shared(what, sizeof what, a);
                if (s.reader == kManyReaders) snprintf(who, sizeof who, "other threads");
                else {
                    const Lane &o = g_lanes[s.reader];
                    snprintf(who, sizeof who, "thread (%u,%u,%u)", o.tid.x, o.tid.y, o.tid.z);
                }
                g_result->address = a, g_result->size = (int)n, g_result->is_write = 1;
                fail(OPSDK_ERR_RACE_WAR, nullptr, 0,
                     "write of %s, which %s read since the last __syncthreads(): a data race (on a "
                     "GPU the reader may see the new value); put a __syncthreads() between the read "
                     "and the write",
                     what, who);
            }
            s.w_epoch = g_epoch, s.writer = t, s.w_sync = sync;
        }
    }
}

// ---------------------------------------------------------------------------------------------
// device allocations: data flush against a guard region, slack filled with canaries

static uint64_t page_hash(uint64_t page) { return (page * 0x9E3779B97F4A7C15ull) >> 17; }

static void pages_insert(uint64_t page, uintptr_t lo, uintptr_t hi);

static void pages_grow() {
    std::vector<Page> old;
    old.swap(g_pages);
    g_pages.assign(old.empty() ? 1024 : old.size() * 2, Page{0, 0, 0, 0});
    g_pages_used = 0;
    for (const Page &p : old)
        if (p.used == 1) pages_insert(p.page, p.lo, p.hi);
}

static void pages_insert(uint64_t page, uintptr_t lo, uintptr_t hi) {
    if ((g_pages_used + 1) * 2 > g_pages.size()) pages_grow();
    size_t mask = g_pages.size() - 1;
    for (size_t i = page_hash(page) & mask;; i = (i + 1) & mask) {
        Page &p = g_pages[i];
        if (p.used != 1) {
            p = Page{page, lo, hi, 1};
            g_pages_used++;
            return;
        }
    }
}

static Page *pages_find(uint64_t page) {
    if (g_pages.empty()) return nullptr;
    size_t mask = g_pages.size() - 1;
    for (size_t i = page_hash(page) & mask;; i = (i + 1) & mask) {
        Page &p = g_pages[i];
        if (p.used == 0) return nullptr;
        if (p.used == 1 && p.page == page) return &p;
    }
}

static void pages_erase(uint64_t page, uintptr_t lo) {
    for (;;) {  // a page may hold the tail of one allocation only, but be safe
        Page *p = pages_find(page);
        if (!p || p->lo != lo) return;
        p->used = 2;
        g_pages_used--;
    }
}

EXPORT void *opsdk_sim_alloc(uint64_t nbytes, uint64_t align, uint64_t *reserve_lo, uint64_t *reserve_hi) {
    if (align < 1) align = 1;
    size_t rw = (nbytes + align + kPage - 1) / kPage * kPage;
    if (rw == 0) rw = kPage;
    size_t total = kGuard + rw + kGuard;
    void *m = mmap(nullptr, total, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED) return nullptr;
    char *map = (char *)m;
    if (mprotect(map + kGuard, rw, PROT_READ | PROT_WRITE) != 0) {
        munmap(map, total);
        return nullptr;
    }
    uintptr_t rw_lo = (uintptr_t)map + kGuard, rw_hi = rw_lo + rw;
    uintptr_t data = (rw_hi - nbytes) / align * align;
    poison((unsigned char *)rw_lo, data - rw_lo, kCanary);
    poison((unsigned char *)(data + nbytes), rw_hi - (data + nbytes), kCanary);
    pages_insert(data / kPage, data, data + nbytes);
    if ((data + nbytes - 1) / kPage != data / kPage && nbytes) pages_insert((data + nbytes - 1) / kPage, data, data + nbytes);
    g_allocations.push_back(Allocation{data, (size_t)nbytes, map, total, rw_lo, rw_hi});
    *reserve_lo = (uintptr_t)map;
    *reserve_hi = (uintptr_t)map + total;
    return (void *)data;
}

static Allocation *find_allocation(uintptr_t data) {
    for (size_t i = g_allocations.size(); i-- > 0;)
        if (g_allocations[i].data == data) return &g_allocations[i];
    return nullptr;
}

EXPORT void opsdk_sim_free(void *ptr) {
    Allocation *a = find_allocation((uintptr_t)ptr);
    if (!a) return;
    pages_erase(a->data / kPage, a->data);
    if (a->nbytes) pages_erase((a->data + a->nbytes - 1) / kPage, a->data);
    munmap(a->map, a->map_bytes);
    *a = g_allocations.back();
    g_allocations.pop_back();
}

// -1 when the canaries around an allocation are intact, else the offset (from the data) of the
// first byte written outside it
EXPORT int64_t opsdk_sim_check_canaries(void *ptr) {
    Allocation *a = find_allocation((uintptr_t)ptr);
    if (!a) return -1;
    for (uintptr_t p = a->rw_lo; p < a->data; p++)
        if (*(unsigned char *)p != (unsigned char)(kCanary >> (8 * (p & 3)))) return (int64_t)(p - a->data);
    for (uintptr_t p = a->data + a->nbytes; p < a->rw_hi; p++)
        if (*(unsigned char *)p != (unsigned char)(kCanary >> (8 * (p & 3)))) return (int64_t)(p - a->data);
    return -1;
}

EXPORT void opsdk_sim_fill_uninitialised(void *ptr, uint64_t nbytes) {
    poison((unsigned char *)ptr, nbytes, kEmptyPoison);
}

// ---------------------------------------------------------------------------------------------
// the access hooks of kernel modules: gcc/clang -fsanitize=thread makes every load and store of
// a kernel call __tsan_read/__tsan_write (no runtime library is linked: these are the runtime)

__attribute__((noreturn)) static void global_oob(uintptr_t a, size_t n, bool write, const Page *p) {
    g_result->address = a, g_result->size = (int)n, g_result->is_write = write;
    fail(OPSDK_ERR_OOB_GLOBAL, nullptr, 0, "%s of %zu bytes at an address %s a device allocation",
         write ? "write" : "read", n, a < p->lo ? "before" : "after");
}

static inline void check_access(uintptr_t a, size_t n, bool reads, bool writes, bool atomic) {
    if (!g_in_kernel || !n) return;
    if (a - (uintptr_t)g_arena < OPSDK_SIM_MAX_DYNAMIC_SHARED + g_static_used) {
        shared_access(a, n, reads, writes, atomic);
        return;
    }
    if (g_pages_used) {
        const Page *p = pages_find(a / kPage);
        if (p && (a < p->lo || a + n > p->hi)) global_oob(a, n, writes && !reads, p);
        if (!p && (a + n - 1) / kPage != a / kPage) {
            p = pages_find((a + n - 1) / kPage);
            if (p && (a < p->lo || a + n > p->hi)) global_oob(a, n, writes && !reads, p);
        }
    }
    if ((++g_ticks & 0xFFFFF) == 0 && g_deadline > 0 && now_s() > g_deadline) tick();
}

#define SIM_HOOKS(N)                                                                                    \
    EXPORT void __tsan_read##N(void *a) { check_access((uintptr_t)a, N, true, false, false); }          \
    EXPORT void __tsan_write##N(void *a) { check_access((uintptr_t)a, N, false, true, false); }         \
    EXPORT void __tsan_unaligned_read##N(void *a) { check_access((uintptr_t)a, N, true, false, false); } \
    EXPORT void __tsan_unaligned_write##N(void *a) { check_access((uintptr_t)a, N, false, true, false); } \
    EXPORT void __tsan_volatile_read##N(void *a) { check_access((uintptr_t)a, N, true, false, false); }  \
    EXPORT void __tsan_volatile_write##N(void *a) { check_access((uintptr_t)a, N, false, true, false); }
SIM_HOOKS(1)
SIM_HOOKS(2)
SIM_HOOKS(4)
SIM_HOOKS(8)
SIM_HOOKS(16)
EXPORT void __tsan_read_range(void *a, size_t n) { check_access((uintptr_t)a, n, true, false, false); }
EXPORT void __tsan_write_range(void *a, size_t n) { check_access((uintptr_t)a, n, false, true, false); }
EXPORT void *__tsan_memcpy(void *d, const void *s, size_t n) {
    check_access((uintptr_t)s, n, true, false, false);
    check_access((uintptr_t)d, n, false, true, false);
    return memcpy(d, s, n);
}
EXPORT void *__tsan_memmove(void *d, const void *s, size_t n) {
    check_access((uintptr_t)s, n, true, false, false);
    check_access((uintptr_t)d, n, false, true, false);
    return memmove(d, s, n);
}
EXPORT void *__tsan_memset(void *d, int c, size_t n) {
    check_access((uintptr_t)d, n, false, true, false);
    return memset(d, c, n);
}
EXPORT void __tsan_init() {}
EXPORT void __tsan_func_entry(void *) {}
EXPORT void __tsan_func_exit() {}
EXPORT void __tsan_vptr_update(void **p, void *) { check_access((uintptr_t)p, sizeof(void *), false, true, false); }
EXPORT void __tsan_vptr_read(void **p) { check_access((uintptr_t)p, sizeof(void *), true, false, false); }
EXPORT void __tsan_atomic_thread_fence(int) {}
EXPORT void __tsan_atomic_signal_fence(int) {}

// C/C++ atomics inside kernel code (static-local guards, user __atomic builtins)
#define SIM_TSAN_ATOMICS(N, T)                                                                          \
    EXPORT T __tsan_atomic##N##_load(const volatile T *a, int) {                                         \
        check_access((uintptr_t)a, sizeof(T), true, false, true);                                        \
        return __atomic_load_n(a, __ATOMIC_SEQ_CST);                                                     \
    }                                                                                                    \
    EXPORT void __tsan_atomic##N##_store(volatile T *a, T v, int) {                                      \
        check_access((uintptr_t)a, sizeof(T), false, true, true);                                        \
        __atomic_store_n(a, v, __ATOMIC_SEQ_CST);                                                        \
    }                                                                                                    \
    EXPORT T __tsan_atomic##N##_exchange(volatile T *a, T v, int) {                                      \
        check_access((uintptr_t)a, sizeof(T), true, true, true);                                         \
        return __atomic_exchange_n(a, v, __ATOMIC_SEQ_CST);                                              \
    }                                                                                                    \
    EXPORT T __tsan_atomic##N##_fetch_add(volatile T *a, T v, int) {                                     \
        check_access((uintptr_t)a, sizeof(T), true, true, true);                                         \
        return __atomic_fetch_add(a, v, __ATOMIC_SEQ_CST);                                               \
    }                                                                                                    \
    EXPORT T __tsan_atomic##N##_fetch_sub(volatile T *a, T v, int) {                                     \
        check_access((uintptr_t)a, sizeof(T), true, true, true);                                         \
        return __atomic_fetch_sub(a, v, __ATOMIC_SEQ_CST);                                               \
    }                                                                                                    \
    EXPORT T __tsan_atomic##N##_fetch_and(volatile T *a, T v, int) {                                     \
        check_access((uintptr_t)a, sizeof(T), true, true, true);                                         \
        return __atomic_fetch_and(a, v, __ATOMIC_SEQ_CST);                                               \
    }                                                                                                    \
    EXPORT T __tsan_atomic##N##_fetch_or(volatile T *a, T v, int) {                                      \
        check_access((uintptr_t)a, sizeof(T), true, true, true);                                         \
        return __atomic_fetch_or(a, v, __ATOMIC_SEQ_CST);                                                \
    }                                                                                                    \
    EXPORT T __tsan_atomic##N##_fetch_xor(volatile T *a, T v, int) {                                     \
        check_access((uintptr_t)a, sizeof(T), true, true, true);                                         \
        return __atomic_fetch_xor(a, v, __ATOMIC_SEQ_CST);                                               \
    }                                                                                                    \
    EXPORT T __tsan_atomic##N##_fetch_nand(volatile T *a, T v, int) {                                    \
        check_access((uintptr_t)a, sizeof(T), true, true, true);                                         \
        return __atomic_fetch_nand(a, v, __ATOMIC_SEQ_CST);                                              \
    }                                                                                                    \
    EXPORT int __tsan_atomic##N##_compare_exchange_strong(volatile T *a, T *c, T v, int, int) {          \
        check_access((uintptr_t)a, sizeof(T), true, true, true);                                         \
        return __atomic_compare_exchange_n(a, c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);          \
    }                                                                                                    \
    EXPORT int __tsan_atomic##N##_compare_exchange_weak(volatile T *a, T *c, T v, int, int) {            \
        check_access((uintptr_t)a, sizeof(T), true, true, true);                                         \
        return __atomic_compare_exchange_n(a, c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);          \
    }                                                                                                    \
    EXPORT T __tsan_atomic##N##_compare_exchange_val(volatile T *a, T c, T v, int, int) {                \
        check_access((uintptr_t)a, sizeof(T), true, true, true);                                         \
        __atomic_compare_exchange_n(a, &c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);                \
        return c;                                                                                        \
    }
SIM_TSAN_ATOMICS(8, uint8_t)
SIM_TSAN_ATOMICS(16, uint16_t)
SIM_TSAN_ATOMICS(32, uint32_t)
SIM_TSAN_ATOMICS(64, uint64_t)

// ---------------------------------------------------------------------------------------------
// atomics (read-modify-write; fibers never run at the same time, so this is atomic)

template <class T> static T rmw(int op, T *p, T v, T cmp) {
    T old = *p;
    switch (op) {
    case 0: *p = old + v; break;                               // add
    case 1: *p = old - v; break;                               // sub
    case 2: *p = v; break;                                     // exch
    case 3: *p = v < old ? v : old; break;                     // min
    case 4: *p = v > old ? v : old; break;                     // max
    case 5: if (old == cmp) *p = v; break;                     // cas
    default: break;
    }
    return old;
}

template <class T> static T rmw_bits(int op, T *p, T v) {
    T old = *p;
    switch (op) {
    case 6: *p = old & v; break;
    case 7: *p = old | v; break;
    case 8: *p = old ^ v; break;
    case 9: *p = old >= v ? 0 : old + 1; break;                // inc
    case 10: *p = (old == 0 || old > v) ? v : old - 1; break;  // dec
    default: break;
    }
    return old;
}

// kind: 1 float (size 4/8), 2 signed, 3 unsigned; values travel as raw bits
EXPORT uint64_t opsdk_sim_atomic(int op, void *ptr, int size, int kind, uint64_t value, uint64_t compare) {
    tick();
    check_access((uintptr_t)ptr, size, true, op != 11, true);
    uint64_t out = 0;
    if (kind == OPSDK_KIND_FLOAT && size == 4) {
        float v, c, r;
        uint32_t b = (uint32_t)value, cb = (uint32_t)compare;
        memcpy(&v, &b, 4), memcpy(&c, &cb, 4);
        if (op == 5) {  // CAS on floats compares bits
            uint32_t old = *(uint32_t *)ptr;
            if (old == cb) *(uint32_t *)ptr = b;
            return old;
        }
        r = rmw<float>(op, (float *)ptr, v, c);
        memcpy(&b, &r, 4);
        out = b;
    } else if (kind == OPSDK_KIND_FLOAT && size == 8) {
        double v, c, r;
        memcpy(&v, &value, 8), memcpy(&c, &compare, 8);
        if (op == 5) {
            uint64_t old = *(uint64_t *)ptr;
            if (old == compare) *(uint64_t *)ptr = value;
            return old;
        }
        r = rmw<double>(op, (double *)ptr, v, c);
        memcpy(&out, &r, 8);
    } else if (kind == OPSDK_KIND_FLOAT && size == 2) {
        // __half / __nv_bfloat16 atomicAdd: the header does the arithmetic, we only swap bits
        uint16_t old = *(uint16_t *)ptr;
        if (op == 2 || (op == 5 && old == (uint16_t)compare)) *(uint16_t *)ptr = (uint16_t)value;
        out = old;
    } else if (op >= 6) {
        if (size == 4) out = rmw_bits<uint32_t>(op, (uint32_t *)ptr, (uint32_t)value);
        else out = rmw_bits<uint64_t>(op, (uint64_t *)ptr, value);
    } else if (kind == OPSDK_KIND_SINT) {
        if (size == 4) out = (uint32_t)rmw<int32_t>(op, (int32_t *)ptr, (int32_t)value, (int32_t)compare);
        else out = (uint64_t)rmw<int64_t>(op, (int64_t *)ptr, (int64_t)value, (int64_t)compare);
    } else {
        if (size == 2) out = rmw<uint16_t>(op, (uint16_t *)ptr, (uint16_t)value, (uint16_t)compare);
        else if (size == 4) out = rmw<uint32_t>(op, (uint32_t *)ptr, (uint32_t)value, (uint32_t)compare);
        else out = rmw<uint64_t>(op, (uint64_t *)ptr, value, compare);
    }
    return out;
}

// ---------------------------------------------------------------------------------------------
// arithmetic with a rounding mode other than to-nearest (__fadd_rz, __fdiv_ru, ...)

static int fe_mode(int rnd) {
    switch (rnd) {
    case 1: return FE_TOWARDZERO;
    case 2: return FE_UPWARD;
    case 3: return FE_DOWNWARD;
    default: return FE_TONEAREST;
    }
}

// op: 0 add 1 sub 2 mul 3 div 4 fma 5 sqrt 6 rcp
EXPORT float opsdk_sim_fround(int op, int rnd, float a, float b, float c) {
    int saved = fegetround();
    fesetround(fe_mode(rnd));
    volatile float x = a, y = b, z = c;
    float r;
    switch (op) {
    case 0: r = x + y; break;
    case 1: r = x - y; break;
    case 2: r = x * y; break;
    case 3: r = x / y; break;
    case 4: r = fmaf(x, y, z); break;
    case 5: r = sqrtf(x); break;
    default: r = 1.0f / x; break;
    }
    volatile float out = r;
    fesetround(saved);
    return out;
}

EXPORT double opsdk_sim_dround(int op, int rnd, double a, double b, double c) {
    int saved = fegetround();
    fesetround(fe_mode(rnd));
    volatile double x = a, y = b, z = c;
    double r;
    switch (op) {
    case 0: r = x + y; break;
    case 1: r = x - y; break;
    case 2: r = x * y; break;
    case 3: r = x / y; break;
    case 4: r = fma(x, y, z); break;
    case 5: r = sqrt(x); break;
    default: r = 1.0 / x; break;
    }
    volatile double out = r;
    fesetround(saved);
    return out;
}

// ---------------------------------------------------------------------------------------------
// traps, clock

EXPORT void opsdk_sim_trap(const char *what, const char *file, int line) {
    fail(OPSDK_ERR_TRAP, file, line, "%s", what);
}

EXPORT long long opsdk_sim_clock() {
    tick();
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

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
    opsdk_sim_result *r = g_result;
    uintptr_t a = (uintptr_t)info->si_addr;
    int status = OPSDK_ERR_FAULT;
    const char *what = "";
    if (sig == SIGFPE) status = OPSDK_ERR_FPE, what = "an integer division by zero (or INT_MIN / -1)";
    else if (sig == SIGILL) status = OPSDK_ERR_ILLEGAL, what = "an illegal instruction";
    else if (sig == SIGABRT) status = OPSDK_ERR_TRAP, what = "abort() (a failed assert of <assert.h>?)";
    else if (g_cur >= 0 && g_stacks && a >= (uintptr_t)g_lanes[g_cur].stack_lo - kPage &&
             a < (uintptr_t)g_lanes[g_cur].stack_lo)
        status = OPSDK_ERR_STACK, what = "the thread overflowed its stack";
    r->address = a;
    r->is_write = -1;
#if defined(__x86_64__) && defined(__linux__)
    ucontext_t *uc = (ucontext_t *)uc_;
    if (sig == SIGSEGV) r->is_write = (uc->uc_mcontext.gregs[REG_ERR] & 2) ? 1 : 0;
#else
    (void)uc_;
#endif
    if (r->status == OPSDK_OK) {
        r->status = status;
        record_position(r);
        snprintf(r->message, sizeof r->message, "%s", what);
    }
    siglongjmp(g_abort, 1);
}

static void install_handlers() {
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

static void restore_handlers() {
    for (int i = 0; i < SIM_SIGNALS; i++) sigaction(kSignals[i], &g_old[i], nullptr);
}

// ---------------------------------------------------------------------------------------------

EXPORT int opsdk_sim_abi() { return OPSDK_SIM_ABI; }

EXPORT const char *opsdk_sim_switch_kind() { return SIM_ASM_SWITCH ? "assembly" : "ucontext"; }

EXPORT int opsdk_sim_run(const opsdk_sim_launch *spec, opsdk_sim_result *result) {
    memset(result, 0, sizeof *result);
    if (!ensure_arena()) {
        result->status = OPSDK_ERR_INTERNAL;
        snprintf(result->message, sizeof result->message, "cannot map the shared memory arena");
        return result->status;
    }
    int threads = (int)(spec->block[0] * spec->block[1] * spec->block[2]);
    ensure_stacks(threads, spec->stack_bytes);
    if (!g_stacks) {
        result->status = OPSDK_ERR_INTERNAL;
        snprintf(result->message, sizeof result->message, "cannot map the thread stacks");
        return result->status;
    }
    g_spec = spec;
    g_result = result;
    g_threads = threads;
    g_cur = -1;
    g_dyn_bytes = spec->dynamic_shared;
    g_deadline = spec->timeout_s > 0 ? now_s() + spec->timeout_s : 0;
    blockDim = dim3(spec->block[0], spec->block[1], spec->block[2]);
    gridDim = dim3(spec->grid[0], spec->grid[1], spec->grid[2]);
    for (int t = 0; t < threads; t++) {
        Lane &l = g_lanes[t];
        l.tid.x = t % spec->block[0];
        l.tid.y = (t / spec->block[0]) % spec->block[1];
        l.tid.z = t / (spec->block[0] * spec->block[1]);
    }
    int warps = (threads + OPSDK_SIM_WARP - 1) / OPSDK_SIM_WARP;
    fenv_t env;
    fegetenv(&env);
    g_launch_thread = pthread_self();
    install_handlers();
    if (sigsetjmp(g_abort, 1) == 0) {
        g_in_kernel = 1;
        for (unsigned bz = 0; bz < spec->grid[2]; bz++)
            for (unsigned by = 0; by < spec->grid[1]; by++)
                for (unsigned bx = 0; bx < spec->grid[0]; bx++) {
                    blockIdx.x = bx, blockIdx.y = by, blockIdx.z = bz;
                    g_block_epoch = ++g_epoch;
                    poison(g_arena, g_dyn_bytes, kSharedPoison);
                    for (const Slot &s : g_slots)
                        poison(g_arena + OPSDK_SIM_MAX_DYNAMIC_SHARED + s.offset, s.size, kSharedPoison);
                    for (int w = 0; w < warps; w++) {
                        Warp &warp = g_warps[w];
                        memset(warp.groups, 0, sizeof warp.groups);
                        int n = threads - w * OPSDK_SIM_WARP;
                        warp.exist = n >= OPSDK_SIM_WARP ? 0xFFFFFFFFu : ((1u << n) - 1);
                        warp.done = 0;
                    }
                    run_block();
                }
    }
    g_in_kernel = 0;
    restore_handlers();
    fesetenv(&env);
    g_cur = -1;
    fflush(stdout);
    return result->status;
}
