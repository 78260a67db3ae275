// The access hooks of kernel modules: gcc/clang -fsanitize=thread makes every load and store of
// a kernel call __tsan_read/__tsan_write (no sanitizer runtime is linked: these are it), and
// atomics. Each access is checked against the allocation it falls in (bounds, initcheck, races in
// global memory) or against shared memory's shadow; its return address names the source line.
#include "sim_internal.h"

#include <string.h>

Allocation *allocation_of(uintptr_t a, bool *freed);

__attribute__((noreturn)) static void global_oob(uintptr_t a, size_t n, bool write, const Allocation *al) {
    Access acc = {a, (int)n, write, 0};
    fail_access(OPSDK_ERR_OOB_GLOBAL, acc, "%s of %zu bytes at an address %s a device allocation",
                write ? "write" : "read", n, a < al->data ? "before" : "after");
}

// the general path: shared memory, a thread's own stack, a module's globals, another allocation
void check_access(uintptr_t a, size_t n, int kind, uintptr_t pc) {
    if (!g_in_kernel || !n) return;
    if (a - (uintptr_t)g_arena < OPSDK_SIM_MAX_DYNAMIC_SHARED + g_static_used) {
        shared_access(a, n, kind, pc);
        return;
    }
    // the thread's own stack (locals whose address is taken), a module's globals: not device memory
    if (a - (uintptr_t)g_stacks < g_stack_count * (g_stack_bytes + kPage)) return;
    bool freed;
    Allocation *al = allocation_of(a, &freed);
    if (!al) {
        if (freed) {
            Access acc = {a, (int)n, (kind & K_WRITE) && !(kind & K_READ), 0};
            fail_access(OPSDK_ERR_OOB_GLOBAL, acc, "%s of %zu bytes of device memory that was freed",
                        kind & K_WRITE && !(kind & K_READ) ? "write" : "read", n);
        }
        return;
    }
    if (a < al->data || a + n > al->data + al->nbytes) global_oob(a, n, (kind & K_WRITE) && !(kind & K_READ), al);
    bool tracked = (g_races || al->uninit) && shadow_of(al);
    g_hot[(a >> 12) % kHot] = Hot{(a >> 12) | g_hot_gen, al->data, al->nbytes, al, tracked};
    global_access(al, a, n, kind, pc);
}

// an access x, nothing ordering it before the running thread's? (the common answers, quickly:
// another launch, or this thread earlier in the block)
static inline bool harmless(const GAccess &x, uint16_t me) {
    return x.epoch < g_launch_epoch || (x.epoch >= g_block_epoch && x.thread == me);
}

static inline void note(GAccess &x, unsigned mask, uint16_t me, uintptr_t pc) {
    x.epoch = g_epoch, x.sync = g_warps[me / OPSDK_SIM_WARP].sync_gen;
    x.pc = (uint32_t)(pc - g_module), x.thread = me, x.mask = (uint8_t)mask;
}

// one plain read or write within one 4-byte word of the hot allocation, when nothing unusual is
// found (no other thread's conflicting access, no never-written byte); else false, and the
// general path looks again and reports
template <int KIND> static inline bool plain_word(Allocation *al, uintptr_t a, size_t n, uintptr_t pc) {
    GWord &g = al->shadow[((a & ~(uintptr_t)3) - al->base) >> 2];
    // the next thread most likely accesses the next word (a coalesced access, a grid-stride
    // loop): its shadow is on its way while this thread's other accesses run
    __builtin_prefetch(&g + 1, 1);
    __builtin_prefetch((char *)(&g + 2) - 1, 1);
    unsigned mask = ((1u << n) - 1) << (a & 3);
    uint16_t me = (uint16_t)g_cur;
    if (KIND == K_READ) {
        if (al->uninit && (g.w.init & mask) != mask) return false;
        if (!g_races) return true;
        if (!harmless(g.w, me)) return false;
        GAccess &r = g.r;
        if (r.epoch == g_epoch && r.thread == me && (r.mask & mask) == mask) return true;
        // another thread's read in this block since the last barrier: both are kept (general path);
        // any other earlier read gives way to this one, the latest (a later write conflicting with
        // an earlier block's read conflicts with this block's too, or a barrier orders both)
        if (r.epoch == g_epoch && r.thread != me) return false;
        note(r, mask, me, pc);
        return true;
    }
    g.w.init |= mask;
    if (!g_races) return true;
    const GAccess *ga = al->atomics ? &al->atomics[((a & ~(uintptr_t)3) - al->base) >> 2] : nullptr;
    if ((ga && !harmless(*ga, me)) || !(harmless(g.r, me) || (g.r.epoch >= g_block_epoch && g.r.epoch != g_epoch)))
        return false;
    if (g.w.epoch == g_epoch && g.w.thread == me) g.w.mask |= mask;
    else note(g.w, mask, me, pc);
    return true;
}

