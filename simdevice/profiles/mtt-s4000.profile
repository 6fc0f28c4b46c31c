# Moore Threads MTT S4000 (MUSA arch mp_22). Figures marked [issue] come from public reports
# quoted in the project's issue tracker (issue 6); [est] are estimates still to be checked
# against a device-query dump. Nothing here has been measured on an S4000 by this project.
name = MTT S4000
arch = mp_22
compute_major = 2
compute_minor = 2
multiprocessors = 48                   # [est] 6144 MUSA cores / 128 lanes
warp_size = 128                        # [issue]
max_threads_per_block = 1024           # [est] CUDA-compatible limit
max_threads_per_multiprocessor = 6144  # [issue]
max_blocks_per_multiprocessor = 32     # [est]
shared_mem_per_block = 72K             # [issue]
shared_mem_per_block_optin = 72K       # [est]
shared_mem_per_multiprocessor = 144K   # [est]
regs_per_block = 65536                 # [est]
regs_per_multiprocessor = 131072       # [est]
clock_rate_khz = 1680000               # [issue] 1680 MHz
memory_clock_rate_khz = 7000000        # [est]
memory_bus_width = 384                 # [est]
total_global_mem = 48G                 # [issue]
l2_cache_size = 24M                    # [issue]
l2_partitions = 1                       # [est] no public figure
l1_cache_size = 144K                    # [est] as its shared memory
async_engine_count = 2                 # [est]
memory_bandwidth_gbs = 768             # [issue]
host_link_bandwidth_gbs = 25           # [est] PCIe 5.0 x16, effective
max_block_dim = 1024,1024,64
max_grid_dim = 2147483647,65535,65535
total_const_mem = 64K
mem_pitch = 2147483647
texture_alignment = 512
texture_pitch_alignment = 32

# Timing model (simdevice/TIMING.md). [est]: no public figures for the MUSA multiprocessor's
# pipes; estimates scaled from the warp width (a 128-lane warp issues at one per cycle).
issue_width = 1                         # [est]
fp32_lanes = 128                        # [est]
fp64_lanes = 8                         # [est]
int_lanes = 128                         # [est]
sfu_lanes = 16                          # [est]
ldst_lanes = 32                         # [est]
dependent_issue_cycles = 4              # [est]
dram_latency_cycles = 650               # [est]
l1_latency_cycles = 40                  # [est]
l2_latency_cycles = 300                 # [est]
l1_sectors_per_cycle = 4                # [est]
l2_requests_per_cycle = 16              # [est]
l2_bandwidth_gbs = 2304                   # [est] about 3x memory bandwidth
dram_efficiency = 0.8                   # [est]
atomic_ops_per_cycle = 32               # [est]
same_address_atomic_cycles = 2          # [est]
atomic_warp_cycles = 1.7               # [est] as the H200's ratio to the above
atomic_unit_bytes = 512                 # [est] as the H200 profile
cas_round_cycles = 1100                 # [est] the H200's probe figures (no MUSA hardware measured)
cas_line_cycles = 5                     # [est]
barrier_cycles = 24                     # [est]
kernel_launch_us = 4.0                  # [est]
host_launch_us = 2.6                    # [est] the H200's share of kernel_launch_us
graph_kernel_node_us = 0.55             # [est] the H200's ratio to kernel_launch_us (0.8 of 5.8)
copy_latency_us = 10                    # [est]
copy_2d_latency_us = 10                 # [est] no public figure: the H200's probe figures, scaled
copy_2d_bandwidth_gbs = 133             # [est] as memory bandwidth (H200: 830 of 4800 GB/s)
copy_2d_row_ns = 1                      # [est]
pageable_copy_factor = 0.5              # [est]
peer_bandwidth_gbs = 25                  # [est] PCIe peer-to-peer
regs_per_thread = 32                    # [est]
