// KernelJit: lowering, optimisation, code generation, object cache and ORC loading.
#include "musa/jit/KernelJit.h"

#include "DeviceLibrary.h"
#include "SplitKernels.h"
#include "LoweringHash.h"

#include "musa/jit/DeviceLowering.h"
#include "musa/jit/FatBinary.h"
#include "musa/jit/ObjectCache.h"
#include "musa/sim/Timing.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/TargetParser/Host.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <functional>
#include <set>
#include <system_error>
#include <thread>

#include <unistd.h>

using namespace llvm;

namespace musa::jit {

namespace {

/// Changes whenever a lowering pass or the device ABI changes (a build-time hash of their
/// sources), so cached objects never outlive the code that made them.
constexpr const char *LoweringVersion = MUSA_SIM_LOWERING_HASH;

std::unique_ptr<TargetMachine> hostTargetMachine(const std::string &cpu,
                                                 const std::string &features,
                                                 std::string &error) {
  std::string triple = sys::getProcessTriple();
  const Target *target = TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return nullptr;
  TargetOptions options;
  return std::unique_ptr<TargetMachine>(target->createTargetMachine(
      triple, cpu, features, options, Reloc::PIC_, CodeModel::Small,
      CodeGenOptLevel::Aggressive));
}

/// Whether environment variable `name` is set to something other than "" or "0".
bool envFlagOn(const char *name) {
  const char *v = std::getenv(name);
  return v && *v && std::string(v) != "0";
}

/// MUSA_SIM_MEMCHECK=1: kernels also check shared-memory bounds and host addresses
/// (CheckAccesses.cpp).
bool memcheckOn() {
  static const bool on = envFlagOn("MUSA_SIM_MEMCHECK");
  return on;
}

/// The fully instrumented variants (sampled blocks only, a few per launch: each device
/// function's copy, its region bodies, the thunk and region entry) are optimised for
/// size: little unrolling or vectorisation of code that runs a few blocks. At full speed they
/// were a third of a cold compile; the counts they report are the same either way. (Not
/// `minsize`: it also makes code generation call libgcc for 128-bit shifts.)
void optimizeFullVariantsForSize(Module &M) {
  std::string fullRegions = std::string(RegionsPrefix) + FullRegionsSymbolPrefix;
  for (Function &F : M) {
    StringRef name = F.getName();
    if (!F.isDeclaration() && !F.hasFnAttribute(Attribute::OptimizeNone) &&
        (name.contains(FullVariantSuffix) || name.starts_with(sim::abi::FullThunkPrefix) ||
         name.starts_with(fullRegions)))
      F.addFnAttr(Attribute::OptimizeForSize);
  }
}

/// O3's loop-unrolling threshold (300) fully unrolls the vectorised thread loops of kernels
/// whose block size is a template constant, many times over in a kernel with a barrier tree:
/// half of all machine code and of the codegen time, for no speed measured (sim_vs_cpp's block
/// and warp reductions run as fast at 100). Lowered once for the JIT's pipelines, unless the
/// process set it itself.
void limitUnrolling() {
  auto &options = cl::getRegisteredOptions();
  auto found = options.find("unroll-threshold");
  if (found != options.end() && found->second->getNumOccurrences() == 0)
    found->second->addOccurrence(1, "unroll-threshold", "100");
}

/// MUSA_SIM_JIT_STATS=1: each compile prints its phases' times to stderr.
bool jitStatsOn() {
  static const bool on = envFlagOn("MUSA_SIM_JIT_STATS");
  return on;
}

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void optimize(Module &M, TargetMachine &TM) {
  optimizeFullVariantsForSize(M);
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PassBuilder PB(&TM);
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  PB.registerVectorizerStartEPCallback([](FunctionPassManager &FPM, OptimizationLevel) {
    FPM.addPass(MarkParallelThreadLoopsPass());
    FPM.addPass(SplitThreadGuardsPass());
    // The split loops' fixed guards folded away first: their counters' updates then run on
    // every iteration, which CloseLoopReductionsPass needs to see.
    FPM.addPass(SimplifyCFGPass());
    FPM.addPass(LoopSimplifyPass());
    FPM.addPass(CloseLoopReductionsPass());
  });
  PB.buildPerModuleDefaultPipeline(OptimizationLevel::O3).run(M, MAM);
}

/// The marker the device headers put on a __managed__ variable (musa_device_prelude.h).
constexpr StringRef ManagedAnnotation = "musa.managed";

/// The globals `M` marks __managed__ (entries of llvm.global.annotations).
std::vector<GlobalVariable *> managedGlobals(Module &M) {
  std::vector<GlobalVariable *> out;
  GlobalVariable *annotations = M.getGlobalVariable("llvm.global.annotations");
  auto *array = annotations && annotations->hasInitializer()
                    ? dyn_cast<ConstantArray>(annotations->getInitializer())
                    : nullptr;
  if (!array)
    return out;
  for (Value *op : array->operands()) {
    auto *entry = dyn_cast<ConstantStruct>(op);
    if (!entry || entry->getNumOperands() < 2)
      continue;
    auto *global = dyn_cast<GlobalVariable>(entry->getOperand(0)->stripPointerCasts());
    auto *text = dyn_cast<GlobalVariable>(entry->getOperand(1)->stripPointerCasts());
    auto *chars = text && text->hasInitializer()
                      ? dyn_cast<ConstantDataArray>(text->getInitializer())
                      : nullptr;
    if (global && chars && chars->isCString() && chars->getAsCString() == ManagedAnnotation)
      out.push_back(global);
  }
  return out;
}

/// Writes the bytes of constant `C` (little-endian, the device's layout) to `out`, which holds
/// its allocation size in zeros; false for what has no fixed bytes (addresses).
bool layOutConstant(const Constant *C, const DataLayout &DL, char *out) {
  if (C->isNullValue() || isa<UndefValue>(C))
    return true;
  auto bytesOf = [&](const APInt &value) {
    for (unsigned i = 0; i * 8 < value.getBitWidth(); ++i)
      out[i] = char(value.extractBitsAsZExtValue(std::min(8u, value.getBitWidth() - i * 8), i * 8));
    return true;
  };
  if (auto *integer = dyn_cast<ConstantInt>(C))
    return bytesOf(integer->getValue());
  if (auto *fp = dyn_cast<ConstantFP>(C))
    return bytesOf(fp->getValueAPF().bitcastToAPInt());
  if (auto *sequence = dyn_cast<ConstantDataSequential>(C)) {
    uint64_t step = DL.getTypeAllocSize(sequence->getElementType());
    for (unsigned i = 0; i < sequence->getNumElements(); ++i)
      if (!layOutConstant(sequence->getElementAsConstant(i), DL, out + i * step))
        return false;
    return true;
  }
  if (auto *structure = dyn_cast<ConstantStruct>(C)) {
    const StructLayout *layout = DL.getStructLayout(structure->getType());
    for (unsigned i = 0; i < structure->getNumOperands(); ++i)
      if (!layOutConstant(structure->getOperand(i), DL, out + layout->getElementOffset(i)))
        return false;
    return true;
  }
  if (isa<ConstantArray>(C) || isa<ConstantVector>(C)) {
    Type *element = isa<ConstantArray>(C) ? cast<ArrayType>(C->getType())->getElementType()
                                          : cast<VectorType>(C->getType())->getElementType();
    uint64_t step = DL.getTypeAllocSize(element);
    for (unsigned i = 0; i < C->getNumOperands(); ++i)
      if (!layOutConstant(cast<Constant>(C->getOperand(i)), DL, out + i * step))
        return false;
    return true;
  }
  return false;
}

/// A __managed__ variable's storage is the host's (FatBinaryRegistry registers it): the
/// module only declares it, and the load binds the name to that address.
void externaliseManaged(Module &M) {
  for (GlobalVariable *global : managedGlobals(M)) {
    global->setInitializer(nullptr);
    global->setLinkage(GlobalValue::ExternalLinkage);
    global->setVisibility(GlobalValue::DefaultVisibility);
  }
  if (GlobalVariable *annotations = M.getGlobalVariable("llvm.global.annotations"))
    annotations->eraseFromParent();
}

/// The cut of a module's lowered code (SplitKernels.h), or why there is none.
struct LoweredParts {
  KernelPartitions parts;
  std::string error;
};

/// Bitcode (one image, or several relocatable ones linked together) -> lowered for the host
/// and cut into the common module and one module per kernel. `check` vets the functions the
/// lowered code declares (an error naming them, or empty).
LoweredParts lowerAndSplit(const std::vector<std::string> &bitcodes, const std::string &cpu,
                           const std::string &features, bool instrument,
                           const std::function<std::string(Module &)> &check) {
  auto start = std::chrono::steady_clock::now();
  LLVMContext context;
  std::unique_ptr<Module> module;
  for (const std::string &bitcode : bitcodes) {
    auto part = parseBitcodeFile(MemoryBufferRef(bitcode, "device.bc"), context);
    if (!part)
      return {{}, "cannot read device bitcode: " + llvm::toString(part.takeError())};
    if (!module) {
      module = std::move(*part);
    } else if (Linker::linkModules(*module, std::move(*part))) {
      return {{}, "cannot link relocatable device code (a __device__ function or variable is "
                  "defined twice?)"};
    }
  }
  if (!module)
    return {{}, "no device code"};
  std::string error = linkDeviceLibrary(*module);
  if (!error.empty())
    return {{}, error};
  externaliseManaged(*module);
  std::unique_ptr<TargetMachine> TM = hostTargetMachine(cpu, features, error);
  if (!TM)
    return {{}, "no host target: " + error};
  error = lowerDeviceModule(*module, TM->getTargetTriple().str(),
                            TM->createDataLayout().getStringRepresentation(), instrument,
                            memcheckOn());
  if (error.empty())
    error = check(*module);
  if (!error.empty())
    return {{}, error};
  double lowered = secondsSince(start);
  LoweredParts out{splitByKernel(*module), {}};
  if (jitStatsOn())
    std::fprintf(stderr, "musa-sim: lowered device code in %.2f s, cut into %zu kernels in %.2f s\n",
                 lowered, out.parts.kernels.size(), secondsSince(start) - lowered);
  return out;
}

/// One module of a split (bitcode) -> host object bytes, or an error message.
std::string compilePartition(const std::string &bitcode, const std::string &cpu,
                             const std::string &features, std::string_view what,
                             std::string &object) {
  auto start = std::chrono::steady_clock::now();
  LLVMContext context;
  auto parsed = parseBitcodeFile(MemoryBufferRef(bitcode, "lowered.bc"), context);
  if (!parsed)
    return "cannot read lowered device code: " + llvm::toString(parsed.takeError());
  Module &M = **parsed;
  std::string error;
  std::unique_ptr<TargetMachine> TM = hostTargetMachine(cpu, features, error);
  if (!TM)
    return "no host target: " + error;
  // What another module of the split defines (or a __managed__ variable, in the host's
  // image) may lie anywhere in the address space: reached through the GOT, not a 32-bit
  // displacement.
  for (GlobalValue &G : M.global_values())
    if (G.isDeclaration() || G.hasAvailableExternallyLinkage())
      G.setDSOLocal(false);
  optimize(M, *TM);
  double optimized = secondsSince(start);
  if (const char *dump = std::getenv("MUSA_SIM_DUMP_IR")) { // debugging the lowering
    static std::mutex dumping; // a kernel compiled ahead writes beside another one
    std::lock_guard lock(dumping);
    std::error_code ec;
    raw_fd_ostream file(dump, ec, sys::fs::OF_Append);
    M.print(file, nullptr);
  }
  SmallVector<char, 0> buffer;
  raw_svector_ostream os(buffer);
  legacy::PassManager codegen;
  if (TM->addPassesToEmitFile(codegen, os, nullptr, CodeGenFileType::ObjectFile))
    return "host target cannot emit object files";
  codegen.run(M);
  object.assign(buffer.begin(), buffer.end());
  if (jitStatsOn())
    std::fprintf(stderr,
                 "musa-sim: compiled %.*s in %.2f s (optimisation %.2f, code generation %.2f; "
                 "%zu bytes of machine code)\n",
                 int(what.size()), what.data(), secondsSince(start), optimized,
                 secondsSince(start) - optimized, object.size());
  return {};
}

/// double -> bfloat16 rounded once, the helper the host backend calls for an fptrunc from
/// double to bfloat (the host's libgcc has none): rounded to odd into a float (an inexact
/// result gets an odd last bit, which keeps the sticky information), then to nearest-even on
/// the top 16 bits; NaNs stay NaNs. A bfloat16 travels in the low 16 bits of an XMM register,
/// as the float returned here does.
float truncDoubleToBfloat16(double d) {
  float f = static_cast<float>(d);
  uint32_t bits = std::bit_cast<uint32_t>(f);
  uint32_t out;
  if (d != d) {
    out = (bits >> 16) | 0x40;
  } else {
    if (static_cast<double>(f) != d && !(bits & 1))
      bits += std::fabs(static_cast<double>(f)) > std::fabs(d) ? -1 : 1;
    out = (bits + 0x7fff + ((bits >> 16) & 1)) >> 16;
  }
  return std::bit_cast<float>(out);
}

/// The simulator's builtins, the only process symbols device code reaches besides the device
/// library (linked into the module) and isHostCallable's libc/libm functions.
struct Builtin {
  const char *name;
  void *address;
};
const Builtin Builtins[] = {
    {sim::abi::BarrierFn, reinterpret_cast<void *>(&__musa_sim_barrier)},
    {sim::abi::TrapFn, reinterpret_cast<void *>(&__musa_sim_trap)},
    {sim::abi::AssertFailFn, reinterpret_cast<void *>(&__musa_sim_assertfail)},
    {sim::abi::PrintfFn, reinterpret_cast<void *>(&__musa_sim_vprintf)},
    {sim::abi::WarpFn, reinterpret_cast<void *>(&__musa_sim_warp)},
    {sim::abi::BarrierReduceFn, reinterpret_cast<void *>(&__musa_sim_barrier_reduce)},
    {sim::abi::ActiveMaskFn, reinterpret_cast<void *>(&__musa_sim_active_mask)},
    {sim::abi::NanosleepFn, reinterpret_cast<void *>(&__musa_sim_nanosleep)},
    {sim::abi::GridSyncFn, reinterpret_cast<void *>(&__musa_sim_grid_sync)},
    {sim::abi::NamedBarrierFn, reinterpret_cast<void *>(&__musa_sim_named_barrier)},
    {sim::abi::SpinFn, reinterpret_cast<void *>(&__musa_sim_spin)},
    {sim::abi::GridValidFn, reinterpret_cast<void *>(&__musa_sim_grid_valid)},
    {sim::abi::MallocFn, reinterpret_cast<void *>(&__musa_sim_malloc)},
    {sim::abi::FreeFn, reinterpret_cast<void *>(&__musa_sim_free)},
    {sim::abi::LaunchDeviceFn, reinterpret_cast<void *>(&__musa_sim_launch_device)},
    {sim::abi::DeviceLastErrorFn, reinterpret_cast<void *>(&__musa_sim_device_last_error)},
    {sim::abi::Clock64Fn, reinterpret_cast<void *>(&__musa_sim_clock64)},
    {sim::abi::GlobalTimerFn, reinterpret_cast<void *>(&__musa_sim_globaltimer)},
    {sim::abi::SmIdFn, reinterpret_cast<void *>(&__musa_sim_smid)},
    {sim::abi::SmCountFn, reinterpret_cast<void *>(&__musa_sim_nsmid)},
    {sim::abi::IsLocalFn, reinterpret_cast<void *>(&__musa_sim_is_local)},
    {sim::abi::CheckAddressFn, reinterpret_cast<void *>(&__musa_sim_check_address)},
    {sim::abi::MemAccessFn, reinterpret_cast<void *>(&__musa_sim_mem)},
    {sim::abi::RegionShuffleFn, reinterpret_cast<void *>(&__musa_sim_region_shuffle)},
    {sim::abi::XorwowSkipFn, reinterpret_cast<void *>(&__musa_sim_xorwow_skip)},
    {sim::abi::Mrg32k3aSkipFn, reinterpret_cast<void *>(&__musa_sim_mrg32k3a_skip)},
    {"__truncdfbf2", reinterpret_cast<void *>(&truncDoubleToBfloat16)},
};

bool isBuiltin(StringRef name) {
  for (const Builtin &b : Builtins)
    if (name == b.name)
      return true;
  return false;
}

std::string undefinedMessage(const std::string &unknown) {
  return "device code refers to " + unknown +
         ", defined neither in device code nor by the simulator (device code may call "
         "__device__ functions, the device math library and the C memory functions; a "
         "__device__ function of another file needs -rdc)";
}

/// Calls `visit(name, undefined)` for each named symbol of an object; an error if the object
/// or its symbol table cannot be read.
std::string forEachSymbol(const std::string &object,
                          const std::function<void(StringRef, bool)> &visit) {
  auto file = object::ObjectFile::createObjectFile(
      MemoryBufferRef(StringRef(object.data(), object.size()), "musa-kernels"));
  if (!file)
    return "cannot read the compiled device code: " + llvm::toString(file.takeError());
  for (const object::SymbolRef &symbol : (*file)->symbols()) {
    Expected<uint32_t> flags = symbol.getFlags();
    Expected<StringRef> name = symbol.getName();
    if (!flags || !name) {
      if (!flags)
        consumeError(flags.takeError());
      if (!name)
        consumeError(name.takeError());
      return "cannot read the compiled device code's symbol table";
    }
    if (!name->empty())
      visit(*name, *flags & object::SymbolRef::SF_Undefined);
  }
  return {};
}

/// Every symbol the object leaves undefined must be a builtin, host-callable, __managed__
/// storage or what the module's common object defines (`common`, empty for the common object
/// itself): checked here, before loading, so the error names the symbol (ORC would report it
/// only at the first lookup, as a generic "symbols not found").
std::string checkUndefinedSymbols(const std::string &object,
                                  const KernelJit::ManagedStorage &managed,
                                  const std::set<std::string, std::less<>> &common) {
  std::string unknown;
  std::string error = forEachSymbol(object, [&](StringRef name, bool undefined) {
    if (undefined && name != "_GLOBAL_OFFSET_TABLE_" && !isBuiltin(name) &&
        !isHostCallable(name) && !managed.count(name) && !common.count(name))
      unknown += (unknown.empty() ? "'" : ", '") + name.str() + "'";
  });
  if (!error.empty())
    return error;
  return unknown.empty() ? std::string() : undefinedMessage(unknown);
}

/// The symbols an object defines (empty if it cannot be read: its check says so).
std::set<std::string, std::less<>> definedSymbols(const std::string &object) {
  std::set<std::string, std::less<>> out;
  (void)forEachSymbol(object, [&](StringRef name, bool undefined) {
    if (!undefined)
      out.insert(name.str());
  });
  return out;
}

/// The same test on lowered IR, before any kernel is compiled, so that a module calling what
/// device code cannot reach fails to load (the objects' test also catches what code
/// generation adds).
std::string checkDeclaredFunctions(Module &M, const KernelJit::ManagedStorage &managed) {
  std::string unknown;
  for (Function &F : M.functions())
    if (F.isDeclaration() && !F.isIntrinsic() && !F.use_empty() && !isBuiltin(F.getName()) &&
        !isHostCallable(F.getName()) && !managed.count(F.getName()))
      unknown += (unknown.empty() ? "'" : ", '") + F.getName().str() + "'";
  return unknown.empty() ? std::string() : undefinedMessage(unknown);
}

} // namespace

KernelJit &KernelJit::instance() {
  // Never destroyed: stream workers may still be running compiled kernels, or compiling, while
  // the process exits (a program may return from main with work in flight); destroying the
  // JIT would unmap the code under them.
  static KernelJit *jit = new KernelJit;
  return *jit;
}

KernelJit::KernelJit() {
  InitializeNativeTarget();
  InitializeNativeTargetAsmPrinter();
  limitUnrolling();
  hostCpu_ = sys::getHostCPUName().str();
  SubtargetFeatures features;
  for (auto &feature : sys::getHostCPUFeatures())
    features.AddFeature(feature.first(), feature.second);
  hostFeatures_ = features.getString();
  auto jit = orc::LLJITBuilder().create();
  if (!jit) {
    std::fprintf(stderr, "musa-sim: cannot start the kernel JIT: %s\n",
                 llvm::toString(jit.takeError()).c_str());
    return;
  }
  jit_ = std::move(*jit);
}

KernelJit::~KernelJit() = default;

std::string KernelJit::cacheKey(std::string_view bitcode) const {
  std::string salt = std::string(LoweringVersion) + "|" LLVM_VERSION_STRING "|" + hostCpu_ +
                     "|" + hostFeatures_ + (sim::timingModelOn() ? "|timing" : "") +
                     (memcheckOn() ? "|memcheck" : "");
  // BLAKE3 of what decides the object: the lowering (hashed from its sources at build time),
  // LLVM, the host CPU, the modes compiled in, and the bitcode. 128 bits: 32 hex digits.
  BLAKE3 hasher;
  hasher.update(salt);
  hasher.update(StringRef("\0", 1));
  hasher.update(StringRef(bitcode.data(), bitcode.size()));
  return toHex(hasher.final<16>(), /*LowerCase=*/true);
}

JitResult KernelJit::load(std::string_view bitcode, JitModule &out,
                          const ManagedStorage &managed) {
  return loadLinked({bitcode}, out, managed);
}

JitResult KernelJit::managedVariables(std::string_view bitcode,
                                      std::vector<ManagedVariable> &out) {
  out.clear();
  // Lazily: function bodies stay unread, the globals and their initializers are all it needs.
  LLVMContext context;
  auto parsed = getLazyBitcodeModule(
      MemoryBufferRef(StringRef(bitcode.data(), bitcode.size()), "device image"), context);
  if (!parsed)
    return {"device image: " + toString(parsed.takeError())};
  for (GlobalVariable *global : managedGlobals(**parsed)) {
    ManagedVariable var{global->getName().str(), {}};
    uint64_t size = (*parsed)->getDataLayout().getTypeAllocSize(global->getValueType());
    var.initial.assign(size, '\0');
    if (global->hasInitializer() &&
        !layOutConstant(global->getInitializer(), (*parsed)->getDataLayout(), var.initial.data()))
      return {"__managed__ variable '" + var.name + "': an initializer the simulator cannot "
              "lay out (numbers, arrays and structs of them are supported, not addresses)"};
    out.push_back(std::move(var));
  }
  return {};
}

/// A loaded module's kernels not compiled yet: each is compiled (or read from the cache) at
/// its first lookup, normally its first launch, so a program pays for the kernels it runs.
struct LazyKernels {
  std::string key;                   // the module's cache key
  std::vector<std::string> bitcodes; // lowered again if a kernel is not in the cache
  KernelJit::ManagedStorage managed;
  std::set<std::string, std::less<>> common; // the symbols the common object defines
  orc::JITDylib *dylib = nullptr;
  std::mutex mutex; // one compile of the module at a time; other modules' go on
  bool lowered = false;
  std::map<std::string, std::string, std::less<>> pending; // kernel -> its module's bitcode
  std::vector<std::string> order;                          // the kernels as the module has them
  std::map<std::string, std::string, std::less<>> ahead;   // compiled ahead: kernel -> object
  std::set<std::string, std::less<>> loaded;
};

namespace {
const ObjectCache &objectCache() {
  static const ObjectCache cache = ObjectCache::fromEnvironment();
  return cache;
}

/// The cache key of one module of a split: the common one (empty `kernel`) or a kernel's.
std::string partKey(const std::string &moduleKey, std::string_view kernel) {
  BLAKE3 hasher;
  hasher.update(moduleKey);
  hasher.update(kernel.empty() ? StringRef("|common") : StringRef("|kernel|"));
  hasher.update(StringRef(kernel.data(), kernel.size()));
  return toHex(hasher.final<16>(), /*LowerCase=*/true);
}

bool perfMapOn() {
  const char *map = std::getenv("MUSA_SIM_PERF_MAP");
  return map && *map && *map != '0';
}

/// The kernel to compile beside `name` on another core: the next one the module defines
/// that is neither compiled nor cached (programs mostly launch kernels in the order they
/// define them); empty if there is none or only one core.
std::string kernelToCompileAhead(const LazyKernels &lazy, std::string_view name) {
  static const bool spareCore = std::thread::hardware_concurrency() > 1;
  if (!spareCore)
    return {};
  auto at = std::find(lazy.order.begin(), lazy.order.end(), name);
  for (auto next = at == lazy.order.end() ? at : at + 1; next != lazy.order.end(); ++next) {
    if (lazy.loaded.count(*next) || lazy.ahead.count(*next) || !lazy.pending.count(*next))
      continue;
    if (objectCache().has(partKey(lazy.key, *next)))
      continue;
    return *next;
  }
  return {};
}
} // namespace

std::string KernelJit::lower(LazyKernels &lazy, std::string *common) {
  LoweredParts lowered =
      lowerAndSplit(lazy.bitcodes, hostCpu_, hostFeatures_, sim::timingModelOn(),
                    [&](Module &M) { return checkDeclaredFunctions(M, lazy.managed); });
  if (!lowered.error.empty())
    return lowered.error;
  lazy.lowered = true;
  if (common)
    *common = std::move(lowered.parts.common);
  lazy.order.clear();
  for (KernelPartitions::Kernel &kernel : lowered.parts.kernels) {
    lazy.order.push_back(kernel.name);
    if (!lazy.loaded.count(kernel.name))
      lazy.pending[kernel.name] = std::move(kernel.bitcode);
  }
  return {};
}

JitResult KernelJit::loadLinked(const std::vector<std::string_view> &bitcodes, JitModule &out,
                                const ManagedStorage &managed) {
  if (!jit_) // set once by the constructor
    return {"the kernel JIT failed to start"};
  std::string all;
  for (std::string_view b : bitcodes)
    all += std::to_string(b.size()) + ":" + std::string(b);
  auto lazy = std::make_shared<LazyKernels>();
  lazy->key = cacheKey(bitcodes.size() == 1 ? bitcodes.front() : std::string_view(all));
  lazy->bitcodes.assign(bitcodes.begin(), bitcodes.end());
  lazy->managed = managed;
  // Compiling takes its own LLVMContext and target machine, and the cache writes by atomic
  // rename: no lock, so launches of kernels already loaded never wait for a compile.
  std::string key = partKey(lazy->key, {}), object;
  bool hit = false;
  if (auto cached = objectCache().get(key)) {
    object = std::move(*cached);
    hit = true;
  } else {
    // Lowered whole (and checked: a module calling what device code cannot reach fails
    // here), then only the common part is compiled; the kernels wait for their first use.
    std::string common;
    if (std::string error = lower(*lazy, &common); !error.empty())
      return {error};
    std::string error =
        compilePartition(common, hostCpu_, hostFeatures_, "the module's variables", object);
    if (!error.empty())
      return {error};
    objectCache().put(key, object);
  }
  if (std::string error = checkUndefinedSymbols(object, managed, {}); !error.empty())
    return {error};
  lazy->common = definedSymbols(object);
  std::lock_guard lock(mutex_);
  ++(hit ? cacheHits_ : compiled_);

  auto dylib = jit_->createJITDylib("musa-module-" + std::to_string(nextDylib_++));
  if (!dylib)
    return {llvm::toString(dylib.takeError())};
  // No module sees the whole process (LLJIT links its process-symbols JITDylib into every
  // JITDylib by default): the generator below is its filtered view.
  if (orc::JITDylibSP process = jit_->getProcessSymbolsJITDylib())
    dylib->removeFromLinkOrder(*process);
  orc::ExecutionSession &ES = jit_->getExecutionSession();
  orc::SymbolMap builtins;
  for (const Builtin &b : Builtins)
    builtins[ES.intern(b.name)] = {orc::ExecutorAddr::fromPtr(b.address),
                                   JITSymbolFlags::Exported};
  for (const auto &[name, address] : managed)
    builtins[ES.intern(name)] = {orc::ExecutorAddr::fromPtr(address), JITSymbolFlags::Exported};
  if (Error err = dylib->define(orc::absoluteSymbols(std::move(builtins))))
    return {llvm::toString(std::move(err))};
  // The rest of the process only through the allow-list: device code never binds to an
  // arbitrary host symbol (the host's __divsc3, say, whose return convention differs).
  auto process = orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
      jit_->getDataLayout().getGlobalPrefix(),
      [](const orc::SymbolStringPtr &name) { return isHostCallable(*name); });
  if (!process)
    return {llvm::toString(process.takeError())};
  dylib->addGenerator(std::move(*process));
  auto buffer = MemoryBuffer::getMemBufferCopy(object, "musa-kernels-" + key);
  if (Error err = jit_->addObjectFile(*dylib, std::move(buffer)))
    return {llvm::toString(std::move(err))};
  out.dylib = &*dylib;
  lazy->dylib = &*dylib;
  out.lazy = std::move(lazy);
  if (perfMapOn())
    writePerfMap(object, *dylib);
  return {};
}

