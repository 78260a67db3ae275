"""What a good verifier must say about each op of the realops pack.

CORRECT: ops that must pass every run (a flag on one of them is a false alarm).
BUGS: one entry per bug variant: its class (the classes of issue 21 first), the public source it
is modelled on, where it lives (python, c or cuda), the cause a good verifier should name (a
regular expression matched, case-insensitively, against the failure messages of the op), the
backends a run must include for the bug to be reachable at all, and the dtypes (a float
accumulator in the float32 kernel does not exist in a run that checks float64 alone: the user
asked not to run float32).

The cause patterns are deliberately broad (the words a report of that cause would use), so a
miss means the cause went unnamed, not that the wording differs.
"""

# the classes issue 21 names, then the others the brief lists
REGIME, TIES, F32_ACC, BUFFER, BROADCAST = ("selection regime", "ties", "float32 accumulation", "buffer reuse",
                                            "broadcasting")
SECOND_ORDER, TAIL, GRAD_SCALE, INPLACE_INPUT, INPLACE_GRAD, STATE, RACE, NAN, INDEX_DTYPE = (
    "wrong second derivative", "loop tail", "incoming gradient not scaled", "in-place input",
    "in-place incoming gradient", "state outside ctx", "CUDA race", "NaN at a special point", "index dtype")

CORRECT = {
    "sparsemax": "deep-spin/entmax entmax/activations.py (SparsemaxFunction)",
    "entmax15": "deep-spin/entmax entmax/activations.py (Entmax15Function, k-partial sort)",
    "fused_bias_act": "NVlabs/stylegan2-ada-pytorch torch_utils/ops/bias_act.py + bias_act.cu",
    "chamfer": "ThibaultGROUEIX/ChamferDistancePytorch chamfer3D/chamfer3D.cu + dist_chamfer_3D.py",
    "soft_dtw": "Maghoumi/pytorch-softdtw-cuda soft_dtw_cuda.py (CPU path)",
    "segment_max": "rusty1s/pytorch_scatter csrc/cpu/segment_csr_cpu.cpp + reducer.h + segment_csr.cpp",
    "segment_mean": "rusty1s/pytorch_scatter csrc/cpu/segment_csr_cpu.cpp + segment_csr.cpp",
    "logsumexp": "karpathy/llm.c train_gpt2.c softmax_forward + llmc/fused_classifier.cuh",
}


def bug(cls, source, where, cause, backends=("python", "c"), dtypes=("float32", "float64")):
    return {"class": cls, "source": source, "where": where, "cause": cause, "backends": backends,
            "dtypes": dtypes}


