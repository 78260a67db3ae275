"""What `opsdk check` must report for the adversarial pack: each bug, by a check and by words
its report must hold; and the correct ops, which no check may flag."""

CORRECT = ("relu", "leaky", "mul", "bias_add", "softplus", "rms_norm", "lltm", "max_last",
           "gather", "sqrt", "jvp_correct")

# op -> (class of the issue, a check that must fail, words its report must contain)
BUGS = {
    "inplace_fwd": (1, "isolation", "forward wrote into its input 'x' in place"),
    "inplace_fwd_c": (1, "isolation", "forward wrote into its input 'x' in place"),
    "grad_inplace": (1, "isolation", "backward wrote into its incoming gradient 'dy'"),
    "grad_inplace_c": (1, "isolation", "backward wrote into its incoming gradient 'dy'"),
    "view_output": (1, "isolation", "output 0 shares memory with input 'x'"),
    "module_buffer_c": (1, "isolation", "shares memory with output 0 of the first"),
    "class_state": (1, "isolation", "ClassState.saved"),
    "shape_cache": (1, "isolation", "bugs_state._MASKS"),
    "gelu_bwd_const": (2, "gradcheck", "Jacobian elements exceed the tolerance"),
    "sigmoid_f32_c": (2, "forward", "forward on c (float32) disagrees with python in float64"),
    "rms_acc32_c": (2, "forward", "forward on c (float64) disagrees with python in float64"),
    "cube_first64_c": (3, "sizes", "size 65 (dimension 4 -> 65)"),
    "cube_notail_c": (3, "sizes", "kernel 'adv.cube_notail_fwd' (c) left 3 of 7 elements"),
    "cube_parallel_c": (3, "sizes", "unwritten: [0, 32768]"),
    "cube_parallel_big_c": (3, "sizes", "unwritten: [0, 50000]"),
    "mul_axis0": (4, "protocol", "gradient of 'x' (argument 0): wrong shape"),
    "bias_mean_c": (4, "gradcheck", "mean instead of sum over broadcast dims"),
    "reshape_write": (5, "layout", "kernel 'adv.softsign_fwd' (python) left 12 of 12 elements"),
    "reshape_write_grad": (5, "layout", "kernel 'adv.softsign_grad' (python) left 12 of 12"),
    "ravel_k_c": (5, "layout", "gives other results for transposed inputs"),
    "tanhx_nan0": (6, "special_points", "the gradient of 'x' is nan at"),
    "sinc_nan0": (6, "special_points", "a removable 0/0"),
    "softplus_overflow_c": (6, "special_points", "is inf in float32 where python in float64 gives 100"),
    "softplus_overflow": (6, "special_points", "is inf in float32 where python in float64 gives 100"),
    "leaky_hardcoded": (7, "gradcheck", "alpha="),
    "softplus_beta_c": (7, "backward_agreement", "beta="),
    "cube_bwd_notail_c": (8, "sizes", "kernel 'adv.cube_bwd_notail' (c) left 3 of 7 elements"),
    "cube_skip_last_c": (8, "forward", "kernel 'adv.cube_skip_last_fwd' (c) left 1 of 12"),
    "gelu_const_c": (9, "reference", "disagrees with its reference"),
    "half_inside": (9, "reference", "disagrees with its reference"),
    "swish_second": (9, "gradgradcheck", "d grad_x["),
    "jvp_missing_term": (10, "jvp", "'x' (input 0): J v differs from central differences"),
    "jvp_default_attr": (10, "jvp", "hard-codes an attribute instead of reading it from ctx"),
    "jvp_drops_input": (10, "jvp", "'w' (input 1): the jvp ignores this input's tangent"),
}


def missed(failed):
    """{bug: why} for every bug whose check did not fail with its words; ``failed`` maps
    'adv.op' to its failed results (dicts with 'check' and 'detail')."""
    from ..adversarial_helpers import missed as missed_in

    return missed_in(BUGS, failed, "adv")
