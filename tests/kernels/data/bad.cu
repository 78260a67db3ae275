extern "C" __global__ void broken(float *y, long long n) {
    long long i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = not_declared_anywhere;
}
