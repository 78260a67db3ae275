"""What `opsdk check` must report for the outsider's pack: each bug by a check and by words its
report must hold (naming the cause), and the correct ops, which no check may flag."""

# op -> (class of issue 11, a check that must fail, words its report must contain)
BUGS = {
    # hidden state and aliasing
    "softmax_inplace": ("state", "isolation", "forward wrote into its input 'x' in place"),
    "tanh_dy_inplace": ("state", "isolation", "backward wrote into its incoming gradient 'dy'"),
    "sigmoid_dy_c": ("state", "isolation", "backward wrote into its incoming gradient 'dy'"),
    "scale_view": ("state", "isolation", "output 0 shares memory with input 'x'"),
    "square_buffer_c": ("state", "isolation", "shares memory with output 0 of the first"),
    "cube_class_state": ("state", "isolation", "CubeClassState.saved_x"),
    "l2norm_shape_cache": ("state", "isolation", "state_bugs._NORMS"),
    "leaky_mask_closure": ("state", "isolation", "(closure).masks"),
    "silu_workspace": ("state", "isolation", "edge_bugs._WORKSPACE.sigmoid"),
    "weightnorm_id": ("state", "isolation", "given B's values in place"),
    "take_negidx": ("state", "isolation", "forward wrote into its input 'idx' in place"),
    "sum_axes_mutates": ("state", "isolation", "changed its argument 'axes' in place"),
    # tolerances: truncated constants, a cheap float32 path, a float accumulator in float64
    "erf_bwd_const": ("tolerance", "gradcheck", "Jacobian elements exceed the tolerance"),
    "selu_bwd_trunc": ("tolerance", "gradcheck", "Jacobian elements exceed the tolerance"),
    "gelu_f32_tanh_c": ("tolerance", "forward", "forward on c (float32) disagrees"),
    "rowmean_acc32_c": ("tolerance", "forward", "forward on c (float64) disagrees"),
    # right in float64, wrong in float32
    "tanh_f16_bwd": ("float32", "backward_agreement", "backward on python (float32) disagrees"),
    "softsign_abs_c": ("float32", "forward", "forward on c (float32) disagrees"),
    # sizes: tiles, unrolled tails, parallel chunks above thresholds, square samples
    "cubic_tile64_c": ("sizes", "sizes", "size 65 (dimension 4 -> 65)"),
    "poly3_unroll4_c": ("sizes", "sizes", "disagrees with python at this size"),
    "tanh_omp_chunk_c": ("sizes", "sizes", "size 131073"),
    "sigmoid_omp_offset_c": ("sizes", "sizes", "size 250001"),
    "leaky_omp_macro_c": ("sizes", "sizes", "size 150001"),
    "meansq_square_c": ("sizes", "sizes", "rows and columns mixed up"),
    # broadcasting reduced along the leading axis only
    "sqdiff_bcast": ("broadcast", "protocol", "gradient of 'x' (argument 0): wrong shape"),
    "mul_bcast_reshape": ("broadcast", "gradcheck", "broadcast"),
    "bias_tanh_c": ("broadcast", "backward_agreement", "gradient of 'b' (argument 1)"),
    # code that assumes C-ordered arrays
    "softsign_ravel": ("layout", "layout", "gives other results for transposed inputs"),
    "rowmax_scatter": ("layout", "layout", "gives other results for"),
    # special points of the domain
    "sinc_nan0": ("special", "special_points", "a removable 0/0"),
    "xlogx_nan0": ("special", "special_points", "at the edge of the domain"),
    "softsign_bwd_nan0": ("special", "special_points", "the gradient of 'x' is nan at"),
    "logcosh_overflow": ("special", "special_points", "is inf in float32 where python in float64"),
    "softplus_bwd_overflow": ("special", "special_points", "the gradient of 'x' is nan at"),
    "pow_log0": ("special", "special_points", "the gradient of 'p' is nan at"),
    # attributes hard-coded or ignored in backward
    "elu_hardcoded": ("attribute", "gradcheck", "alpha="),
    "scaled_softsign_c": ("attribute", "backward_agreement", "scale="),
    "softplus_beta_bwd": ("attribute", "gradcheck", "beta="),
    "cumsum_axis": ("attribute", "gradcheck", "axis="),
    "gelu_flag": ("attribute", "gradcheck", "approximate=False"),
    "clamp_bounds_hardcoded": ("attribute", "gradcheck", "bounds=("),
    # output elements never written
    "softclip_notail_c": ("unwritten", "sizes", "kernel 'out.softclip_notail_bwd' (c) left"),
    "relu_mask_c": ("unwritten", "forward", "kernel 'out.relu_mask_fwd' (c) left"),
    "relu_empty": ("unwritten", "forward", "ReluEmpty.forward (the op's Function) left"),
    # one gradient wrong: the second order, the second output, the second input
    "softplus_dd": ("second_order", "gradgradcheck", "d grad_x["),
    "tanh_dd_detach": ("second_order", "gradgradcheck", "d grad_x["),
    "sincos_sign": ("second_output", "gradcheck", "output 1 (shape"),
    "meanvar_rows": ("second_output", "gradcheck", "output 1 (shape"),
    "hypot_copy": ("second_input", "gradcheck", "w.r.t. y (shape"),
    "div_c": ("second_input", "backward_agreement", "gradient of 'y' (argument 1)"),
    # integer arguments mishandled
    "embed_dup": ("integer", "gradcheck", "w.r.t. w (shape"),
    "gather_int32_c": ("integer", "forward", "forward on c (float32) disagrees"),
    # row ops: RMSNorm, softmax, LLTM
    "rmsnorm_eps_bwd": ("rows", "gradcheck", "Jacobian elements exceed the tolerance"),
    "softmax_stale_c": ("rows", "backward_agreement", "backward on c (float32) disagrees"),
    "lltm_old_cell": ("rows", "gradcheck", "w.r.t. old_cell (shape"),
}

CORRECT = ("clamp", "maximum_ties", "rowmax_ties", "l1_rows", "recip_pole", "topk1", "embed_bag",
           "fma_bcast", "standardize_rows", "acos", "xlogx", "huber", "tanh_sat", "int_pow",
           "count_above", "relu_c", "sqrt_c", "softplus_omp_c", "sincos_c", "rowsum_long_c",
           "logsumexp_c", "softmax_c", "rmsnorm_c", "lltm", "cumsum", "gelu", "causal_mask",
           "sqrowsum_c", "sinc", "softplus_wide", "topk_sum", "l2_only", "sigmoid_flat")


def missed(failed):
    """{bug: why} for every bug whose check did not fail with its words; ``failed`` maps
    'out.op' to its failed results (dicts with 'check' and 'detail')."""
    from ..adversarial_helpers import missed as missed_in

    return missed_in(BUGS, failed, "out")


def false_alarms(failed):
    """{correct op: its failed results} for the correct ops some check flagged."""
    return {name: failed[f"out.{name}"] for name in CORRECT if failed.get(f"out.{name}")}
