// RoIAlign (average pooling, mmcv's default) forward and backward on NCHW features.
// Ported (structure and maths, rewritten) from open-mmlab/mmcv
// mmcv/ops/csrc/common/cuda/roi_align_cuda_kernel.cuh (roi_align_forward_cuda_kernel,
// roi_align_backward_cuda_kernel: one thread per pooled element in a CUDA_1D_KERNEL_LOOP, the
// gradient scattered to four pixels with atomicAdd) and the bilinear helpers of
// mmcv/ops/csrc/common/cuda/common_cuda_helper.hpp. rois[k] = (batch, x1, y1, x2, y2).

#define CUDA_1D_KERNEL_LOOP(i, n) \
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += blockDim.x * gridDim.x)

template <typename T>
__device__ T bilinear_interpolate(const T *input, const int height, const int width, T y, T x)
{
    if (y < -1.0 || y > height || x < -1.0 || x > width) return 0;  // outside the feature map
    if (y <= 0) y = 0;
    if (x <= 0) x = 0;
    int y_low = (int)y, x_low = (int)x, y_high, x_high;
    if (y_low >= height - 1) {
        y_high = y_low = height - 1;
        y = (T)y_low;
    } else {
        y_high = y_low + 1;
    }
    if (x_low >= width - 1) {
        x_high = x_low = width - 1;
        x = (T)x_low;
    } else {
        x_high = x_low + 1;
    }
    T ly = y - y_low, lx = x - x_low, hy = T(1) - ly, hx = T(1) - lx;
    T v1 = input[y_low * width + x_low], v2 = input[y_low * width + x_high];
    T v3 = input[y_high * width + x_low], v4 = input[y_high * width + x_high];
    return hy * hx * v1 + hy * lx * v2 + ly * hx * v3 + ly * lx * v4;
}

template <typename T>
__device__ void bilinear_interpolate_gradient(const int height, const int width, T y, T x, T &w1, T &w2, T &w3,
                                              T &w4, int &x_low, int &x_high, int &y_low, int &y_high)
{
    if (y < -1.0 || y > height || x < -1.0 || x > width) {
        w1 = w2 = w3 = w4 = 0.;
        x_low = x_high = y_low = y_high = -1;
        return;
    }
    if (y <= 0) y = 0;
    if (x <= 0) x = 0;
    y_low = (int)y;
    x_low = (int)x;
    if (y_low >= height - 1) {
        y_high = y_low = height - 1;
        y = (T)y_low;
    } else {
        y_high = y_low + 1;
    }
    if (x_low >= width - 1) {
        x_high = x_low = width - 1;
        x = (T)x_low;
    } else {
        x_high = x_low + 1;
    }
    T ly = y - y_low, lx = x - x_low, hy = T(1) - ly, hx = T(1) - lx;
    w1 = hy * hx, w2 = hy * lx, w3 = ly * hx, w4 = ly * lx;
}

template <typename T>
struct RoiBin {
    T start_h, start_w, bin_h, bin_w;
    int grid_h, grid_w, batch;
};

template <typename T>
__device__ RoiBin<T> roi_bin(const T *rois, int n, int pooled_height, int pooled_width, T spatial_scale,
                             int sampling_ratio, bool aligned)
{
    const T *r = rois + n * 5;
    RoiBin<T> b;
    b.batch = (int)r[0];
    T offset = aligned ? (T)0.5 : (T)0.0;
    b.start_w = r[1] * spatial_scale - offset;
    b.start_h = r[2] * spatial_scale - offset;
    T roi_width = r[3] * spatial_scale - offset - b.start_w;
    T roi_height = r[4] * spatial_scale - offset - b.start_h;
    if (!aligned) {  // mmcv keeps this for backward compatibility
        roi_width = max(roi_width, (T)1.);
        roi_height = max(roi_height, (T)1.);
    }
    b.bin_h = roi_height / static_cast<T>(pooled_height);
    b.bin_w = roi_width / static_cast<T>(pooled_width);
    b.grid_h = sampling_ratio > 0 ? sampling_ratio : (int)ceil(roi_height / pooled_height);
    b.grid_w = sampling_ratio > 0 ? sampling_ratio : (int)ceil(roi_width / pooled_width);
    return b;
}

