// musa-sim-cc: the compiler driver. Splits each MUSA source into a device pass (NVPTX bitcode,
// wrapped as our fat binary) and a host pass that embeds it, then links against libmusart.
//
// Accepted spellings (mcc/nvcc users type these): .mu and .cu sources; `-x musa`/`-x cuda`
// make following sources MUSA; `--offload-arch=mp_NN`, `--cuda-gpu-arch=mp_NN`, `-mtgpu`
// choose the architecture (recorded in the fat binary; the runtime may pick its default
// device profile from it); `-lmusart` and the device runtime's `-lmusadevrt`/`-lcudadevrt`
// are accepted (libmusart has both); `-lcurand`/`-lmurand` link libmurand, the random-number
// library's host API (its device API is headers), `-lcublas`/`-lmublas` libmublas, the BLAS
// subset, their `_static` forms the same libraries; `-lcublasLt` and `-lculibos`, which
// static cuBLAS links want, are accepted and add nothing; kernels may launch kernels (dynamic
// parallelism, with or without -rdc: DeviceLaunches.h rewrites the launches for clang 19);
// `-rdc`, `-fgpu-rdc` and `--relocatable-device-code=true` mark the device code relocatable:
// the runtime links all such images of a program into one module, so a kernel may call a
// __device__ function defined in another file; `-dc` is `-rdc=true -c`. nvcc's spellings
// work too: `-arch=`/`--gpu-architecture` (an sm_NN/compute_NN name keeps the default MUSA
// architecture and, for sm_70 and newer, adds PTX for that GPU beside the bitcode: the
// hardware backend's device code, see MUSA_SIM_PTX_ARCH),
// `-Xcompiler a,b` and `--compiler-options` (host code only), `-Xlinker`, `--std=`,
// `--use_fast_math` (device code: contraction, reciprocal and approximate math, and
// __USE_FAST_MATH__ defined), `--default-stream per-thread` (stream 0 is each host thread's
// own stream), `-M`/`-MM` (print dependencies), `-MD`/`-MMD`/`-MF`/`-MT`
// (dependency files, from the host pass, which sees every header the device pass does);
// `--optimize N` is `-ON`; `-lineinfo`, `-G`, `--expt-relaxed-constexpr`, `--extended-lambda`,
// `-Xptxas`, `-ccbin`, `-gencode`, `-code`, `-maxrregcount`, `--diag-suppress`, `-Xcudafe`,
// `--cudart` and the rest of nvcc's options that change nothing here are accepted in all of
// nvcc's spellings (NvccOptions.cpp).
// `--cuda-device-only` (also `-fatbin`, `-cubin`, `--offload-device-only`) writes only the
// device image (our fat binary, `x.fatbin` unless -o says), which the driver API's
// muModuleLoad loads. `--mcc=PATH` (or MUSA_SIM_MCC, or a real MUSA toolkit's mcc found on
// PATH; `--mcc=none` turns that off) also compiles each source's device code with that mcc
// and puts its device image beside the bitcode: the MUSA hardware backend's device code
// (MUSA_SIM_HW_TARGET=musa). Anything
// else goes to clang unchanged, so clang reports unknown options and compile errors itself.
#include "musa/jit/FatBinary.h"

#include "DeviceLaunches.h"
#include "NvccOptions.h"

// DeviceLibraryBitcode: kernel-jit/devicelib compiled for NVPTX (kernel-jit/CMakeLists.txt).
#include "DeviceLibraryBitcode.inc"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;
using musa::driver::classifyNvccOption;
using musa::driver::IgnoredOption;

