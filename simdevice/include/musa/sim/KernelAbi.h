// The contract between JIT-compiled kernel code and the virtual GPU: the per-thread context
// layout that lowered special-register reads load from, and the builtins lowered code calls.
//
// kernel-jit emits loads at the offsets below and calls the functions declared here by name;
// nothing else of simdevice is visible to generated code. Offsets are fixed (static_asserts
// below) because generated IR hard-codes them.
#pragma once

#include "musa_sim_collective_ops.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace musa::sim {
/// One access site's light counters for the running block (see ThreadContext::siteAccum).
struct SiteAccum {
  uint64_t globalExecs;
  uint64_t sharedExecs;
  uint64_t lowest;  // lowest global address (UINT64_MAX: none yet)
  uint64_t highest; // highest global address plus the access size (0: none yet)
};

struct ThreadContext {
  uint32_t tid[3];    // threadIdx
  uint32_t ntid[3];   // blockDim
  uint32_t ctaid[3];  // blockIdx
  uint32_t nctaid[3]; // gridDim
  uint32_t warpSize;
  uint32_t laneId;
  char *shared;        // this block's shared memory, static variables from offset 0
  char *dynamicShared; // `extern __shared__` arrays: after the kernel's static variables
  void *block;         // opaque: the executor's per-block state
  // Timing model (instrumented kernels only; see Timing.h). `counters` points at the block's
  // BlockCounters, whose first member is the per-class instruction array generated code adds
  // to; `issued` counts the instructions this context has executed (clock64() reads it).
  uint64_t *counters;
  uint64_t issued;
  // Executions of each basic block (numbered module-wide) by this thread in blocks the
  // timing model samples for divergence; a scratch array shared by all threads elsewhere.
  // Light variant: u64 executions per block, the worker's totals for the launch. Fully
  // instrumented variant (sampled blocks): u32 per block, this thread's row.
  void *blockCounts;
  // Light timing counters (blocks the model does not sample): per access site, the block's
  // global and shared executions and the lowest and highest global address (SiteAccum), and
  // the bytes of shared memory at `shared` (to tell a generic pointer's space).
  SiteAccum *siteAccum;
  uint64_t sharedSize;
  // Access checks every kernel makes (CheckAccesses in kernel-jit): the bytes of this block's
  // shared memory (static and dynamic), and the faults its accesses raised (AccessFault bits),
  // read by the executor after the block.
  uint64_t sharedLimit;
  uint64_t accessFaults;
};


