// The CUDA simulator runtime's internals, shared by its files (sim_*.cpp): the simulated
// threads, warps and their collectives, shared memory's shadow, device allocations, and the
// state of the launch in progress (launches are serialised by the Python side).
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

#if defined(__x86_64__) || defined(__aarch64__)
#define SIM_ASM_SWITCH 1
#else
#include <ucontext.h>
#define SIM_ASM_SWITCH 0
#endif

// saves the callee-saved registers on the current stack, stores the stack pointer in *from and
// continues on the stack `to` (sim_fibers.cpp; a fresh fiber "returns" into fiber_main)
extern "C" void opsdk_sim_switch(void **from, void *to);
enum LaneState { READY, AT_BARRIER, AT_WARP, DONE };

enum WarpKind {
    SHFL_IDX, SHFL_UP, SHFL_DOWN, SHFL_XOR, VOTE_ALL, VOTE_ANY, VOTE_UNI, VOTE_BALLOT, SYNCWARP,
    MATCH_ANY, MATCH_ALL, RED_ADD, RED_MIN_U, RED_MAX_U, RED_MIN_S, RED_MAX_S, RED_AND, RED_OR,
    RED_XOR, ACTIVEMASK, WARP_KINDS
};

extern const char *const kWarpNames[WARP_KINDS];

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
    uint32_t sync_gen;   // +1 at every __syncwarp this warp completes (the only warp-level memory order)
    unsigned sync_mask;  // the lanes of the latest one
};

struct Shadow {  // one per byte of shared memory: its latest plain write, plain read(s) and atomic(s)
    uint32_t w_epoch, r_epoch, a_epoch, w_sync, r_sync, a_sync;
    uint16_t writer, reader, atomic_by;  // kManyReaders: several threads since the barrier
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
extern "C" {
extern uint3 threadIdx, blockIdx;
extern dim3 blockDim, gridDim;
extern unsigned char *opsdk_sim_dynamic_shared;
}

extern const opsdk_sim_launch *g_spec;
extern opsdk_sim_result *g_result;
extern sigjmp_buf g_abort;
extern volatile sig_atomic_t g_in_kernel;
extern pthread_t g_launch_thread;
extern Lane g_lanes[OPSDK_SIM_MAX_THREADS];
extern Warp g_warps[OPSDK_SIM_MAX_THREADS / OPSDK_SIM_WARP];
extern int g_threads, g_cur;  // threads of the block; the one running (-1: none)
extern void *g_sched_sp;      // the scheduler's stack while a fiber runs
#if !SIM_ASM_SWITCH
extern ucontext_t g_sched_uc;
#endif
extern int g_queue[OPSDK_SIM_MAX_THREADS + 1];  // threads ready to run, in order
extern int g_order[OPSDK_SIM_MAX_THREADS];      // the order the block's threads start and leave barriers in
extern int g_qhead, g_qtail;
extern uint32_t g_epoch, g_block_epoch;  // +1 at every block start and barrier release
extern uint32_t g_ticks;
extern double g_deadline;

// fiber stacks, kept across launches
extern char *g_stacks;
extern size_t g_stack_bytes, g_stack_count;

// shared memory: [dynamic region | static slots], one arena for the process
extern unsigned char *g_arena;
extern size_t g_static_used;  // bytes of the static part in use (slots and redzones)
extern std::vector<Slot> g_slots;
extern unsigned char *g_zone;  // per static byte: 1 inside a slot
extern Shadow *g_shadow;       // per arena byte
extern size_t g_dyn_bytes;     // dynamic shared memory of this launch

// device allocations
extern std::vector<Page> g_pages;
extern size_t g_pages_used;
extern std::vector<Allocation> g_allocations;

// -- shared by the runtime's files ------------------------------------------------------------
double now_s();
void record_position(opsdk_sim_result *r);
__attribute__((noreturn, format(printf, 4, 5))) void fail(int status, const char *file, int line, const char *fmt, ...);
void append(char *buf, size_t cap, const char *fmt, ...);
void lanes_text(char *buf, size_t cap, unsigned mask);
void thread_text(char *buf, size_t cap, int first, int last);
void tick();
void ensure_stacks(int threads, size_t bytes);
void fiber_init(Lane &l);
void resume(int t);
void yield_to_scheduler();
void make_ready(int t);
void lane_exit();
void resolve(int w, int gi, int current);  // a warp collective every lane has reached
bool complete(int w, int gi);
void run_block();
bool ensure_arena();
void poison(unsigned char *p, size_t n, uint32_t word);
void shared_access(uintptr_t a, size_t n, bool reads, bool write, bool atomic);
void check_access(uintptr_t a, size_t n, bool reads, bool writes, bool atomic);
void install_handlers();
void restore_handlers();

static const uint32_t kSharedPoison = 0x7FF37FF3u;
static const uint32_t kEmptyPoison = 0x7FF57FF5u;
static const uint32_t kCanary = 0x7FF97FF9u;

#endif
