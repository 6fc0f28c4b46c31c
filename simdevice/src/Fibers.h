// Fiber mode: one fiber per GPU thread with real barriers (FiberScheduler.cpp); the executor
// (BlockExecutor.cpp) builds the threads and runs the scheduler under its fault guard.
#pragma once

#include "BlockRun.h"
#include "SanitizerFibers.h"

#include "musa/sim/WarpCollective.h"

#include <boost/context/detail/fcontext.hpp>

#include <cstdint>

namespace musa::sim {

namespace ctx = boost::context::detail;

enum class ThreadState { Ready, AtBarrier, AtWarp, AtGrid, AtNamed, Exited };

/// PTX's barriers per block (bar.sync a: a in 0..15).
inline constexpr uint32_t NamedBarriers = 16;


/// A GPU thread. Builtins receive its ThreadContext*; the scheduler's `current` names the
/// thread it belongs to.
struct SimThread {
  ThreadContext context;
  ctx::fcontext_t self = nullptr;
  ctx::fcontext_t scheduler = nullptr;
  ThreadState state = ThreadState::Ready;
  SanitizerFiber fiber;          // this GPU thread's stack
  SanitizerFiber *schedulerFiber = nullptr; // the worker's stack it returns to
  WarpLane warp;                 // the collective this thread waits at (AtWarp)
  bool reducing = false;         // at a __syncthreads_count/and/or
  uint32_t reduceOp = 0;
  int32_t reduceValue = 0;       // predicate in, result out
  uint64_t spinSince = 0;        // steady-clock ns when its current spin loop first yielded
  // At a named barrier (AtNamed): its id, thread count (0: the block), whether it only
  // arrives, and whether its warp's arrival has been counted.
  uint32_t namedId = 0, namedCount = 0;
  bool namedArrive = false, namedCounted = false;
};

/// A fiber's entry: runs the thread's kernel variant, then marks it exited.
void fiberMain(ctx::transfer_t t);

/// Runs the fibers of one block, or of every block of a cooperative grid (a BlockRun with
/// `threads` and `blockStarts` set), until all exit or they deadlock (a fault in the outcome).
void scheduleFibers(void *arg);

} // namespace musa::sim
