#!/bin/sh
# hw-bundle.sh BUILD_DIR BUNDLE_DIR [LIBPACK]: everything a GPU machine without LLVM, TBB or
# Boost needs to run the e2e programs against the hw/diff backends: libmusart (and the shared
# libraries it needs), the programs built with -arch=sm_90 (PTX beside the bitcode), and
# hw-run.sh. LIBPACK is an archive of the large libraries (libLLVM, libz3, libicudata).
set -eu
build=$1; bundle=$2; libpack=${3:-}
src=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$bundle/bin" "$bundle/lib"
cp "$build/lib/libmusart.so" "$build/lib/libmusa.so" "$bundle/lib/"
strip --strip-debug "$bundle/lib/libmusart.so" "$bundle/lib/libmusa.so" # debug info would not fit the transfer
for lib in $(ldd "$build/lib/libmusart.so" | awk '/=>/ {print $3}'); do
  case $(basename "$lib") in
    libLLVM*|libz3*|libicudata*|libc.so*|libm.so*|libstdc++*|libgcc_s*) ;;
    *) cp -L "$lib" "$bundle/lib/" ;;
  esac
done
[ -n "$libpack" ] && cp "$libpack" "$bundle/libpack.tar.xz"
cp "$src/tests/hardware/hw-run.sh" "$bundle/"
cc="$build/bin/musa-sim-cc"
build_one() { # name sources...
  name=$1; shift
  "$cc" -O2 -arch=sm_90 -I "$src/tests/e2e" "$@" -o "$bundle/bin/$name" 2>"$bundle/bin/$name.build.log" ||
    echo "build failed: $name"
}
build_one vector_add "$src/examples/vector_add.mu"
build_one multi_stream "$src/examples/multi_stream.mu"
build_one graph_quickstart "$src/examples/graph_quickstart.mu"
build_one two_files "$src/tests/e2e/two_files_main.mu" "$src/tests/e2e/two_files_kernels.mu"
for t in block_reduce tiled_matmul noinline_specials dynamic_shared grid3d template_kernel \
         invalid_launch printf_assert guide_device guide_memory guide_streams_events guide_errors \
         math_atomics symbols warp half_types cxx_kernels host_min_max implicit_headers \
         complex_arith device_math_std simd_video occupancy profiler_range cooperative_groups \
         active_mask clocks graph_vector_add graph_capture graph_update graph_memory \
         graph_conditional graph_semaphores graph_many reset_race per_thread_streams \
         guide_graphs_explicit guide_graphs_capture guide_graphs_exec guide_graphs_limits \
         warp_size diff_race cg_extras stream_attributes cuda13_forms graph_update_pending \
         launch_kernel_ex warp_shapes uniform_shuffles thread_guards; do
  if [ -f "$src/tests/e2e/$t.mu" ]; then build_one "$t" "$src/tests/e2e/$t.mu"; fi
done
# The driver API: a device image (--cuda-device-only, PTX inside) and a host program on libmusa.
"$cc" -arch=sm_90 --cuda-device-only "$src/tests/runtime/driver_api/kernels.mu" \
  -o "$bundle/bin/kernels.fatbin" || echo "build failed: kernels.fatbin"
"$cc" "$src/tests/runtime/driver_api/driver_api.cpp" -lmusa -o "$bundle/bin/driver_api" ||
  echo "build failed: driver_api"
build_one diff_race "$src/tests/hardware/diff_race.mu"
build_one diff_features "$src/tests/runtime/backend/diff_features.mu"
cp "$build/bin/musa-sim-diff" "$bundle/"
ls "$bundle/bin" | grep -v log | wc -l
