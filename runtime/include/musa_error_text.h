/* musa_error_text.h - each musaError_t's name and message, for host code (musaGetErrorName,
 * musaGetErrorString) and device code (the device runtime's, musa_device_runtime_api.h). */
#ifndef __MUSA_ERROR_TEXT_H__
#define __MUSA_ERROR_TEXT_H__

#include "musa_device_prelude.h"
#include "musa_runtime_api.h"

/* The enumerator's name (`name` non-zero) or its message; CUDA's text for unknown codes. */
static __inline__ __host__ __device__ const char *__musa_error_text(musaError_t error,
                                                                    int name) {
  switch (error) {
#define MUSA_ERROR_CODE(symbol, value, text)                                                   \
  case symbol:                                                                               \
    return name ? #symbol : text;
#include "musa_error_codes.def"
#undef MUSA_ERROR_CODE
  }
  return "unrecognized error code";
}

#endif /* __MUSA_ERROR_TEXT_H__ */