namespace {

enum class InputKind { MusaSource, HostSource, LinkInput };

struct Input {
  std::string path;
  InputKind kind;
};

struct Options {
  std::vector<Input> inputs;
  std::vector<std::string> compileFlags; // both passes
  std::vector<std::string> hostFlags;    // host code only (-Xcompiler, dependency files)
  std::vector<std::string> deviceFlags;  // device code only (--use_fast_math)
  std::vector<std::string> linkFlags;
  bool dependenciesOnly = false;         // -M / -MM: print the dependencies, compile nothing
  bool deviceImage = false;              // --cuda-device-only, -fatbin: write the device image
  std::string output;
  bool compileOnly = false;
  bool verbose = false;
  unsigned arch = 22; // mp_22 unless told otherwise
  bool relocatable = false;
  /// sm_NN for NVIDIA PTX beside the bitcode (the hardware backend's device code): from
  /// nvcc's -arch=sm_NN / --gpu-architecture=sm_NN / --cuda-gpu-arch=sm_NN, or from
  /// MUSA_SIM_PTX_ARCH; 0 for none (the default: it adds a second device compile).
  unsigned ptxSm = 0;
  /// The real toolkit's mcc, whose device image goes beside the bitcode (the MUSA hardware
  /// backend's device code); empty for none.
  std::string mcc;
  bool mccGiven = false; // --mcc= on the command line (else MUSA_SIM_MCC, else PATH)
};

struct Paths {
  std::string clang;
  std::string include;
  std::string lib;
};

Paths locate() {
  fs::path exe = fs::read_symlink("/proc/self/exe");
  fs::path root = exe.parent_path().parent_path();
  Paths paths;
  const char *clang = std::getenv("MUSA_SIM_CLANG");
  paths.clang = clang && *clang ? clang : MUSA_SIM_CLANG_PATH;
  paths.include = (root / "include").string();
  paths.lib = (root / "lib").string();
  return paths;
}

bool endsWith(const std::string &s, const char *suffix) {
  std::string t(suffix);
  return s.size() >= t.size() && s.compare(s.size() - t.size(), t.size(), t) == 0;
}

/// Parses "mp_22" style names; returns 0 if not one.
unsigned parseArch(const std::string &name) {
  if (name.rfind("mp_", 0) != 0)
    return 0;
  return unsigned(std::atoi(name.c_str() + 3));
}

/// nvcc's architecture names (sm_80, compute_90, native, all, ...), which CUDA build scripts
/// renamed to MUSA keep: accepted, and the MUSA architecture stays the default.
bool isCudaArchName(const std::string &name) {
  return name.rfind("sm_", 0) == 0 || name.rfind("compute_", 0) == 0 || name == "native" ||
         name == "all" || name == "all-major";
}

/// "a,b,c" -> {a, b, c} (the argument of -Xcompiler and --compiler-options).
std::vector<std::string> splitCommas(const std::string &list) {
  std::vector<std::string> parts;
  std::stringstream in(list);
  for (std::string part; std::getline(in, part, ',');)
    if (!part.empty())
      parts.push_back(part);
  return parts;
}

int usage(const char *message) {
  std::fprintf(stderr, "musa-sim-cc: error: %s\n", message);
  return 1;
}

bool parse(int argc, char **argv, Options &o, int &status) {
  bool musaLanguage = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](std::string &into) {
      if (i + 1 >= argc)
        return false;
      into = argv[++i];
      return true;
    };
    if (a == "-o") {
      if (!value(o.output))
        return (status = usage("-o needs a file name")), false;
    } else if (a == "-c") {
      o.compileOnly = true;
    } else if (a == "-v") {
      o.verbose = true;
    } else if (a == "-x") {
      std::string lang;
      if (!value(lang))
        return (status = usage("-x needs a language")), false;
      musaLanguage = lang == "musa" || lang == "cuda" || lang == "mu";
    } else if (a.rfind("--offload-arch=", 0) == 0 || a.rfind("--cuda-gpu-arch=", 0) == 0 ||
               a.rfind("-arch=", 0) == 0 || a.rfind("--gpu-architecture=", 0) == 0 ||
               a == "-arch" || a == "--gpu-architecture") {
      std::string name;
      if (a.find('=') != std::string::npos)
        name = a.substr(a.find('=') + 1);
      else if (!value(name))
        return (status = usage((a + " needs an architecture").c_str())), false;
      bool nvccSpelling = a.rfind("-arch", 0) == 0 || a.rfind("--gpu-architecture", 0) == 0 ||
                          a.rfind("--cuda-gpu-arch", 0) == 0;
      if (nvccSpelling && isCudaArchName(name)) {
        // sm_90 / compute_90: PTX for that GPU goes beside the bitcode (hardware backend).
        size_t digits = name.find('_');
        if (digits != std::string::npos && std::atoi(name.c_str() + digits + 1) >= 70)
          o.ptxSm = unsigned(std::atoi(name.c_str() + digits + 1));
        continue;
      }
      unsigned arch = parseArch(name);
      if (!arch)
        return (status = usage(("unknown MUSA architecture '" + name +
                                "' (expected mp_21, mp_22 or mp_31)").c_str())), false;
      o.arch = arch;
    } else if (a == "-rdc" || a == "-fgpu-rdc" || a == "--relocatable-device-code=true" ||
               a == "-rdc=true") {
      o.relocatable = true;
    } else if (a == "--cuda-device-only" || a == "--musa-device-only" ||
               a == "--offload-device-only" || a == "-fatbin" || a == "--fatbin" ||
               a == "-cubin" || a == "--cubin") {
      o.deviceImage = true; // for the driver API's muModuleLoad
    } else if (a.rfind("--mcc=", 0) == 0) {
      o.mcc = a.substr(6);
      o.mccGiven = true;
    } else if (a == "-dc" || a == "--device-c") {
      o.relocatable = true; // nvcc's -dc: -rdc=true -c
      o.compileOnly = true;
    } else if (a == "-mtgpu" || a == "-lmusart" || a == "-lcudart" || a == "-lmusadevrt" ||
               a == "-lcudadevrt" || a == "-lculibos" || a == "-lcublasLt" ||
               a == "-lcublasLt_static" ||
               a == "-fno-gpu-rdc" || a == "-rdc=false" || a == "--relocatable-device-code=false") {
      // accepted for compatibility; see the file comment
    } else if (a == "-lcublas_static" || a == "-lcurand_static" || a == "-lmublas_static" ||
               a == "-lmurand_static") {
      o.linkFlags.push_back(a.substr(0, a.size() - 7)); // the shared library: one build of each
    } else if (IgnoredOption nvcc = classifyNvccOption(argc, argv, i);
               nvcc.kind != IgnoredOption::NotIgnored) {
      if (nvcc.kind == IgnoredOption::MissingValue)
        return (status = usage((a + " needs an argument").c_str())), false;
      i += nvcc.valueInNext;
      if (!nvcc.clangFlag.empty())
        o.compileFlags.push_back(nvcc.clangFlag);
    } else if (a == "--optimize" || a == "-optimize" || a.rfind("--optimize=", 0) == 0 ||
               a.rfind("-optimize=", 0) == 0) {
      std::string level = a.find('=') != std::string::npos ? a.substr(a.find('=') + 1) : "";
      if (level.empty() && !value(level))
        return (status = usage((a + " needs a level").c_str())), false;
      o.compileFlags.push_back("-O" + level); // nvcc's long spelling of -O
    } else if (a == "--default-stream" || a == "-default-stream" ||
               a.rfind("--default-stream=", 0) == 0 || a.rfind("-default-stream=", 0) == 0) {
      // nvcc's default stream: per-thread makes stream 0 each host thread's own stream
      // (musa_runtime_api.h: MUSA_API_PER_THREAD_DEFAULT_STREAM); legacy and null are the default.
      std::string kind;
      if (a.find('=') != std::string::npos)
        kind = a.substr(a.find('=') + 1);
      else if (!value(kind))
        return (status = usage((a + " needs legacy, null or per-thread").c_str())), false;
      if (kind == "per-thread")
        o.compileFlags.push_back("-DMUSA_API_PER_THREAD_DEFAULT_STREAM=1");
      else if (kind != "legacy" && kind != "null")
        return (status = usage((a + " takes legacy, null or per-thread").c_str())), false;
    } else if (a == "--use_fast_math" || a == "-use_fast_math") {
      // Device code only, as with nvcc: fused multiply-add, reciprocal and approximate math
      // allowed, and __USE_FAST_MATH__ defined (programs test it).
      o.deviceFlags.insert(o.deviceFlags.end(), {"-D__USE_FAST_MATH__", "-ffp-contract=fast",
                                                 "-fno-math-errno", "-freciprocal-math",
                                                 "-fapprox-func"});
    } else if (a == "-Xcompiler" || a == "--compiler-options" ||
               a.rfind("-Xcompiler=", 0) == 0 || a.rfind("--compiler-options=", 0) == 0) {
      std::string list;
      if (a.find('=') != std::string::npos)
        list = a.substr(a.find('=') + 1);
      else if (!value(list))
        return (status = usage((a + " needs an argument").c_str())), false;
      for (std::string &flag : splitCommas(list))
        o.hostFlags.push_back(flag);
    } else if (a == "-Xlinker" || a == "--linker-options") {
      std::string list;
      if (!value(list))
        return (status = usage((a + " needs an argument").c_str())), false;
      o.linkFlags.push_back("-Wl," + list);
    } else if (a.rfind("--std=", 0) == 0 || a == "--std" || a == "-std") {
      std::string standard = a.find('=') != std::string::npos ? a.substr(a.find('=') + 1) : "";
      if (standard.empty() && !value(standard))
        return (status = usage((a + " needs a standard").c_str())), false;
      o.compileFlags.push_back("-std=" + standard);
    } else if (a == "-M" || a == "-MM") {
      o.dependenciesOnly = true;
      o.hostFlags.push_back(a);
    } else if (a == "-MD" || a == "-MMD" || a == "-MP") {
      o.hostFlags.push_back(a); // the host pass sees every header the device pass sees
    } else if (a == "-MF" || a == "-MT" || a == "-MQ") {
      std::string v;
      if (!value(v))
        return (status = usage((a + " needs an argument").c_str())), false;
      o.hostFlags.push_back(a);
      o.hostFlags.push_back(v);
    } else if (a.rfind("-L", 0) == 0 || a.rfind("-l", 0) == 0 || a.rfind("-Wl,", 0) == 0 ||
               a == "-pthread" || a == "-shared" || a == "-rdynamic") {
      if ((a == "-L" || a == "-l") && i + 1 < argc)
        a += argv[++i];
      o.linkFlags.push_back(a);
      if (a == "-pthread")
        o.compileFlags.push_back(a);
    } else if (a == "-I" || a == "-D" || a == "-U" || a == "-include" || a == "-isystem") {
      std::string v;
      if (!value(v))
        return (status = usage((a + " needs an argument").c_str())), false;
      o.compileFlags.push_back(a);
      o.compileFlags.push_back(v);
    } else if (!a.empty() && a[0] == '-') {
      o.compileFlags.push_back(a); // clang judges it
    } else if (endsWith(a, ".mu") || endsWith(a, ".cu")) {
      o.inputs.push_back({a, InputKind::MusaSource});
    } else if (endsWith(a, ".o") || endsWith(a, ".a") || endsWith(a, ".so")) {
      o.inputs.push_back({a, InputKind::LinkInput});
    } else {
      o.inputs.push_back({a, musaLanguage ? InputKind::MusaSource : InputKind::HostSource});
    }
  }
  if (o.inputs.empty())
    return (status = usage("no input files")), false;
  return true;
}

