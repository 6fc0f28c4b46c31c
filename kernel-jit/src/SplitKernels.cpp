// SplitKernels: a lowered module cut into one module per kernel and a common one, so that a
// kernel is optimised and compiled to machine code only when it is first launched.
//
// A kernel's module holds the kernel's entry points and facts (the "roots" named after it:
// thunks, block loop, regions, facts, timing site range) and a private copy of every function
// they reach. The common module defines every global variable (each is one object, shared by
// all kernels) and the functions a variable's initializer names (a table of function
// pointers). Kernel modules declare the variables; constant ones come with an
// available_externally copy of their initializer, so loads from constant tables still fold.
// All modules load into one JITDylib: the kernels' declarations bind to the common module.
#include "SplitKernels.h"

#include "musa/jit/DeviceLowering.h"
#include "musa/sim/KernelAbi.h"

#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <map>

using namespace llvm;

namespace musa::jit {

namespace {

/// The symbols EmitKernelThunks, FormBarrierRegions and InstrumentTiming name after kernel `K`.
std::vector<std::string> rootNames(StringRef K) {
  std::string full = FullRegionsSymbolPrefix;
  return {sim::abi::ThunkPrefix + K.str(),
          sim::abi::FullThunkPrefix + K.str(),
          BlockLoopPrefix + K.str(),
          FactsPrefix + K.str(),
          RegionsPrefix + K.str(),
          RegionFactsPrefix + K.str(),
          RegionsPrefix + full + K.str(),
          RegionFactsPrefix + full + K.str(),
          FibersBecausePrefix + K.str(),
          TimingKernelSitesPrefix + K.str()};
}

/// Adds to `out` the functions and global values constant `C` names (through casts, GEPs and
/// aggregates).
void constantReferences(const Constant *C, SmallVectorImpl<const GlobalValue *> &out,
                        SmallPtrSetImpl<const Constant *> &seen) {
  if (!seen.insert(C).second)
    return;
  if (auto *G = dyn_cast<GlobalValue>(C)) {
    out.push_back(G);
    return;
  }
  for (const Use &op : C->operands())
    if (auto *inner = dyn_cast<Constant>(op.get()))
      constantReferences(inner, out, seen);
}

/// The functions defined in `M` that `roots` reach through calls and function addresses,
/// not crossing into `shared` (defined once, in the common module).
SmallPtrSet<const Function *, 32> reachedFunctions(ArrayRef<const Function *> roots,
                                                  const SmallPtrSetImpl<const Function *> &shared) {
  SmallPtrSet<const Function *, 32> reached;
  SmallVector<const Function *, 32> work(roots.begin(), roots.end());
  SmallPtrSet<const Constant *, 32> seenConstants;
  while (!work.empty()) {
    const Function *F = work.pop_back_val();
    if (F->isDeclaration() || !reached.insert(F).second)
      continue;
    for (const Instruction &I : instructions(*F))
      for (const Use &op : I.operands()) {
        auto *C = dyn_cast<Constant>(op.get());
        if (!C || isa<ConstantData>(C))
          continue;
        SmallVector<const GlobalValue *, 4> refs;
        constantReferences(C, refs, seenConstants);
        for (const GlobalValue *G : refs)
          if (auto *callee = dyn_cast<Function>(G); callee && !shared.contains(callee))
            work.push_back(callee);
      }
  }
  return reached;
}

std::string bitcodeOf(const Module &M) {
  std::string out;
  raw_string_ostream os(out);
  WriteBitcodeToFile(M, os);
  os.flush();
  return out;
}

/// Declarations nothing uses (the variables and functions of other kernels) go, and no
/// definition keeps a comdat (its copies are private to the module).
void tidy(Module &M) {
  for (GlobalObject &G : M.global_objects())
    G.setComdat(nullptr);
  M.getComdatSymbolTable().clear();
  for (GlobalVariable &G : make_early_inc_range(M.globals()))
    if (G.isDeclaration() && G.use_empty())
      G.eraseFromParent();
  for (Function &F : make_early_inc_range(M.functions()))
    if (F.isDeclaration() && F.use_empty() && !F.isIntrinsic())
      F.eraseFromParent();
}

} // namespace

KernelPartitions splitByKernel(Module &M) {
  KernelPartitions out;
  // Every variable is one object, defined in the common module under a name the others can
  // bind to: local ones become external (their names are unique within the module), and
  // discardable ones (a vtable's linkonce_odr) must stay although the common module itself
  // does not use them.
  auto keepDefinition = [](GlobalValue &G) {
    G.setLinkage(GlobalValue::ExternalLinkage);
    G.setVisibility(GlobalValue::DefaultVisibility);
  };
  for (GlobalVariable &G : M.globals()) {
    if (G.getName().starts_with("llvm.") || G.isDeclaration())
      continue;
    if (!G.hasName())
      G.setName("__musa_var");
    keepDefinition(G);
  }
  // Functions a variable's initializer names live in the common module, once.
  SmallPtrSet<const Function *, 8> shared;
  SmallPtrSet<const Constant *, 32> seenConstants;
  for (GlobalVariable &G : M.globals()) {
    if (!G.hasInitializer())
      continue;
    SmallVector<const GlobalValue *, 8> refs;
    constantReferences(G.getInitializer(), refs, seenConstants);
    for (const GlobalValue *ref : refs)
      if (auto *F = dyn_cast<Function>(ref); F && !F->isDeclaration())
        shared.insert(F);
  }
  for (const Function *F : shared) {
    auto *mutableF = const_cast<Function *>(F);
    if (!mutableF->hasName())
      mutableF->setName("__musa_fn");
    keepDefinition(*mutableF);
  }

  // The kernels: one facts record each.
  std::map<const GlobalValue *, size_t> owner; // root -> kernel
  std::vector<std::vector<const Function *>> rootFunctions;
  for (GlobalVariable &G : M.globals())
    if (G.getName().starts_with(FactsPrefix))
      out.kernels.push_back({G.getName().drop_front(StringRef(FactsPrefix).size()).str(), {}});
  rootFunctions.resize(out.kernels.size());
  for (size_t k = 0; k < out.kernels.size(); ++k)
    for (const std::string &name : rootNames(out.kernels[k].name))
      if (GlobalValue *root = M.getNamedValue(name); root && !root->isDeclaration()) {
        owner[root] = k;
        if (auto *F = dyn_cast<Function>(root))
          rootFunctions[k].push_back(F);
      }

  auto isRoot = [&](const GlobalValue *G, size_t k) {
    auto found = owner.find(G);
    return found != owner.end() && found->second == k;
  };

  // The common module: every variable that is no kernel's root, and the shared functions
  // with what they call.
  {
    SmallVector<const Function *, 8> sharedRoots(shared.begin(), shared.end());
    SmallPtrSet<const Function *, 1> none;
    auto reached = reachedFunctions(sharedRoots, none);
    ValueToValueMapTy map;
    std::unique_ptr<Module> common = CloneModule(M, map, [&](const GlobalValue *G) {
      if (isa<GlobalVariable>(G))
        return !owner.count(G);
      auto *F = dyn_cast<Function>(G);
      return F && reached.contains(F);
    });
    for (Function &F : common->functions())
      if (!F.isDeclaration() && !F.getName().empty()) {
        const GlobalValue *original = M.getNamedValue(F.getName());
        auto *originalF = dyn_cast_or_null<Function>(original);
        if (!originalF || !shared.contains(originalF))
          F.setLinkage(GlobalValue::InternalLinkage);
      }
    tidy(*common);
    out.common = bitcodeOf(*common);
  }

  for (size_t k = 0; k < out.kernels.size(); ++k) {
    auto reached = reachedFunctions(rootFunctions[k], shared);
    ValueToValueMapTy map;
    std::unique_ptr<Module> part = CloneModule(M, map, [&](const GlobalValue *G) {
      if (auto *F = dyn_cast<Function>(G))
        return reached.contains(F);
      auto *V = dyn_cast<GlobalVariable>(G);
      if (!V || V->getName().starts_with("llvm."))
        return false;
      if (owner.count(V))
        return isRoot(V, k);
      return V->isConstant() && V->hasInitializer();
    });
    for (Function &F : part->functions())
      if (!F.isDeclaration() && !isRoot(M.getNamedValue(F.getName()), k))
        F.setLinkage(GlobalValue::InternalLinkage);
    for (GlobalVariable &V : part->globals())
      if (!V.isDeclaration() && !isRoot(M.getNamedValue(V.getName()), k))
        V.setLinkage(GlobalValue::AvailableExternallyLinkage);
    tidy(*part);
    out.kernels[k].bitcode = bitcodeOf(*part);
  }
  return out;
}

} // namespace musa::jit