JitResult KernelJit::loadKernel(LazyKernels &lazy, std::string_view name) {
  std::lock_guard lock(lazy.mutex);
  if (lazy.loaded.count(name))
    return {};
  std::string key = partKey(lazy.key, name), object;
  bool hit = false;
  if (auto early = lazy.ahead.find(name); early != lazy.ahead.end()) {
    object = std::move(early->second);
    lazy.ahead.erase(early);
  } else if (auto cached = objectCache().get(key)) {
    object = std::move(*cached);
    hit = true;
  } else {
    if (!lazy.lowered)
      if (std::string error = lower(lazy); !error.empty())
        return {error};
    auto part = lazy.pending.find(name);
    if (part == lazy.pending.end())
      return {}; // no such kernel: the lookup says so
    // The next kernel compiles on another core meanwhile (its own context and target
    // machine); joined before this returns, so no compile outlives the call.
    std::string next = kernelToCompileAhead(lazy, name), nextObject, nextError;
    std::thread helper;
    if (!next.empty()) {
      try {
        helper = std::thread([&] {
          nextError = compilePartition(lazy.pending.find(next)->second, hostCpu_,
                                       hostFeatures_, "kernel " + next + " (ahead)", nextObject);
        });
      } catch (const std::system_error &) {
        next.clear(); // no thread: compile it when it is launched
      }
    }
    std::string error = compilePartition(part->second, hostCpu_, hostFeatures_,
                                         "kernel " + std::string(name), object);
    if (helper.joinable())
      helper.join();
    if (!next.empty() && nextError.empty()) {
      objectCache().put(partKey(lazy.key, next), nextObject);
      lazy.ahead[next] = std::move(nextObject);
    }
    if (!error.empty())
      return {error};
    objectCache().put(key, object);
  }
  if (std::string error = checkUndefinedSymbols(object, lazy.managed, lazy.common);
      !error.empty())
    return {error};
  std::lock_guard jitLock(mutex_);
  ++(hit ? cacheHits_ : compiled_);
  auto buffer = MemoryBuffer::getMemBufferCopy(object, "musa-kernel-" + key);
  if (Error err = jit_->addObjectFile(*lazy.dylib, std::move(buffer)))
    return {llvm::toString(std::move(err))};
  if (perfMapOn())
    writePerfMap(object, *lazy.dylib);
  lazy.loaded.insert(std::string(name));
  if (auto part = lazy.pending.find(name); part != lazy.pending.end())
    lazy.pending.erase(part);
  return {};
}

