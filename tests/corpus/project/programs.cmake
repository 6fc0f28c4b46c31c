# The corpus's programs: <name>.mu, built by musa_add_executable, and host/<name>.cpp, plain
# C++ linking MUSA::musart. Read by this project and by the test registration in
# ../CMakeLists.txt (one test per program). README.md says what each one covers.
set(CORPUS_MU_PROGRAMS
  # Algorithms and benchmark kernels
  vector_add
  saxpy
  daxpy_double
  reduce_shared_tree
  reduce_warp_shuffle
  reduce_atomics
  scan_blelloch
  scan_warp_shuffle
  histogram_shared
  histogram_warp_private
  transpose_padded
  matmul_naive
  matmul_tiled
  conv1d_constant
  conv2d_constant
  stencil_1d
  jacobi_heat_2d
  stencil_3d
  nbody
  bitonic_sort
  bitonic_sort_shared
  radix_sort
  merge_path
  spmv_csr
  bfs_frontier
  monte_carlo_pi
  mandelbrot
  black_scholes
  softmax_rows
  kmeans_assign
  pathfinder
  gaussian_elimination
  floyd_warshall
  # Kernel language
  templates_functors
  constant_symbols
  device_printf
  cg_thread_block
  cg_grid_sync
  warp_vote
  half_precision
  atomics_cas_loops
  atomics_int_ops
  grid_3d_index
  dynamic_shared
  host_min_max
  vector_types
  # Runtime API
)
set(CORPUS_HOST_PROGRAMS
)
