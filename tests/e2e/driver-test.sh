#!/bin/sh
# Driver behaviour: mcc spellings, -c and mixed .cpp/.o inputs, -D, the architecture choosing
# the default profile, and clang's diagnostics with a non-zero exit for bad input.
set -u
cc=$1; src=$2; out=$3
mkdir -p "$out"; cd "$out" || exit 1
fail=0
check() { # check NAME EXPECTED ACTUAL
  if [ "$2" = "$3" ]; then echo "ok   $1"; else echo "FAIL $1: expected '$2', got '$3'"; fail=1; fi
}
unset MUSA_SIM_PROFILE

# -c then link objects; -x musa makes a .cpp a MUSA source; -lmusart and -D are honoured.
"$cc" -c "$src/driver_host.cpp" -o host.o || fail=1
"$cc" -x musa -c "$src/driver_arch.cpp" -DDRIVER_DEFINE=5 -o arch22.o || fail=1
"$cc" arch22.o host.o -lmusart -o arch22 || fail=1
check "default arch mp_22 -> S4000" "MTT S4000 133 42" "$(./arch22)"

# --offload-arch=mp_31 chooses the S5000 profile (32-lane warps); a .cpp mixes in directly.
"$cc" -x musa "$src/driver_arch.cpp" -x none "$src/driver_host.cpp" --offload-arch=mp_31 \
      -DDRIVER_DEFINE=1 -O3 -o arch31 || fail=1
check "--offload-arch=mp_31 -> S5000" "MTT S5000 33 42" "$(./arch31)"
"$cc" -mtgpu --cuda-gpu-arch=mp_21 -x musa "$src/driver_arch.cpp" "$src/driver_host.cpp" \
      -DDRIVER_DEFINE=0 -o arch21 || fail=1
check "-mtgpu --cuda-gpu-arch=mp_21 -> S80" "MTT S80 128 42" "$(./arch21)"
check "MUSA_SIM_PROFILE overrides" "NVIDIA H200 32 42" "$(MUSA_SIM_PROFILE=h200 ./arch21)"

# nvcc spellings CUDA build scripts keep: sm_ architectures keep the default MUSA one; host
# flags through -Xcompiler; flags that change nothing here are accepted.
"$cc" -arch=sm_80 -gencode arch=compute_80,code=sm_80 -Xcompiler -fPIC,-Wall -Xptxas -v \
      -ccbin g++ -lineinfo -G --expt-relaxed-constexpr --extended-lambda -maxrregcount=64 \
      --std=c++17 -x musa "$src/driver_arch.cpp" "$src/driver_host.cpp" -DDRIVER_DEFINE=5 \
      -o nvccstyle || fail=1
check "nvcc spellings, sm_80 -> default mp_22" "MTT S4000 133 42" "$(./nvccstyle)"
# The rest of what CMake and build scripts pass nvcc: `=` forms (CMake's
# --generate-code=arch=...,code=[...]), nvcc's diagnostics options, tool-chain options.
"$cc" --generate-code=arch=compute_90,code=[compute_90,sm_90] -gencode=arch=compute_80,code=sm_80 \
      -code=sm_90 --gpu-code sm_90 -Xptxas=-v -Xnvlink=--verbose -Xfatbin -compress-all \
      -Xcudafe --diag_suppress=esa_on_defaulted_function_ignored --diag-suppress 177 \
      -diag-suppress=550,20012 -Werror all-warnings -Werror=reorder --cudart static \
      -cudart=shared --allow-unsupported-compiler -forward-unknown-to-host-compiler \
      --extended-lambda --keep --keep-dir . -split-compile 0 --dopt on --threads 2 \
      --static-global-template-stub=false --ftz true -prec-div=false --optimize 2 \
      --disable-warnings --display-error-number -Wno-deprecated-gpu-targets -lcublas_static \
      -lcublasLt -lculibos -lcurand_static -lcurand \
      -x musa "$src/driver_arch.cpp" "$src/driver_host.cpp" -DDRIVER_DEFINE=5 \
      -o nvccmore 2> nvccmore.err || fail=1
check "more nvcc spellings" "MTT S4000 133 42" "$(./nvccmore)"
check "more nvcc spellings, no complaint" "0" "$(grep -c 'unknown\|error' nvccmore.err)"
"$cc" -Xptxas 2> nvccval.err; rc=$?
check "nvcc option without its value refused" "1" "$([ $rc -ne 0 ] && echo 1 || echo 0)"
check "nvcc option without its value reported" "1" "$(grep -c -- '-Xptxas needs an argument' nvccval.err)"
"$cc" -arch mp_31 -x musa "$src/driver_arch.cpp" "$src/driver_host.cpp" -DDRIVER_DEFINE=1 \
      -o arch31b || fail=1