namespace abi {
inline constexpr unsigned TidOffset = offsetof(ThreadContext, tid);
inline constexpr unsigned NtidOffset = offsetof(ThreadContext, ntid);
inline constexpr unsigned CtaidOffset = offsetof(ThreadContext, ctaid);
inline constexpr unsigned NctaidOffset = offsetof(ThreadContext, nctaid);
inline constexpr unsigned WarpSizeOffset = offsetof(ThreadContext, warpSize);
inline constexpr unsigned LaneIdOffset = offsetof(ThreadContext, laneId);
inline constexpr unsigned SharedOffset = offsetof(ThreadContext, shared);
inline constexpr unsigned DynamicSharedOffset = offsetof(ThreadContext, dynamicShared);
inline constexpr unsigned CountersOffset = offsetof(ThreadContext, counters);
inline constexpr unsigned IssuedOffset = offsetof(ThreadContext, issued);
inline constexpr unsigned BlockCountsOffset = offsetof(ThreadContext, blockCounts);
inline constexpr unsigned SiteAccumOffset = offsetof(ThreadContext, siteAccum);
inline constexpr unsigned SharedSizeOffset = offsetof(ThreadContext, sharedSize);
inline constexpr unsigned SharedLimitOffset = offsetof(ThreadContext, sharedLimit);
inline constexpr unsigned AccessFaultsOffset = offsetof(ThreadContext, accessFaults);
/// ThreadContext::accessFaults bits. Misaligned (any of the low bits: an address's own low
/// bits are ORed in): an access of N bytes at an address not a
/// multiple of min(N, 4) (where the H200 reports a misaligned address:
/// tests/hardware/probes/fault_boundaries.h200.txt). SharedRange: an access reaching past the
/// end of the block's shared memory (an illegal address there). HostMemory: with
/// MUSA_SIM_MEMCHECK=1, an access to host memory the device cannot reach (pageable memory that
/// was neither allocated nor registered through the runtime: the H200 reports an illegal
/// address there, and pageableMemoryAccess reads 0).
inline constexpr uint64_t AccessFaultMisaligned = 0xff, AccessFaultSharedRange = 0x100,
                          AccessFaultHostMemory = 0x200;

/// Instruction classes the timing instrumentation counts per basic block (thread-level
/// dynamic counts). Memory accesses are not counted here: each one calls MemAccessFn.
enum InstrClass : unsigned {
  ClassInt,     // integer and address arithmetic, compares, conversions
  ClassFp32,    // float/half arithmetic, fma
  ClassFp64,    // double arithmetic
  ClassSpecial, // special function unit: division, sqrt, transcendental functions
  ClassBranch,  // conditional branches, switches, calls
  ClassBarrier, // __syncthreads, grid.sync
  ClassWarp,    // shuffles, votes and other warp collectives
  ClassIntMul,  // the integer multiply-add pipe: multiplies, shifts left by a constant (IMAD)
  ClassTensor,  // tensor cores (mma.h's mma_sync), in m16n8k16 fp16 steps (see tensorSteps)
  ClassCount
};
/// A kernel's table of basic blocks (TimingBlocksSymbol) has a row of TableColumns per block:
/// its instructions per class, then (ChainColumn) the steps of a warp's dependent chain
/// through one execution of it: the longer of its longest def-use path (in instructions) and
/// its instructions over four (a warp issues one a cycle, a dependent one every
/// dependent_issue_cycles, 4 on every profile).
inline constexpr unsigned TableColumns = ClassCount + 1, ChainColumn = ClassCount;
/// MemAccessFn's `info` argument: size in bytes (bits 0-15), flags, and how many of the
/// access's basic block's global loads are in flight at once (bits 24-31: the block's loads
/// over its longest chain of loads that depend on one another; for memory-level parallelism).
inline constexpr uint32_t AccessStore = 1u << 16;
inline constexpr uint32_t AccessAtomic = 1u << 17;
/// A compare-and-swap in a loop (a retry loop): under contention each thread tries until it
/// wins, which the model counts (the simulator's own run never contends).
inline constexpr uint32_t AccessRetry = 1u << 18;
/// An access to the thread's own stack frame: local memory on a GPU (arrays indexed at run
/// time, structures whose address escapes). MemAccessFn then receives the access's byte
/// offset in the thread's frame, not an address; the runtime lays frames out as a GPU does
/// (interleaved: word k of every lane of a warp in one 4 * warpSize-byte run, see
/// localAddress), so lanes reading the same element coalesce.
inline constexpr uint32_t AccessLocal = 1u << 19;
/// A load from a __constant__ variable: served by the constant cache, which serialises the
/// distinct addresses of a warp's lanes (tests/hardware/probes/workload_probe.h200.txt).
inline constexpr uint32_t AccessConstant = 1u << 20;
/// An atomic whose operation is floating point (atomicAdd on a float): shared memory has no
/// such unit, so a GPU runs it there as a compare-and-swap loop (global memory's L2 does).
inline constexpr uint32_t AccessFloatAtomic = 1u << 21;
/// An atomic the GPU compiler turns into one per warp: an integer add, or an and/or/xor/min/max
/// whose result is unused, at an address every lane computes alike (a kernel parameter plus
/// block-wide values). A warp's lanes on one address of any other atomic are applied one after
/// another (tests/hardware/probes/atomic_ops.h100.txt).
inline constexpr uint32_t AccessCombinedAtomic = 1u << 22;
inline constexpr unsigned AccessGroupShift = 24;
/// Where the timing model places local memory (an address range no device allocation uses):
/// warp w of a block at LocalWindowBase + w * LocalWarpStride.
inline constexpr uint64_t LocalWindowBase = uint64_t(1) << 60;
inline constexpr uint64_t LocalWarpStride = uint64_t(1) << 24;
/// The address a GPU gives byte `offset` of lane `lane`'s frame in warp `warp` of a block.
inline constexpr uint64_t localAddress(uint64_t offset, uint32_t warp, uint32_t lane,
                                       uint32_t warpSize) {
  return LocalWindowBase + warp * LocalWarpStride + (offset / 4) * 4 * warpSize + lane * 4 +
         offset % 4;
}
/// Dynamic shared memory starts at the static size rounded up to this.
inline constexpr unsigned DynamicSharedAlign = 16;

// Names of the runtime builtins that lowered code calls (all take the context last).
inline constexpr const char *BarrierFn = "__musa_sim_barrier";
inline constexpr const char *TrapFn = "__musa_sim_trap";
inline constexpr const char *AssertFailFn = "__musa_sim_assertfail";
inline constexpr const char *PrintfFn = "__musa_sim_vprintf";
inline constexpr const char *ThunkPrefix = "__musa_thunk_";
/// The thread thunk of the fully instrumented variant (timing model: sampled blocks).
inline constexpr const char *FullThunkPrefix = "__musa_thunk_full_";
/// What the headers declared for warpSize before it became an `extern const int` variable;
/// still lowered to a context load for device code compiled with those headers.
inline constexpr const char *WarpSizeFn = "__musa_sim_warp_size";
/// Declared by the headers; lowered to calls of the same name with the context appended.
inline constexpr const char *WarpFn = "__musa_sim_warp";
/// The WarpFn op (musa::sim::WarpConverge) whose calls the compiler numbers by call site.
inline constexpr uint32_t WarpConvergeOp = __MUSA_SIM_WARP_CONVERGE;
/// __syncwarp(mask) among the lanes of the caller's 32-lane quarter (WarpSync | QuarterLocal).
inline constexpr uint32_t WarpQuarterSyncOp = __MUSA_SIM_WARP_SYNC | __MUSA_SIM_WARP_QUARTER_LOCAL;
inline constexpr const char *BarrierReduceFn = "__musa_sim_barrier_reduce";
inline constexpr const char *ActiveMaskFn = "__musa_sim_active_mask";
inline constexpr const char *NanosleepFn = "__musa_sim_nanosleep";
inline constexpr const char *GridSyncFn = "__musa_sim_grid_sync";
/// The XORWOW generator's jump ahead (murand_kernel.h's murand_init and skipahead):
/// void(u32 *state (its five xorshift words), u64 subsequence, u64 offset); no context.
inline constexpr const char *XorwowSkipFn = "__musa_sim_xorwow_skip";
/// MRG32k3a's jump: void(u32 s1[3], u32 s2[3], u64 n, u32 shift): n * 2^shift steps.
inline constexpr const char *Mrg32k3aSkipFn = "__musa_sim_mrg32k3a_skip";
/// A named block barrier (PTX `bar.sync a, b` / `bar.arrive a, b`, __barrier_sync_count):
/// void(i32 id, i32 count (0: every thread of the block), i32 arriveOnly, ctx). Fibers only.
inline constexpr const char *NamedBarrierFn = "__musa_sim_named_barrier";
/// Called on each back edge of a loop that waits for another thread (MarkSpinLoopsPass):
/// void(i64 trip, ctx); the fiber yields to the others.
inline constexpr const char *SpinFn = "__musa_sim_spin";
/// Builtins where a GPU thread parks until others arrive (block barriers, warp collectives).
inline bool isParkBuiltin(std::string_view name) {
  return name == BarrierFn || name == BarrierReduceFn || name == WarpFn;
}
/// cooperative_groups' grid_group::is_valid(): int(ctx), 1 in a cooperative launch or one
/// whose grid the device holds at once (GridLaunch::gridFits).
inline constexpr const char *GridValidFn = "__musa_sim_grid_valid";
/// What device malloc(n) and free(p) become (the launch's DeviceHeap).
inline constexpr const char *MallocFn = "__musa_sim_malloc";
inline constexpr const char *FreeFn = "__musa_sim_free";
/// What the headers' device-side launch and last-error calls become (dynamic parallelism):
/// i32(kernel name, config, shared bytes, stream, args, sizes, count, ctx) and i32(reset, ctx).
inline constexpr const char *LaunchDeviceFn = "__musa_sim_launch_device";
inline constexpr const char *DeviceLastErrorFn = "__musa_sim_device_last_error";
/// What %clock/%clock64 and %globaltimer reads become.
inline constexpr const char *Clock64Fn = "__musa_sim_clock64";
inline constexpr const char *GlobalTimerFn = "__musa_sim_globaltimer";
/// %smid and %nsmid; whether a generic pointer is in the calling thread's local memory.
inline constexpr const char *SmIdFn = "__musa_sim_smid";
inline constexpr const char *SmCountFn = "__musa_sim_nsmid";
inline constexpr const char *IsLocalFn = "__musa_sim_is_local";
/// Shared-window addresses (PTX's .shared state space, __cvta_generic_to_shared): a generic
/// pointer's offset in the block's shared memory (i64), and the generic pointer of a .shared
/// address (an offset, or a generic pointer already inside the block's shared memory).
inline constexpr const char *CvtaToSharedFn = "__musa_sim_cvta_to_shared";
inline constexpr const char *SharedAddressFn = "__musa_sim_shared_address";
/// MUSA_SIM_MEMCHECK=1: the AccessFault bits of a device-memory access through a pointer the
/// compiler cannot place (AccessFaultHostMemory if it reaches unregistered host memory).
inline constexpr const char *CheckAddressFn = "__musa_sim_check_address";
/// A thread's entry in the region loop's `resume` array: the region it enters next (0 the
/// kernel's start, j the code after park point j), with RegionParked set while the point has
/// not released it; RegionExited once it returned.
inline constexpr uint32_t RegionParked = 0x80000000u;
inline constexpr uint32_t RegionExited = 0x7fffffffu;
/// Or'ed into the region a region loop is called with: every thread of the block enters it
/// (none has returned, none waits elsewhere), so the loop runs them all without reading their
/// resume entries: a straight loop the host optimiser can vectorise.
inline constexpr uint32_t RegionAllThreads = 0x40000000u;
/// Called by a region loop's entry after it ran a region for every thread, when the only park
/// point that region can reach is a shuffle whose mask, lane argument and width are
/// block-uniform (FormBarrierRegions): completes the shuffle if every thread parked at it as
/// one whole-warp shuffle, and returns non-zero; the entry then runs the next region for every
/// thread at once instead of returning to the executor. Returns 0 (nothing changed) otherwise.
/// Its arguments: (ctx, resume, regions, point), `point` the shuffle's park point.
inline constexpr const char *RegionShuffleFn = "__musa_sim_region_shuffle";
/// What a region loop's park point j (entry j of the kernel's region facts) waits at.
enum RegionPoint : uint32_t {
  RegionPointBarrier = 0, // __syncthreads
  RegionPointReduce = 1,  // __syncthreads_count/and/or
  RegionPointWarp = 2,    // a warp collective
  // Or'ed into a shuffle point's entry when its operation, mask, lane argument and width are
  // block-uniform: threads reaching it write those to the point's uniform record (see
  // regionUniformRecordOffset), once for all, and only their value to the per-thread arrays.
  RegionPointUniform = 0x100,
};
/// The region loop's state block, laid out for `threads` threads and `regions` regions
/// (32-bit words from `resume`): the threads' entries, one pending flag per region, one word
/// of event flags (its byte RegionParkedByte set when some thread parked at a reduction or a
/// warp collective, byte RegionExitedByte when some thread returned); then, 8-byte aligned,
/// the park records as arrays of `threads` (what a parked thread's point needs and returns).
inline constexpr uint64_t regionEventWord(uint64_t threads, uint64_t regions) {
  return threads + regions;
}
inline constexpr unsigned RegionParkedByte = 0;
inline constexpr unsigned RegionExitedByte = 1;
inline constexpr uint64_t regionRecordsOffset(uint64_t threads, uint64_t regions) {
  return (4 * (threads + regions + 1) + 7) / 8 * 8; // in bytes
}
/// Each record array starts `threads` times this many bytes after the records' start.
inline constexpr unsigned ParkValueArray = 0;   // u64: the collective's operand
inline constexpr unsigned ParkResultArray = 8;  // u64: what the point returns to the thread
inline constexpr unsigned ParkMaskArray = 16;   // u32: the collective's lane mask
inline constexpr unsigned ParkArgArray = 20;    // i32: lane, delta or xor mask; or predicate
inline constexpr unsigned ParkWidthArray = 24;  // i32: shuffle segment width
inline constexpr unsigned ParkOpArray = 28;     // u32: WarpOp or BlockReduceOp
inline constexpr unsigned ParkRecordBytes = 32; // per thread
/// After the per-thread arrays, one record per park point (regions - 1 of them) for uniform
/// shuffles (RegionPointUniform): u32 operation, u32 mask, i32 argument, i32 width.
inline constexpr unsigned ParkUniformOp = 0, ParkUniformMask = 4, ParkUniformArg = 8,
                          ParkUniformWidth = 12, ParkUniformBytes = 16;
inline constexpr uint64_t regionUniformRecordOffset(uint64_t threads, uint64_t regions,
                                                    uint64_t point) {
  return regionRecordsOffset(threads, regions) + ParkRecordBytes * threads +
         ParkUniformBytes * point;
}
inline constexpr uint64_t regionStateBytes(uint64_t threads, uint64_t regions) {
  return regionUniformRecordOffset(threads, regions, regions);
}
/// Called by instrumented kernels for every load, store and atomic that is not to the
/// thread's own stack: (address, info, site, ctx). Of an access statically to shared memory
/// only the first SampledInstances executions of each site by a thread (per call of the
/// function holding it) call it; later ones only count the execution in ctx->siteAccum, as
/// the light variant does, which is all the call would do with them.
inline constexpr const char *MemAccessFn = "__musa_sim_mem";
/// The executions of one access site by one thread whose addresses sampled blocks record.
inline constexpr unsigned SampledInstances = 2;
} // namespace abi

