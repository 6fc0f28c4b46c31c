/* murand.h - muRAND's host API: generators that fill device (or host) memory with random
 * numbers, CUDA's curand.h one-to-one (curand.h gives the same under the curand names; link
 * with -lmurand or -lcurand).
 *
 * Pseudo-random generators: XORWOW (MURAND_RNG_PSEUDO_DEFAULT and _XORWOW), Philox4_32_10 and
 * MRG32k3a, with the sequences CUDA's library produces for the same seed, offset and ordering
 * (PSEUDO_DEFAULT, PSEUDO_BEST, PSEUDO_LEGACY and, for device generators, PSEUDO_DYNAMIC):
 * value i of XORWOW comes from subsequence i % 4096, of MRG32k3a from subsequence i % 81920,
 * of Philox in blocks of four from subsequence (i / 4) % 65536, as murand_kernel.h's generators
 * give them. murandCreateGenerator's generator works on the device, in stream order on the
 * stream murandSetStream gives it (kernels of the virtual GPU, timed as kernels);
 * murandCreateGeneratorHost's works on the calling thread into host memory.
 *
 * Not provided (murandCreateGenerator answers MURAND_STATUS_TYPE_ERROR): MTGP32, MT19937 and
 * the Sobol quasi-random generators; the PSEUDO_SEEDED ordering (MURAND_STATUS_OUT_OF_RANGE).
 * murandGeneratePoisson draws from the right distribution but not CUDA's sequence. */
#ifndef MURAND_H_
#define MURAND_H_

#include <stddef.h>

#include "musa_runtime_api.h"

#define MURAND_VER_MAJOR 10
#define MURAND_VER_MINOR 4
#define MURAND_VER_PATCH 0
#define MURAND_VERSION (MURAND_VER_MAJOR * 1000 + MURAND_VER_MINOR * 100 + MURAND_VER_PATCH)

typedef enum murandStatus {
  MURAND_STATUS_SUCCESS = 0,
  MURAND_STATUS_VERSION_MISMATCH = 100,
  MURAND_STATUS_NOT_INITIALIZED = 101,
  MURAND_STATUS_ALLOCATION_FAILED = 102,
  MURAND_STATUS_TYPE_ERROR = 103,
  MURAND_STATUS_OUT_OF_RANGE = 104,
  MURAND_STATUS_LENGTH_NOT_MULTIPLE = 105,
  MURAND_STATUS_DOUBLE_PRECISION_REQUIRED = 106,
  MURAND_STATUS_LAUNCH_FAILURE = 201,
  MURAND_STATUS_PREEXISTING_FAILURE = 202,
  MURAND_STATUS_INITIALIZATION_FAILED = 203,
  MURAND_STATUS_ARCH_MISMATCH = 204,
  MURAND_STATUS_INTERNAL_ERROR = 999
} murandStatus_t;

typedef enum murandRngType {
  MURAND_RNG_TEST = 0,
  MURAND_RNG_PSEUDO_DEFAULT = 100,
  MURAND_RNG_PSEUDO_XORWOW = 101,
  MURAND_RNG_PSEUDO_MRG32K3A = 121,
  MURAND_RNG_PSEUDO_MTGP32 = 141,
  MURAND_RNG_PSEUDO_MT19937 = 142,
  MURAND_RNG_PSEUDO_PHILOX4_32_10 = 161,
  MURAND_RNG_QUASI_DEFAULT = 200,
  MURAND_RNG_QUASI_SOBOL32 = 201,
  MURAND_RNG_QUASI_SCRAMBLED_SOBOL32 = 202,
  MURAND_RNG_QUASI_SOBOL64 = 203,
  MURAND_RNG_QUASI_SCRAMBLED_SOBOL64 = 204
} murandRngType_t;

typedef enum murandOrdering {
  MURAND_ORDERING_PSEUDO_BEST = 100,
  MURAND_ORDERING_PSEUDO_DEFAULT = 101,
  MURAND_ORDERING_PSEUDO_SEEDED = 102,
  MURAND_ORDERING_PSEUDO_LEGACY = 103,
  MURAND_ORDERING_PSEUDO_DYNAMIC = 104,
  MURAND_ORDERING_QUASI_DEFAULT = 201
} murandOrdering_t;

typedef struct murandGenerator_st *murandGenerator_t;

#ifdef __cplusplus
extern "C" {
#endif

murandStatus_t murandCreateGenerator(murandGenerator_t *generator, murandRngType_t rng_type);
murandStatus_t murandCreateGeneratorHost(murandGenerator_t *generator, murandRngType_t rng_type);
murandStatus_t murandDestroyGenerator(murandGenerator_t generator);
murandStatus_t murandGetVersion(int *version);
murandStatus_t murandSetStream(murandGenerator_t generator, musaStream_t stream);
murandStatus_t murandSetPseudoRandomGeneratorSeed(murandGenerator_t generator,
                                                  unsigned long long seed);
murandStatus_t murandSetGeneratorOffset(murandGenerator_t generator, unsigned long long offset);
murandStatus_t murandSetGeneratorOrdering(murandGenerator_t generator, murandOrdering_t order);
murandStatus_t murandSetQuasiRandomGeneratorDimensions(murandGenerator_t generator,
                                                       unsigned int num_dimensions);
murandStatus_t murandGenerateSeeds(murandGenerator_t generator);
murandStatus_t murandGenerate(murandGenerator_t generator, unsigned int *outputPtr, size_t num);
murandStatus_t murandGenerateLongLong(murandGenerator_t generator, unsigned long long *outputPtr,
                                      size_t num);
murandStatus_t murandGenerateUniform(murandGenerator_t generator, float *outputPtr, size_t num);
murandStatus_t murandGenerateUniformDouble(murandGenerator_t generator, double *outputPtr,
                                           size_t num);
murandStatus_t murandGenerateNormal(murandGenerator_t generator, float *outputPtr, size_t n,
                                    float mean, float stddev);
murandStatus_t murandGenerateNormalDouble(murandGenerator_t generator, double *outputPtr,
                                          size_t n, double mean, double stddev);
murandStatus_t murandGenerateLogNormal(murandGenerator_t generator, float *outputPtr, size_t n,
                                       float mean, float stddev);
murandStatus_t murandGenerateLogNormalDouble(murandGenerator_t generator, double *outputPtr,
                                             size_t n, double mean, double stddev);
murandStatus_t murandGeneratePoisson(murandGenerator_t generator, unsigned int *outputPtr,
                                     size_t n, double lambda);

#ifdef __cplusplus
}
#endif

#endif /* MURAND_H_ */
