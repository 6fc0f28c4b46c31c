// The passes that turn NVPTX device bitcode into host code the virtual GPU can run.
//
// Pipeline (order matters, see lowerDeviceModule):
//   1. RetargetToHostPass     host triple/datalayout, strip NVPTX attributes and annotations;
//                             records which functions are kernels first.
//      LowerInlineAsmPass     inline PTX statements programs commonly write become the NVVM
//                             intrinsics or fences they stand for; others are refused by name.
//      MarkWarpSynchronousPass  volatile shared accesses lanes exchange values through get a
//                             convergence point each, divergent branches around them a
//                             reconvergence bracket (pre-Volta warp-synchronous code).
//   2. AddContextParamPass    every defined device function gains a trailing `ptr %ctx`
//                             (musa::sim::ThreadContext*); direct and indirect calls pass it on.
//   3. LowerSharedMemoryPass  addrspace(3) globals become offsets from ctx->shared.
//   4. LowerDeviceCallsPass   special registers become loads from ctx; barriers, printf,
//                             assert and trap become calls to the simdevice builtins.
//   5. InstrumentTimingPass   (timing model only) per-block instruction counts and a hook call
//                             before every memory access.
//      GpuArithmeticPass      float-to-int casts, division by zero and wide shifts as PTX
//                             defines them (the host's instructions trap or differ).
//      MarkSpinLoopsPass      loops that poll memory another thread writes yield on each trip
//                             (such kernels run as fibers).
//   6. EmitKernelThunksPass   a `void thunk(void** args, ctx)` per kernel plus a facts record.
//   7. FormBarrierRegionsPass kernels with barriers or warp collectives also get region loops
//                             (loops over threads between park points) instead of fibers.
// (2) must precede (3) and (4) because both read the context argument it adds.
#pragma once

#include "llvm/IR/PassManager.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class Module;
class Function;
class Argument;
class Instruction;
class Loop;
class LoopInfo;
class Value;
class DataLayout;
class Triple;
class LLVMContext;
class StructType;
class FenceInst;
class IRBuilderBase;
} // namespace llvm

