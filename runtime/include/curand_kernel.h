/* curand_kernel.h - murand_kernel.h under CUDA's names (curand_init, curand_uniform,
 * curandState, ...), for device code written against CUDA's device random-number API: the
 * same generators and sequences. */
#ifndef MUSA_SIM_CURAND_KERNEL_H_
#define MUSA_SIM_CURAND_KERNEL_H_

#include "murand_kernel.h"

typedef murandStateXORWOW curandStateXORWOW;
typedef murandStateXORWOW curandStateXORWOW_t;
typedef murandStateXORWOW curandState_t;
typedef murandStateXORWOW curandState;
typedef murandStatePhilox4_32_10 curandStatePhilox4_32_10;
typedef murandStatePhilox4_32_10 curandStatePhilox4_32_10_t;
typedef murandStateMRG32k3a curandStateMRG32k3a;
typedef murandStateMRG32k3a curandStateMRG32k3a_t;

#define CURAND_2POW32_INV MURAND_2POW32_INV
#define CURAND_2POW32_INV_DOUBLE MURAND_2POW32_INV_DOUBLE
#define CURAND_2POW53_INV_DOUBLE MURAND_2POW53_INV_DOUBLE
#define CURAND_2PI MURAND_2PI

template <class S>
MURAND_QUALIFIERS void curand_init(unsigned long long seed, unsigned long long subsequence,
                                   unsigned long long offset, S *state) {
  murand_init(seed, subsequence, offset, state);
}
#define __MUSA_SIM_CURAND_FORWARD(name)                                                        \
  template <class S> MURAND_QUALIFIERS auto cu##name(S *state) { return mu##name(state); }
__MUSA_SIM_CURAND_FORWARD(rand)
__MUSA_SIM_CURAND_FORWARD(rand4)
__MUSA_SIM_CURAND_FORWARD(rand_uniform)
__MUSA_SIM_CURAND_FORWARD(rand_uniform_double)
__MUSA_SIM_CURAND_FORWARD(rand_uniform4)
__MUSA_SIM_CURAND_FORWARD(rand_uniform2_double)
__MUSA_SIM_CURAND_FORWARD(rand_normal)
__MUSA_SIM_CURAND_FORWARD(rand_normal_double)
__MUSA_SIM_CURAND_FORWARD(rand_normal2)
__MUSA_SIM_CURAND_FORWARD(rand_normal2_double)
__MUSA_SIM_CURAND_FORWARD(rand_normal4)
#undef __MUSA_SIM_CURAND_FORWARD
#define __MUSA_SIM_CURAND_FORWARD(name, T)                                                     \
  template <class S> MURAND_QUALIFIERS auto cu##name(S *state, T mean, T stddev) {             \
    return mu##name(state, mean, stddev);                                                      \
  }
__MUSA_SIM_CURAND_FORWARD(rand_log_normal, float)
__MUSA_SIM_CURAND_FORWARD(rand_log_normal2, float)
__MUSA_SIM_CURAND_FORWARD(rand_log_normal4, float)
__MUSA_SIM_CURAND_FORWARD(rand_log_normal_double, double)
__MUSA_SIM_CURAND_FORWARD(rand_log_normal2_double, double)
#undef __MUSA_SIM_CURAND_FORWARD
template <class S> MURAND_QUALIFIERS unsigned int curand_poisson(S *state, double lambda) {
  return murand_poisson(state, lambda);
}
template <class S> MURAND_QUALIFIERS uint4 curand_poisson4(S *state, double lambda) {
  return murand_poisson4(state, lambda);
}

#endif /* MUSA_SIM_CURAND_KERNEL_H_ */
