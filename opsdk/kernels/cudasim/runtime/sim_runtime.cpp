// The CUDA simulator's runtime: runs a kernel's blocks one after another, the threads of a block
// as cooperative fibers released at barriers and warp collectives, and reports what a GPU would
// fault or hang on (out-of-bounds accesses, shared memory read before any write, barriers and
// shuffles not reached by every thread that must reach them) instead of crashing or hanging.
//
// Built once per machine by cudasim/build.py (never instrumented itself); kernel modules are
// compiled with -fsanitize=thread and call the __tsan_* hooks (sim_memory.cpp) on every access.
// This file: the built-in variables, the launch's state, errors, traps and the launch itself.
#include "sim_internal.h"

#include <fenv.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

// -- the built-in variables kernels read (the scheduler sets them before resuming a thread) ----
extern "C" {
__attribute__((visibility("default"))) uint3 threadIdx = {0, 0, 0};
__attribute__((visibility("default"))) uint3 blockIdx = {0, 0, 0};
__attribute__((visibility("default"))) dim3 blockDim(1, 1, 1);
__attribute__((visibility("default"))) dim3 gridDim(1, 1, 1);
__attribute__((visibility("default"))) unsigned char *opsdk_sim_dynamic_shared = nullptr;
}

// -- state of the launch in progress (launches are serialised by the Python side) ----------------
const opsdk_sim_launch *g_spec;
opsdk_sim_result *g_result;
sigjmp_buf g_abort;
volatile sig_atomic_t g_in_kernel;
pthread_t g_launch_thread;
Lane g_lanes[OPSDK_SIM_MAX_THREADS];
Warp g_warps[OPSDK_SIM_MAX_THREADS / OPSDK_SIM_WARP];
int g_threads, g_cur;
void *g_sched_sp;
#if !SIM_ASM_SWITCH
ucontext_t g_sched_uc;
#endif
int g_queue[OPSDK_SIM_MAX_THREADS + 1];
int g_order[OPSDK_SIM_MAX_THREADS];
int g_qhead, g_qtail;
uint32_t g_epoch = 1, g_block_epoch = 1;
uint32_t g_ticks;
double g_deadline;

// fiber stacks, kept across launches
char *g_stacks;
size_t g_stack_bytes, g_stack_count;

// shared memory: [dynamic region | static slots], one arena for the process
unsigned char *g_arena;
size_t g_static_used;
std::vector<Slot> g_slots;
unsigned char *g_zone;
Shadow *g_shadow;
size_t g_dyn_bytes;

// device allocations
std::vector<Page> g_pages;
size_t g_pages_used;
std::vector<Allocation> g_allocations;

double now_s() {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

// ---------------------------------------------------------------------------------------------
// errors: record what happened and abandon the launch (the fibers' stacks are simply dropped)

void record_position(opsdk_sim_result *r) {
    r->block[0] = blockIdx.x, r->block[1] = blockIdx.y, r->block[2] = blockIdx.z;
    if (g_cur >= 0) {
        Lane &l = g_lanes[g_cur];
        r->thread[0] = l.tid.x, r->thread[1] = l.tid.y, r->thread[2] = l.tid.z;
    }
}

__attribute__((noreturn, format(printf, 4, 5))) void fail(int status, const char *file, int line,
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

void append(char *buf, size_t cap, const char *fmt, ...) {
    size_t n = strlen(buf);
    if (n + 1 >= cap) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + n, cap - n, fmt, ap);
    va_end(ap);
}

// "0-15, 17" for a lane mask
void lanes_text(char *buf, size_t cap, unsigned mask) {
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
void thread_text(char *buf, size_t cap, int first, int last) {
    const Lane &a = g_lanes[first], &b = g_lanes[last];
    if (first == last)
        snprintf(buf, cap, "thread (%u,%u,%u)", a.tid.x, a.tid.y, a.tid.z);
    else
        snprintf(buf, cap, "threads (%u,%u,%u)-(%u,%u,%u)", a.tid.x, a.tid.y, a.tid.z, b.tid.x, b.tid.y,
                 b.tid.z);
}

void tick() {
    if ((++g_ticks & 0x3FFFF) == 0 && g_deadline > 0 && now_s() > g_deadline)
        fail(OPSDK_ERR_TIMEOUT, nullptr, 0,
             "the kernel ran longer than %.0f s (an endless loop? a thread waiting for another "
             "block, which the simulator runs later?)",
             g_spec->timeout_s);
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

EXPORT int opsdk_sim_abi() { return OPSDK_SIM_ABI; }

EXPORT const char *opsdk_sim_switch_kind() { return SIM_ASM_SWITCH ? "assembly" : "ucontext"; }

static uint64_t splitmix(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint64_t gcd(uint64_t a, uint64_t b) {
    while (b) {
        uint64_t t = a % b;
        a = b, b = t;
    }
    return a;
}

// the order a block's threads start in and leave barriers in: a schedule other than "in order"
// changes which thread runs first, so results that depend on it (races in global memory, which
// the shadow does not see) change too
static void thread_order(const opsdk_sim_launch *spec, int threads, uint64_t *rng) {
    for (int t = 0; t < threads; t++) g_order[t] = spec->schedule == 1 ? threads - 1 - t : t;
    if (spec->schedule == 2)
        for (int t = threads - 1; t > 0; t--) {
            int j = (int)(splitmix(rng) % (uint64_t)(t + 1));
            int tmp = g_order[t];
            g_order[t] = g_order[j], g_order[j] = tmp;
        }
}

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
    uint64_t blocks = (uint64_t)spec->grid[0] * spec->grid[1] * spec->grid[2];
    uint64_t stride = 1, offset = 0, rng = spec->seed * 0x9E3779B97F4A7C15ull + 1;
    if (spec->schedule == 2 && blocks > 1) {  // blocks in the order b -> (stride b + offset) mod blocks
        stride = 1 + splitmix(&rng) % (blocks - 1);
        while (gcd(stride, blocks) != 1) stride++;
        offset = splitmix(&rng) % blocks;
    }
    fenv_t env;
    fegetenv(&env);
    g_launch_thread = pthread_self();
    install_handlers();
    if (sigsetjmp(g_abort, 1) == 0) {
        g_in_kernel = 1;
        thread_order(spec, threads, &rng);
        for (uint64_t k = 0; k < blocks; k++) {
            uint64_t b = spec->schedule == 1   ? blocks - 1 - k
                         : spec->schedule == 2 ? (uint64_t)(((unsigned __int128)stride * k + offset) % blocks)
                                               : k;
            blockIdx.x = (unsigned)(b % spec->grid[0]);
            blockIdx.y = (unsigned)(b / spec->grid[0] % spec->grid[1]);
            blockIdx.z = (unsigned)(b / ((uint64_t)spec->grid[0] * spec->grid[1]));
            if (spec->schedule == 2 && k) thread_order(spec, threads, &rng);
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