namespace musa::jit {

/// Function attribute marking a lowered device function whose last argument is the context.
inline constexpr const char *ContextAttr = "musa-sim-ctx";
/// Module flag listing kernels (names), set by RetargetToHostPass.
inline constexpr const char *KernelListMD = "musa.kernels";
/// On a cosine: the second half of one sincosf (InstrumentTiming charges the pair as one).
inline constexpr const char *SincosMetadata = "musa.sincos";
/// A kernel's __launch_bounds__ maximum block size (from nvvm.annotations' maxntidx).
inline constexpr const char *MaxThreadsMD = "musa.max_threads";
/// Prefix of a kernel's whole-block loop entry (EmitKernelThunksPass).
inline constexpr const char *BlockLoopPrefix = "__musa_block_";
/// Prefix of the per-kernel facts global (a KernelFacts record).
inline constexpr const char *FactsPrefix = "__musa_kfacts_";
/// The per-kernel facts record as KernelJit reads it from the object: EmitKernelThunksPass
/// builds its IR type with kernelFactsType, whose layout a unit test checks against this.
/// Bits of KernelFacts::needsFibers.
inline constexpr uint32_t FactNeedsFibers = 1; // no plain thread loop
inline constexpr uint32_t FactWaits = 2; // reaches a spin loop that waits for a value
/// MarkSpinLoops' mark on the spin call of a loop that waits for a value (not a lock).
inline constexpr const char *SpinWaitsMetadata = "musa.spin.waits";
inline constexpr uint32_t ParamAlignShift = 24;
struct KernelFacts {
  uint64_t staticSharedBytes;
  uint32_t needsFibers; // FactNeedsFibers | FactWaits
  uint32_t maxThreadsPerBlock; // __launch_bounds__'s first argument; 0 without one
  uint32_t paramCount;
  uint32_t paramSizes[1]; // paramCount entries: bytes | log2(alignment) << ParamAlignShift
};
/// { i64 staticSharedBytes, i32 needsFibers, i32 maxThreadsPerBlock, i32 n, [n x i32] paramSizes }.
llvm::StructType *kernelFactsType(llvm::LLVMContext &C, unsigned params);

/// Prefix of the region-loop entry of a kernel cut at its park points (musa::sim::KernelRegions)
/// and of its facts (a RegionFacts record); both absent for kernels that need no regions or
/// cannot have them (then a C string with FibersBecausePrefix says why).
inline constexpr const char *RegionsPrefix = "__musa_regions_";
inline constexpr const char *RegionFactsPrefix = "__musa_rfacts_";
/// A region loop's facts as KernelJit reads them; FormBarrierRegionsPass builds the IR type
/// with regionFactsType (layout checked by a unit test).
struct RegionFacts {
  uint32_t frameBytes;   // per thread
  uint32_t parkPoints;
  uint32_t pointKinds[1]; // parkPoints entries of abi::RegionPoint
};
/// { i32 frameBytes, i32 parkPoints, [points x i32] pointKinds }.
llvm::StructType *regionFactsType(llvm::LLVMContext &C, unsigned points);
inline constexpr const char *FibersBecausePrefix = "__musa_fibers_because_";
/// The fully instrumented variant's regions (sampled blocks) are RegionsPrefix and
/// RegionFactsPrefix followed by this and the kernel's name (a kernel name cannot start with
/// a dot, so no kernel's own symbols collide with these).
inline constexpr const char *FullRegionsSymbolPrefix = ".full.";

/// i32 global: the number of memory-access sites InstrumentTimingPass numbered (absent in
/// modules compiled without the timing model).
inline constexpr const char *TimingSitesSymbol = "__musa_timing_sites";
/// [sites x i32]: each access site's abi::Access* info (size, store/atomic, load group).
inline constexpr const char *TimingSiteInfoSymbol = "__musa_timing_site_info";
/// [sites x i32]: for a site the light variant does not count itself (an access statically
/// to shared memory, which runs once per execution of its basic block), 1 + that block's
/// number; 0 for the others. The runtime adds the block's count to the site's shared
/// executions.
inline constexpr const char *TimingSiteBlocksSymbol = "__musa_timing_site_blocks";
/// Followed by a kernel's name: [2 x i32], the first and one past the last access site the
/// light variant of the kernel and of the functions it calls may count in ctx->siteAccum
/// (the runtime folds only those after each block).
inline constexpr const char *TimingKernelSitesPrefix = "__musa_timing_sites_of_";
/// Suffix of the fully instrumented copy of each device function (the timing model's sampled
/// blocks run it; every other block runs the light counters of the original).
inline constexpr const char *FullVariantSuffix = ".musa.full";
/// Function metadata !{i32 firstBlock, i32 endBlock, i32 firstSite, i32 endSite}: the basic
/// blocks and access sites InstrumentTimingPass numbered in the function.
inline constexpr const char *CounterRangeMD = "musa.timing.range";
struct CounterRange {
  uint32_t firstBlock = 0, endBlock = 0, firstSite = 0, endSite = 0;
};
/// What CounterRangeMD says of `F`; nullopt if it has none.
std::optional<CounterRange> counterRangeOf(const llvm::Function &F);
/// { i32 n, [n x [ClassCount x i32]] }: the instruction counts per class of each basic block
/// InstrumentTimingPass numbered (ThreadContext::blockCounts indexes the same numbers). The
/// light variant counts only executions of blocks (u64 each); the runtime multiplies them by
/// these rows. The full variant also adds to ctx->counters per class itself.
inline constexpr const char *TimingBlocksSymbol = "__musa_timing_blocks";
/// In a function `L` that runs kernel `K` for many threads in a loop (block loop, region
/// loop): the timing counters K's code adds to (ctx->counters, ->blockCounts, ->siteAccum)
/// become local arrays for the call, added to the real ones when L returns, so the optimiser
/// keeps them in registers and can vectorise the loop. No-op without the timing model.
void localizeCounters(llvm::Function &L, llvm::Value *ctx, llvm::Function &K);
/// Loop metadata !{!"musa.thread.loop"} on the innermost loop over a block's threads (block
/// and region loops): SplitThreadGuardsPass looks for it.
inline constexpr const char *ThreadLoopMD = "musa.thread.loop";
/// The scope a lowered memory fence orders (__threadfence_block, __threadfence,
/// __threadfence_system, membar and fence in inline PTX): metadata !{i32 scope} named
/// FenceScopeMetadata on the fence, absent meaning Gpu. The fence itself is sequentially
/// consistent whatever the scope; the timing model charges it by scope (InstrumentTiming).
enum class FenceScope : unsigned { Block = 0, Gpu = 1, System = 2 };
inline constexpr const char *FenceScopeMetadata = "musa.fence.scope";
llvm::FenceInst *createScopedFence(llvm::IRBuilderBase &b, FenceScope scope);
FenceScope fenceScopeOf(const llvm::FenceInst &fence);
/// The context argument of a lowered device function, or null if not lowered.
llvm::Argument *getContextArg(llvm::Function &F);
/// Whether the module's lowered code reads a thread's own clock (clock64(), %globaltimer) or
/// moves it (__nanosleep): only then must each thread count the instructions it executes
/// (ThreadContext::issued); the timing model itself counts per block.
bool readsThreadClock(const llvm::Module &M);
/// Kernels recorded by RetargetToHostPass.
std::vector<llvm::Function *> getKernels(llvm::Module &M);

struct RetargetToHostPass : llvm::PassInfoMixin<RetargetToHostPass> {
  std::string triple;
  std::string dataLayout;
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};
struct AddContextParamPass : llvm::PassInfoMixin<AddContextParamPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};
struct LowerSharedMemoryPass : llvm::PassInfoMixin<LowerSharedMemoryPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};
struct LowerInlineAsmPass : llvm::PassInfoMixin<LowerInlineAsmPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};
struct LowerDeviceCallsPass : llvm::PassInfoMixin<LowerDeviceCallsPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};
struct InstrumentTimingPass : llvm::PassInfoMixin<InstrumentTimingPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};
/// Integer corner cases (saturating float-to-int, division by zero, shifts past the width)
/// with the GPU's results (GpuArithmetic.cpp).
struct GpuArithmeticPass : llvm::PassInfoMixin<GpuArithmeticPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};
/// On the warp collectives MarkWarpSynchronousPass adds (a WarpConverge after a volatile shared
/// access; a branch's mask and the __syncwarp of it at the post-dominator): lockstep points of
/// warp-synchronous code (counted by neither the timing model nor MarkSpinLoops).
inline constexpr const char *LockstepMetadata = "musa.lockstep";
bool isLockstepPoint(const llvm::Instruction &I);
/// Volatile shared accesses lanes exchange values through get lockstep points, and divergent
/// branches around them reconverge at their post-dominators (MarkWarpSynchronous.cpp).
struct MarkWarpSynchronousPass : llvm::PassInfoMixin<MarkWarpSynchronousPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};
/// Whether `L` waits for another thread by MarkSpinLoops' rules (a poll decides a branch of
/// it) and reaches no barrier or warp collective.
bool isSpinLoop(const llvm::Loop &L, const llvm::LoopInfo &LI);
/// Back edges of loops that wait for another thread call the spin builtin (MarkSpinLoops.cpp).
struct MarkSpinLoopsPass : llvm::PassInfoMixin<MarkSpinLoopsPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};
struct FormBarrierRegionsPass : llvm::PassInfoMixin<FormBarrierRegionsPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};
struct EmitKernelThunksPass : llvm::PassInfoMixin<EmitKernelThunksPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};
/// Misaligned, shared-out-of-range and (memcheck) host-memory accesses flagged in ctx->accessFaults (CheckAccesses.cpp).
struct CheckAccessesPass : llvm::PassInfoMixin<CheckAccessesPass> {
  bool memcheck = false; // also shared-memory bounds and host memory (MUSA_SIM_MEMCHECK=1)
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};
/// Marks the innermost thread loops parallel (llvm.loop.parallel_accesses) where their memory
/// accesses allow (MarkParallelThreadLoops.cpp); runs in the host optimiser just before
/// SplitThreadGuardsPass.
struct MarkParallelThreadLoopsPass : llvm::PassInfoMixin<MarkParallelThreadLoopsPass> {
  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &);
};
/// Splits thread loops on a bounds test of the thread's index (SplitThreadGuards.cpp); runs
/// in the host optimiser just before the vectoriser.
struct SplitThreadGuardsPass : llvm::PassInfoMixin<SplitThreadGuardsPass> {
  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &);
};
/// Computes after the loop the reductions whose result follows from its trip count (the
/// light counters' counts and address ranges; CloseLoopReductions.cpp); runs right after
/// SplitThreadGuardsPass.
struct CloseLoopReductionsPass : llvm::PassInfoMixin<CloseLoopReductionsPass> {
  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &);
};

/// Runs the passes in order (InstrumentTimingPass only if `instrument`; shared-memory bounds
/// and host-memory checks only if `memcheck`). Returns an error message, empty on success.
std::string lowerDeviceModule(llvm::Module &M, const std::string &triple,
                              const std::string &dataLayout, bool instrument = false,
                              bool memcheck = false);

} // namespace musa::jit
