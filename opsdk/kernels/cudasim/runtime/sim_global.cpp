// Global memory's shadow: per 4-byte word of a device allocation, its latest plain write, plain
// read(s) and atomic access in this launch, and which bytes a kernel ever wrote. From it come
// races in global memory (two threads' accesses to one address, one of them a write, nothing
// ordering them: no barrier between two threads of a block, no kernel boundary or fence between
// blocks), which compute-sanitizer's racecheck does not look for, and initcheck: a read of memory
// allocated uninitialised (cupy.empty) that no kernel has written.
#include "sim_internal.h"

#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

// zeroed memory for `per_word` bytes per word of the allocation, or null
static void *per_word(const Allocation *al, size_t per_word, size_t *bytes_out) {
    size_t words = (al->data + al->nbytes - al->base + 3) / 4;
    size_t bytes = (words * per_word + kPage - 1) / kPage * kPage;
    if (!bytes) bytes = kPage;
    void *p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) return nullptr;
    *bytes_out = bytes;
    return p;
}

GWord *shadow_of(Allocation *al) {
    if (al->shadow) return al->shadow;
    if (al->nbytes > kMaxShadowed) return nullptr;
    al->shadow = (GWord *)per_word(al, sizeof(GWord), &al->shadow_bytes);
    return al->shadow;
}

// most allocations never see an atomic: their words' shadows leave the record out
GAccess *atomics_of(Allocation *al) {
    if (!al->atomics && al->nbytes <= kMaxShadowed)
        al->atomics = (GAccess *)per_word(al, sizeof(GAccess), &al->atomics_bytes);
    return al->atomics;
}

void drop_shadow(Allocation *al) {
    if (al->shadow) munmap(al->shadow, al->shadow_bytes);
    if (al->atomics) munmap(al->atomics, al->atomics_bytes);
    al->shadow = nullptr, al->atomics = nullptr;
    al->shadow_bytes = al->atomics_bytes = 0;
}

static bool block_fenced(uint32_t seq) { return seq >= g_fenced.size() || g_fenced[seq]; }

// whether an earlier access x (to the same bytes) may happen at the same time as the running
// thread's access on a GPU: nothing orders the two
static inline bool unordered(const GAccess &x, unsigned mask) {
    if (__builtin_expect(x.epoch < g_launch_epoch, 1) || !(x.mask & mask)) return false;  // another launch, other bytes
    if (x.epoch >= g_block_epoch) {                                   // a thread of this block
        if (x.thread == (uint16_t)g_cur) return false;
        if (x.epoch != g_epoch) return false;  // a __syncthreads() since
        return x.thread == kManyReaders || !same_warp_synced(x.thread, x.sync);
    }
    return !block_fenced(block_of(x.epoch));  // an earlier block: only its __threadfence() orders it before us
}

static void who(char *buf, size_t cap, const GAccess &x) {
    if (x.thread == kManyReaders) {
        snprintf(buf, cap, "other threads (the latest of block ");
    } else {
        snprintf(buf, cap, "thread (%u,%u,%u) of block ", g_lanes[x.thread].tid.x, g_lanes[x.thread].tid.y,
                 g_lanes[x.thread].tid.z);
    }
    unsigned b[3];
    block_at(block_of(x.epoch), b);
    append(buf, cap, "(%u,%u,%u)%s", b[0], b[1], b[2], x.thread == kManyReaders ? ")" : "");
}

static void race(const GAccess &x, uintptr_t a, size_t n, bool write, const char *mine, const char *theirs) {
    char other[160];
    who(other, sizeof other, x);
    bool same_block = x.epoch >= g_block_epoch;
    Access acc = {a, (int)n, write, x.pc};
    defer_access(OPSDK_ERR_RACE_GLOBAL, acc,
                 "%s\x02, which %s %s\x01 in this launch, with nothing ordering the two: a data race "
                 "in global memory (on a GPU either may come first); %s",
                 mine, other, theirs,
                 same_block ? "put a __syncthreads() between them, or make both atomic"
                            : "threads of different blocks are ordered only by the kernel's end (or a "
                              "__threadfence() and a flag): a read-modify-write several threads make of one "
                              "element (y[i] += v) needs atomicAdd");
}