/// Hints for clang errors that programs written for nvcc and mcc commonly meet.
void explain(const std::string &diagnostics) {
  if (diagnostics.find("cannot take the address of an rvalue") != std::string::npos ||
      diagnostics.find("taking the address of a temporary object") != std::string::npos)
    std::fprintf(stderr,
                 "musa-sim-cc: note: C compound literals such as &(float){2.0f} (as in the "
                 "graphs guide's example 1) are not C++: name the value in a variable "
                 "(float two = 2.0f; ... &two) and pass its address instead\n");
  if (diagnostics.find("no matching function for call to 'musaDeviceSynchronize'") !=
          std::string::npos ||
      diagnostics.find("reference to __host__ function 'musaDeviceSynchronize'") !=
          std::string::npos)
    std::fprintf(stderr,
                 "musa-sim-cc: note: device-side musaDeviceSynchronize() was removed with CUDA "
                 "12's dynamic parallelism (CDP2), as nvcc refuses it for sm_90: a parent grid "
                 "cannot wait for its children; launch the work that needs their results as a "
                 "tail launch (stream musaStreamTailLaunch) or from the host\n");
  if (diagnostics.find("reference to __global__ function") != std::string::npos)
    std::fprintf(stderr,
                 "musa-sim-cc: note: a kernel launches a kernel (dynamic parallelism) in a way "
                 "the driver cannot rewrite for clang 19: write the launch as "
                 "kernel<<<grid, block, shared, stream>>>(args) or kernel<Args><<<...>>>(args) "
                 "outside any macro\n");
}

