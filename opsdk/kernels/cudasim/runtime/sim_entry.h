// How a kernel module exposes its kernels: each kernel gets an entry that unpacks CuPy-style
// argument pointers (one pointer per parameter, pointing at its value) into a call, and a table
// describing every parameter as the compiler sees it, so a launch can be checked against it.
#ifndef OPSDK_SIM_ENTRY_H
#define OPSDK_SIM_ENTRY_H

namespace opsdk_sim {

template <class T> struct vector_info { static constexpr int count = 0; typedef void elem; };
#define OPSDK_SIM_VINFO(N, T)                                                                     \
    template <> struct vector_info<N##1> { static constexpr int count = 1; typedef T elem; };     \
    template <> struct vector_info<N##2> { static constexpr int count = 2; typedef T elem; };     \
    template <> struct vector_info<N##3> { static constexpr int count = 3; typedef T elem; };     \
    template <> struct vector_info<N##4> { static constexpr int count = 4; typedef T elem; };
OPSDK_SIM_VINFO(char, signed char)
OPSDK_SIM_VINFO(uchar, unsigned char)
OPSDK_SIM_VINFO(short, short)
OPSDK_SIM_VINFO(ushort, unsigned short)
OPSDK_SIM_VINFO(int, int)
OPSDK_SIM_VINFO(uint, unsigned int)
OPSDK_SIM_VINFO(long, long)
OPSDK_SIM_VINFO(ulong, unsigned long)
OPSDK_SIM_VINFO(longlong, long long)
OPSDK_SIM_VINFO(ulonglong, unsigned long long)
OPSDK_SIM_VINFO(float, float)
OPSDK_SIM_VINFO(double, double)
#undef OPSDK_SIM_VINFO
template <> struct vector_info<__half2> { static constexpr int count = 2; typedef __half elem; };
template <> struct vector_info<__nv_bfloat162> { static constexpr int count = 2; typedef __nv_bfloat16 elem; };

template <class T> inline int scalar_kind(bool pointee) {
    typedef typename std::remove_cv<T>::type U;
    if (std::is_pointer<U>::value) return OPSDK_KIND_POINTER;
    if (std::is_void<U>::value) return OPSDK_KIND_VOID;
    if (std::is_same<U, bool>::value) return OPSDK_KIND_BOOL;
    if (std::is_floating_point<U>::value || std::is_same<U, __half>::value || std::is_same<U, __nv_bfloat16>::value)
        return OPSDK_KIND_FLOAT;
    if (pointee && (std::is_same<U, char>::value || std::is_same<U, signed char>::value ||
                    std::is_same<U, unsigned char>::value))
        return OPSDK_KIND_BYTES;
    if (std::is_integral<U>::value || std::is_enum<U>::value)
        return std::is_signed<U>::value ? OPSDK_KIND_SINT : OPSDK_KIND_UINT;
    if (vector_info<U>::count) return OPSDK_KIND_VECTOR;
    return OPSDK_KIND_OTHER;
}

template <class T> inline opsdk_sim_type type_of(bool pointee) {
    typedef typename std::remove_cv<T>::type U;
    typedef typename vector_info<U>::elem E;
    opsdk_sim_type t;
    t.kind = scalar_kind<U>(pointee);
    t.size = (int)sizeof(typename std::conditional<std::is_void<U>::value, char, U>::type);
    if (std::is_void<U>::value) t.size = 0;
    t.elem_kind = vector_info<U>::count ? scalar_kind<E>(false) : 0;
    t.elem_size = vector_info<U>::count ? (int)sizeof(typename std::conditional<std::is_void<E>::value, char, E>::type) : 0;
    return t;
}

template <class T> inline const char *spelling() { return __PRETTY_FUNCTION__; }

template <class T> inline opsdk_sim_param describe() {
    typedef typename std::remove_cv<T>::type U;
    typedef typename std::remove_pointer<U>::type P;
    opsdk_sim_param p;
    p.type = type_of<U>(false);
    if (std::is_pointer<U>::value) {
        p.pointee = type_of<P>(true);
        p.pointee_const = std::is_const<P>::value;
    } else {
        p.pointee = opsdk_sim_type{0, 0, 0, 0};
        p.pointee_const = 0;
    }
    p.spelling = spelling<T>();
    return p;
}

template <class... A> struct params {
    static const opsdk_sim_param *table() {
        static const opsdk_sim_param t[sizeof...(A) + 1] = {describe<A>()..., opsdk_sim_param()};
        return t;
    }
};

// argument i of the launch, for one thread: the launch's argument block is host memory, not
// device memory, so its loads are not checked (a checked load per parameter and thread cost a
// block of 1024 threads more than its kernel's own body)
template <class T> __attribute__((noinline, no_sanitize("thread"))) T argument(void **args, std::size_t i) {
    return *static_cast<T *>(args[i]);
}

template <class... A, std::size_t... I>
inline void call_with(void (*f)(A...), void **args, std::index_sequence<I...>) {
    (void)args;
    f(argument<typename std::remove_cv<A>::type>(args, I)...);
}

template <class... A> inline void invoke(void (*f)(A...), void **args) {
    call_with(f, args, std::index_sequence_for<A...>{});
}

template <class... A> inline int param_count(void (*)(A...)) { return (int)sizeof...(A); }

template <class... A> inline const opsdk_sim_param *param_table(void (*)(A...)) { return params<A...>::table(); }

}  // namespace opsdk_sim

#endif