void KernelJit::writePerfMap(std::string_view object, orc::JITDylib &dylib) {
  auto file = object::ObjectFile::createObjectFile(
      MemoryBufferRef(StringRef(object.data(), object.size()), "musa-kernels"));
  if (!file) {
    consumeError(file.takeError());
    return;
  }
  std::string lines;
  for (const object::SymbolRef &symbol : (*file)->symbols()) {
    auto type = symbol.getType();
    auto name = symbol.getName();
    if (!type || !name || *type != object::SymbolRef::ST_Function) {
      if (!type)
        consumeError(type.takeError());
      if (!name)
        consumeError(name.takeError());
      continue;
    }
    uint64_t size = object::ELFSymbolRef(symbol).getSize();
    auto address = jit_->lookup(dylib, *name); // local symbols are not found: skipped
    if (!address || !size) {
      if (!address)
        consumeError(address.takeError());
      continue;
    }
    char line[64];
    std::snprintf(line, sizeof line, "%" PRIx64 " %" PRIx64 " ", address->getValue(), size);
    lines += line + name->str() + "\n";
  }
  // perf reads /tmp/perf-PID.map to name addresses in JIT'd code (`perf report`).
  std::string path = "/tmp/perf-" + std::to_string(getpid()) + ".map";
  if (FILE *out = std::fopen(path.c_str(), "a")) {
    std::fputs(lines.c_str(), out);
    std::fclose(out);
  }
}

