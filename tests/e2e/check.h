// Tiny helpers shared by the end-to-end test programs: every check prints what failed and
// makes the program exit non-zero.
#pragma once
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* MUSA_SIM_BACKEND=hw: the program runs on real hardware through the pass-through backend
 * (README, "Backends"). Checks of the simulator's own behaviour (its two devices, the profile's
 * numbers, cycle counts, musa-sim extensions, error codes where CUDA answers differently) are
 * skipped there; in diff mode the program sees the simulator, so everything is checked. */
static inline int onHardware(void) {
  const char *backend = getenv("MUSA_SIM_BACKEND");
  return backend && strcmp(backend, "hw") == 0;
}
/* hw or diff: the program's work also runs on a GPU (where undefined behaviour may hang). */
static inline int reachesHardware(void) {
  const char *backend = getenv("MUSA_SIM_BACKEND");
  return onHardware() || (backend && strcmp(backend, "diff") == 0);
}

static int g_failures = 0;
#define CHECK(cond, ...)                                                                     \
  do {                                                                                       \
    if (!(cond)) {                                                                           \
      printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);                                 \
      printf(__VA_ARGS__);                                                                   \
      printf("\n");                                                                          \
      ++g_failures;                                                                          \
    }                                                                                        \
  } while (0)
#define CHECK_MUSA(call)                                                                     \
  do {                                                                                       \
    musaError_t e_ = (call);                                                                 \
    CHECK(e_ == musaSuccess, "%s returned %s", #call, musaGetErrorName(e_));                 \
  } while (0)
static inline int finish(const char *name) {
  if (g_failures) {
    printf("%s: %d check(s) failed\n", name, g_failures);
    return 1;
  }
  printf("%s: all checks passed\n", name);
  return 0;
}
