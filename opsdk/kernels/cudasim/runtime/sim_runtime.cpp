// The CUDA simulator's runtime: runs a kernel's blocks one after another, the threads of a block
// as cooperative fibers released at barriers and warp collectives, and reports what a GPU would
// fault or hang on (out-of-bounds accesses, shared memory read before any write, races, barriers
// and shuffles not reached by every thread that must reach them) instead of crashing or hanging.
//
// Built once per machine by cudasim/build.py (never instrumented itself); kernel modules are
// compiled with -fsanitize=thread and call the __tsan_* hooks (sim_memory.cpp) on every access.
// This file: the built-in variables, the launch's state, reports, traps and the launch itself.
#include "sim_internal.h"

#include <algorithm>
#include <dlfcn.h>
#include <execinfo.h>
#include <fenv.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

// -- the built-in variables kernels read (the scheduler sets them before resuming a thread) ----
extern "C" {
__attribute__((visibility("default"))) uint3 threadIdx = {0, 0, 0};
__attribute__((visibility("default"))) uint3 blockIdx = {0, 0, 0};
__attribute__((visibility("default"))) uint3 blockDim = {1, 1, 1};
__attribute__((visibility("default"))) uint3 gridDim = {1, 1, 1};
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
int g_waiting, g_exited;
const char *g_bar_file;
int g_bar_line, g_bar_mode, g_bar_count;
bool g_bar_mixed;
uint64_t g_bar_result;
void *g_sched_sp;
#if !SIM_ASM_SWITCH
ucontext_t g_sched_uc;
#endif
int g_queue[kQueue];
int g_order[OPSDK_SIM_MAX_THREADS];
int g_qhead, g_qtail;
uint32_t g_epoch = 1, g_block_epoch = 1, g_launch_epoch = 1;
uint32_t g_block_seq;
std::vector<uint8_t> g_fenced;
static std::vector<uint32_t> g_block_starts;  // the epoch each block of the launch started at (by position)
static uint32_t g_untracked_from;             // the epoch from which blocks are past g_block_starts (0: none)

// blocks past the first 2^24 are not told apart (their position reads 2^24: as for
// __threadfence, taken as ordered, never reported)
uint32_t block_of(uint32_t epoch) {
    if (g_untracked_from && epoch >= g_untracked_from) return 1u << 24;
    auto it = std::upper_bound(g_block_starts.begin(), g_block_starts.end(), epoch);
    return it == g_block_starts.begin() ? 0 : (uint32_t)(it - g_block_starts.begin() - 1);
}
uint32_t g_ticks;
double g_deadline;
uintptr_t g_module;
Hot g_hot[kHot];
uintptr_t g_hot_gen = (uintptr_t)1 << kHotGenShift;
bool g_races;
bool g_strict;

void forget_hot() {
    g_hot_gen += (uintptr_t)1 << kHotGenShift;
    if (g_hot_gen == 0) {  // wrapped: stale tags could match again
        memset(g_hot, 0, sizeof g_hot);
        g_hot_gen = (uintptr_t)1 << kHotGenShift;
    }
}

// fiber stacks, kept across launches
char *g_stacks;
size_t g_stack_bytes, g_stack_count;

// shared memory: [dynamic region | static slots], one arena for the process
unsigned char *g_arena;
size_t g_static_used;
std::vector<Slot> g_slots;
unsigned char *g_zone;
Shadow *g_shadow;
uint8_t *g_uniform;
size_t g_dyn_bytes;

static uint64_t g_blocks, g_stride, g_offset;  // how block positions map to blocks (the schedule)

double now_s() {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

// ---------------------------------------------------------------------------------------------
// reports: where (the thread, its frames in the kernel's module) and what. A race or a read of
// uninitialised shared memory is deferred: the block runs on, so that a __syncthreads() some
// threads skip (its usual cause) is named as what it is; anything else ends the launch.

uintptr_t module_offset(uintptr_t pc) {
    Dl_info info;
    if (!pc || !dladdr((void *)pc, &info) || (uintptr_t)info.dli_fbase != g_module) return 0;
    return pc - g_module;
}

void record_position(opsdk_sim_report *r, int lane) {
    r->block[0] = blockIdx.x, r->block[1] = blockIdx.y, r->block[2] = blockIdx.z;
    if (lane >= 0) {
        Lane &l = g_lanes[lane];
        r->thread[0] = l.tid.x, r->thread[1] = l.tid.y, r->thread[2] = l.tid.z;
    }
}

static bool on_lane_stack() {
    char here;
    return g_cur >= 0 && &here >= g_lanes[g_cur].stack_lo && &here < g_lanes[g_cur].stack_hi;
}

// the frames of the running thread that lie in the kernel's module (a backtrace from here)
static void record_frames(opsdk_sim_report *r) {
    void *raw[64];
    int n = backtrace(raw, 64);
    for (int i = 0; i < n && r->npcs < OPSDK_SIM_FRAMES; i++) {
        uintptr_t off = module_offset((uintptr_t)raw[i]);
        if (off && !(r->npcs == 1 && r->pc_exact && off == r->pcs[0])) r->pcs[r->npcs++] = off;
    }
}

static void vreport(opsdk_sim_report *r, int status, int lane, const char *file, int line, const Access *a,
                    const char *fmt, va_list ap) {
    memset(r, 0, sizeof *r);
    r->status = status;
    record_position(r, lane);
    if (file) snprintf(r->file, sizeof r->file, "%s", file);
    r->line = line;
    r->is_write = -1;
    if (a) {
        r->address = a->address, r->size = a->size, r->is_write = a->is_write;
        r->other_pc = a->other_pc;
    }
    vsnprintf(r->message, sizeof r->message, fmt, ap);
    if (lane == g_cur && on_lane_stack()) record_frames(r);
    else if (lane >= 0 && g_lanes[lane].pc) r->pcs[r->npcs++] = module_offset(g_lanes[lane].pc);
}

static bool is_barrier_verdict(int status) {
    return status == OPSDK_ERR_BARRIER_EXITED || status == OPSDK_ERR_BARRIER_SITES;
}

// end the launch with r (a deferred finding stands before anything but a barrier verdict)
__attribute__((noreturn)) static void finish() {
    opsdk_sim_result *res = g_result;
    if (res->first.status != OPSDK_OK && !is_barrier_verdict(res->main.status)) {
        res->main = res->first;
        res->first.status = OPSDK_OK;
    }
    siglongjmp(g_abort, 1);
}

void fail(int status, const char *file, int line, const char *fmt, ...) {
    if (g_result->main.status == OPSDK_OK) {
        va_list ap;
        va_start(ap, fmt);
        vreport(&g_result->main, status, g_cur, file, line, nullptr, fmt, ap);
        va_end(ap);
    }
    finish();
}

void fail_access(int status, const Access &a, const char *fmt, ...) {
    if (g_result->main.status == OPSDK_OK) {
        va_list ap;
        va_start(ap, fmt);
        vreport(&g_result->main, status, g_cur, nullptr, 0, &a, fmt, ap);
        va_end(ap);
    }
    finish();
}

void fail_lane(int status, int lane, const char *fmt, ...) {
    if (g_result->main.status == OPSDK_OK) {
        const Lane &l = g_lanes[lane];
        va_list ap;
        va_start(ap, fmt);
        vreport(&g_result->main, status, lane, l.file, l.line, nullptr, fmt, ap);
        va_end(ap);
    }
    finish();
}

// a finding kept until the block ends (or the launch times out): a divergent barrier found
// behind it is the better verdict, since it explains it
static void vdefer(int status, int lane, const char *file, int line, const Access *a, const char *fmt, va_list ap) {
    if (g_result->first.status != OPSDK_OK) return;  // the first finding is the one worth reading
    vreport(&g_result->first, status, lane, file, line, a, fmt, ap);
    g_races = false;  // stop looking for more
    forget_hot();
    // the rest of the block runs on values the finding left: bound how long that may take
    double soon = now_s() + 2.0;
    if (g_deadline <= 0 || soon < g_deadline) g_deadline = soon;
}

void defer_access(int status, const Access &a, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vdefer(status, g_cur, nullptr, 0, &a, fmt, ap);
    va_end(ap);
}

void defer_lane(int status, int lane, const char *file, int line, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vdefer(status, lane, file, line, nullptr, fmt, ap);
    va_end(ap);
}

bool deferred() { return g_result->first.status != OPSDK_OK; }

void raise_deferred() { finish(); }

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

void check_deadline() {
    if (g_deadline <= 0 || now_s() <= g_deadline) return;
    if (deferred()) raise_deferred();
    fail(OPSDK_ERR_TIMEOUT, nullptr, 0,
         "the kernel ran longer than %.0f s (an endless loop? a thread waiting for another "
         "block, which the simulator runs later?)",
         g_spec->timeout_s);
}


// ---------------------------------------------------------------------------------------------
// traps, clock, fences

EXPORT void opsdk_sim_trap(const char *what, const char *file, int line) {
    fail(OPSDK_ERR_TRAP, file, line, "%s", what);
}

EXPORT long long opsdk_sim_clock() {
    tick();
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

// __threadfence(): what this block wrote before it is seen by later blocks in order; the race
// check of global memory then takes the block's accesses as ordered before later blocks' (the
// fence-and-flag idiom of a last-block reduction)
EXPORT void opsdk_sim_fence() {
    if (g_in_kernel && g_block_seq < g_fenced.size()) g_fenced[g_block_seq] = 1;
}

// the block at position `seq` of the launch's order, as (x, y, z)
void block_at(uint32_t seq, unsigned *xyz) {
    uint64_t b = g_spec->schedule == 1   ? g_blocks - 1 - seq
                 : g_spec->schedule == 2 ? (uint64_t)(((unsigned __int128)g_stride * seq + g_offset) % g_blocks)
                                         : seq;
    xyz[0] = (unsigned)(b % gridDim.x);
    xyz[1] = (unsigned)(b / gridDim.x % gridDim.y);
    xyz[2] = (unsigned)(b / ((uint64_t)gridDim.x * gridDim.y));
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
// changes which thread runs first, so results that depend on it change too
static void thread_order(const opsdk_sim_launch *spec, int threads, uint64_t *rng) {
    for (int t = 0; t < threads; t++) g_order[t] = spec->schedule == 1 ? threads - 1 - t : t;
    if (spec->schedule == 2)
        for (int t = threads - 1; t > 0; t--) {
            int j = (int)(splitmix(rng) % (uint64_t)(t + 1));
            int tmp = g_order[t];
            g_order[t] = g_order[j], g_order[j] = tmp;
        }
}

// the floating-point environment kernels run in: to nearest, exceptions masked; flush-to-zero
// and denormals-are-zero for fast maths (set once per launch: fibers share it)
static void kernel_fp_env(bool fast) {
    fesetround(FE_TONEAREST);
#if defined(__x86_64__)
    unsigned csr = fast ? 0x9FC0 : 0x1F80;
    __asm__ volatile("ldmxcsr %0" : : "m"(csr));
#elif defined(__aarch64__)
    uint64_t fpcr;
    __asm__ volatile("mrs %0, fpcr" : "=r"(fpcr));
    fpcr = fast ? (fpcr | (1ull << 24)) : (fpcr & ~(1ull << 24));
    __asm__ volatile("msr fpcr, %0" : : "r"(fpcr));
#else
    (void)fast;
#endif
}

EXPORT int opsdk_sim_run(const opsdk_sim_launch *spec, opsdk_sim_result *result) {
    memset(result, 0, sizeof *result);
    if (!ensure_arena()) {
        result->main.status = OPSDK_ERR_INTERNAL;
        snprintf(result->main.message, sizeof result->main.message, "cannot map the shared memory arena");
        return result->main.status;
    }
    int threads = (int)(spec->block[0] * spec->block[1] * spec->block[2]);
    ensure_stacks(threads, spec->stack_bytes);
    if (!g_stacks) {
        result->main.status = OPSDK_ERR_INTERNAL;
        snprintf(result->main.message, sizeof result->main.message, "cannot map the thread stacks");
        return result->main.status;
    }
    Dl_info info;
    g_module = dladdr((void *)spec->entry, &info) ? (uintptr_t)info.dli_fbase : 0;
    if (g_epoch > 0xF0000000u) {  // epochs would wrap: forget every access record
        clear_access_shadows();
        g_epoch = 1;
    }
    g_spec = spec;
    g_result = result;
    g_threads = threads;
    g_cur = -1;
    g_dyn_bytes = spec->dynamic_shared;
    g_deadline = spec->timeout_s > 0 ? now_s() + spec->timeout_s : 0;
    g_launch_epoch = ++g_epoch;
    g_races = spec->check_races;
    g_strict = spec->strict != 0;
    forget_hot();
    blockDim = uint3{spec->block[0], spec->block[1], spec->block[2]};
    gridDim = uint3{spec->grid[0], spec->grid[1], spec->grid[2]};
    for (int t = 0; t < threads; t++) {
        Lane &l = g_lanes[t];
        l.tid.x = t % spec->block[0];
        l.tid.y = (t / spec->block[0]) % spec->block[1];
        l.tid.z = t / (spec->block[0] * spec->block[1]);
    }
    int warps = (threads + OPSDK_SIM_WARP - 1) / OPSDK_SIM_WARP;
    uint64_t blocks = (uint64_t)spec->grid[0] * spec->grid[1] * spec->grid[2];
    uint64_t rng = spec->seed * 0x9E3779B97F4A7C15ull + 1;
    g_blocks = blocks, g_stride = 1, g_offset = 0;
    if (spec->schedule == 2 && blocks > 1) {  // blocks in the order b -> (stride b + offset) mod blocks
        g_stride = 1 + splitmix(&rng) % (blocks - 1);
        while (gcd(g_stride, blocks) != 1) g_stride++;
        g_offset = splitmix(&rng) % blocks;
    }
    g_fenced.assign(blocks < (1u << 24) ? blocks : (1u << 24), 0);
    g_block_starts.clear();
    g_untracked_from = 0;
    fenv_t env;
    fegetenv(&env);
    g_launch_thread = pthread_self();
    install_handlers();
    if (sigsetjmp(g_abort, 1) == 0) {
        kernel_fp_env(spec->fast_math);
        g_in_kernel = 1;
        thread_order(spec, threads, &rng);
        for (uint64_t k = 0; k < blocks; k++) {
            g_block_seq = (uint32_t)k;
            unsigned xyz[3];
            block_at((uint32_t)k, xyz);
            blockIdx.x = xyz[0], blockIdx.y = xyz[1], blockIdx.z = xyz[2];
            if (spec->schedule == 2 && k) thread_order(spec, threads, &rng);
            g_block_epoch = ++g_epoch;
            if (g_block_starts.size() < (1u << 24)) g_block_starts.push_back(g_block_epoch);
            else if (!g_untracked_from) g_untracked_from = g_block_epoch;
            poison_block_shared();
            for (int w = 0; w < warps; w++) {
                Warp &warp = g_warps[w];
                warp.active = 0;
                int n = threads - w * OPSDK_SIM_WARP;
                warp.exist = n >= OPSDK_SIM_WARP ? 0xFFFFFFFFu : ((1u << n) - 1);
                warp.done = 0;
            }
            run_block();
        }
    }
    g_in_kernel = 0;
    forget_hot();
    restore_handlers();
    fesetenv(&env);
    g_cur = -1;
    fflush(stdout);
    return result->main.status;
}