JitResult KernelJit::lookupSymbol(const JitModule &module, std::string_view name,
                                  void *&address) {
  std::lock_guard lock(mutex_);
  if (!jit_ || !module.dylib)
    return {"module not loaded"};
  auto symbol = jit_->lookup(*module.dylib, std::string(name));
  if (!symbol)
    return {"device symbol '" + std::string(name) + "' not found: " +
            llvm::toString(symbol.takeError())};
  address = symbol->toPtr<void *>();
  return {};
}

/// A device image's bitcode, parsed whole (globalSize, kernelNames).
static llvm::Expected<std::unique_ptr<llvm::Module>> parseImage(std::string_view bitcode,
                                                                llvm::LLVMContext &context) {
  return llvm::parseBitcodeFile(
      llvm::MemoryBufferRef(llvm::StringRef(bitcode.data(), bitcode.size()), "device image"),
      context);
}

JitResult KernelJit::globalSize(std::string_view bitcode, std::string_view name,
                                size_t &size) {
  llvm::LLVMContext context;
  auto parsed = parseImage(bitcode, context);
  if (!parsed)
    return {"device image: " + llvm::toString(parsed.takeError())};
  llvm::GlobalVariable *global = (*parsed)->getGlobalVariable(llvm::StringRef(name), true);
  if (!global)
    return {"device variable '" + std::string(name) + "' not found"};
  size = size_t((*parsed)->getDataLayout().getTypeAllocSize(global->getValueType()));
  return {};
}