static inline const Hot *hot_for(uintptr_t a, size_t n) {
    const Hot &h = g_hot[(a >> 12) % kHot];
    return h.tag == ((a >> 12) | g_hot_gen) && a - h.lo < h.span && a + n - h.lo <= h.span ? &h : nullptr;
}

// what the fast path leaves: the general check of the access (out of line, so that the fast
// path needs no stack frame and ends in a jump here)
template <int KIND, size_t N> __attribute__((noinline)) static void general_access(uintptr_t a, uintptr_t pc) {
    if ((g_ticks & 0xFFFFF) == 0) check_deadline();
    if (N == 4 && a - (uintptr_t)g_arena < OPSDK_SIM_MAX_DYNAMIC_SHARED + g_static_used && g_in_kernel &&
        shared_word(a, KIND, pc))
        return;
    if (const Hot *h = hot_for(a, N)) {
        if (h->tracked) global_access(h->al, a, N, KIND, pc);
        return;
    }
    check_access(a, N, KIND, pc);
}

template <int KIND, size_t N> static inline void access(uintptr_t a, uintptr_t pc) {
    if (__builtin_expect((++g_ticks & 0xFFFFF) == 0, 0)) return general_access<KIND, N>(a, pc);
    const Hot *h = hot_for(a, N);
    if (__builtin_expect(h != nullptr, 1)) {
        if (!h->tracked) return;
        if (N <= 4 && (a & 3) + N <= 4 && plain_word<KIND>(h->al, a, N, pc)) return;
    }
    return general_access<KIND, N>(a, pc);
}

// the compiler calls the aligned hooks where the type promises its size's alignment (a float4,
// a double): there a GPU's load or store needs it too, or stops with "misaligned address"
__attribute__((noreturn)) static void misaligned(uintptr_t a, size_t n, bool write) {
    bool shared = a - (uintptr_t)g_arena < OPSDK_SIM_MAX_DYNAMIC_SHARED + g_static_used;
    Access acc = {a, (int)n, write, 0};
    fail_access(OPSDK_ERR_MISALIGNED, acc, "%s of %zu bytes at %s address %#lx, %zu bytes past a %zu-byte boundary",
                write ? "write" : "read", n, shared ? "shared-memory" : "the", (unsigned long)a, (size_t)(a & (n - 1)), n);
}

template <int KIND, size_t N> __attribute__((noinline)) static void misaligned_access(uintptr_t a, uintptr_t pc) {
    if (g_in_kernel) {
        check_access(a, N, KIND, pc);  // out of bounds is the better diagnosis
        misaligned(a, N, KIND == K_WRITE);
    }
    access<KIND, N>(a, pc);
}

template <int KIND, size_t N> static inline void aligned_access(uintptr_t a, uintptr_t pc) {
    if (__builtin_expect((a & (N - 1)) != 0, 0)) return misaligned_access<KIND, N>(a, pc);
    access<KIND, N>(a, pc);
}

#define SIM_HOOKS(N)                                                                                              \
    EXPORT void __tsan_read##N(void *a) { aligned_access<K_READ, N>((uintptr_t)a, RETURN_PC()); }                 \
    EXPORT void __tsan_write##N(void *a) { aligned_access<K_WRITE, N>((uintptr_t)a, RETURN_PC()); }               \
    EXPORT void __tsan_unaligned_read##N(void *a) { access<K_READ, N>((uintptr_t)a, RETURN_PC()); }               \
    EXPORT void __tsan_unaligned_write##N(void *a) { access<K_WRITE, N>((uintptr_t)a, RETURN_PC()); }             \
    EXPORT void __tsan_volatile_read##N(void *a) { check_access((uintptr_t)a, N, K_READ | K_VOLATILE, RETURN_PC()); } \
    EXPORT void __tsan_volatile_write##N(void *a) { check_access((uintptr_t)a, N, K_WRITE | K_VOLATILE, RETURN_PC()); }