check "-arch mp_31 -> S5000" "MTT S5000 33 42" "$(./arch31b)"
# --use_fast_math defines __USE_FAST_MATH__ for device code, as nvcc does.
printf '#include <cstdio>\n__global__ void k(int *o) {\n#ifdef __USE_FAST_MATH__\n  *o = 1;\n#else\n  *o = 2;\n#endif\n}\nint main() { int *o; musaMallocManaged(&o, 4); k<<<1, 1>>>(o); musaDeviceSynchronize(); printf("%%d\\n", *o); }\n' > fast.mu
"$cc" --use_fast_math fast.mu -o fast || fail=1
check "--use_fast_math" "1" "$(./fast)"
"$cc" fast.mu -o precise || fail=1
check "without --use_fast_math" "2" "$(./precise)"
# Dependencies: -M prints them, -MD writes a .d beside the object; -dc is -rdc=true -c.
check "-M lists the source's headers" "1" "$("$cc" -M fast.mu | grep -c 'musa_runtime.h')"
"$cc" -c -MD fast.mu -o fast.o || fail=1
check "-MD writes fast.d" "1" "$(grep -c 'musa_runtime.h' fast.d)"
"$cc" -dc fast.mu -o fastdc.o || fail=1
check "-dc compiles only" "yes" "$([ -e fastdc.o ] && echo yes || echo no)"

# Bad input: clang's diagnostics and a non-zero exit, never an output file.
printf '__global__ void k() { undeclared_thing(); }\nint main() {}\n' > broken.mu
"$cc" broken.mu -o broken 2> broken.err; rc=$?
check "compile error exits non-zero" "1" "$([ $rc -ne 0 ] && echo 1 || echo 0)"
check "compile error is clang's diagnostic" "1" "$(grep -c "use of undeclared identifier 'undeclared_thing'" broken.err)"
check "no output after an error" "no" "$([ -e broken ] && echo yes || echo no)"
"$cc" --definitely-not-an-option "$src/driver_host.cpp" -c -o x.o 2> opt.err; rc=$?
check "unknown option exits non-zero" "1" "$([ $rc -ne 0 ] && echo 1 || echo 0)"
check "unknown option is reported" "1" "$(grep -c "definitely-not-an-option" opt.err)"
"$cc" --offload-arch=sm_99 "$src/driver_host.cpp" -c -o y.o 2> arch.err; rc=$?
check "unknown MUSA arch is refused" "1" "$([ $rc -ne 0 ] && echo 1 || echo 0)"
"$cc" 2> none.err; rc=$?
check "no input is refused" "1" "$([ $rc -ne 0 ] && echo 1 || echo 0)"
# The graphs guide's compound literals get clang's error and a note saying how to fix them.
printf '__global__ void k(float *p) {}\nint main() { void *args[] = {&(float){2.0f}}; (void)args; }\n' > literal.mu
"$cc" literal.mu -o literal 2> literal.err; rc=$?
check "compound literal refused" "1" "$([ $rc -ne 0 ] && echo 1 || echo 0)"
check "compound literal fix suggested" "1" "$(grep -c "name the value in a variable" literal.err)"
# A kernel launching a kernel compiles (the driver rewrites the launch for clang 19), quietly;
# one spelled through a macro cannot be rewritten: clang's error and a note saying how to
# write it.
printf '__global__ void child(int *p) {}\n__global__ void parent(int *p) { child<<<1, 1>>>(p); }\n' > cdp.mu
"$cc" cdp.mu -c -o cdp.o 2> cdp.err; rc=$?
check "device-side launch compiles" "0" "$rc"
check "device-side launch quiet" "0" "$(wc -c < cdp.err)"
printf '#define LAUNCH(k) k<<<1, 1>>>(p)\n__global__ void child(int *p) {}\n__global__ void parent(int *p) { LAUNCH(child); }\n' > cdpm.mu
"$cc" cdpm.mu -c -o cdpm.o 2> cdpm.err; rc=$?
check "device-side launch in a macro refused" "1" "$([ $rc -ne 0 ] && echo 1 || echo 0)"
check "device-side launch in a macro explained" "1" "$(grep -c "dynamic parallelism" cdpm.err)"
printf '__global__ void parent() { musaDeviceSynchronize(); }\n' > cdps.mu
"$cc" cdps.mu -c -o cdps.o 2> cdps.err; rc=$?
check "device-side synchronisation refused" "1" "$([ $rc -ne 0 ] && echo 1 || echo 0)"
check "device-side synchronisation explained" "1" "$(grep -c "CDP2" cdps.err)"
exit $fail