static_assert(offsetof(ThreadContext, tid) == 0);
static_assert(offsetof(ThreadContext, shared) == 56);
static_assert(offsetof(ThreadContext, dynamicShared) == 64);
static_assert(offsetof(ThreadContext, counters) == 80);
static_assert(offsetof(ThreadContext, issued) == 88);
static_assert(offsetof(ThreadContext, blockCounts) == 96);
static_assert(offsetof(ThreadContext, siteAccum) == 104);
static_assert(offsetof(ThreadContext, sharedSize) == 112);
static_assert(offsetof(ThreadContext, sharedLimit) == 120);
static_assert(offsetof(ThreadContext, accessFaults) == 128);
static_assert(sizeof(ThreadContext) == 136);
static_assert(sizeof(SiteAccum) == 32);

/// Every kernel is entered through a thunk that unpacks the launch's `void** args`.
using KernelThunk = void (*)(void **args, ThreadContext *ctx);
/// Runs region `region` for every thread whose resume entry equals it (see abi::RegionParked),
/// or for every thread if `region` carries abi::RegionAllThreads.
/// `resume` is the state block of abi::regionStateBytes: a thread reaching a plain
/// __syncthreads stores the next region unparked and sets that region's pending flag; one
/// reaching a reduction or a warp collective writes its park record, stores the next region
/// parked and sets the parked flag; the region after the point loads the record's result.
using KernelRegions = void (*)(void **args, ThreadContext *ctx, void *frames, uint32_t *resume,
                               uint32_t region);

} // namespace musa::sim

