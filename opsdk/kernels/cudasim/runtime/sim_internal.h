// The CUDA simulator runtime's internals, shared by its files (sim_*.cpp): the simulated
// threads, warps and their collectives, shared and global memory's shadows, device allocations,
// and the state of the launch in progress (launches are serialised by the Python side).
#ifndef OPSDK_SIM_INTERNAL_H
#define OPSDK_SIM_INTERNAL_H

#include "sim_abi.h"

#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include <vector>

#define EXPORT extern "C" __attribute__((visibility("default")))
#define RETURN_PC() ((uintptr_t)__builtin_return_address(0))

#if defined(__x86_64__) || defined(__aarch64__)
#define SIM_ASM_SWITCH 1
#else
#include <ucontext.h>
#define SIM_ASM_SWITCH 0
#endif

// everything declared from here on is the runtime's own: reached directly, not through the GOT
// (the built-in variables kernels read are exported by name; the system's headers come before)
#pragma GCC visibility push(hidden)

// saves the callee-saved registers on the current stack, stores the stack pointer in *from and
// continues on the stack `to` (sim_fibers.cpp; a fresh fiber "returns" into fiber_main)
extern "C" __attribute__((visibility("hidden"))) void opsdk_sim_switch(void **from, void *to);
enum LaneState { READY, AT_BARRIER, AT_WARP, DONE, FRESH };  // FRESH: has not run yet (no stack)

enum WarpKind {
    SHFL_IDX, SHFL_UP, SHFL_DOWN, SHFL_XOR, VOTE_ALL, VOTE_ANY, VOTE_UNI, VOTE_BALLOT, SYNCWARP,
    MATCH_ANY, MATCH_ALL, RED_ADD, RED_MIN_U, RED_MAX_U, RED_MIN_S, RED_MAX_S, RED_AND, RED_OR,
    RED_XOR, ACTIVEMASK, WARP_KINDS
};

extern const char *const kWarpNames[WARP_KINDS];

struct alignas(64) Lane {
    // everything a switch, a barrier and a warp collective read or write, in one cache line (at
    // a barrier of a large block every thread's lane is touched in turn: a second line each
    // was a second miss each)
    void *sp;
    uint64_t value, result;  // of a warp collective
    const char *file;        // where it waits (barrier or warp collective)
    uintptr_t pc;            // the return address of that call
    uint3 tid;
    int line;
    signed char state, group, size, width;
    signed char arg;          // a shuffle's source lane or delta (only its low 5 bits count)
    signed char bar_mode, result_pred, spare;
    // its stack, set when it first runs
    char *stack_lo, *stack_hi;  // usable stack (a guard page lies below stack_lo)
    int stack;                  // which of the pool's stacks
#if !SIM_ASM_SWITCH
    ucontext_t uc;
#endif
};
static_assert(offsetof(Lane, stack_lo) == 64, "a lane's hot fields fill its first cache line");

struct Group {  // a warp collective some lanes have reached
    int kind;
    unsigned mask, arrived;
    const char *file;
    int line;
    uintptr_t pc;
};

struct Warp {
    Group groups[OPSDK_SIM_WARP];
    unsigned active;     // the groups in use (bits)
    unsigned exist, done;
    uint32_t sync_gen;   // +1 at every __syncwarp this warp completes (the only warp-level memory order)
    unsigned sync_mask;  // the lanes of the latest one
    unsigned streak;     // collectives completed in a row whose lanes went to the front of the queue
};

struct Shadow {  // one per byte of shared memory: its latest plain write, plain read(s) and atomic(s)
    uint32_t w_epoch, r_epoch, a_epoch, w_sync, r_sync, a_sync;
    uint32_t w_pc, r_pc, a_pc;  // offsets of the accesses in the kernel's module
    uint16_t writer, reader, atomic_by;  // kManyReaders: several threads since the barrier
    uint16_t spare;  // no padding: the shadows of a word's bytes are compared whole
};
static const uint16_t kManyReaders = 0xFFFF;

struct Slot {  // one static __shared__ variable
    size_t offset, size;
    const char *name, *file;
    int line;
    uintptr_t module;  // the kernel module that declared it (its load address)
};

// one access of a 4-byte word of global memory, for the race check
struct GAccess {
    uint32_t epoch;   // g_epoch when it happened (older than the launch: another launch); the
                      // block it ran in follows from it (block_of)
    uint32_t sync;    // its warp's __syncwarp count
    uint32_t pc;      // offset in the kernel's module
    uint16_t thread;  // kManyReaders: several readers
    uint8_t mask;     // the bytes of the word it touched
    uint8_t init;     // of GWord::w only: the bytes a kernel has written since the allocation (bits 0-3)
};

