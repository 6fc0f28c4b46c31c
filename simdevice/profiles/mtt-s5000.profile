# Moore Threads MTT S5000 (MUSA arch mp_31, 32-lane warps). [issue]: public reports quoted in
# issue 6; [est]: estimates to be checked against a device-query dump.
name = MTT S5000
arch = mp_31
compute_major = 3
compute_minor = 1
multiprocessors = 64                   # [est]
warp_size = 32                         # [issue]
max_threads_per_block = 1024           # [est]
max_threads_per_multiprocessor = 3072  # [issue]
max_blocks_per_multiprocessor = 32     # [est]
shared_mem_per_block = 192K            # [issue]
shared_mem_per_block_optin = 192K      # [est]
shared_mem_per_multiprocessor = 192K   # [est]
regs_per_block = 65536                 # [est]
regs_per_multiprocessor = 65536        # [est]
clock_rate_khz = 1500000               # [issue] 1500 MHz
memory_clock_rate_khz = 3200000        # [est]
memory_bus_width = 4096                # [est] HBM
total_global_mem = 80G                 # [issue]
l2_cache_size = 60M                    # [issue]
l2_partitions = 1                       # [est] no public figure
l1_cache_size = 192K                    # [est] as its shared memory
async_engine_count = 2                 # [est]
memory_bandwidth_gbs = 1600            # [issue] about 1.6 TB/s
host_link_bandwidth_gbs = 25           # [est]
max_block_dim = 1024,1024,64
max_grid_dim = 2147483647,65535,65535
total_const_mem = 64K
mem_pitch = 2147483647
texture_alignment = 512
texture_pitch_alignment = 32

# Timing model (simdevice/TIMING.md). [est]: no public figures for the MUSA multiprocessor's
# pipes; estimates scaled from the warp width (a 32-lane warp issues at one per cycle).
issue_width = 4                         # [est]
fp32_lanes = 128                        # [est]
fp64_lanes = 32                         # [est]
int_lanes = 128                         # [est]
sfu_lanes = 16                          # [est]
ldst_lanes = 32                         # [est]
dependent_issue_cycles = 4              # [est]
dram_latency_cycles = 650               # [est]
l1_latency_cycles = 40                  # [est]
l2_latency_cycles = 300                 # [est]
l1_sectors_per_cycle = 4                # [est]
l2_requests_per_cycle = 16              # [est]
l2_bandwidth_gbs = 4800                   # [est] about 3x memory bandwidth
dram_efficiency = 0.8                   # [est]
atomic_ops_per_cycle = 32               # [est]
same_address_atomic_cycles = 2          # [est]
atomic_unit_bytes = 512                 # [est] as the H200 profile
barrier_cycles = 24                     # [est]
kernel_launch_us = 4.0                  # [est]
copy_latency_us = 10                    # [est]
pageable_copy_factor = 0.5              # [est]
peer_bandwidth_gbs = 100                  # [est] PCIe peer-to-peer
regs_per_thread = 32                    # [est]
