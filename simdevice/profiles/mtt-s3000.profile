# Moore Threads MTT S3000 (data centre, MUSA arch mp_21). [est] figures are from public product
# pages (4096 cores, 32 GB GDDR6, 448 GB/s) and still to be checked against a device query.
name = MTT S3000
arch = mp_21
compute_major = 2
compute_minor = 1
multiprocessors = 32                   # [est] 4096 cores / 128 lanes
warp_size = 128
max_threads_per_block = 1024
max_threads_per_multiprocessor = 4096  # [est]
max_blocks_per_multiprocessor = 32     # [est]
shared_mem_per_block = 64K             # [est]
shared_mem_per_block_optin = 64K       # [est]
shared_mem_per_multiprocessor = 128K   # [est]
regs_per_block = 65536                 # [est]
regs_per_multiprocessor = 131072       # [est]
clock_rate_khz = 1900000               # [est]
memory_clock_rate_khz = 7000000        # [est]
memory_bus_width = 256                 # [est]
total_global_mem = 32G
l2_cache_size = 8M                     # [est]
l2_partitions = 1                       # [est] no public figure
l1_cache_size = 128K                    # [est] as its shared memory
async_engine_count = 1                 # [est]
memory_bandwidth_gbs = 448
host_link_bandwidth_gbs = 25           # [est]
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
l2_bandwidth_gbs = 1344                   # [est] about 3x memory bandwidth
dram_efficiency = 0.8                   # [est]
atomic_ops_per_cycle = 32               # [est]
same_address_atomic_cycles = 2          # [est]
atomic_unit_bytes = 512                 # [est] as the H200 profile
barrier_cycles = 24                     # [est]
kernel_launch_us = 4.0                  # [est]
copy_latency_us = 10                    # [est]
pageable_copy_factor = 0.5              # [est]
peer_bandwidth_gbs = 25                  # [est] PCIe peer-to-peer
regs_per_thread = 32                    # [est]
