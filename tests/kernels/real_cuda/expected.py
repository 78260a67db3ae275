"""What a good CUDA simulator should say about each kernel of the realcuda pack.

Every correct kernel configuration must pass: run, and agree with its NumPy kernel, under every
schedule. Every bug is one planted change to a correct kernel (an edit of whole lines, so line
numbers stay those of the shipped file, and/or another adapter option): its class (after what
NVIDIA's compute-sanitizer tools report, plus the GPU bugs no sanitizer names), the line of the
faulting statement in its .cu file, and the cause a good report names.

Line numbers are checked against the variant sources by test_real_cuda.py (each ``fault`` line
must hold the text ``fault_text``), so an edit of a shipped .cu file that moves them fails there.
"""
from dataclasses import dataclass, field

# cause words of each class, matched (case-insensitively) against the simulator's message
CAUSES = {
    "oob": r"out-of-bounds|out of bounds|past (its|the) end|before (its|the) (start|beginning)",
    "misaligned": r"misaligned",
    "race": r"\brace\b",
    "uninit": r"uninitiali[sz]ed|never written|not (been )?written|no (thread|kernel) wrote|before any write",
    "barrier": r"barrier|divergen",
    "collective": r"warp collective|shuffle|outside its mask|exited|not reached by every",
    "unwritten": r"no kernel wrote|unwritten|never written|left \d+ of",
    "oob_or_unwritten": r"out-of-bounds|no kernel wrote|unwritten|left \d+ of",
    "value": None,   # no sanitizer names it: a disagreement with NumPy is the detection
}

# a read after write with no barrier, where no thread has written yet: "uninitialised shared
# memory ... or a read before the __syncthreads() that follows the write" names the missing barrier
RAW_BEFORE_ANY_WRITE = r"\brace\b|uninitiali[sz]ed shared memory"

CLASSES = {
    "memcheck-oob-global": ("out-of-bounds global access (memcheck)", "oob"),
    "memcheck-oob-shared": ("out-of-bounds shared access (memcheck)", "oob"),
    "memcheck-misaligned": ("misaligned vector access (memcheck)", "misaligned"),
    "racecheck-shared": ("shared-memory race, RAW/WAR or a missing __syncthreads (racecheck)", "race"),
    "initcheck": ("read of never-written global or shared memory (initcheck)", "uninit"),
    "synccheck-barrier": ("__syncthreads not reached by every thread, or in divergent code (synccheck)", "barrier"),
    "synccheck-shuffle": ("a warp collective whose mask names exited or absent lanes (synccheck)", "collective"),
    "global-race": ("non-atomic read-modify-write of one global address by several threads (beyond racecheck)", "race"),
    "grid-tail": ("wrong grid or tail handling: missing bound check, off-by-one loop, dropped remainder", "oob_or_unwritten"),
    "warp-width": ("a warp reduction over the wrong number of lanes", "value"),
    "half-overflow": ("half-precision overflow of an intermediate or accumulator", "value"),
    "int-overflow": ("integer overflow of a counter, accumulator or index", "value"),
}


@dataclass(frozen=True)
class Correct:
    """A correct kernel configuration: it must run, agree with NumPy, and raise no alarm."""

    id: str
    module: str
    dtypes: tuple
    calls: dict = field(default_factory=dict)      # keyword arguments of the module's calls()
    options: dict = field(default_factory=dict)    # adapter options
    note: str = ""


@dataclass(frozen=True)
class Bug:
    """One planted bug: edits (line, old text, new line) of the module's shipped .cu and/or options."""

    id: str
    cls: str
    module: str
    cu: str
    edits: tuple = ()
    options: dict = field(default_factory=dict)
    dtypes: tuple = ("float32",)
    stages: tuple = ()            # the kernel stages to run (default: all of the module's calls)
    calls: dict = field(default_factory=dict)
    fault: int = None             # the faulting statement's line (None: no statement faults, e.g. unwritten)
    fault_text: str = ""          # text on that line of the variant (checked by the tests)
    also: tuple = ()              # other lines a report may name (the other access of a race)
    cause: str = ""               # what a good report says
    reachable: bool = True        # False: needs sizes beyond any test (documented limit)
    cause_re: str = None          # the cause words when they differ from the class's
    origin: str = ""              # the real-world shape of the bug


# workarounds for constructs the simulator refuses today (applied only when the shipped source
# fails to build on it; the report says so)
WORKAROUNDS = {
    "histogram.cu": ((61, "s_Hist[H64_THREADS * H64_BINS]", "    __shared__ unsigned char s_Hist[4096];"),),
}