static void record(GAccess &x, unsigned mask, uint32_t sync, uintptr_t pc) {
    x.epoch = g_epoch, x.sync = sync, x.pc = (uint32_t)pc;
    x.thread = (uint16_t)g_cur, x.mask = (uint8_t)mask;
}

static void initcheck(Allocation *al, uintptr_t a, size_t n, const GWord &g, uintptr_t w, unsigned mask) {
    // a byte no kernel wrote still holding cupy.empty's pattern, its whole word too (a host write
    // of the same word would have to store that very NaN pattern)
    unsigned unwritten = mask & ~g.w.init;
    if (!unwritten || w < al->data || w + 4 > al->data + al->nbytes) {
        if (!unwritten) return;
        for (int b = 0; b < 4; b++)  // a word at the allocation's edge: its bytes one by one
            if ((unwritten >> b & 1) && *(unsigned char *)(w + b) != (unsigned char)(kEmptyPoison >> (8 * b))) return;
    } else if (*(const uint32_t *)w != kEmptyPoison) {
        return;
    }
    Access acc = {a, (int)n, 0, 0};
    fail_access(OPSDK_ERR_UNINIT_GLOBAL, acc,
                "read\x02, which no kernel has written since it was allocated uninitialised (cupy.empty, "
                "empty_like, ndarray(shape)): on a GPU it holds whatever the memory held before; write "
                "it first, or allocate it with cupy.zeros (compute-sanitizer's initcheck reports this)");
}

void global_access(Allocation *al, uintptr_t a, size_t n, int kind, uintptr_t pc) {
    bool races = g_races;
    if (!races && !al->uninit) return;
    GWord *shadow = al->shadow ? al->shadow : shadow_of(al);
    if (!shadow) return;
    bool reads = kind & K_READ, writes = kind & K_WRITE;
    // atomics, and volatile accesses of global memory (the flags blocks signal each other with),
    // are ordered among themselves
    bool atomic = kind & (K_ATOMIC | K_VOLATILE);
    uint32_t sync = g_warps[g_cur / OPSDK_SIM_WARP].sync_gen;
    uint32_t off = (uint32_t)(pc - g_module);
    uint16_t me = (uint16_t)g_cur;
    uintptr_t end = a + n;
    GAccess *atomics = atomic && races ? atomics_of(al) : al->atomics;  // null: never an atomic
    for (uintptr_t w = a & ~(uintptr_t)3; w < end; w += 4) {
        unsigned lo = w < a ? (unsigned)(a - w) : 0, hi = w + 4 > end ? (unsigned)(end - w) : 4;
        unsigned mask = (0xFu >> (4 - hi)) & (0xFu << lo);
        GWord &g = shadow[(w - al->base) >> 2];
        GAccess *ga = atomics ? &atomics[(w - al->base) >> 2] : nullptr;
        if (reads && al->uninit && (g.w.init & mask) != mask) initcheck(al, a, n, g, w, mask);
        if (writes) g.w.init |= mask;
        if (!races) continue;
        // a plain read of what other threads update atomically is no race here: it is how every
        // atomicCAS loop starts (the CAS checks it), so atomics conflict with plain stores only
        if ((reads || atomic) && unordered(g.w, mask))
            race(g.w, a, n, !reads, atomic ? "atomic update" : "read", "wrote (a plain store)");
        if (writes && !atomic) {
            if (ga && unordered(*ga, mask)) race(*ga, a, n, true, "write", "updated atomically");
            if (unordered(g.r, mask)) race(g.r, a, n, true, "write", "read (a plain load)");
        }
        if (atomic) {
            if (ga) record(*ga, mask, sync, off);
            continue;
        }
        if (reads) {
            GAccess &r = g.r;
            if (r.epoch == g_epoch && r.thread == me && (r.mask & mask) == mask) {
                // this thread's read again: nothing new to note
            } else if (r.epoch == g_epoch && unordered(r, r.mask)) {  // another reader of this block: keep both
                r.thread = kManyReaders, r.mask |= mask;
                r.epoch = g_epoch, r.sync = sync, r.pc = off;
            } else {
                record(r, mask, sync, off);
            }
        }
        if (writes) record(g.w, mask, sync, off);
    }
}
