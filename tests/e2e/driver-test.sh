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
exit $fail