CORRECT = (
    Correct("layer_norm", "layer_norm", ("float32", "float64")),
    Correct("masked_softmax", "masked_softmax", ("float16", "float32", "float64")),
    Correct("masked_softmax_n12", "masked_softmax", ("float32",), {"n": 12}, note="16-lane warps, two rows per hardware warp"),
    Correct("masked_softmax_n130", "masked_softmax", ("float32",), {"n": 130}, note="rows of 130 run the python kernel"),
    Correct("masked_softmax_n132", "masked_softmax", ("float16", "float32"), {"n": 132}, note="4-element vector loads"),
    Correct("rms_norm", "rms_norm", ("float16", "float32", "float64")),
    Correct("rms_norm_wide_f16", "rms_norm", ("float16",), {"spread": 150.0}, note="squares beyond float16, float accumulator"),
    Correct("bias_gelu", "bias_gelu", ("float16", "float32", "float64")),
    Correct("bias_gelu_half2", "bias_gelu", ("float16",), {"m": 4, "n": 8}, note="half2 path"),
    Correct("roi_align", "roi_align", ("float32", "float64")),
    Correct("segment", "segment", ("float32", "float64")),
    Correct("histogram", "histogram", ("float32", "float64")),
    Correct("scan", "scan", ("float16", "float32", "float64", "int32")),
    Correct("scan_block1024", "scan", ("float32",), options={"block": 1024},
            note="(1u << 32) - 1 on the second level: 0xffffffff on a GPU (shl clamps), undefined in C++"),
    Correct("gemm", "gemm", ("float32", "float64")),
    Correct("gemm_tile32", "gemm", ("float64",), options={"tile": 32}, note="32 x 32 tiles: 1024 threads"),
    Correct("embedding", "embedding", ("float32", "float64")),
    Correct("cross_entropy", "cross_entropy", ("float32", "float64")),
    Correct("cross_entropy_v301", "cross_entropy", ("float32",), {"v": 301}, note="scalar loads"),
)

