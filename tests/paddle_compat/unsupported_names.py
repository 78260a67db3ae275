"""The public names of Paddle 3.3.1 that opsdk does not have, by namespace, each with its
reason (REASONS). namewalk.py walks Paddle and fails on a public name that is neither
supported by opsdk nor listed here; docs/paddle.md's name list is generated from both.

Add a name here (under the reason that fits) only when opsdk will not have it soon; remove it
when opsdk gets it (the walk fails on a listed name opsdk has).
"""

REASONS = {
    "accelerators": "XPU, IPU and custom-device places and Paddle's `device` object: opsdk runs "
                    "on the CPU (NumPy) or an NVIDIA GPU (CuPy), named by a string or "
                    "CPUPlace/CUDAPlace",
    "complex": "complex numbers: opsdk's tensors are real (float16/32/64, ints, bool)",
    "conv": "the spectral-norm layer (a power iteration held as layer state): op-pack material "
            "(write it with `opsdk new-op`)",
    "device": "device specifics (CUDA RNG state, pinned memory, data pointers): opsdk places "
              "arrays with NumPy or CuPy",
    "distributed": "a distributed runtime (see paddle.distributed above)",
    "dtype": "dtypes opsdk has no arrays for (bfloat16, float8, uint16-64) and their typed "
             "tensor classes",
    "forward": "the primitive-operator system of static graphs (`enable_prim`, and the "
               "`forward_grad`/`grad` that work on its programs); in dynamic mode use "
               "`incubate.autograd.jvp`/`vjp` or `paddle.grad`",
    "fused": "fused GPU kernels and sequence-decoding helpers",
    "linalg": "a decomposition with complex results (eig, eigvals): opsdk's tensors are real; "
              "eigh and eigvalsh serve symmetric matrices",
    "model": "sequence decoding (beam search, dynamic_decode): compose it from the RNN cells "
             "and the ops",
    "sparse": "sparse tensor formats (only Embedding's row-sparse gradient exists)",
    "static": "static graphs, the compiler and Paddle's internal tensor plumbing",
    "streams": "CUDA streams, events, CUDA-graph capture and inter-process memory: opsdk runs "
               "each op in order (NumPy, or CuPy's current stream)",
}

UNSUPPORTED = {
    '': {
        'complex': (
            "angle as_complex as_real cdouble cfloat complex conj imag is_complex isreal "
            "polar pstring raw real view_as_complex view_as_real "
        ),
        'device': (
            "CUDAPinnedPlace MmapStorage XPUPinnedPlace disable_signal_handler "
            "get_cuda_rng_state set_cuda_rng_state "
        ),
        'distributed': (
            "DataParallel shard_index "
        ),
        'dtype': (
            "BFloat16Tensor bfloat16 float8_e4m3fn float8_e5m2 uint16 uint32 uint64 "
        ),
        'static': (
            "LazyGuard Model batch check_shape disable_compat enable_compat flops summary "
        ),
    },
    'Tensor': {
        'complex': (
            "angle as_complex as_real cdouble cfloat complex128 complex64 conj imag "
            "is_complex isreal polar real view_as_complex view_as_real "
        ),
        'device': (
            "data_ptr device get_device is_cuda pin_memory "
        ),
        'distributed': (
            "is_dist num_shard placements process_mesh reconstruct_from_ shard_index "
        ),
        'dtype': (
            "bfloat16 "
        ),
        'fused': (
            "top_p_sampling "
        ),
        'linalg': (
            "eig eigvals "
        ),
        'sparse': (
            "coalesce cols crows dense_dim get_selected_rows indices is_coalesced "
            "is_selected_rows is_sparse is_sparse_coo is_sparse_csr nnz rows sparse_dim "
            "to_dense to_sparse_coo to_sparse_csr values "
        ),
        'static': (
            "block create_tensor get_map_tensor get_strides get_tensor is_dense istft layout "
            "offset set_string_list set_tensor set_vocab stft stride strides value "
        ),
    },
    'nn': {
        'conv': (
            "SpectralNorm "
        ),
        'distributed': (
            "SyncBatchNorm "
        ),
        'model': (
            "BeamSearchDecoder "
            "dynamic_decode "
        ),
    },
    'nn.functional': {
        'fused': (
            "class_center_sample flash_attention_v3_varlen flash_attn_qkvpacked "
            "flash_attn_varlen_qkvpacked flashmask_attention gather_tree margin_cross_entropy "
            "moe_permute moe_unpermute "
            "sparse_attention "
        ),
    },
    'autograd': {
    },
    'incubate.autograd': {
        'forward': (
            "disable_prim enable_prim forward_grad grad "
        ),
    },
    'optimizer': {
    },
    'amp': {
    },
    'io': {
    },
    'regularizer': {
    },
    'metric': {
    },
    'nn.initializer': {
    },
    'nn.utils': {
    },
    'device': {
        'accelerators': (
            "IPUPlace XPUPlace device "
        ),
        'dtype': (
            "BFloat16Tensor "
        ),
        'streams': (
            "Event Stream StreamContext current_stream get_stream_from_external ipc_collect "
            "set_stream stream_guard "
        ),
    },
}
