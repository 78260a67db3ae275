"""What `opsdk check` must report for the regimes pack: each bug by a check and by words its
report must hold (naming the cause), and the correct ops, which no check may flag."""

CORRECT = ("rowmax", "rowmax_any", "nearest", "rowsum", "rowsum_f32", "softmax_c", "center",
           "huber", "hinge", "topk_mask", "sparsemax", "soft_dtw")

# op -> (class of issue 21, a check that must fail, words its report must contain); "cache"
# came later (a cache keyed on part of the call: the isolation check's keyed calls)
BUGS = {
    # 1: a selection regime the drawn samples may miss
    "sparsemax_k3": ("regime", "gradcheck", "regime: "),
    "std_clamp": ("regime", "gradcheck", "regime: near-constant rows"),
    "softmax_pair_c": ("regime", "forward", "regime: rows of 2"),
    "softmax_sat": ("regime", "gradcheck", "regime: ×10 of the domain"),
    # 2: exact ties resolved differently by a compiled backend
    "rowmax_last_c": ("ties", "ties", "at exact ties (the tie rule"),
    "nearest_last_c": ("ties", "ties", "at exact ties (the tie rule"),
    "rowmax_bwd_c": ("ties", "ties", "gradient of 'x'"),
    "rowmax_grad_ties": ("ties", "ties", "with the tie broken in favour of the element the op "
                                         "picked"),
    # 3: a float32 accumulator over long rows
    "rowsum_acc_c": ("accumulation", "accumulation", "accumulates in float32"),
    "softmax_acc_c": ("accumulation", "accumulation", "accumulates in float32"),
    # 4: a buffer reused across calls
    "tanh_buf": ("buffer", "isolation", "backward returns memory a later call overwrites"),
    "nearest_buf_c": ("buffer", "isolation", "backward returns memory a later call overwrites"),
    "softsign_ws": ("buffer", "isolation", "two calls in one graph"),
    # 5: a broadcasting bug, reported as wrong values (its huge derived size within budget)
    "center_nokeep": ("broadcast", "gradcheck", "Jacobian elements exceed the tolerance"),
    "scale_nokeep": ("broadcast", "gradcheck", "Jacobian elements exceed the tolerance"),
    "template_mean": ("broadcast", "gradcheck", "one item along the batch axis"),
    "share_squeeze": ("broadcast", "gradcheck", "an axis of size 1"),
    # a cache keyed on part of the call's identity (an attribute, an input's values, the dtype)
    "rope_base_cache": ("cache", "isolation",
                        "a cache keyed on part of the call forgets the attribute 'base'"),
    "cumsum_flag_cache": ("cache", "isolation",
                          "a cache keyed on part of the call forgets the attribute 'reverse'"),
    "segment_counts_cache": ("cache", "isolation", "a cache keyed on part of the call forgets "
                                                   "the values of 'segment_ids'"),
    "posenc_dtype_cache": ("cache", "isolation",
                           "a cache keyed on part of the call forgets the dtype"),
}


# bugs only a run of these dtypes can show: a float32 accumulator is right in float64
ONLY_IN = {"rowsum_acc_c": ("float32",), "softmax_acc_c": ("float32",)}


def missed(failed, dtype=None):
    """{bug: why} for every bug whose check did not fail with its words; ``failed`` maps
    'reg.op' to its failed results (dicts with 'check' and 'detail'); ``dtype``: the one dtype
    of the run, when it had one (bugs of another dtype's path are then not expected)."""
    from ..adversarial_helpers import missed as missed_in

    bugs = {name: bug for name, bug in BUGS.items()
            if dtype is None or dtype in ONLY_IN.get(name, (dtype,))}
    return missed_in(bugs, failed, "reg")


def false_alarms(failed):
    """{correct op: its failed results} for the correct ops some check flagged."""
    return {name: failed[f"reg.{name}"] for name in CORRECT if failed.get(f"reg.{name}")}
