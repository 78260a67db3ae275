// GPT-2's encoder: token embedding plus position embedding, forward and backward.
// Ported (structure and maths, rewritten) from karpathy/llm.c dev/cuda/encoder_forward.cu
// (encoder_forward_kernel2: a thread per output element, `if (idx < N)`) and
// dev/cuda/encoder_backward.cu (encoder_backward_kernel1: a thread per (b, t, c), atomicAdd into
// dwte[ix] and dwpe[t], which other threads update at the same time).
// out[b, t, c] = wte[inp[b, t], c] + wpe[t, c]

template <typename T>
__device__ void encoder_forward(T *out, const int *inp, const T *wte, const T *wpe, int B, int T_, int C)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    int N = B * T_ * C;
    if (idx < N) {
        int bt = idx / C;
        int t = bt % T_;
        int c = idx % C;
        int ix = inp[bt];
        out[idx] = __ldg(&wte[ix * C + c]) + __ldg(&wpe[t * C + c]);
    }
}

template <typename T>
__device__ void encoder_backward(T *dwte, T *dwpe, const T *dout, const int *inp, int B, int T_, int C)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    int N = B * T_ * C;
    if (idx < N) {
        int bt = idx / C;
        int b = bt / T_;
        int t = bt % T_;
        int c = idx % C;
        int ix = inp[b * T_ + t];
        const T *dout_btc = dout + b * T_ * C + t * C + c;
        T *dwte_ix = dwte + ix * C + c;
        T *dwpe_tc = dwpe + t * C + c;
        atomicAdd(dwte_ix, *dout_btc);
        atomicAdd(dwpe_tc, *dout_btc);
    }
}

extern "C" __global__ void encoder_fwd_f32(float *out, const int *inp, const float *wte, const float *wpe, int B, int T, int C)
{
    encoder_forward<float>(out, inp, wte, wpe, B, T, C);
}

extern "C" __global__ void encoder_fwd_f64(double *out, const int *inp, const double *wte, const double *wpe, int B, int T, int C)
{
    encoder_forward<double>(out, inp, wte, wpe, B, T, C);
}

extern "C" __global__ void encoder_bwd_f32(float *dwte, float *dwpe, const float *dout, const int *inp, int B, int T, int C)
{
    encoder_backward<float>(dwte, dwpe, dout, inp, B, T, C);
}

extern "C" __global__ void encoder_bwd_f64(double *dwte, double *dwpe, const double *dout, const int *inp, int B, int T, int C)
{
    encoder_backward<double>(dwte, dwpe, dout, inp, B, T, C);
}
