# as-cuda.sh: sourced by the hw-session scripts (from the repository root). cuda IN OUT writes
# IN renamed for nvcc: musa -> cuda in every case, and the driver API's mu*/MU* names -> cu*/CU*.
cuda() {
  sed -e 's/musa/cuda/g' -e 's/MUSA/CUDA/g' -e 's/Musa/Cuda/g' -e 's/\bmu\([A-Z]\)/cu\1/g' \
      -e 's/\bMU\([A-Za-z_]\)/CU\1/g' "$1" >"$2"
}