/// Runs a tool; its diagnostics go to stderr unless `quiet`, and into `captured` if given.
int run(const std::vector<std::string> &args, bool verbose, bool quiet = false,
        std::string *captured = nullptr) {
  if (verbose) {
    for (const std::string &a : args)
      std::fprintf(stderr, "%s ", a.c_str());
    std::fprintf(stderr, "\n");
  }
  std::vector<char *> argv;
  for (const std::string &a : args)
    argv.push_back(const_cast<char *>(a.c_str()));
  argv.push_back(nullptr);
  // clang's diagnostics pass through a pipe so the driver can add hints to known errors.
  int pipeFds[2];
  if (pipe(pipeFds) != 0)
    return 127;
  pid_t pid = fork();
  if (pid < 0)
    return 127;
  if (pid == 0) {
    dup2(pipeFds[1], STDERR_FILENO);
    close(pipeFds[0]);
    close(pipeFds[1]);
    execvp(argv[0], argv.data());
    std::fprintf(stderr, "musa-sim-cc: error: cannot run %s\n", argv[0]);
    _exit(127);
  }
  close(pipeFds[1]);
  std::string diagnostics;
  char buffer[4096];
  for (ssize_t n; (n = read(pipeFds[0], buffer, sizeof buffer)) != 0;) {
    if (n < 0) {
      if (errno == EINTR)
        continue;
      break;
    }
    if (!quiet || verbose)
      fwrite(buffer, 1, size_t(n), stderr);
    diagnostics.append(buffer, size_t(n));
  }
  close(pipeFds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
  }
  if (captured)
    *captured = diagnostics;
  if (!quiet)
    explain(diagnostics);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::vector<std::string> commonCuda(const Paths &p, const Options &o) {
  std::vector<std::string> args = {p.clang, "-x", "cuda", "--cuda-gpu-arch=sm_70",
                                   "-nocudainc", "-nocudalib", "-Wno-unknown-cuda-version",
                                   "-isystem", p.include, "-include", "musa_runtime.h",
                                   "-D__MUSA_SIM_ARCH__=" + std::to_string(o.arch)};
  args.insert(args.end(), o.compileFlags.begin(), o.compileFlags.end());
  return args;
}

bool readFile(const std::string &path, std::string &bytes) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  bytes = s.str();
  return bool(in);
}

