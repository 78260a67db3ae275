// Shared memory: one arena per process (dynamic shared memory, then a slot with redzones per
// static __shared__ variable), poisoned at every block, and a shadow per byte that finds reads
// no thread wrote, out-of-bounds accesses and races between barriers.
#include "sim_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <execinfo.h>
#include <sys/mman.h>

// ---------------------------------------------------------------------------------------------
// shared memory: the arena, static slots, poison and shadow

bool ensure_arena() {
    if (g_arena) return true;
    size_t total = OPSDK_SIM_MAX_DYNAMIC_SHARED + kStaticShared;
    void *p = mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) return false;
    void *s = mmap(nullptr, total * sizeof(Shadow), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (s == MAP_FAILED) return false;
    void *z = mmap(nullptr, kStaticShared, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (z == MAP_FAILED) return false;
    void *u = mmap(nullptr, total / 4, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (u == MAP_FAILED) return false;
    g_uniform = (uint8_t *)u;
    g_arena = (unsigned char *)p;
    g_shadow = (Shadow *)s;
    g_zone = (unsigned char *)z;
    opsdk_sim_dynamic_shared = g_arena;
    return true;
}

__attribute__((constructor)) static void init_runtime() {
    ensure_arena();
    void *frames[4];
    backtrace(frames, 4);  // loads the unwinder now, not first inside a signal handler
}

// at every block start: the launch's dynamic shared memory and its module's static slots hold
// garbage again (slots of other modules are left alone: they are poisoned when theirs run)
void poison_block_shared() {
    poison(g_arena, g_dyn_bytes, kSharedPoison);
    for (const Slot &s : g_slots)
        if (s.module == g_module) poison(g_arena + OPSDK_SIM_MAX_DYNAMIC_SHARED + s.offset, s.size, kSharedPoison);
}

// storage for one static __shared__ variable (one per declaration and template instantiation)
static void *new_slot(size_t size, size_t align, const char *name, const char *file, int line) {
    if (align < 16) align = 16;
    size_t at = (g_static_used + kRedzone + align - 1) / align * align;
    if (at + size + kRedzone > kStaticShared) {
        fprintf(stderr, "opsdk CUDA simulator: static __shared__ memory exhausted (%zu bytes)\n", kStaticShared);
        abort();
    }
    g_slots.push_back(Slot{at, size, name, file, line, g_module});
    memset(&g_zone[at], 1, size);
    g_static_used = at + size + kRedzone;
    unsigned char *p = g_arena + OPSDK_SIM_MAX_DYNAMIC_SHARED + at;
    poison(p, size, kSharedPoison);
    return p;
}

// the slot of the declaration whose key (a static char beside it, one per template
// instantiation) is `key`: made on first use, found by the key's address after that. Each thread
// asks once, as its declaration runs: the kernel then holds the address in a local reference
static std::vector<std::pair<const void *, void *>> g_keys;  // open addressing, by key address

static size_t key_slot(const void *key) {
    size_t mask = g_keys.size() - 1, i = ((uintptr_t)key >> 3) * 0x9E3779B97F4A7C15ull >> 40 & mask;
    while (g_keys[i].first && g_keys[i].first != key) i = (i + 1) & mask;
    return i;
}

EXPORT void *opsdk_sim_shared_slot(const void *key, size_t size, size_t align, const char *name, const char *file,
                                   int line) {
    if (g_keys.empty()) g_keys.assign(1024, {nullptr, nullptr});
    size_t i = key_slot(key);
    if (g_keys[i].first) return g_keys[i].second;
    if ((g_slots.size() + 1) * 2 > g_keys.size()) {  // grow, keeping every key
        std::vector<std::pair<const void *, void *>> old(2 * g_keys.size(), {nullptr, nullptr});
        old.swap(g_keys);
        for (const auto &kv : old)
            if (kv.first) g_keys[key_slot(kv.first)] = kv;
        i = key_slot(key);
    }
    void *p = new_slot(size, align, name, file, line);
    g_keys[i] = {key, p};
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
    Access acc = {a, (int)n, write, 0};
    if (off < OPSDK_SIM_MAX_DYNAMIC_SHARED)
        fail_access(OPSDK_ERR_OOB_SHARED, acc,
             "%s of %zu bytes at byte %zu of dynamic shared memory, beyond the %zu bytes launched "
             "(shared_mem=)",
             write ? "write" : "read", n, off, g_dyn_bytes);
    off -= OPSDK_SIM_MAX_DYNAMIC_SHARED;
    const Slot *s = slot_near(off);
    if (!s) fail_access(OPSDK_ERR_OOB_SHARED, acc, "%s outside every __shared__ variable", write ? "write" : "read");
    long long rel = (long long)off - (long long)s->offset;
    fail_access(OPSDK_ERR_OOB_SHARED, acc,
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

// whether thread `other`'s access, made when its warp's __syncwarp count was `sync`, is ordered
// before the running thread's: both in one warp, and a __syncwarp naming both completed since
bool same_warp_synced(uint16_t other, uint32_t sync) {
    int t = g_cur;
    if (other / OPSDK_SIM_WARP != t / OPSDK_SIM_WARP) return false;
    const Warp &w = g_warps[t / OPSDK_SIM_WARP];
    unsigned both = (1u << (other % OPSDK_SIM_WARP)) | (1u << (t % OPSDK_SIM_WARP));
    return w.sync_gen != sync && (w.sync_mask & both) == both;
}

static void thread_name(char *buf, size_t cap, uint16_t t) {
    const Lane &o = g_lanes[t];
    snprintf(buf, cap, "thread (%u,%u,%u)", o.tid.x, o.tid.y, o.tid.z);
}

// fmt takes the shared variable's place, then the other thread (or "other threads"); the
// report is deferred (the block runs on: a divergent barrier behind it is the better verdict)
static void race(int status, uintptr_t a, size_t n, bool write, uint16_t other, uint32_t other_pc,
                 const char *fmt) {
    char what[256], who[64];
    describe_shared(what, sizeof what, a);
    if (other == kManyReaders) snprintf(who, sizeof who, "other threads");
    else thread_name(who, sizeof who, other);
    Access acc = {a, (int)n, write, other_pc};
    defer_access(status, acc, fmt, what, who);
}

// a race with thread `other` (kManyReaders: several), whose access was at warp sync count `sync`
static bool unordered(uint32_t epoch, uint16_t other, uint32_t sync) {
    return epoch == g_epoch && other != (uint16_t)g_cur &&
           (other == kManyReaders || !same_warp_synced(other, sync));
}

// the shadow bytes s[0..n) all alike (most often: a word written and read whole)
static inline bool alike(const Shadow *s, size_t n) {
    const uint32_t *w = (const uint32_t *)s;
    const size_t words = sizeof(Shadow) / 4;
    for (size_t i = 1; i < n; i++) {
        const uint32_t *v = (const uint32_t *)(s + i);
        for (size_t k = 0; k < words; k++)
            if (v[k] != w[k]) return false;
    }
    return true;
}

// a plain 4-byte read or write of an aligned shared word whose bytes' shadows are alike, when
// it finds nothing (no never-written word, no other thread's access since the barrier that is
// not already several readers'): the shadow updated as shared_access would, and true; else false
// and shared_access looks again, from the same state, and reports. Most shared accesses of a
// kernel are these: a word per thread, or every thread reading one word after a barrier
bool shared_word(uintptr_t a, int kind, uintptr_t pc) {
    size_t off = a - (uintptr_t)g_arena;
    if (off % 4 || !g_uniform[off / 4]) return false;
    if (off < OPSDK_SIM_MAX_DYNAMIC_SHARED) {
        if (off + 3 >= g_dyn_bytes) return false;
    } else {
        size_t s = off - OPSDK_SIM_MAX_DYNAMIC_SHARED;
        if (s + 3 >= kStaticShared || !g_zone[s] || !g_zone[s + 3]) return false;
    }
    Shadow &sh = g_shadow[off];
    uint16_t t = (uint16_t)g_cur;
    uint32_t epoch = g_epoch, off_pc = (uint32_t)(pc - g_module);
    if (kind == K_READ) {
        if (sh.w_epoch < g_block_epoch && sh.a_epoch < g_block_epoch) return false;  // never written
        if (g_races) {
            if ((sh.w_epoch == epoch && sh.writer != t) || (sh.a_epoch == epoch && sh.atomic_by != t)) return false;
            if (sh.r_epoch == epoch && sh.reader != t) {
                if (sh.reader != kManyReaders) return false;
                sh.r_pc = off_pc;
                return true;
            }
        } else if (sh.r_epoch == epoch && sh.reader != t) {
            return false;
        }
        sh.r_epoch = epoch, sh.reader = t, sh.r_sync = g_warps[g_cur / OPSDK_SIM_WARP].sync_gen, sh.r_pc = off_pc;
        return true;
    }
    if (g_races && ((sh.a_epoch == epoch && sh.atomic_by != t) || (sh.r_epoch == epoch && sh.reader != t)))
        return false;
    sh.w_epoch = epoch, sh.writer = t, sh.w_sync = g_warps[g_cur / OPSDK_SIM_WARP].sync_gen, sh.w_pc = off_pc;
    return true;
}

void shared_access(uintptr_t a, size_t n, int kind, uintptr_t pc) {
    bool reads = kind & K_READ, write = kind & K_WRITE, atomic = kind & K_ATOMIC;
    uint32_t off_pc = (uint32_t)(pc - g_module);
    size_t off = a - (uintptr_t)g_arena;
    if (n <= kRedzone) {  // within bounds when both ends are: the slots lie a redzone apart
        size_t last = off + n - 1;
        bool inside = last < OPSDK_SIM_MAX_DYNAMIC_SHARED
                          ? last < g_dyn_bytes
                          : (off >= OPSDK_SIM_MAX_DYNAMIC_SHARED && last - OPSDK_SIM_MAX_DYNAMIC_SHARED < kStaticShared &&
                             g_zone[off - OPSDK_SIM_MAX_DYNAMIC_SHARED] && g_zone[last - OPSDK_SIM_MAX_DYNAMIC_SHARED]);
        if (!inside) shared_oob(a, n, write && !reads);
    } else {
        for (size_t i = 0; i < n; i++) {
            size_t o = off + i;
            bool inside = o < OPSDK_SIM_MAX_DYNAMIC_SHARED ? o < g_dyn_bytes
                                                           : (o - OPSDK_SIM_MAX_DYNAMIC_SHARED < kStaticShared &&
                                                              g_zone[o - OPSDK_SIM_MAX_DYNAMIC_SHARED]);
            if (!inside) shared_oob(a, n, write && !reads);
        }
    }
    uint16_t t = (uint16_t)g_cur;
    uint32_t sync = g_warps[g_cur / OPSDK_SIM_WARP].sync_gen;
    bool races = g_races;
    // one byte's shadow: checked against this access, then updated by it
    auto check = [&](Shadow &s) {
        if (reads && s.w_epoch < g_block_epoch && s.a_epoch < g_block_epoch && !deferred()) {
            char what[256];
            describe_shared(what, sizeof what, a);
            Access acc = {a, (int)n, 0, 0};
            defer_access(OPSDK_ERR_UNINIT_SHARED, acc,
                 "read of %zu bytes at %s, which no thread of this block has written: shared "
                 "memory starts undefined in every block (a missing initialisation, or a read "
                 "before the __syncthreads() that follows the write)",
                 n, what);
        }
        if (races && g_races) {
            // atomics are ordered among themselves; an atomic and a plain access of another thread
            // are not, nor two plain accesses one of which writes
            if (unordered(s.w_epoch, s.writer, s.w_sync) && (reads || atomic))
                race(OPSDK_ERR_RACE_RAW, a, n, false, s.writer, s.w_pc,
                     atomic ? "atomic on %s, which %s stored to (a plain store)\x01 since the last __syncthreads(): "
                              "a data race (on a GPU the store may land before or after the atomic); put a "
                              "__syncthreads() between them"
                            : "read of %s, which %s wrote\x01 since the last __syncthreads(): a data race (on a "
                              "GPU the read may see the old or the new value); put a __syncthreads() between "
                              "the write and the read");
            if (!atomic && unordered(s.a_epoch, s.atomic_by, s.a_sync))
                race(write ? OPSDK_ERR_RACE_WAR : OPSDK_ERR_RACE_RAW, a, n, write, s.atomic_by, s.a_pc,
                     write ? "store to %s, which %s updated atomically\x01 since the last __syncthreads(): a data "
                             "race (on a GPU the atomics may land before or after the store); put a "
                             "__syncthreads() between them"
                           : "read of %s, which %s updated atomically\x01 since the last __syncthreads(): a data "
                             "race (on a GPU the read may come before or after other threads' atomics); put "
                             "a __syncthreads() between the atomics and the read");
            if (write && unordered(s.r_epoch, s.reader, s.r_sync))
                race(OPSDK_ERR_RACE_WAR, a, n, true, s.reader, s.r_pc,
                     atomic ? "atomic on %s, which %s read (a plain load)\x01 since the last __syncthreads(): a "
                              "data race (on a GPU the reader may see the update or not); put a "
                              "__syncthreads() between the read and the atomic"
                            : "write of %s, which %s read\x01 since the last __syncthreads(): a data race (on a "
                              "GPU the reader may see the new value); put a __syncthreads() between the read "
                              "and the write");
        }
        if (atomic) {
            if (s.a_epoch == g_epoch && s.atomic_by != t) s.atomic_by = kManyReaders;
            else s.atomic_by = t;
            s.a_epoch = g_epoch, s.a_sync = sync, s.a_pc = off_pc;
            return;
        }
        if (reads) {
            if (s.r_epoch != g_epoch || s.reader == t) s.r_epoch = g_epoch, s.reader = t, s.r_sync = sync, s.r_pc = off_pc;
            // an earlier reader that a __syncwarp has ordered before this point needs no tracking
            else if (s.reader != kManyReaders && same_warp_synced(s.reader, s.r_sync))
                s.reader = t, s.r_sync = sync, s.r_pc = off_pc;
            else s.reader = kManyReaders, s.r_pc = off_pc;
        }
        if (write) s.w_epoch = g_epoch, s.writer = t, s.w_sync = sync, s.w_pc = off_pc;
    };
    // a word the access covers whole and whose bytes' shadows are alike: its first byte's
    // shadow stands for all four, and comes out as each of theirs would (a finding is
    // reported once, as the first byte's). A byte of a word accessed in part: the word's bytes
    // get their own shadows again first
    for (size_t i = 0; i < n;) {
        size_t o = off + i;
        uint8_t &u = g_uniform[o / 4];
        if (o % 4 == 0 && n - i >= 4) {
            if (u) {
                check(g_shadow[o]);
            } else {
                for (int k = 0; k < 4; k++) check(g_shadow[o + k]);
                u = alike(&g_shadow[o], 4);
            }
            i += 4;
            continue;
        }
        if (u) {
            for (int k = 1; k < 4; k++) g_shadow[o / 4 * 4 + k] = g_shadow[o / 4 * 4];
            u = 0;
        }
        check(g_shadow[o]);
        i++;
    }
}