struct GWord {  // the shadow of one 4-byte word of a device allocation: 32 bytes
    GAccess w, r;  // the latest plain write, plain read(s); its atomic (or volatile) accesses are
                   // in Allocation::atomics, made for the allocations that have any
};

struct Allocation {
    uintptr_t data;
    size_t nbytes;
    char *map;
    size_t map_bytes;
    uintptr_t rw_lo, rw_hi;  // the accessible pages
    GWord *shadow;           // per word from `base` (mapped on the first checked access), or null
    size_t shadow_bytes;
    GAccess *atomics;        // per word, the latest atomic or volatile access (mapped on the first), or null
    size_t atomics_bytes;
    uintptr_t base;          // data rounded down to 4 bytes
    bool uninit;             // allocated uninitialised: a read of a byte no kernel wrote is reported
};

static const size_t kPage = 4096;
static const size_t kGuard = 64 * 1024;
static const size_t kStaticShared = 16u << 20;
static const size_t kRedzone = 32;
static const size_t kMaxShadowed = 256u << 20;  // larger allocations are not race-checked

// access kinds of check_access
enum { K_READ = 1, K_WRITE = 2, K_ATOMIC = 4, K_VOLATILE = 8 };

// the allocations of the latest global accesses, by page (direct-mapped): the hooks' fast path
// looks up the page of an access there, and checks it against the allocation's data
struct Hot {
    uintptr_t tag;       // the page number (address >> 12) plus the table's generation (g_hot_gen)
    uintptr_t lo, span;  // the allocation's data
    Allocation *al;
    bool tracked;        // its shadow is kept (races checked, or allocated uninitialised)
};
static const int kHot = 256;
static const int kHotGenShift = 40;  // page numbers lie below 2^36
extern Hot g_hot[kHot];
extern uintptr_t g_hot_gen;  // forget_hot() moves it on, and every entry is stale
extern bool g_races;  // the race check is on (and nothing is deferred yet)
extern bool g_strict; // strict mode (the launch's)
void forget_hot();

// -- state of the launch in progress (launches are serialised by the Python side) ----------------
extern "C" {
extern __attribute__((visibility("default"))) uint3 threadIdx, blockIdx;
extern __attribute__((visibility("default"))) uint3 blockDim, gridDim;
extern __attribute__((visibility("default"))) unsigned char *opsdk_sim_dynamic_shared;
}

extern const opsdk_sim_launch *g_spec;
extern opsdk_sim_result *g_result;
extern sigjmp_buf g_abort;
extern volatile sig_atomic_t g_in_kernel;
extern pthread_t g_launch_thread;
extern Lane g_lanes[OPSDK_SIM_MAX_THREADS];
extern Warp g_warps[OPSDK_SIM_MAX_THREADS / OPSDK_SIM_WARP];
extern int g_threads, g_cur;  // threads of the block; the one running (-1: none)
extern int g_waiting, g_exited;  // threads of the block at a barrier; that have exited
// the barrier the block's threads are reaching: its first arrival's site, the count of true
// predicates, whether a thread arrived at another site (found out in full at the release), and
// the result every thread takes from it (read as each leaves, before any can reach the next)
extern const char *g_bar_file;
extern int g_bar_line, g_bar_mode, g_bar_count;
extern bool g_bar_mixed;
extern uint64_t g_bar_result;
extern void *g_sched_sp;      // the scheduler's stack while a fiber runs
#if !SIM_ASM_SWITCH
extern ucontext_t g_sched_uc;
#endif
static const int kQueue = 2 * OPSDK_SIM_MAX_THREADS;  // a power of two above the threads
extern int g_queue[kQueue];  // threads ready to run, in order
extern int g_order[OPSDK_SIM_MAX_THREADS];      // the order the block's threads start and leave barriers in
extern int g_qhead, g_qtail;
extern uint32_t g_epoch, g_block_epoch, g_launch_epoch;  // +1 at every block start and barrier release
extern uint32_t g_block_seq;  // the running block's position in the launch's order
extern std::vector<uint8_t> g_fenced;  // per block position: it ran __threadfence()
uint32_t block_of(uint32_t epoch);     // the position of the block of the launch an epoch is in
extern uint32_t g_ticks;
extern double g_deadline;
extern uintptr_t g_module;    // load address of the running kernel's module

// fiber stacks, kept across launches
extern char *g_stacks;
extern size_t g_stack_bytes, g_stack_count;

// shared memory: [dynamic region | static slots], one arena for the process
extern unsigned char *g_arena;
extern size_t g_static_used;  // bytes of the static part in use (slots and redzones)
extern std::vector<Slot> g_slots;
extern unsigned char *g_zone;  // per static byte: 1 inside a slot
extern Shadow *g_shadow;       // per arena byte
// per arena word (4 bytes): 1 when its bytes' shadows are alike, and only the first byte's is
// kept (a word accessed whole, as most are, costs one shadow's check instead of four)
extern uint8_t *g_uniform;
extern size_t g_dyn_bytes;     // dynamic shared memory of this launch