JitResult KernelJit::kernelNames(std::string_view bitcode, std::vector<std::string> &out) {
  llvm::LLVMContext context;
  auto parsed = parseImage(bitcode, context);
  if (!parsed)
    return {"device image: " + llvm::toString(parsed.takeError())};
  // A kernel is what nvvm.annotations marks "kernel" or what has the PTX kernel convention.
  llvm::SmallPtrSet<const llvm::Function *, 16> marked;
  if (llvm::NamedMDNode *ann = (*parsed)->getNamedMetadata("nvvm.annotations"))
    for (llvm::MDNode *node : ann->operands()) {
      if (node->getNumOperands() < 2)
        continue;
      auto *fn = llvm::dyn_cast_or_null<llvm::ValueAsMetadata>(node->getOperand(0).get());
      auto *kind = llvm::dyn_cast_or_null<llvm::MDString>(node->getOperand(1).get());
      if (fn && kind && kind->getString() == "kernel")
        if (auto *f = llvm::dyn_cast<llvm::Function>(fn->getValue()))
          marked.insert(f);
    }
  out.clear();
  for (const llvm::Function &f : **parsed)
    if (!f.isDeclaration() &&
        (marked.count(&f) || f.getCallingConv() == llvm::CallingConv::PTX_Kernel))
      out.push_back(f.getName().str());
  return {};
}

