// Device allocations: each its own mapping, data flush against a guard region, slack filled
// with canaries; a registry sorted by address finds the allocation of any access; freed mappings
// are kept for reuse (mapping and unmapping cost more than most small kernels).
#include "sim_internal.h"

#include <algorithm>
#include <string.h>
#include <sys/mman.h>

static std::vector<Allocation *> g_live;  // by map address
static std::vector<Allocation *> g_pool;  // freed mappings kept for reuse
static size_t g_pool_bytes;
static const size_t kPoolLimit = 64u << 20;
static const size_t kPoolLargest = 4u << 20;
// what lies at a page: a live allocation, freed memory (kFreed), or nothing of ours (null); a
// direct-mapped cache in front of the registry, emptied whenever an allocation comes or goes
// (by moving its generation on: an entry of an older one is stale, and nothing is rewritten)
struct PageKind {
    uintptr_t page;
    Allocation *al;
    uint64_t gen;
    bool freed;
};
static PageKind g_pages[1024];
static uint64_t g_pages_gen = 1;
static Allocation *find_freed(uintptr_t a);

static void forget_pages() {
    g_pages_gen++;
    forget_hot();
}

void poison(unsigned char *p, size_t n, uint32_t word) {
    // each byte holds the byte of `word` its address selects (little-endian words at 4-byte
    // boundaries), so a float read of any aligned 4 bytes is the same NaN
    while (n && ((uintptr_t)p & 3)) *p = (unsigned char)(word >> (8 * ((uintptr_t)p & 3))), p++, n--;
    uint32_t *q = (uint32_t *)p;
    for (size_t i = 0, words = n / 4; i < words; i++) q[i] = word;
    p += n / 4 * 4, n &= 3;
    while (n) *p = (unsigned char)(word >> (8 * ((uintptr_t)p & 3))), p++, n--;
}

static bool poisoned_with(uintptr_t lo, uintptr_t hi, uint32_t word, uintptr_t *first_bad) {
    for (uintptr_t p = lo; p < hi; p++) {
        if ((p & 3) == 0 && p + 4 <= hi) {
            if (*(const uint32_t *)p == word) {
                p += 3;
                continue;
            }
        }
        if (*(unsigned char *)p != (unsigned char)(word >> (8 * (p & 3)))) {
            *first_bad = p;
            return false;
        }
    }
    return true;
}

static bool by_map(const Allocation *a, const Allocation *b) { return a->map < b->map; }

// the live allocation whose mapping (guard regions included) holds address a, or null
Allocation *find_allocation(uintptr_t a) {
    auto it = std::upper_bound(g_live.begin(), g_live.end(), a,
                               [](uintptr_t x, const Allocation *al) { return x < (uintptr_t)al->map; });
    if (it == g_live.begin()) return nullptr;
    Allocation *al = *(it - 1);
    return a - (uintptr_t)al->map < al->map_bytes ? al : nullptr;
}

// the live allocation at address a (null: none; *freed: a is in freed device memory)
Allocation *allocation_of(uintptr_t a, bool *freed) {
    uintptr_t page = a / kPage;
    PageKind &k = g_pages[page % 1024];
    if (k.page != page || k.gen != g_pages_gen) {
        k.page = page, k.gen = g_pages_gen;
        k.al = find_allocation(a);
        k.freed = !k.al && find_freed(a);
    }
    *freed = k.freed;
    return k.al;
}

// a freed mapping that holds address a (an access to freed device memory), or null
static Allocation *find_freed(uintptr_t a) {
    for (Allocation *al : g_pool)
        if (a - (uintptr_t)al->map < al->map_bytes) return al;
    return nullptr;
}