/// The device pass of `src`: bitcode at `stem`.bc, wrapped as our fat binary in `image`.
/// `overlay` (if given) receives the VFS overlay of rewritten device-side launches (empty if
/// none), which the host pass of the same source needs too.
int compileDeviceImage(const Paths &p, const Options &o, const std::string &src,
                       const std::string &stem, const std::string &image,
                       std::string *overlay = nullptr) {
  std::vector<std::string> device = commonCuda(p, o);
  // As nvcc and mcc do, device code is optimised at -O3 whatever -O the host code gets: the
  // user's -O level changes neither what kernels compute nor what the timing model counts.
  device.insert(device.end(), o.deviceFlags.begin(), o.deviceFlags.end());
  device.insert(device.end(), {"-O3", "--cuda-device-only", "-D__MUSA_ARCH__=" +
                               std::to_string(o.arch * 10), "-emit-llvm", "-c", src, "-o",
                               stem + ".bc"});
  std::string diagnostics;
  if (int rc = run(device, o.verbose, /*quiet=*/true, &diagnostics)) {
    // Kernels launching kernels: rewritten for clang 19 (DeviceLaunches.h), then again.
    std::string rewritten = musa::driver::rewriteDeviceLaunches(diagnostics, stem);
    if (rewritten.empty()) {
      if (!o.verbose)
        std::fputs(diagnostics.c_str(), stderr);
      explain(diagnostics);
      return rc;
    }
    if (overlay)
      *overlay = rewritten;
    device.insert(device.begin() + 1, {"-ivfsoverlay", rewritten});
    if (int again = run(device, o.verbose))
      return again;
  } else if (!o.verbose) {
    std::fputs(diagnostics.c_str(), stderr); // warnings
  }
  std::string bitcode;
  if (!readFile(stem + ".bc", bitcode))
    return usage("cannot read device bitcode");
  std::string fat = musa::jit::packFatBinary(bitcode);
  // The architecture and -rdc travel in the header's flags field.
  reinterpret_cast<musa::jit::FatBinaryHeader *>(fat.data())->flags =
      o.arch | (o.relocatable ? musa::jit::FatBinaryRelocatable : 0);
  if (o.ptxSm && !o.relocatable) {
    // The hardware pass: the same source as NVPTX for sm_NN, with __MUSA_SIM_HW__ so the
    // device headers use NVPTX builtins where the simulator has its own (warps, barriers).
    std::vector<std::string> ptxPass = commonCuda(p, o);
    for (std::string &a : ptxPass)
      if (a == "--cuda-gpu-arch=sm_70")
        a = "--cuda-gpu-arch=sm_" + std::to_string(o.ptxSm);
    ptxPass.insert(ptxPass.end(), o.deviceFlags.begin(), o.deviceFlags.end());
    // The helpers clang calls for complex arithmetic (__divsc3 and the like) are not in PTX's
    // reach: the device library's definitions are linked in, as the JIT links them.
    std::string library = stem + ".devicelib.bc";
    if (std::ofstream lib{library, std::ios::binary}) {
      lib.write(reinterpret_cast<const char *>(DeviceLibraryBitcode), sizeof DeviceLibraryBitcode);
      if (lib)
        ptxPass.insert(ptxPass.end(), {"-Xclang", "-mlink-builtin-bitcode", "-Xclang", library});
    }
    ptxPass.insert(ptxPass.end(), {"-O3", "--cuda-device-only", "-D__MUSA_SIM_HW__",
                                   "-D__MUSA_ARCH__=" + std::to_string(o.arch * 10), "-S", src,
                                   "-o", stem + ".ptx"});
    std::string ptx;
    if (run(ptxPass, o.verbose, /*quiet=*/true) == 0 && readFile(stem + ".ptx", ptx))
      musa::jit::appendPtxSection(fat, ptx, o.ptxSm);
    else
      std::fprintf(stderr, "musa-sim-cc: warning: %s: no PTX for sm_%u (the hardware backend "
                   "cannot run its kernels; the simulator can): the device code does not "
                   "compile for NVPTX (run with -v to see why)\n", src.c_str(), o.ptxSm);
  } else if (o.ptxSm) {
    std::fprintf(stderr, "musa-sim-cc: warning: %s: no PTX with -rdc (the hardware backend "
                 "does not link relocatable device code yet)\n", src.c_str());
  }
  if (!o.mcc.empty() && !o.relocatable) {
    // The MUSA hardware pass: the real mcc compiles the same source for the MUSA GPU.
    std::vector<std::string> mccPass = {o.mcc, "-x", "musa",
                                        "--offload-arch=mp_" + std::to_string(o.arch),
                                        "--cuda-device-only", "-O3"};
    mccPass.insert(mccPass.end(), o.compileFlags.begin(), o.compileFlags.end());
    mccPass.insert(mccPass.end(), o.deviceFlags.begin(), o.deviceFlags.end());
    mccPass.insert(mccPass.end(), {"-c", src, "-o", stem + ".mubin"});
    std::string bytes;
    if (run(mccPass, o.verbose, /*quiet=*/true) == 0 && readFile(stem + ".mubin", bytes) &&
        !bytes.empty())
      musa::jit::appendDeviceSection(fat, musa::jit::MusaImageSectionMagic, bytes, o.arch,
                                     musa::jit::FatBinaryHasMusaImage);
    else
      std::fprintf(stderr, "musa-sim-cc: warning: %s: no MUSA device image: %s failed (run "
                   "with -v to see why); the MUSA hardware backend cannot run its kernels, "
                   "the simulator can\n", src.c_str(), o.mcc.c_str());
  } else if (!o.mcc.empty()) {
    std::fprintf(stderr, "musa-sim-cc: warning: %s: no MUSA device image with -rdc (the "
                 "hardware backend does not link relocatable device code yet)\n", src.c_str());
  }
  std::ofstream out(image, std::ios::binary);
  out.write(fat.data(), std::streamsize(fat.size()));
  if (!out)
    return usage("cannot write fat binary");
  return 0;
}

