// Helpers shared by the graph API GoogleTests: a host-node callback that counts its calls,
// and instantiation that must succeed.
#pragma once

#include "musa_runtime.h"

#include <gtest/gtest.h>

#include <atomic>

struct Counter {
  std::atomic<int> calls{0};
  static void MUSART_CB bump(void *self) { ++static_cast<Counter *>(self)->calls; }
};

inline musaGraphExec_t instantiate(musaGraph_t g) {
  musaGraphExec_t exec = nullptr;
  EXPECT_EQ(musaGraphInstantiate(&exec, g, 0), musaSuccess);
  return exec;
}
