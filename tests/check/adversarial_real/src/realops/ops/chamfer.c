/* chamfer: the C kernels of the LLTM cell update (see chamfer.py), one pass over the elements each.
 *
 *   chamfer_forward_T(gate_i, gate_o, gate_c, old_cell, new_h, new_cell, n)
 *   chamfer_backward_T(gate_i, gate_o, gate_c, old_cell, d_h, d_cell, d_gate_i, d_gate_o, d_gate_c, d_old_cell, n)
 *
 * for T = f32 (float) and f64 (double). opsdk calls them as declared: const pointers are the
 * kernel's array arguments in order, the other pointers its outputs (allocated by opsdk like the
 * first input, returned as a tuple), n the element count.
 */
#include "opsdk/elementwise.h"

OPSDK_CLONES static void forward_f32(const float *restrict gate_i, const float *restrict gate_o,
                                     const float *restrict gate_c, const float *restrict old_cell,
                                     float *restrict new_h, float *restrict new_cell, int64_t lo, int64_t hi)
{
    OPSDK_SIMD for (int64_t k = lo; k < hi; k++) {
        float cell = old_cell[k] + opsdk_sigmoid_f32(gate_i[k]) * opsdk_tanh_f32(gate_c[k]);
        new_cell[k] = cell;
        new_h[k] = opsdk_tanh_f32(cell) * opsdk_sigmoid_f32(gate_o[k]);
    }
}

OPSDK_CLONES static void backward_f32(const float *restrict gate_i, const float *restrict gate_o,
                                      const float *restrict gate_c, const float *restrict old_cell,
                                      const float *restrict d_h, const float *restrict d_cell,
                                      float *restrict d_gate_i, float *restrict d_gate_o, float *restrict d_gate_c,
                                      float *restrict d_old_cell, int64_t lo, int64_t hi)
{
    OPSDK_SIMD for (int64_t k = lo; k < hi; k++) {
        float i = opsdk_sigmoid_f32(gate_i[k]), o = opsdk_sigmoid_f32(gate_o[k]), c = opsdk_tanh_f32(gate_c[k]);
        float t = opsdk_tanh_f32(old_cell[k] + i * c);
        float d_total = d_cell[k] + d_h[k] * o * (1.0f - t * t);
        d_gate_i[k] = d_total * c * i * (1.0f - i);
        d_gate_o[k] = d_h[k] * t * o * (1.0f - o);
        d_gate_c[k] = d_total * i * (1.0f - c * c);
        d_old_cell[k] = d_total;
    }
}

void chamfer_forward_f32(const float *gate_i, const float *gate_o, const float *gate_c, const float *old_cell,
                       float *new_h, float *new_cell, int64_t n)
{
    OPSDK_PARALLEL(n, lo, hi, forward_f32(gate_i, gate_o, gate_c, old_cell, new_h, new_cell, lo, hi));
}

void chamfer_backward_f32(const float *gate_i, const float *gate_o, const float *gate_c, const float *old_cell,
                        const float *d_h, const float *d_cell, float *d_gate_i, float *d_gate_o, float *d_gate_c,
                        float *d_old_cell, int64_t n)
{
    OPSDK_PARALLEL(n, lo, hi, backward_f32(gate_i, gate_o, gate_c, old_cell, d_h, d_cell, d_gate_i, d_gate_o,
                                           d_gate_c, d_old_cell, lo, hi));
}

/* float64: the same loops in double */

OPSDK_CLONES static void forward_f64(const double *restrict gate_i, const double *restrict gate_o,
                                     const double *restrict gate_c, const double *restrict old_cell,
                                     double *restrict new_h, double *restrict new_cell, int64_t lo, int64_t hi)
{
    OPSDK_SIMD for (int64_t k = lo; k < hi; k++) {
        double cell = old_cell[k] + opsdk_sigmoid_f64(gate_i[k]) * opsdk_tanh_f64(gate_c[k]);
        new_cell[k] = cell;
        new_h[k] = opsdk_tanh_f64(cell) * opsdk_sigmoid_f64(gate_o[k]);
    }
}

OPSDK_CLONES static void backward_f64(const double *restrict gate_i, const double *restrict gate_o,
                                      const double *restrict gate_c, const double *restrict old_cell,
                                      const double *restrict d_h, const double *restrict d_cell,
                                      double *restrict d_gate_i, double *restrict d_gate_o,
                                      double *restrict d_gate_c, double *restrict d_old_cell, int64_t lo, int64_t hi)
{
    OPSDK_SIMD for (int64_t k = lo; k < hi; k++) {
        double i = opsdk_sigmoid_f64(gate_i[k]), o = opsdk_sigmoid_f64(gate_o[k]), c = opsdk_tanh_f64(gate_c[k]);
        double t = opsdk_tanh_f64(old_cell[k] + i * c);
        double d_total = d_cell[k] + d_h[k] * o * (1.0 - t * t);
        d_gate_i[k] = d_total * c * i * (1.0 - i);
        d_gate_o[k] = d_h[k] * t * o * (1.0 - o);
        d_gate_c[k] = d_total * i * (1.0 - c * c);
        d_old_cell[k] = d_total;
    }
}

void chamfer_forward_f64(const double *gate_i, const double *gate_o, const double *gate_c, const double *old_cell,
                       double *new_h, double *new_cell, int64_t n)
{
    OPSDK_PARALLEL(n, lo, hi, forward_f64(gate_i, gate_o, gate_c, old_cell, new_h, new_cell, lo, hi));
}

void chamfer_backward_f64(const double *gate_i, const double *gate_o, const double *gate_c, const double *old_cell,
                        const double *d_h, const double *d_cell, double *d_gate_i, double *d_gate_o,
                        double *d_gate_c, double *d_old_cell, int64_t n)
{
    OPSDK_PARALLEL(n, lo, hi, backward_f64(gate_i, gate_o, gate_c, old_cell, d_h, d_cell, d_gate_i, d_gate_o,
                                           d_gate_c, d_old_cell, lo, hi));
}