EXPORT void *opsdk_sim_alloc(uint64_t nbytes, uint64_t align, uint64_t *reserve_lo, uint64_t *reserve_hi) {
    if (align < 1) align = 1;
    size_t rw = (nbytes + align + kPage - 1) / kPage * kPage;
    if (rw == 0) rw = kPage;
    size_t total = kGuard + rw + kGuard;
    Allocation *al = nullptr;
    for (size_t i = g_pool.size(); i-- > 0;)
        if (g_pool[i]->map_bytes == total) {
            al = g_pool[i];
            g_pool.erase(g_pool.begin() + i);
            g_pool_bytes -= total;
            break;
        }
    if (!al) {
        void *m = mmap(nullptr, total, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (m == MAP_FAILED) return nullptr;
        char *map = (char *)m;
        if (mprotect(map + kGuard, rw, PROT_READ | PROT_WRITE) != 0) {
            munmap(map, total);
            return nullptr;
        }
        al = new Allocation();
        al->map = map, al->map_bytes = total;
        al->rw_lo = (uintptr_t)map + kGuard, al->rw_hi = al->rw_lo + rw;
    }
    uintptr_t data = (al->rw_hi - nbytes) / align * align;
    al->data = data, al->nbytes = (size_t)nbytes, al->base = data & ~(uintptr_t)3;
    al->shadow = nullptr, al->shadow_bytes = 0, al->uninit = false;
    al->atomics = nullptr, al->atomics_bytes = 0;
    poison((unsigned char *)al->rw_lo, data - al->rw_lo, kCanary);
    poison((unsigned char *)(data + nbytes), al->rw_hi - (data + nbytes), kCanary);
    g_live.insert(std::upper_bound(g_live.begin(), g_live.end(), al, by_map), al);
    forget_pages();
    *reserve_lo = (uintptr_t)al->map;
    *reserve_hi = (uintptr_t)al->map + al->map_bytes;
    return (void *)data;
}

static Allocation *live_at(void *ptr) {
    Allocation *al = find_allocation((uintptr_t)ptr);
    return al && al->data == (uintptr_t)ptr ? al : nullptr;
}

EXPORT void opsdk_sim_free(void *ptr) {
    Allocation *al = live_at(ptr);
    if (!al) return;
    g_live.erase(std::lower_bound(g_live.begin(), g_live.end(), al, by_map));
    forget_pages();
    drop_shadow(al);
    if (al->map_bytes <= kPoolLargest && g_pool_bytes + al->map_bytes <= kPoolLimit) {
        g_pool.push_back(al);
        g_pool_bytes += al->map_bytes;
        return;
    }
    munmap(al->map, al->map_bytes);
    delete al;
}

// -1 when the canaries around an allocation are intact, else the offset (from the data) of the
// first byte written outside it
EXPORT int64_t opsdk_sim_check_canaries(void *ptr) {
    Allocation *al = live_at(ptr);
    if (!al) return -1;
    uintptr_t bad;
    if (!poisoned_with(al->rw_lo, al->data, kCanary, &bad)) return (int64_t)(bad - al->data);
    if (!poisoned_with(al->data + al->nbytes, al->rw_hi, kCanary, &bad)) return (int64_t)(bad - al->data);
    return -1;
}

// cupy.empty and friends: the memory holds a NaN pattern, and a kernel's read of a byte no
// kernel has written is reported (the runtime's initcheck)
EXPORT void opsdk_sim_fill_uninitialised(void *ptr, uint64_t nbytes) {
    poison((unsigned char *)ptr, nbytes, kEmptyPoison);
    Allocation *al = live_at(ptr);
    if (al) al->uninit = true;
    forget_hot();
}

__attribute__((constructor)) static void init_pages() { forget_pages(); }

void clear_access_shadows() {
    for (Allocation *al : g_live) {
        if (!al->shadow) continue;
        size_t words = al->shadow_bytes / sizeof(GWord);
        for (size_t i = 0; i < words; i++) {
            uint8_t init = al->shadow[i].w.init;
            memset(&al->shadow[i], 0, sizeof(GWord));
            al->shadow[i].w.init = init;
        }
        if (al->atomics) memset(al->atomics, 0, al->atomics_bytes);
    }
    memset(g_shadow, 0, (OPSDK_SIM_MAX_DYNAMIC_SHARED + g_static_used) * sizeof(Shadow));
    memset(g_uniform, 0, (OPSDK_SIM_MAX_DYNAMIC_SHARED + g_static_used + 3) / 4);
}