template <typename T>
__device__ void roi_align_forward(int nthreads, const T *input, const T *rois, T *output, int pooled_height,
                                  int pooled_width, T spatial_scale, int sampling_ratio, bool aligned,
                                  int channels, int height, int width)
{
    CUDA_1D_KERNEL_LOOP(index, nthreads) {
        int pw = index % pooled_width;
        int ph = (index / pooled_width) % pooled_height;
        int c = (index / pooled_width / pooled_height) % channels;
        int n = index / pooled_width / pooled_height / channels;
        RoiBin<T> b = roi_bin(rois, n, pooled_height, pooled_width, spatial_scale, sampling_ratio, aligned);
        const T *offset_input = input + (b.batch * channels + c) * height * width;
        const T count = max(b.grid_h * b.grid_w, 1);
        T sum = 0.;
        for (int iy = 0; iy < b.grid_h; iy++) {
            const T y = b.start_h + ph * b.bin_h + static_cast<T>(iy + .5f) * b.bin_h / static_cast<T>(b.grid_h);
            for (int ix = 0; ix < b.grid_w; ix++) {
                const T x = b.start_w + pw * b.bin_w + static_cast<T>(ix + .5f) * b.bin_w / static_cast<T>(b.grid_w);
                sum += bilinear_interpolate(offset_input, height, width, y, x);
            }
        }
        output[index] = sum / count;
    }
}

template <typename T>
__device__ void roi_align_backward(int nthreads, const T *grad_output, const T *rois, T *grad_input,
                                   int pooled_height, int pooled_width, T spatial_scale, int sampling_ratio,
                                   bool aligned, int channels, int height, int width)
{
    CUDA_1D_KERNEL_LOOP(index, nthreads) {
        int pw = index % pooled_width;
        int ph = (index / pooled_width) % pooled_height;
        int c = (index / pooled_width / pooled_height) % channels;
        int n = index / pooled_width / pooled_height / channels;
        const T grad_bin = grad_output[index];
        RoiBin<T> b = roi_bin(rois, n, pooled_height, pooled_width, spatial_scale, sampling_ratio, aligned);
        T *offset_grad_input = grad_input + (b.batch * channels + c) * height * width;
        const T count = b.grid_h * b.grid_w;
        for (int iy = 0; iy < b.grid_h; iy++) {
            const T y = b.start_h + ph * b.bin_h + static_cast<T>(iy + .5f) * b.bin_h / static_cast<T>(b.grid_h);
            for (int ix = 0; ix < b.grid_w; ix++) {
                const T x = b.start_w + pw * b.bin_w + static_cast<T>(ix + .5f) * b.bin_w / static_cast<T>(b.grid_w);
                T w1, w2, w3, w4;
                int x_low, x_high, y_low, y_high;
                bilinear_interpolate_gradient(height, width, y, x, w1, w2, w3, w4, x_low, x_high, y_low, y_high);
                if (x_low >= 0 && x_high >= 0 && y_low >= 0 && y_high >= 0) {
                    atomicAdd(offset_grad_input + y_low * width + x_low, grad_bin * w1 / count);
                    atomicAdd(offset_grad_input + y_low * width + x_high, grad_bin * w2 / count);
                    atomicAdd(offset_grad_input + y_high * width + x_low, grad_bin * w3 / count);
                    atomicAdd(offset_grad_input + y_high * width + x_high, grad_bin * w4 / count);
                }
            }
        }
    }
}

#define ROI_ALIGN_ENTRY(SUFFIX, T)                                                                            \
    extern "C" __global__ void roi_align_fwd_##SUFFIX(int nthreads, const T *input, const T *rois, T *output,  \
                                                       int ph, int pw, T scale, int ratio, int aligned, int c,  \
                                                       int h, int w)                                           \
    {                                                                                                          \
        roi_align_forward<T>(nthreads, input, rois, output, ph, pw, scale, ratio, aligned != 0, c, h, w);      \
    }                                                                                                          \
    extern "C" __global__ void roi_align_bwd_##SUFFIX(int nthreads, const T *grad_output, const T *rois,       \
                                                       T *grad_input, int ph, int pw, T scale, int ratio,      \
                                                       int aligned, int c, int h, int w)                       \
    {                                                                                                          \
        roi_align_backward<T>(nthreads, grad_output, rois, grad_input, ph, pw, scale, ratio, aligned != 0, c,  \
                              h, w);                                                                           \
    }

ROI_ALIGN_ENTRY(f32, float)
ROI_ALIGN_ENTRY(f64, double)