CUDA = ("cuda",)
BUGS = {
    # -- selection regime: wrong only where a piecewise op switches regime ----------------------
    "entmax15_bug_topk_unsolved": bug(
        REGIME, "deep-spin/entmax _entmax_threshold_and_support: `unsolved = support_size == k` re-solve",
        "python", r"reference|jacobian|gradcheck"),
    "sparsemax_bug_c_top2": bug(
        REGIME, "deep-spin/entmax k-partial sort without the unsolved-row fallback, in a C fast path",
        "c", r"disagrees with python|reference|jacobian"),
    "segment_max_bug_c_empty": bug(
        REGIME, "pytorch_scatter reducer.h write(): the `count > 0` branch for empty segments",
        "c", r"disagrees with python|reference"),
    "logsumexp_bug_c_merge": bug(
        REGIME, "llm.c fused_classifier.cuh online max/sum rescale (old_maxval - maxval)",
        "c", r"disagrees with python|block|size"),
    "chamfer_bug_nn_shared": bug(
        REGIME, "numpy fancy-index `-=` vs subtract.at in a scatter (ChamferDistancePytorch backward's atomicAdd)",
        "python", r"jacobian|reference|gradcheck"),
    # -- ties -------------------------------------------------------------------------------------
    "chamfer_bug_c_tie_last": bug(
        TIES, "pytorch/pytorch #37921 (CPU last index, CUDA first); chamfer3D.cu `d < best`",
        "c", r"tie|index|integer output|idx"),
    "chamfer_bug_cuda_tie_last": bug(
        TIES, "pytorch/pytorch #30708, #17738: argmin/argmax ties differ between CPU and CUDA",
        "cuda", r"tie|index|integer output|idx", CUDA),
    "segment_max_bug_c_tie_last": bug(
        TIES, "pytorch_scatter reducer.h update(): `new_val > *val` keeps the first row",
        "c", r"tie|index|integer output|arg"),
    "segment_max_bug_grad_all_ties": bug(
        TIES, "HIPS/autograd #141, jax #13600, pytorch_scatter #399: which tied element gets the gradient",
        "python", r"tie|duplicat|index|argmax"),
    # -- float32 accumulation ----------------------------------------------------------------------
    "logsumexp_bug_c_f32_sum": bug(
        F32_ACC, "karpathy/llm.c train_gpt2.c softmax_forward: `float sum` over a 50257-long row",
        "c", r"accumulat|float32|precision|sum", dtypes=("float32",)),
    "fused_bias_act_bug_c_db_f32": bug(
        F32_ACC, "bias gradient reduction over N*H*W in a float accumulator (bias_act leaves it to torch's sum)",
        "c", r"accumulat|float32|precision|sum", dtypes=("float32",)),
    "segment_mean_bug_c_f32": bug(
        F32_ACC, "PaddlePaddle #73658 (fp32 accumulation in cumulative kernels); pytorch_scatter opmath_t",
        "c", r"accumulat|float32|precision|sum", dtypes=("float32",)),
    # -- buffer reuse -------------------------------------------------------------------------------
    "fused_bias_act_bug_c_dx_buffer": bug(
        BUFFER, "a C adapter caching its gradient buffer per shape (issue 21 class 4)",
        "c", r"shares memory|buffer|earlier call|overwr"),
    "chamfer_bug_idx_buffer": bug(
        BUFFER, "index outputs written into module-level buffers (issue 21 class 4)",
        "python", r"shares memory|buffer|earlier call|overwr"),
    "logsumexp_bug_grad_workspace": bug(
        BUFFER, "numpy `out=` into a module-level workspace returned as the gradient",
        "python", r"shares memory|buffer|earlier call|overwr|workspace"),
    "segment_max_bug_grad_buffer": bug(
        BUFFER, "pytorch_scatter segment_csr.cpp backward's zeros(E + 1) buffer, kept at module level",
        "python", r"shares memory|buffer|earlier call|overwr"),
    # -- broadcasting -------------------------------------------------------------------------------
    "sparsemax_bug_squeeze": bug(
        BROADCAST, "deep-spin/entmax PR #18: supp_size.squeeze() in backward with a size-1 axis",
        "python", r"wrong shape|broadcast|squeez|axis of size 1"),
    "soft_dtw_bug_template_mean": bug(
        BROADCAST, "deeplearning4j/nd4j #2424, jimfleming/differentiation #1: broadcast gradient reduced wrong (mean)",
        "python", r"broadcast|mean instead of sum|template"),
    "fused_bias_act_bug_db_channels_last": bug(
        BROADCAST, "EleutherAI/bergson PR #76 (bias gradient contracted over the wrong dims); bias_act reduce dims",
        "python", r"jacobian|broadcast|axis|axes"),
    "chamfer_bug_template_slice": bug(
        BROADCAST, "a template point cloud broadcast over the batch, its gradient sliced instead of summed",
        "python", r"broadcast|template|sum"),
    # -- the other classes of the brief ---------------------------------------------------------------
    "fused_bias_act_bug_grad2_gain": bug(
        SECOND_ORDER, "stylegan2-ada bias_act.cu grad == 2 branch (`y *= gain * dy` after the branch)",
        "python, c, cuda", r"gradgradcheck|second derivative|hessian"),
    "chamfer_bug_c_tail": bug(
        TAIL, "ChamferDistancePytorch chamfer3D.cu unrolled-by-4 loop and its tail; AtlasNet #26",
        "c", r"tail|size|disagrees with python"),
    "soft_dtw_bug_no_grad_scale": bug(
        GRAD_SCALE, "k2-fsa/k2 #341: backward of get_tot_scores ignores the incoming gradient",
        "python", r"grad_output|incoming grad|ignor"),
    "sparsemax_bug_inplace_input": bug(
        INPLACE_INPUT, "deep-spin/entmax `X = X - max_val` ported as an in-place subtraction",
        "python", r"in place|wrote into its input"),
    "entmax15_bug_inplace_grad": bug(
        INPLACE_GRAD, "deep-spin/entmax Entmax15Function.backward `dX = dY * gppr` without the copy",
        "python", r"in place|incoming gradient"),
    "soft_dtw_bug_state_on_class": bug(
        STATE, "state kept on the Function class instead of ctx",
        "python", r"interfere|state|ctx"),
    "chamfer_bug_cuda_no_atomic": bug(
        RACE, "ChamferDistancePytorch NmDistanceGradKernel atomicAdd; openvdb/fvdb-core PR #434",
        "cuda", r"race|atomic|disagrees", CUDA),
    "fused_bias_act_bug_swish_unguarded": bug(
        NAN, "stylegan2-ada bias_act.cu swish `xref > halfExpRange` guard",
        "python, c", r"nan|inf|overflow|special point"),
    "soft_dtw_bug_band_nan": bug(
        NAN, "Maghoumi/pytorch-softdtw-cuda compute_softdtw_backward `if np.isinf(R): R = -inf`",
        "python", r"nan"),
    "segment_mean_bug_c_empty_nan": bug(
        NAN, "pytorch_scatter reducer.h MEAN write `count > 0 ? count : 1`",
        "c", r"nan"),
    "chamfer_bug_c_idx_int32": bug(
        INDEX_DTYPE, "ChamferDistancePytorch dist_chamfer_3D.py: idx1 = torch.zeros(...).type(torch.IntTensor)",
        "c", r"dtype|int32|int64"),
}

ISSUE_21_CLASSES = (REGIME, TIES, F32_ACC, BUFFER, BROADCAST)


def op_name(short):
    """The qualified name of an op of the pack."""
    return f"realops.{short}"


# bugs today's verifier misses in every run, with why: the test of each is a strict xfail, so a
# verifier that starts catching it fails the test until the entry goes (they are not hidden:
# run_matrix.py prints them, and the issue note counts them)
KNOWN_MISSES = {
    # fused_bias_act_bug_swish_unguarded (NaN above 88 in float32, 709 in float64, outside the
    # domain (-3, 3)) went when special points began probing beyond the domain
}
