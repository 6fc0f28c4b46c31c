// The negative-test table: a case is one bad call of one runtime entry point, the argument it
// gets wrong, and the error CUDA returns for it. The cases are added per API family
// (Negative*Cases.cpp); NegativeApiTest.cpp runs each as its own parameterised test.
#pragma once

#include "musa_runtime.h"

#include <functional>
#include <string>
#include <vector>

namespace negative {

/// Handles every case may use, made fresh for each case: live ones, and stale ones (made and
/// destroyed) that a runtime must refuse without crashing.
struct Ctx {
  static constexpr size_t Bytes = 256;
  int count = 0;
  void *d = nullptr;       // device memory, Bytes long
  void *freed = nullptr;   // device memory already freed
  void *pinned = nullptr;  // musaMallocHost, Bytes long
  void *managed = nullptr; // musaMallocManaged, Bytes long
  char host[Bytes] = {};   // pageable host memory
  musaStream_t s = nullptr, deadStream = nullptr;
  musaEvent_t e = nullptr, untimed = nullptr, deadEvent = nullptr;
  musaGraph_t g = nullptr, other = nullptr, deadGraph = nullptr;
  musaGraphNode_t n = nullptr, n1 = nullptr, hostNode = nullptr, otherNode = nullptr;
  musaGraphExec_t exec = nullptr, deadExec = nullptr;
  musaMemPool_t pool = nullptr;
  musaArray_t array = nullptr, deadArray = nullptr;
  /// Undo what a case set up; runs after the last-error checks, in reverse order.
  std::vector<std::function<void()>> cleanups;

  Ctx();
  ~Ctx();
  Ctx(const Ctx &) = delete;
  Ctx &operator=(const Ctx &) = delete;

  /// A device ordinal no device has: -1, the device count, or a large one.
  int badDevice(int which) const { return which == 0 ? -1 : which == 1 ? count : 1000; }
  static void MUSART_CB noop(void *) {}
  static void MUSART_CB noopCallback(musaStream_t, musaError_t, void *) {}
};

/// A pointer no runtime table holds: a stream, event, graph... handle that was never made.
template <class T> T foreign() {
  static char storage[64];
  return reinterpret_cast<T>(storage);
}

using Call = std::function<musaError_t(Ctx &)>;

struct Case {
  std::string api, arg;
  musaError_t expected;
  Call call;
  /// Non-empty: the simulator differs from CUDA here and the case is skipped, saying why.
  std::string divergence;
};

/// Every case, in a fixed order (the families' add functions, called once).
std::vector<Case> &registry();
Case &add(const char *api, std::string arg, musaError_t expected, Call call);

void addDeviceCases();
void addMemoryCases();
void addStreamEventCases();
void addGraphCases();
void addOtherCases();

/// The bad call is the expression; `c` is the Ctx.
#define NEG(api, arg, expected, ...)                                                           \
  ::negative::add(#api, arg, expected, [=](::negative::Ctx & c) -> musaError_t {              \
    (void)c;                                                                                   \
    return __VA_ARGS__;                                                                        \
  })
/// The same with statements before the bad call (the body returns it).
#define NEGB(api, arg, expected, ...)                                                          \
  ::negative::add(#api, arg, expected, [=](::negative::Ctx & c) -> musaError_t {              \
    (void)c;                                                                                   \
    __VA_ARGS__                                                                                \
  })

} // namespace negative
