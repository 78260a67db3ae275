// opsdk.erf, CUDA backend: CUDA's erff / erf, one grid-stride loop per dtype.

extern "C" __global__ void opsdk_erf_f32(const float *x, float *y, long long n)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
         i += (long long)blockDim.x * gridDim.x)
        y[i] = erff(x[i]);
}

extern "C" __global__ void opsdk_erf_f64(const double *x, double *y, long long n)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
         i += (long long)blockDim.x * gridDim.x)
        y[i] = erf(x[i]);
}