SIM_HOOKS(1)
SIM_HOOKS(2)
SIM_HOOKS(4)
SIM_HOOKS(8)
SIM_HOOKS(16)
EXPORT void __tsan_read_range(void *a, size_t n) { check_access((uintptr_t)a, n, K_READ, RETURN_PC()); }
EXPORT void __tsan_write_range(void *a, size_t n) { check_access((uintptr_t)a, n, K_WRITE, RETURN_PC()); }
EXPORT void *__tsan_memcpy(void *d, const void *s, size_t n) {
    check_access((uintptr_t)s, n, K_READ, RETURN_PC());
    check_access((uintptr_t)d, n, K_WRITE, RETURN_PC());
    return memcpy(d, s, n);
}
EXPORT void *__tsan_memmove(void *d, const void *s, size_t n) {
    check_access((uintptr_t)s, n, K_READ, RETURN_PC());
    check_access((uintptr_t)d, n, K_WRITE, RETURN_PC());
    return memmove(d, s, n);
}
EXPORT void *__tsan_memset(void *d, int c, size_t n) {
    check_access((uintptr_t)d, n, K_WRITE, RETURN_PC());
    return memset(d, c, n);
}
// -fsanitize=float-cast-overflow (gcc): a float-to-integer conversion out of the integer's range
// or of a NaN. A GPU's cvt saturates (NaN gives 0); the CPU gives INT_MIN and C++ calls it
// undefined, so the launch stops here rather than compute another answer than the GPU.
struct UbsanLocation {
    const char *file;
    uint32_t line, column;
};
struct UbsanType {
    uint16_t kind, info;
    char name[1];
};
struct UbsanFloatCast {
    UbsanLocation where;
    const UbsanType *from, *to;
};

static void float_cast(void *data, void *value) {
    if (!g_in_kernel) return;
    const UbsanFloatCast *d = (const UbsanFloatCast *)data;
    double v = 0;
    uintptr_t bits = (uintptr_t)value;
    if (d->from->info == 32) {
        float f;
        uint32_t b = (uint32_t)bits;
        memcpy(&f, &b, 4);
        v = f;
    } else if (d->from->info == 64) {
        memcpy(&v, &bits, 8);
    } else if (d->from->info > 64) {
        v = (double)*(const long double *)value;
    }
    bool is_signed = d->to->info & 1;
    int width = 1 << (d->to->info >> 1);
    const char *gpu = v != v ? "0" : v < 0 ? (is_signed ? "the type's minimum" : "0") : "the type's maximum";
    fail(OPSDK_ERR_FLOAT_CAST, d->where.file, (int)d->where.line,
         "conversion of %s %.10g to %s (%d-bit %s) is out of its range: a GPU's conversion "
         "saturates (to %s here), while C++ leaves it undefined and this CPU gives another value, so "
         "the simulator cannot reproduce it; clamp the value before converting, or use a conversion "
         "intrinsic (__float2int_rz, __double2ll_rn, ...), which saturates as on a GPU",
         d->from->name, v, d->to->name, width, is_signed ? "signed" : "unsigned", gpu);
}
EXPORT void __ubsan_handle_float_cast_overflow(void *data, void *value) { float_cast(data, value); }
EXPORT void __ubsan_handle_float_cast_overflow_abort(void *data, void *value) { float_cast(data, value); }

EXPORT void __tsan_init() {}
EXPORT void __tsan_func_entry(void *) {}
EXPORT void __tsan_func_exit() {}
EXPORT void __tsan_vptr_update(void **p, void *) { check_access((uintptr_t)p, sizeof(void *), K_WRITE, RETURN_PC()); }
EXPORT void __tsan_vptr_read(void **p) { check_access((uintptr_t)p, sizeof(void *), K_READ, RETURN_PC()); }
EXPORT void __tsan_atomic_thread_fence(int) {}
EXPORT void __tsan_atomic_signal_fence(int) {}