BUGS = (
    # -- memcheck: out of bounds -----------------------------------------------------------------
    Bug("gemm_tile_load_unguarded", "memcheck-oob-global", "gemm", "gemm.cu",
        edits=((19, "As[ty][tx] = (row < M", "        As[ty][tx] = A[(long long)row * K + k0 + tx];"),),
        fault=19, fault_text="As[ty][tx] = A[", cause="out-of-bounds read of argument 'A' (the last row tile)",
        origin="cuda-samples matrixMul assumes sizes that are multiples of the tile; ported without the guard"),
    Bug("roi_align_bwd_edge_unclamped", "memcheck-oob-global", "roi_align", "roi_align.cu",
        edits=((49, "if (y_low >= height - 1) {", "    if (y_low >= height) {"),), stages=("bwd",),
        fault=143, fault_text="y_high * width + x_low", also=(144,),
        cause="out-of-bounds atomicAdd to argument 'grad_input' (a row past the map of the last channel)",
        origin="the clamp of bilinear_interpolate_gradient off by one: samples in the last row read row H"),
    Bug("histogram_clear_past_end", "memcheck-oob-shared", "histogram", "histogram.cu",
        edits=((25, "i < warps * bins", "    for (int i = threadIdx.x; i <= warps * bins; i += blockDim.x)"),),
        stages=("bincount",), fault=26, fault_text="s_hist[i] = T(0);",
        cause="out-of-bounds write of dynamic shared memory, one value past its end"),
    Bug("layer_norm_smem_too_small", "memcheck-oob-shared", "layer_norm", "layer_norm.cu",
        options={"fwd_smem_values": 4}, stages=("fwd",), fault=61, fault_text="cbuf[slot] = count;", also=(65,),
        cause="out-of-bounds write of dynamic shared memory (4 values launched, the counts need 2 more)",
        origin="Apex's nshared forgets the (threads.y / 2) counts"),
    Bug("masked_softmax_vector_rows_not_multiple_of_4", "memcheck-oob-global", "masked_softmax", "masked_softmax.cu",
        options={"scalar_max_n": 96}, calls={"n": 65}, stages=("fwd",), fault=20, fault_text="uchar4", also=(14,),
        cause="4-element loads of a 65-element row: the last lane reads 3 elements past the row (past the array in "
              "the last row), and the mask's uchar4 of row 1 is misaligned", cause_re=r"out-of-bounds|misaligned",
        origin="this port's own first guard (rows up to 96 taken as unvectorised; they are only up to 64), "
               "found by opsdk check --simulate's sizes check at n = 65"),
    # -- memcheck: misaligned ----------------------------------------------------------------------
    Bug("masked_softmax_mask_uchar4_misaligned", "memcheck-misaligned", "masked_softmax", "masked_softmax.cu",
        options={"vector_any_n": True}, calls={"n": 130}, stages=("fwd",), fault=20, fault_text="uchar4", also=(14,),
        cause="misaligned 4-byte read of argument 'mask' (row 1 starts at byte 130); the last lane's 4 elements "
              "also run 2 past the row (past the array in the last row)", cause_re=r"misaligned|out-of-bounds",
        origin="Megatron's kernel used for a key length that is not a multiple of 4"),
    Bug("cross_entropy_float4_unpadded", "memcheck-misaligned", "cross_entropy", "cross_entropy.cu",
        options={"vec4_any_v": True}, calls={"v": 301}, fault=90, fault_text="float4 v4 = x4[i];", also=(103,),
        cause="misaligned 16-byte read of argument 'logits' (row 1 starts at float 301); the last quad of the "
              "last row also reads 3 floats past the array", cause_re=r"misaligned|out-of-bounds",
        origin="llm.c's float4 classifier on a vocabulary not padded to a multiple of 4"),
    Bug("bias_gelu_half2_odd_n", "memcheck-misaligned", "bias_gelu", "bias_gelu.cu",
        options={"half2_any_n": True}, dtypes=("float16",), calls={"m": 4, "n": 5}, fault=68, fault_text="half2 b =",
        cause="misaligned 4-byte read of argument 'bias' (a half2 at an odd column); the pair at column n - 1 "
              "also reads one half past the end", cause_re=r"misaligned|out-of-bounds",
        origin="FasterTransformer's half2 addBiasGelu needs an even n"),
    # -- racecheck ---------------------------------------------------------------------------------
    Bug("gemm_no_sync_after_compute", "racecheck-shared", "gemm", "gemm.cu",
        edits=((25, "__syncthreads();", "        // (no barrier before the next tile is loaded)"),),
        fault=19, fault_text="As[ty][tx] =", also=(20, 24),
        cause="shared race (write after read) on As/Bs: the next tile is stored while others still read"),
    Bug("gemm_no_sync_after_load", "racecheck-shared", "gemm", "gemm.cu",
        edits=((21, "__syncthreads();", "        // (no barrier after the tiles are loaded)"),),
        fault=24, fault_text="Csub += As[ty][k] * Bs[k][tx];", also=(19, 20), cause_re=RAW_BEFORE_ANY_WRITE,
        cause="shared race (read after write) on As/Bs: a tile read before every thread stored its element"),
    Bug("layer_norm_merge_no_sync", "racecheck-shared", "layer_norm", "layer_norm.cu",
        edits=((63, "__syncthreads();", "            // (no barrier between the upper warps' writes and the merge)"),),
        stages=("fwd",), fault=65, fault_text="welford_merge(ubuf[2 * threadIdx.y]", also=(59, 60, 61, 70, 71),
        cause_re=RAW_BEFORE_ANY_WRITE,
        cause="shared race (read after write) on the Welford buffer between warp y and warp y + half"),
    Bug("scan_no_sync_after_warp_totals", "racecheck-shared", "scan", "scan.cu",
        edits=((40, "__syncthreads();", "    // (no barrier after warp 0 scanned the warp totals)"),),
        fault=43, fault_text="value += sums[warp_id - 1];", also=(38,),
        cause="shared race (read after write) on 'sums': warp totals read before warp 0 wrote them"),
    Bug("histogram_shared_plus_equals", "racecheck-shared", "histogram", "histogram.cu",
        edits=((29, "atomicAdd(s_warp_hist", "        s_warp_hist[index[pos]] += weight[pos];"),),
        stages=("bincount",), fault=29, fault_text="s_warp_hist[index[pos]] +=",
        cause="shared race: lanes of a warp add to the same bin without atomicAdd"),
    # -- initcheck ---------------------------------------------------------------------------------
    Bug("roi_align_bwd_grad_input_empty", "initcheck", "roi_align", "roi_align.cu",
        options={"zero_grad_input": False}, stages=("bwd",), fault=141, fault_text="atomicAdd(", also=(142, 143, 144),
        cause="atomicAdd reads 'grad_input', allocated by cupy.empty and never written",
        origin="torch.empty instead of torch.zeros for the gradient buffer"),
    Bug("histogram_shared_not_cleared", "initcheck", "histogram", "histogram.cu",
        edits=((25, "for (int i = threadIdx.x;", "    // (the sub-histograms are not cleared)"),
               (26, "s_hist[i] = T(0);", "    ;")), stages=("bincount",), fault=29, fault_text="atomicAdd(s_warp_hist",
        cause="read of uninitialised shared memory by the shared atomicAdd"),
    Bug("scatter_max_into_empty", "initcheck", "segment", "segment.cu",
        options={"fill_lowest": False}, stages=("max",), fault=70, fault_text="int old = *address_as_int",
        cause="the CAS loop reads 'out', allocated by cupy.empty and never written (NaN makes fmaxf pick the value)",
        origin="pytorch_scatter's scatter_max without out.fill_(lowest)"),
    # -- synccheck: barriers -----------------------------------------------------------------------
    Bug("rms_norm_early_return", "synccheck-barrier", "rms_norm", "rms_norm.cu",
        edits=((41, "const int tid = threadIdx.x;", "    const int tid = threadIdx.x; if (tid >= n) return;"),),
        fault=30, fault_text="__syncthreads();", also=(17, 41),
        cause="__syncthreads in block_reduce_sum after threads of the block returned (and a full-mask shuffle "
              "over them)", origin="`if (tid >= n) return;` before a block reduction"),
    Bug("layer_norm_bwd_sync_in_branch", "synccheck-barrier", "layer_norm", "layer_norm.cu",
        edits=((137, "if (threadIdx.y < half) {", "                if (threadIdx.y < half) { __syncthreads();"),),
        stages=("bwd",), fault=137, fault_text="if (threadIdx.y < half) { __syncthreads();",
        cause="__syncthreads inside a branch only the lower warps take"),
    Bug("rms_norm_sync_in_branch", "synccheck-barrier", "rms_norm", "rms_norm.cu",
        edits=((51, "rstd[blockIdx.x] =", "        rstd[blockIdx.x] = static_cast<T>(s_variance); __syncthreads();"),
               (53, "__syncthreads();", "    // (the barrier moved into the branch above)")),
        fault=51, fault_text="__syncthreads();", also=(56,),
        cause="__syncthreads reached by thread 0 only (and a race on s_variance)"),
    # -- synccheck: warp collectives ---------------------------------------------------------------
    Bug("segment_tb4_full_mask", "synccheck-shuffle", "segment", "segment.cu",
        edits=((11, "#define SEGMENT_TB 32", "#define SEGMENT_TB 4"),), stages=("sum",), fault=28,
        fault_text="__shfl_down_sync(FULL_MASK", cause="__shfl_down_sync with FULL_MASK in a warp whose lanes "
        "past the last row exited (undefined since Volta; the sums come out right)",
        origin="pytorch_scatter's segment_csr_kernel instantiated with TB = 4 on a grid sized for 32"),
    Bug("masked_softmax_early_return", "synccheck-shuffle", "masked_softmax", "masked_softmax.cu",
        edits=((50, "int first_batch =", "    int first_batch = (blockDim.y * blockIdx.x + threadIdx.y) * WARP_BATCH; "
                "if (first_batch >= rows) return;"),), calls={"n": 12}, stages=("fwd",), fault=34,
        fault_text="__shfl_xor_sync(0xffffffffu", cause="__shfl_xor_sync(0xffffffff) after the other half of "
        "the hardware warp returned (two 16-lane rows share it; the result is right)"),
    Bug("scan_full_mask_in_branch", "synccheck-shuffle", "scan", "scan.cu",
        edits=((33, "(1u << warps) - 1u", "        const unsigned int mask = 0xffffffffu;"),), fault=35,
        fault_text="__shfl_up_sync(mask", cause="__shfl_up_sync with a full mask inside `if (lane_id < warps)`: "
        "lanes 8-31 never arrive"),
    # -- global-memory races -----------------------------------------------------------------------
    Bug("embedding_bwd_plus_equals", "global-race", "embedding", "embedding.cu",
        edits=((36, "atomicAdd(dwte_ix", "        *dwte_ix += *dout_btc;"),), stages=("bwd",), fault=36,
        fault_text="*dwte_ix += *dout_btc;",
        cause="global race: threads of repeated tokens read-modify-write the same dwte element",
        origin="the classic backward bug: a scatter with += instead of atomicAdd"),
    Bug("roi_align_bwd_plus_equals", "global-race", "roi_align", "roi_align.cu",
        edits=((141, "atomicAdd(offset_grad_input + y_low * width + x_low",
                "                    offset_grad_input[y_low * width + x_low] += grad_bin * w1 / count;"),),
        stages=("bwd",), fault=141, fault_text="offset_grad_input[y_low * width + x_low] +=",
        cause="global race: bins of overlapping rois read-modify-write the same grad_input pixel"),
    Bug("histogram_blocks_plus_equals", "global-race", "histogram", "histogram.cu",
        edits=((35, "partial[blockIdx.x * bins + bin] = sum;", "        partial[bin] += sum;"),),
        options={"merge": False}, stages=("bincount",), fault=35, fault_text="partial[bin] += sum;",
        cause="global race: every block adds its partial histogram into the result without atomics"),
    # -- grid and tail -----------------------------------------------------------------------------
    Bug("embedding_fwd_no_bound_check", "grid-tail", "embedding", "embedding.cu",
        edits=((13, "if (idx < N) {", "    {"),), stages=("fwd",), fault=17, fault_text="int ix = inp[bt];", also=(18,),
        cause="out-of-bounds read of 'inp' by the threads of the last block past N"),
    Bug("scan_uniform_add_off_by_one", "grid-tail", "scan", "scan.cu",
        edits=((59, "if (id >= len) return;", "    if (id > len) return;"),), fault=60, fault_text="data[id] += buf;",
        cause="out-of-bounds write of 'data', one element past the end",
        origin="cuda-samples shfl_scan.cu's uniform_add has `if (id > len) return;`"),
    Bug("bias_gelu_float4_tail_dropped", "grid-tail", "bias_gelu", "bias_gelu.cu",
        edits=((58, "for (int id = 4 * quads", "    // (the (m * n) % 4 remainder is not handled)"),
               (59, "y[id] = gelu(", "    ;")), fault=None, fault_text="",
        cause="output elements 32-34 of 35 never written"),
    # -- wrong values only -------------------------------------------------------------------------
    Bug("rms_norm_warp_reduce_16_lanes", "warp-width", "rms_norm", "rms_norm.cu",
        edits=((16, "mask = 16", "    for (int mask = 8; mask > 0; mask >>= 1)"),), fault=16, fault_text="mask = 8",
        cause="sums of squares over half of each warp: results differ from NumPy"),
    Bug("masked_softmax_warp_reduce_32_lanes", "warp-width", "masked_softmax", "masked_softmax.cu",
        edits=((31, "offset = WARP_SIZE / 2", "    for (int offset = 16; offset > 0; offset /= 2) {"),),
        calls={"n": 12}, fault=31, fault_text="offset = 16",
        cause="a 32-lane reduction over 16-lane rows mixes two rows: results differ from NumPy"),
    Bug("rms_norm_square_in_half", "half-overflow", "rms_norm", "rms_norm.cu",
        edits=((46, "local_sum += v * v;", "        local_sum += static_cast<Acc>(static_cast<T>(v * v));"),),
        dtypes=("float16",), calls={"spread": 150.0}, fault=46, fault_text="static_cast<T>(v * v)",
        cause="x * x rounded to half overflows to inf above 256: rstd 0, outputs 0"),
    Bug("scan_accumulate_in_half", "half-overflow", "scan", "scan.cu",
        edits=((21, "Acc value =", "    T value = id < n ? in[id] : T(0);"),), dtypes=("float16",), fault=25,
        fault_text="value += up;", also=(43,),
        cause="the running sum kept in half overflows past 65504: inf"),
    Bug("histogram64_byte_counter_wraps", "int-overflow", "histogram", "histogram.cu",
        options={"h64_grid": 2}, stages=("h64",), fault=68, fault_text="]++;",
        cause="an unsigned char counter counts past 255 and wraps",
        origin="histogram64's grid chosen without its 255-values-per-thread limit (a fixed or capped grid)"),
    Bug("scan_accumulate_in_int32", "int-overflow", "scan", "scan.cu",
        edits=((21, "Acc value =", "    T value = id < n ? in[id] : T(0);"),), dtypes=("int32",), fault=25,
        fault_text="value += up;", also=(43,), cause="the running sum kept in int wraps past 2^31"),
    Bug("cross_entropy_int_row_offset", "int-overflow", "cross_entropy", "cross_entropy.cu",
        edits=((57, "long long idx = blockIdx.x;", "    int idx = blockIdx.x;"),), dtypes=("float64",), fault=59,
        fault_text="logits + idx * P", reachable=False,
        cause="idx * P in int overflows past 2^31 elements (rows x vocabulary)",
        origin="llm.c's classifier before idx became 64-bit; needs > 8 GB of logits to show"),
)

BY_ID = {entry.id: entry for entry in CORRECT + BUGS}
