"""Left shifts shift as PTX's shl does: an amount of the register's width or more gives 0.

C++ leaves such a shift undefined and x86 takes the amount modulo the width (1u << 32 is 1 there),
but kernels rely on the GPU's answer: `(1u << warps) - 1` is the full lane mask when a block has
32 warps (cuda-samples' shfl_scan with 1024 threads). The rewriter wraps each shift's right
operand; these tests pin both the semantics and the operand it finds.
"""
import numpy

from opsdk.kernels.cudasim import rewrite

SHIFTS = r'''
extern "C" __global__ void shifts(unsigned *out, unsigned long long *wide, int w) {
    unsigned m = (1u << w) - 1u;          // w = 32: a full mask on a GPU
    unsigned c = 0xffu;
    c <<= w;                              // compound: 0 as well
    out[0] = m;
    out[1] = c;
    out[2] = 1u << (w - 1);               // in range: as C++
    out[3] = 3u << w - 31 << 1;           // left to right: (3 << 1) << 1
    wide[0] = (1ull << (2 * w)) - 1ull;   // 64 on a 64-bit operand: a full 64-bit mask
    wide[1] = 1ull << (w + 1);
}
'''


def test_a_shift_by_the_width_or_more_gives_zero_as_on_a_gpu(cp):
    out, wide = cp.zeros(4, cp.uint32), cp.zeros(2, cp.uint64)
    cp.RawModule(code=SHIFTS).get_function("shifts")((1,), (1,), (out, wide, numpy.int32(32)))
    assert out.get().tolist() == [0xFFFFFFFF, 0, 1 << 31, 12]
    assert wide.get().tolist() == [2 ** 64 - 1, 1 << 33]


def _wrapped(line):
    text = rewrite.rewrite(f'# 1 "/src/k.cu"\n__global__ void f(int n, int w) {{\n  {line}\n}}\n').text
    return text.splitlines()[2].strip()


def test_the_rewriter_wraps_the_whole_right_operand_and_nothing_past_it():
    assert _wrapped("int a = 1 << w + 1 & 3;") == "int a = 1 << ::opsdk_sim_shift( w + 1) & 3;"
    assert _wrapped("int a = x[1 << n] << g(n) > 2 ? a << b : c;") == (
        "int a = x[1 << ::opsdk_sim_shift( n)] << ::opsdk_sim_shift( g(n)) > 2 ? a << ::opsdk_sim_shift( b) : c;")
    assert _wrapped("int a = 1 << static_cast<int>(n), b = -n << -w * 2;") == (
        "int a = 1 << ::opsdk_sim_shift( static_cast<int>(n)), b = -n << ::opsdk_sim_shift( -w * 2);")


def test_shifts_outside_functions_and_in_shared_sizes_are_left_as_written():
    text = rewrite.rewrite('# 1 "/src/k.cu"\nconst int K = 1 << 4;\n__global__ void f() {\n'
                           '  __shared__ float s[1 << 5];\n  s[0] = 0;\n}\n').text
    assert "const int K = 1 << 4;" in text and "opsdk_sim_shift" not in text