// C/C++ atomics inside kernel code (static-local guards, user __atomic builtins)
#define SIM_TSAN_ATOMICS(N, T)                                                                          \
    EXPORT T __tsan_atomic##N##_load(const volatile T *a, int) {                                         \
        check_access((uintptr_t)a, sizeof(T), K_READ | K_ATOMIC, RETURN_PC());                                        \
        return __atomic_load_n(a, __ATOMIC_SEQ_CST);                                                     \
    }                                                                                                    \
    EXPORT void __tsan_atomic##N##_store(volatile T *a, T v, int) {                                      \
        check_access((uintptr_t)a, sizeof(T), K_WRITE | K_ATOMIC, RETURN_PC());                                        \
        __atomic_store_n(a, v, __ATOMIC_SEQ_CST);                                                        \
    }                                                                                                    \
    EXPORT T __tsan_atomic##N##_exchange(volatile T *a, T v, int) {                                      \
        check_access((uintptr_t)a, sizeof(T), K_READ | K_WRITE | K_ATOMIC, RETURN_PC());                                         \
        return __atomic_exchange_n(a, v, __ATOMIC_SEQ_CST);                                              \
    }                                                                                                    \
    EXPORT T __tsan_atomic##N##_fetch_add(volatile T *a, T v, int) {                                     \
        check_access((uintptr_t)a, sizeof(T), K_READ | K_WRITE | K_ATOMIC, RETURN_PC());                                         \
        return __atomic_fetch_add(a, v, __ATOMIC_SEQ_CST);                                               \
    }                                                                                                    \
    EXPORT T __tsan_atomic##N##_fetch_sub(volatile T *a, T v, int) {                                     \
        check_access((uintptr_t)a, sizeof(T), K_READ | K_WRITE | K_ATOMIC, RETURN_PC());                                         \
        return __atomic_fetch_sub(a, v, __ATOMIC_SEQ_CST);                                               \
    }                                                                                                    \
    EXPORT T __tsan_atomic##N##_fetch_and(volatile T *a, T v, int) {                                     \
        check_access((uintptr_t)a, sizeof(T), K_READ | K_WRITE | K_ATOMIC, RETURN_PC());                                         \
        return __atomic_fetch_and(a, v, __ATOMIC_SEQ_CST);                                               \
    }                                                                                                    \
    EXPORT T __tsan_atomic##N##_fetch_or(volatile T *a, T v, int) {                                      \
        check_access((uintptr_t)a, sizeof(T), K_READ | K_WRITE | K_ATOMIC, RETURN_PC());                                         \
        return __atomic_fetch_or(a, v, __ATOMIC_SEQ_CST);                                                \
    }                                                                                                    \
    EXPORT T __tsan_atomic##N##_fetch_xor(volatile T *a, T v, int) {                                     \
        check_access((uintptr_t)a, sizeof(T), K_READ | K_WRITE | K_ATOMIC, RETURN_PC());                                         \
        return __atomic_fetch_xor(a, v, __ATOMIC_SEQ_CST);                                               \
    }                                                                                                    \
    EXPORT T __tsan_atomic##N##_fetch_nand(volatile T *a, T v, int) {                                    \
        check_access((uintptr_t)a, sizeof(T), K_READ | K_WRITE | K_ATOMIC, RETURN_PC());                                         \
        return __atomic_fetch_nand(a, v, __ATOMIC_SEQ_CST);                                              \
    }                                                                                                    \
    EXPORT int __tsan_atomic##N##_compare_exchange_strong(volatile T *a, T *c, T v, int, int) {          \
        check_access((uintptr_t)a, sizeof(T), K_READ | K_WRITE | K_ATOMIC, RETURN_PC());                                         \
        return __atomic_compare_exchange_n(a, c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);          \
    }                                                                                                    \
    EXPORT int __tsan_atomic##N##_compare_exchange_weak(volatile T *a, T *c, T v, int, int) {            \
        check_access((uintptr_t)a, sizeof(T), K_READ | K_WRITE | K_ATOMIC, RETURN_PC());                                         \
        return __atomic_compare_exchange_n(a, c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);          \
    }                                                                                                    \
    EXPORT T __tsan_atomic##N##_compare_exchange_val(volatile T *a, T c, T v, int, int) {                \
        check_access((uintptr_t)a, sizeof(T), K_READ | K_WRITE | K_ATOMIC, RETURN_PC());                                         \
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
    // without instrumentation the plain stores are not seen, so the shadow would mislead
    if (g_spec->instrumented) check_access((uintptr_t)ptr, size, op != 11 ? K_READ | K_WRITE | K_ATOMIC : K_READ | K_ATOMIC, RETURN_PC());
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

