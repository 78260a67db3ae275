/* realops.chamfer: the CUDA kernels (see chamfer.c for the maths).
 *
 * Ported from ThibaultGROUEIX/ChamferDistancePytorch, chamfer3D/chamfer3D.cu: a thread per point
 * of the first set, in a grid-stride loop; the backward adds into both gradients with atomicAdd,
 * since many points may share a nearest neighbour (NmDistanceGradKernel).
 *
 * Bug switches (the pack's bug variants compile this file with one defined):
 *   REALOPS_BUG_TIE_LAST   `d <= best`: ties go to the last index
 *   REALOPS_BUG_NO_ATOMIC  the scatter into the neighbour's gradient is a plain `+=`
 */
#ifdef REALOPS_BUG_TIE_LAST
#define BETTER(d, best) ((d) <= (best))
#else
#define BETTER(d, best) ((d) < (best))
#endif

template <typename T>
__device__ void nn_loop(const T *x, const T *y, T *dist, long long *idx, long long batch, long long n, long long m,
                        long long dim)
{
    for (long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x; t < batch * n;
         t += (long long)blockDim.x * gridDim.x) {
        long long b = t / n;
        const T *p = x + t * dim, *q = y + b * m * dim;
        long long best_i = 0;
        T best = 0;
        for (long long k = 0; k < m; k++) {
            T d = 0;
            for (long long c = 0; c < dim; c++) { T u = q[k * dim + c] - p[c]; d += u * u; }
            if (k == 0 || BETTER(d, best)) { best = d; best_i = k; }
        }
        dist[t] = best;
        idx[t] = best_i;
    }
}

template <typename T>
__device__ void grad_loop(const T *x, const T *y, const T *gdist, const long long *idx, T *gx, T *gy,
                          long long batch, long long n, long long m, long long dim)
{
    for (long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x; t < batch * n;
         t += (long long)blockDim.x * gridDim.x) {
        long long b = t / n, j = idx[t];
        const T *p = x + t * dim, *q = y + (b * m + j) * dim;
        T g = 2 * gdist[t];
        for (long long c = 0; c < dim; c++) {
            T u = g * (p[c] - q[c]);
            atomicAdd(&gx[t * dim + c], u);
#ifdef REALOPS_BUG_NO_ATOMIC
            gy[(b * m + j) * dim + c] -= u;
#else
            atomicAdd(&gy[(b * m + j) * dim + c], -u);
#endif
        }
    }
}

extern "C" __global__ void chamfer_nn_f32(const float *x, const float *y, float *dist, long long *idx,
                                          long long batch, long long n, long long m, long long dim)
{
    nn_loop(x, y, dist, idx, batch, n, m, dim);
}

extern "C" __global__ void chamfer_nn_f64(const double *x, const double *y, double *dist, long long *idx,
                                          long long batch, long long n, long long m, long long dim)
{
    nn_loop(x, y, dist, idx, batch, n, m, dim);
}

extern "C" __global__ void chamfer_grad_f32(const float *x, const float *y, const float *gdist, const long long *idx,
                                            float *gx, float *gy, long long batch, long long n, long long m,
                                            long long dim)
{
    grad_loop(x, y, gdist, idx, gx, gy, batch, n, m, dim);
}

extern "C" __global__ void chamfer_grad_f64(const double *x, const double *y, const double *gdist,
                                            const long long *idx, double *gx, double *gy, long long batch,
                                            long long n, long long m, long long dim)
{
    grad_loop(x, y, gdist, idx, gx, gy, batch, n, m, dim);
}
