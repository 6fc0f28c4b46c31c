# NVIDIA H200 SXM (Hopper, compute 9.0): the GPU the project validates against. [spec]:
# NVIDIA's published figures (132 SMs, 1980 MHz boost, 141 GB HBM3e at 4.8 TB/s, 50 MB L2);
# [cuda]: limits every compute-9.0 device reports. To be re-checked with a device query.
name = NVIDIA H200
arch = sm_90
compute_major = 9
compute_minor = 0
multiprocessors = 132                   # [spec]
warp_size = 32                          # [cuda]
max_threads_per_block = 1024            # [cuda]
max_threads_per_multiprocessor = 2048   # [cuda]
max_blocks_per_multiprocessor = 32      # [cuda]
shared_mem_per_block = 48K              # [cuda]
shared_mem_per_block_optin = 227K       # [cuda]
shared_mem_per_multiprocessor = 228K    # [cuda]
regs_per_block = 65536                  # [cuda]
regs_per_multiprocessor = 65536         # [cuda]
clock_rate_khz = 1980000                # [spec]
memory_clock_rate_khz = 3201000         # [est]
memory_bus_width = 6144                 # [spec]
total_global_mem = 141G                 # [spec]
l2_cache_size = 50M                     # [spec]
async_engine_count = 3                  # [est]
memory_bandwidth_gbs = 4800             # [spec]
host_link_bandwidth_gbs = 50            # [est] PCIe 5.0 x16 effective
max_block_dim = 1024,1024,64
max_grid_dim = 2147483647,65535,65535
total_const_mem = 64K
mem_pitch = 2147483647
texture_alignment = 512
texture_pitch_alignment = 32