int compileMusa(const Paths &p, const Options &o, const std::string &src, const std::string &obj,
                const fs::path &tmp, unsigned index) {
  if (o.dependenciesOnly) { // -M: the host pass lists what the source includes
    std::vector<std::string> deps = commonCuda(p, o);
    deps.insert(deps.end(), o.hostFlags.begin(), o.hostFlags.end());
    deps.insert(deps.end(), {"--cuda-host-only", src});
    return run(deps, o.verbose);
  }
  std::string stem = (tmp / ("dev" + std::to_string(index))).string();
  std::string overlay;
  if (int rc = compileDeviceImage(p, o, src, stem, stem + ".fatbin", &overlay))
    return rc;
  std::vector<std::string> host = commonCuda(p, o);
  if (!overlay.empty())
    host.insert(host.begin() + 1, {"-ivfsoverlay", overlay});
  host.insert(host.end(), o.hostFlags.begin(), o.hostFlags.end());
  host.insert(host.end(), {"--cuda-host-only", "-Xclang", "-fcuda-include-gpubinary", "-Xclang",
                           stem + ".fatbin", "-c", src, "-o", obj});
  return run(host, o.verbose);
}


/// A real MUSA toolkit's mcc on PATH (not this driver under that name: the install prefix
/// links bin/mcc to it), or empty. Its `--version` must name MUSA.
std::string findRealMcc() {
  const char *path = std::getenv("PATH");
  if (!path)
    return "";
  std::error_code ec;
  fs::path self = fs::canonical("/proc/self/exe", ec);
  std::stringstream dirs(path);
  for (std::string dir; std::getline(dirs, dir, ':');) {
    fs::path candidate = fs::path(dir.empty() ? "." : dir) / "mcc";
    if (access(candidate.c_str(), X_OK) != 0)
      continue;
    fs::path real = fs::canonical(candidate, ec);
    if (ec || real == self || real.filename() == "musa-sim-cc")
      continue;
    std::string command = "'" + candidate.string() + "' --version 2>&1";
    std::string text;
    if (FILE *f = popen(command.c_str(), "r")) {
      char buffer[512];
      while (size_t n = fread(buffer, 1, sizeof buffer, f))
        text.append(buffer, n);
      pclose(f);
    }
    if (text.find("MUSA") != std::string::npos || text.find("musa") != std::string::npos)
      return candidate.string();
  }
  return "";
}

