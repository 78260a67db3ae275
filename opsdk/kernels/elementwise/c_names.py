"""Names C, C++ (CUDA is C++) and the headers of the generated kernels take for themselves.

Shared by the scalar bodies of ``Elementwise.c_bodies`` and the formula generator (which writes
such bodies). An op's inputs and attributes become parameters of the C and CUDA kernels, so none may be a
keyword, a macro the compilers predefine or the headers define (``linux`` is ``1`` in GNU C), a
type the signatures use, a CUDA built-in variable, or a math function the CUDA kernels call by
name (a parameter ``expf`` would hide the function ``expf``).
"""
import re

C_KEYWORDS = frozenset("""
    auto break case char const continue default do double else enum extern float for goto if
    inline int long register restrict return short signed sizeof static struct switch typedef
    union unsigned void volatile while asm typeof
""".split())
CPP_KEYWORDS = frozenset("""
    alignas alignof and and_eq bitand bitor bool catch char8_t char16_t char32_t class compl
    concept consteval constexpr constinit const_cast co_await co_return co_yield decltype delete
    dynamic_cast explicit export false friend mutable namespace new noexcept not not_eq nullptr
    operator or or_eq private protected public reinterpret_cast requires static_assert
    static_cast template this thread_local throw true try typeid typename using virtual wchar_t
    xor xor_eq
""".split())
# object-like macros of gcc -dM -E over opsdk/elementwise.h and opsdk/maths.h (names without a leading underscore)
MACROS = frozenset("""
    linux unix math_errhandling NULL NAN INFINITY HUGE_VAL HUGE_VALF HUGE_VALL MATH_ERRNO
    MATH_ERREXCEPT FP_ILOGB0 FP_ILOGBNAN FP_INFINITE FP_NAN FP_NORMAL FP_SUBNORMAL FP_ZERO M_E
    M_LOG2E M_LOG10E M_LN2 M_LN10 M_PI M_PI_2 M_PI_4 M_1_PI M_2_PI M_2_SQRTPI M_SQRT2 M_SQRT1_2
    SIZE_MAX PTRDIFF_MAX PTRDIFF_MIN SIG_ATOMIC_MAX SIG_ATOMIC_MIN WCHAR_MAX WCHAR_MIN WINT_MAX
    WINT_MIN
""".split())
_STDINT_MACRO = re.compile(r"U?INT(_LEAST|_FAST)?(8|16|32|64)_(MAX|MIN)|U?INT(MAX|PTR)_(MAX|MIN)")
_TYPE = re.compile(r"u?int(_least|_fast)?(8|16|32|64)_t|u?int(max|ptr)_t|size_t|ptrdiff_t|float_t|double_t")
CUDA_BUILTINS = frozenset(("threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize"))
# the maths functions of C's and CUDA's libraries, float and double, which opsdk/maths.h and
# opsdk/maths.cuh call: a kernel parameter of one's name would hide it where those are inlined
CUDA_MATHS = frozenset(name + suffix for name in (
    "exp", "expm1", "log", "log1p", "sqrt", "cbrt", "sin", "cos", "tan", "asin", "acos", "atan",
    "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "erf", "erfc", "pow") for suffix in ("", "f"))


def reserved_by_c(name):
    """Why ``name`` cannot name a parameter of the generated C or CUDA kernels, or None."""
    if name in C_KEYWORDS:
        return "a keyword of C"
    if name in CPP_KEYWORDS:
        return "a keyword of C++ (CUDA sources are C++)"
    if name in MACROS or _STDINT_MACRO.fullmatch(name):
        return "a macro of the C compiler or headers"
    if _TYPE.fullmatch(name):
        return "a C type name"
    if name in CUDA_BUILTINS:
        return "a built-in variable of CUDA"
    if name in CUDA_MATHS:
        return "a maths function of the C and CUDA libraries"
    return None
