/* chamfer: the CUDA kernels of the LLTM cell update (see chamfer.py and chamfer.c): the same names
 * and parameters as the C kernels, each a grid-stride loop over n elements (64-bit indices).
 */

__device__ __forceinline__ float sigmoid(float z)
{
    float e = expf(-fabsf(z)), inv = 1.0f / (1.0f + e);
    return z >= 0.0f ? inv : e * inv;
}

__device__ __forceinline__ double sigmoid(double z)
{
    double e = exp(-fabs(z)), inv = 1.0 / (1.0 + e);
    return z >= 0.0 ? inv : e * inv;
}

template <typename T>
__device__ void forward_loop(const T *gate_i, const T *gate_o, const T *gate_c, const T *old_cell, T *new_h,
                             T *new_cell, long long n)
{
    for (long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x; k < n; k += (long long)blockDim.x * gridDim.x) {
        T cell = old_cell[k] + sigmoid(gate_i[k]) * tanh(gate_c[k]);
        new_cell[k] = cell;
        new_h[k] = tanh(cell) * sigmoid(gate_o[k]);
    }
}

template <typename T>
__device__ void backward_loop(const T *gate_i, const T *gate_o, const T *gate_c, const T *old_cell, const T *d_h,
                              const T *d_cell, T *d_gate_i, T *d_gate_o, T *d_gate_c, T *d_old_cell, long long n)
{
    for (long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x; k < n; k += (long long)blockDim.x * gridDim.x) {
        T i = sigmoid(gate_i[k]), o = sigmoid(gate_o[k]), c = tanh(gate_c[k]);
        T t = tanh(old_cell[k] + i * c);
        T d_total = d_cell[k] + d_h[k] * o * (T(1) - t * t);
        d_gate_i[k] = d_total * c * i * (T(1) - i);
        d_gate_o[k] = d_h[k] * t * o * (T(1) - o);
        d_gate_c[k] = d_total * i * (T(1) - c * c);
        d_old_cell[k] = d_total;
    }
}

extern "C" __global__ void chamfer_forward_f32(const float *gate_i, const float *gate_o, const float *gate_c,
                                             const float *old_cell, float *new_h, float *new_cell, long long n)
{
    forward_loop(gate_i, gate_o, gate_c, old_cell, new_h, new_cell, n);
}

extern "C" __global__ void chamfer_forward_f64(const double *gate_i, const double *gate_o, const double *gate_c,
                                             const double *old_cell, double *new_h, double *new_cell, long long n)
{
    forward_loop(gate_i, gate_o, gate_c, old_cell, new_h, new_cell, n);
}

extern "C" __global__ void chamfer_backward_f32(const float *gate_i, const float *gate_o, const float *gate_c,
                                              const float *old_cell, const float *d_h, const float *d_cell,
                                              float *d_gate_i, float *d_gate_o, float *d_gate_c,
                                              float *d_old_cell, long long n)
{
    backward_loop(gate_i, gate_o, gate_c, old_cell, d_h, d_cell, d_gate_i, d_gate_o, d_gate_c, d_old_cell, n);
}

extern "C" __global__ void chamfer_backward_f64(const double *gate_i, const double *gate_o, const double *gate_c,
                                              const double *old_cell, const double *d_h, const double *d_cell,
                                              double *d_gate_i, double *d_gate_o, double *d_gate_c,
                                              double *d_old_cell, long long n)
{
    backward_loop(gate_i, gate_o, gate_c, old_cell, d_h, d_cell, d_gate_i, d_gate_o, d_gate_c, d_old_cell, n);
}
