// The interface between the CUDA simulator's runtime (sim_runtime.cpp, one shared library per
// process) and the kernel modules it runs (a CUDA source compiled by the host C++ compiler
// against opsdk_cuda_sim.h). Python reads the same structures through ctypes (cudasim/abi.py):
// change both together and bump OPSDK_SIM_ABI.
#ifndef OPSDK_SIM_ABI_H
#define OPSDK_SIM_ABI_H

#include <stddef.h>
#include <stdint.h>

#define OPSDK_SIM_ABI 6
#define OPSDK_SIM_WARP 32
#define OPSDK_SIM_MAX_THREADS 1024
#define OPSDK_SIM_MAX_DYNAMIC_SHARED (256 * 1024)

struct uint3 {
    unsigned int x, y, z;
};

struct dim3 {
    unsigned int x, y, z;
#ifdef __cplusplus
    constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
    constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
    constexpr operator uint3() const { return uint3{x, y, z}; }
#endif
};

// what a kernel parameter is, as the compiler sees it (kind codes: cudasim/abi.py)
enum opsdk_sim_kind {
    OPSDK_KIND_POINTER = 0,
    OPSDK_KIND_FLOAT = 1,   // float, double, __half, __nv_bfloat16
    OPSDK_KIND_SINT = 2,
    OPSDK_KIND_UINT = 3,
    OPSDK_KIND_BOOL = 4,
    OPSDK_KIND_VOID = 5,    // pointee only
    OPSDK_KIND_VECTOR = 6,  // float2, int4, ...: elem_kind x count
    OPSDK_KIND_OTHER = 7,   // a struct or enum
    OPSDK_KIND_BYTES = 8,   // char / unsigned char / signed char pointee: any array
};

struct opsdk_sim_type {
    int kind, size, elem_kind, elem_size;
};

struct opsdk_sim_param {
    struct opsdk_sim_type type;     // the parameter itself
    struct opsdk_sim_type pointee;  // what a pointer parameter points at
    int pointee_const;
    const char *spelling;           // __PRETTY_FUNCTION__ of a function templated on the type
};

struct opsdk_sim_kernel {
    const char *name;                // the name (or name expression) get_function takes
    void (*entry)(void **args);      // calls the kernel with CuPy-style argument pointers
    int nparams;
    const struct opsdk_sim_param *params;
};

// error kinds a launch can end with (cudasim/faults.py words them)
enum opsdk_sim_error {
    OPSDK_OK = 0,
    OPSDK_ERR_FAULT = 1,            // SIGSEGV/SIGBUS: an address nothing is mapped at (guard pages)
    OPSDK_ERR_OOB_GLOBAL = 2,       // an access outside a device allocation (instrumented builds)
    OPSDK_ERR_OOB_SHARED = 3,
    OPSDK_ERR_UNINIT_SHARED = 4,
    OPSDK_ERR_RACE_RAW = 5,
    OPSDK_ERR_RACE_WAR = 6,
    OPSDK_ERR_BARRIER_EXITED = 7,
    OPSDK_ERR_BARRIER_SITES = 8,
    OPSDK_ERR_WARP_CALLER = 9,
    OPSDK_ERR_WARP_DEADLOCK = 10,
    OPSDK_ERR_WARP_WIDTH = 11,
    OPSDK_ERR_TIMEOUT = 12,
    OPSDK_ERR_TRAP = 13,
    OPSDK_ERR_FPE = 14,
    OPSDK_ERR_STACK = 15,
    OPSDK_ERR_ILLEGAL = 16,
    OPSDK_ERR_INTERNAL = 17,
    OPSDK_ERR_MISALIGNED = 18,      // an access not aligned to its size (a GPU's "misaligned address")
    OPSDK_ERR_FLOAT_CAST = 19,      // a float-to-integer conversion out of the integer's range (or NaN)
    OPSDK_ERR_RACE_GLOBAL = 20,     // two threads' accesses to one global address, nothing ordering them
    OPSDK_ERR_UNINIT_GLOBAL = 21,   // a read of device memory allocated uninitialised that no kernel wrote
    OPSDK_ERR_WARP_EXITED = 22,     // (strict) a warp collective whose mask names lanes that have exited
};

struct opsdk_sim_launch {
    void (*entry)(void **args);
    void **args;
    unsigned int grid[3], block[3];
    size_t dynamic_shared;
    double timeout_s;
    int check_races;
    int fast_math;
    uint64_t stack_bytes;
    int instrumented;       // the module reports its loads and stores (else: no shadow checks)
    int schedule;           // the order threads and blocks run in: 0 in order, 1 reversed, 2 shuffled
    uint64_t seed;          // of the shuffled order
    int strict;             // a warp collective whose mask names exited lanes is an error
};

#define OPSDK_SIM_FRAMES 16

// one finding: where (block, thread, the source sites of the thread's frames) and what
struct opsdk_sim_report {
    int status;                 // an opsdk_sim_error
    unsigned int block[3], thread[3];
    uint64_t address;           // the faulting address (faults, out-of-bounds, shared memory)
    int size, is_write;
    int line;                   // the site the runtime knows by name (a barrier, a collective)
    char file[512];
    char message[4096];         // what the runtime knows (warp masks, lanes, sites); a \x01 marks
                                // where the other access's site belongs
    uint64_t pcs[OPSDK_SIM_FRAMES];  // offsets in the kernel's module of the thread's frames, innermost first
    int npcs;
    int pc_exact;               // pcs[0] is the faulting instruction itself (a signal), not a return address
    uint64_t other_pc;          // offset of the other thread's access of a race (a return address; 0: none)
};

struct opsdk_sim_result {
    struct opsdk_sim_report main;   // what ends the launch
    struct opsdk_sim_report first;  // a race or uninitialised shared read seen before a barrier verdict
    int undefined_reads;        // shuffles that read a lane outside the call (value poisoned)
    char note[1024];            // the first of them, worded
};

#endif