// -- shared by the runtime's files ------------------------------------------------------------
struct Access {  // what a report says about the access it is about
    uintptr_t address;
    int size, is_write;
    uintptr_t other_pc;  // the other thread's access (races), a module offset
};

double now_s();
void block_at(uint32_t seq, unsigned *xyz);
uintptr_t module_offset(uintptr_t pc);
void record_position(opsdk_sim_report *r, int lane);
__attribute__((noreturn, format(printf, 4, 5))) void fail(int status, const char *file, int line, const char *fmt, ...);
__attribute__((noreturn, format(printf, 3, 4))) void fail_access(int status, const Access &a, const char *fmt, ...);
__attribute__((noreturn, format(printf, 3, 4))) void fail_lane(int status, int lane, const char *fmt, ...);
__attribute__((format(printf, 3, 4))) void defer_access(int status, const Access &a, const char *fmt, ...);
__attribute__((format(printf, 5, 6))) void defer_lane(int status, int lane, const char *file, int line,
                                                  const char *fmt, ...);
bool deferred();
__attribute__((noreturn)) void raise_deferred();
void append(char *buf, size_t cap, const char *fmt, ...);
void lanes_text(char *buf, size_t cap, unsigned mask);
void thread_text(char *buf, size_t cap, int first, int last);
void check_deadline();
inline void tick() {
    if (__builtin_expect((++g_ticks & 0x3FFFF) == 0, 0)) check_deadline();
}
void ensure_stacks(int threads, size_t bytes);
void reset_stacks(int threads);  // at a block's start: every stack a thread may take free
void fiber_init(Lane &l);       // a thread of a new block: fresh, no stack yet
void fiber_start(Lane &l);      // a fresh lane gets a stack and a first frame
void run_lane(int t);           // from the scheduler
__attribute__((noreturn)) void leave_lane();  // the running lane has exited: run the next one

// The ready queue holds each waiting thread at most once, from the moment what it waits for
// completes (a thread is queued only while it waits, and waits for one thing at a time): no
// entry is ever stale. A thread's state says where it waits while it waits (the diagnoses read
// it only when nobody can run); it is not rewritten as the thread becomes ready. These run at
// every barrier and warp collective of every thread: inline
inline void make_ready(int t) {
    g_queue[g_qtail] = t;
    g_qtail = (g_qtail + 1) & (kQueue - 1);
}

// ready to run next (before every thread queued already)
inline void make_ready_front(int t) {
    g_qhead = (g_qhead - 1) & (kQueue - 1);
    g_queue[g_qhead] = t;
}

inline int pop_ready() {
    if (g_qhead == g_qtail) return -1;
    int t = g_queue[g_qhead];
    g_qhead = (g_qhead + 1) & (kQueue - 1);
    return t;
}

// from the running lane straight into lane `next`, or back to the scheduler (next < 0); returns
// when some lane or the scheduler switches back to this one
inline void switch_to(int next) {
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
    Lane &n = g_lanes[next];
    g_cur = next;
    threadIdx = n.tid;
    if (__builtin_expect(n.state == FRESH, 0)) fiber_start(n);
#if SIM_ASM_SWITCH
    opsdk_sim_switch(&g_lanes[me].sp, n.sp);
#else
    swapcontext(&g_lanes[me].uc, &n.uc);
#endif
}

// the running lane waits: the next ready one runs
inline void block_current() { switch_to(pop_ready()); }
__attribute__((noreturn)) void lane_exit();
void resolve(int w, int gi, int current);  // a warp collective every lane has reached
bool complete(int w, int gi);
void release_barrier();
void run_block();
bool ensure_arena();
void poison(unsigned char *p, size_t n, uint32_t word);
void poison_block_shared();
void shared_access(uintptr_t a, size_t n, int kind, uintptr_t pc);
bool shared_word(uintptr_t a, int kind, uintptr_t pc);  // its common case (false: not it)
void global_access(Allocation *al, uintptr_t a, size_t n, int kind, uintptr_t pc);
GWord *shadow_of(Allocation *al);
GAccess *atomics_of(Allocation *al);
void check_access(uintptr_t a, size_t n, int kind, uintptr_t pc);
void drop_shadow(Allocation *al);
void clear_access_shadows();
void install_handlers();
void restore_handlers();
bool same_warp_synced(uint16_t other, uint32_t sync);

static const uint32_t kSharedPoison = 0x7FF37FF3u;
static const uint32_t kEmptyPoison = 0x7FF57FF5u;
static const uint32_t kCanary = 0x7FF97FF9u;

#pragma GCC visibility pop

#endif