int compileHost(const Paths &p, const Options &o, const std::string &src,
                const std::string &obj) {
  std::vector<std::string> args = {p.clang, "-isystem", p.include};
  args.insert(args.end(), o.compileFlags.begin(), o.compileFlags.end());
  args.insert(args.end(), o.hostFlags.begin(), o.hostFlags.end());
  if (o.dependenciesOnly)
    return args.push_back(src), run(args, o.verbose);
  args.insert(args.end(), {"-c", src, "-o", obj});
  return run(args, o.verbose);
}

} // namespace

int main(int argc, char **argv) {
  Options o;
  int status = 0;
  if (!parse(argc, argv, o, status))
    return status;
  Paths paths = locate();
  if (const char *sm = std::getenv("MUSA_SIM_PTX_ARCH"); sm && *sm && !o.ptxSm) {
    std::string name = sm;
    size_t digits = name.find('_');
    o.ptxSm = unsigned(std::atoi(name.c_str() + (digits == std::string::npos ? 0 : digits + 1)));
    if (o.ptxSm < 70)
      return usage(("MUSA_SIM_PTX_ARCH=" + name + ": expected sm_70 or newer").c_str());
  }
  if (!o.mccGiven) {
    const char *mcc = std::getenv("MUSA_SIM_MCC");
    o.mcc = mcc && *mcc ? mcc : findRealMcc();
  }
  if (o.mcc == "none")
    o.mcc.clear();
  if (o.compileOnly && !o.output.empty() && o.inputs.size() > 1)
    return usage("-c with -o takes exactly one input");

  char pattern[] = "/tmp/musa-sim-cc.XXXXXX";
  if (!mkdtemp(pattern))
    return usage("cannot create a temporary directory");
  fs::path tmp(pattern);
  struct Cleanup {
    fs::path dir;
    ~Cleanup() {
      std::error_code ec;
      fs::remove_all(dir, ec);
    }
  } cleanup{tmp};

  if (o.deviceImage) { // device images only, for muModuleLoad: one per MUSA source
    if (!o.output.empty() && o.inputs.size() > 1)
      return usage("--cuda-device-only with -o takes exactly one input");
    unsigned index = 0;
    for (const Input &in : o.inputs) {
      if (in.kind != InputKind::MusaSource)
        return usage(("not a MUSA source: " + in.path).c_str());
      std::string image =
          !o.output.empty() ? o.output : fs::path(in.path).stem().string() + ".fatbin";
      std::string stem = (tmp / ("dev" + std::to_string(index++))).string();
      if (int rc = compileDeviceImage(paths, o, in.path, stem, image))
        return rc;
    }
    return 0;
  }

  std::vector<std::string> objects;
  unsigned index = 0;
  for (const Input &in : o.inputs) {
    if (in.kind == InputKind::LinkInput) {
      objects.push_back(in.path);
      continue;
    }
    std::string obj;
    if (o.compileOnly)
      obj = !o.output.empty() ? o.output : fs::path(in.path).stem().string() + ".o";
    else
      obj = (tmp / ("obj" + std::to_string(index) + ".o")).string();
    int rc = in.kind == InputKind::MusaSource ? compileMusa(paths, o, in.path, obj, tmp, index)
                                              : compileHost(paths, o, in.path, obj);
    if (rc)
      return rc;
    objects.push_back(obj);
    ++index;
  }
  if (o.compileOnly || o.dependenciesOnly)
    return 0;

  std::vector<std::string> link = {paths.clang};
  link.insert(link.end(), objects.begin(), objects.end());
  link.insert(link.end(), {"-L" + paths.lib, "-Wl,-rpath," + paths.lib, "-lmusart"});
  link.insert(link.end(), o.linkFlags.begin(), o.linkFlags.end());
  for (const std::string &f : o.compileFlags)
    if (f == "-g" || f.rfind("-fsanitize", 0) == 0)
      link.push_back(f);
  if (*MUSA_SIM_LINK_SANITIZER)
    link.push_back(MUSA_SIM_LINK_SANITIZER);
  link.insert(link.end(), {"-o", o.output.empty() ? "a.out" : o.output});
  return run(link, o.verbose);
}
