// Grid-stride loops: correct for any grid size launch_1d picks.
extern "C" __global__ void scale_f32(const float *x, float *y, long long n, float a) {
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
         i += (long long)gridDim.x * blockDim.x) {
        y[i] = a * x[i];
    }
}

extern "C" __global__ void scale_f64(const double *x, double *y, long long n, double a) {
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
         i += (long long)gridDim.x * blockDim.x) {
        y[i] = a * x[i];
    }
}