JitResult KernelJit::lookup(const JitModule &module, std::string_view name,
                            sim::KernelEntry &out) {
  if (module.lazy)
    if (JitResult compiled = loadKernel(*module.lazy, name); !compiled.ok())
      return compiled;
  std::lock_guard lock(mutex_);
  if (!jit_ || !module.dylib)
    return {"module not loaded"};
  std::string kernel(name);
  auto thread = jit_->lookup(*module.dylib, sim::abi::ThunkPrefix + kernel);
  if (!thread)
    return {"kernel '" + kernel + "' not found in device code: " +
            llvm::toString(thread.takeError())};
  auto block = jit_->lookup(*module.dylib, BlockLoopPrefix + kernel);
  auto facts = jit_->lookup(*module.dylib, FactsPrefix + kernel);
  if (!block || !facts) {
    if (!block)
      consumeError(block.takeError());
    if (!facts)
      consumeError(facts.takeError());
    return {"kernel '" + kernel + "' is missing its JIT entry points"};
  }
  const auto *f = facts->toPtr<const KernelFacts *>();
  out.name = kernel;
  out.thread = thread->toPtr<sim::KernelThunk>();
  out.block = block->toPtr<sim::KernelThunk>();
  out.staticSharedBytes = f->staticSharedBytes;
  out.needsFibers = (f->needsFibers & FactNeedsFibers) != 0;
  out.waitsForOthers = (f->needsFibers & FactWaits) != 0;
  out.maxThreadsPerBlock = f->maxThreadsPerBlock;
  const auto *sizes = reinterpret_cast<const uint32_t *>(
      reinterpret_cast<const char *>(f) + offsetof(KernelFacts, paramSizes));
  out.paramSizes.clear();
  out.paramOffsets.clear();
  for (size_t i = 0, offset = 0; i < f->paramCount; ++i) {
    uint32_t bytes = sizes[i] & ((1u << ParamAlignShift) - 1);
    size_t align = size_t(1) << (sizes[i] >> ParamAlignShift);
    offset = (offset + align - 1) / align * align;
    out.paramSizes.push_back(bytes);
    out.paramOffsets.push_back(offset);
    offset += bytes;
  }
  auto lookupRegions = [&](const std::string &symbol, sim::RegionCode &code) {
    code = sim::RegionCode();
    auto entry = jit_->lookup(*module.dylib, RegionsPrefix + symbol);
    auto facts = jit_->lookup(*module.dylib, RegionFactsPrefix + symbol);
    if (entry && facts) {
      code.entry = entry->toPtr<sim::KernelRegions>();
      const auto *rf = facts->toPtr<const RegionFacts *>();
      code.frameBytes = rf->frameBytes;
      code.parkPoints = rf->parkPoints;
      code.pointKinds = reinterpret_cast<const uint32_t *>(
          reinterpret_cast<const char *>(rf) + offsetof(RegionFacts, pointKinds));
      return true;
    }
    if (!entry)
      consumeError(entry.takeError());
    if (!facts)
      consumeError(facts.takeError());
    return false;
  };
  if (!lookupRegions(kernel, out.regions)) {
    if (auto because = jit_->lookup(*module.dylib, FibersBecausePrefix + kernel))
      out.fibersBecause = because->toPtr<const char *>();
    else
      consumeError(because.takeError());
  }
  lookupRegions(FullRegionsSymbolPrefix + kernel, out.fullRegions);
  out.timingSites = 0;
  out.instrumented = false;
  auto sites = jit_->lookup(*module.dylib, TimingSitesSymbol);
  auto blocks = jit_->lookup(*module.dylib, TimingBlocksSymbol);
  auto siteInfo = jit_->lookup(*module.dylib, TimingSiteInfoSymbol);
  auto siteBlocks = jit_->lookup(*module.dylib, TimingSiteBlocksSymbol);
  auto full = jit_->lookup(*module.dylib, sim::abi::FullThunkPrefix + kernel);
  if (sites && blocks && siteInfo && siteBlocks && full) {
    out.timingSites = *sites->toPtr<const uint32_t *>();
    const uint32_t *table = blocks->toPtr<const uint32_t *>();
    out.timingBlocks = table[0];
    out.timingBlockTable = table + 1;
    out.timingSiteInfo = siteInfo->toPtr<const uint32_t *>();
    out.timingSiteBlocks = siteBlocks->toPtr<const uint32_t *>();
    out.timingFirstSite = 0, out.timingEndSite = out.timingSites;
    if (auto range = jit_->lookup(*module.dylib, TimingKernelSitesPrefix + kernel)) {
      const uint32_t *bounds = range->toPtr<const uint32_t *>();
      out.timingFirstSite = bounds[0], out.timingEndSite = bounds[1];
    } else {
      consumeError(range.takeError());
    }
    out.fullThread = full->toPtr<sim::KernelThunk>();
    out.instrumented = true;
  } else {
    for (auto *result : {&sites, &blocks, &siteInfo, &siteBlocks, &full})
      if (!*result)
        consumeError(result->takeError());
  }
  return {};
}

} // namespace musa::jit