extern "C" {
void __musa_sim_barrier(musa::sim::ThreadContext *ctx);
[[noreturn]] void __musa_sim_trap(musa::sim::ThreadContext *ctx);
[[noreturn]] void __musa_sim_assertfail(const char *expr, const char *file, unsigned line,
                                        const char *func, size_t charSize,
                                        musa::sim::ThreadContext *ctx);
int __musa_sim_vprintf(const char *fmt, const char *args, musa::sim::ThreadContext *ctx);
/// A warp collective (musa::sim::WarpOp); returns this lane's result.
uint64_t __musa_sim_warp(uint32_t op, uint32_t mask, uint64_t value, int32_t arg, int32_t width,
                         musa::sim::ThreadContext *ctx);
/// __syncthreads_count/and/or (musa::sim::BlockReduceOp).
int32_t __musa_sim_barrier_reduce(uint32_t op, int32_t predicate, musa::sim::ThreadContext *ctx);
/// __activemask(): this lane's quarter of the warp's lanes that have not exited.
uint32_t __musa_sim_active_mask(musa::sim::ThreadContext *ctx);
/// Device cycles and nanoseconds: simulated time under the timing model (the launch's start
/// plus the work this thread has executed), host time scaled by the clock rate otherwise.
uint64_t __musa_sim_clock64(musa::sim::ThreadContext *ctx);
uint64_t __musa_sim_globaltimer(musa::sim::ThreadContext *ctx);
void __musa_sim_nanosleep(uint32_t ns, musa::sim::ThreadContext *ctx);
/// XORWOW's xorshift words advanced by subsequence * 2^67 + offset steps (RandomSkip.cpp).
void __musa_sim_xorwow_skip(uint32_t *v, uint64_t subsequence, uint64_t offset);
/// MRG32k3a's two components advanced by n * 2^shift steps (RandomSkip.cpp).
void __musa_sim_mrg32k3a_skip(uint32_t *s1, uint32_t *s2, uint64_t n, uint32_t shift);
/// %smid: the multiprocessor the block runs on (blocks dealt to them in turn, by linear
/// index); %nsmid: the device's multiprocessors.
uint32_t __musa_sim_smid(musa::sim::ThreadContext *ctx);
uint32_t __musa_sim_nsmid(musa::sim::ThreadContext *ctx);
/// __isLocal(p): whether `p` is in the calling thread's stack (its local memory).
uint32_t __musa_sim_is_local(const void *p, musa::sim::ThreadContext *ctx);
uint64_t __musa_sim_check_address(const void *p, musa::sim::ThreadContext *ctx);
/// cooperative_groups::grid_group::sync() (cooperative launches only).
void __musa_sim_grid_sync(musa::sim::ThreadContext *ctx);
/// A named barrier: the caller's warp arrives at barrier `id` (0..15) once its live threads
/// are all there; `count` threads (a multiple of the warp size; 0: the whole block) complete
/// it. With `arriveOnly` the caller goes on after its warp's arrival (bar.arrive).
void __musa_sim_named_barrier(uint32_t id, uint32_t count, uint32_t arriveOnly,
                              musa::sim::ThreadContext *ctx);
void __musa_sim_spin(uint64_t trip, musa::sim::ThreadContext *ctx);
int32_t __musa_sim_grid_valid(musa::sim::ThreadContext *ctx);
/// Device malloc()/free(): the launch's heap; null when it is exhausted. Freeing what the heap
/// did not hand out ends the kernel with a fault.
void *__musa_sim_malloc(size_t bytes, musa::sim::ThreadContext *ctx);
void __musa_sim_free(void *p, musa::sim::ThreadContext *ctx);
/// A device-side launch (musa_device_runtime_api.h): `kernel` is the child's device name (null
/// when the launched function was not a kernel known at compile time), `config` its grid and
/// block; the arguments are copied now and the grid runs after the launching grid (ChildGrids).
int32_t __musa_sim_launch_device(const char *kernel, const uint32_t *config, size_t sharedBytes,
                                 void *stream, void **args, const uint32_t *sizes,
                                 uint32_t count, musa::sim::ThreadContext *ctx);
/// The calling thread's last device-side launch error (cleared when `reset`).
int32_t __musa_sim_device_last_error(int32_t reset, musa::sim::ThreadContext *ctx);
/// See abi::RegionShuffleFn: `resume` is the region loop's state block, `regions` its count,
/// `point` the shuffle's park point.
uint32_t __musa_sim_region_shuffle(musa::sim::ThreadContext *ctx, uint32_t *resume,
                                   uint32_t regions, uint32_t point);
/// Timing model: one memory access (see abi::MemAccessFn).
void __musa_sim_mem(const void *address, uint32_t info, uint32_t site,
                    musa::sim::ThreadContext *ctx);
}
