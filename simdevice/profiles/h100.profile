# NVIDIA H100 SXM5 80 GB (Hopper GH100, compute 9.0), the same die and SM as the H200 the
# timing model was fitted and probed on. Only what differs between the two cards differs here,
# each from a device query of an H100 (tests/hardware/session12/gpu.txt, [query]) or NVIDIA's
# datasheet ([spec]: 80 GB HBM3 at 3.35 TB/s, 50 MB L2); every other figure is the H200's
# (same SM, same L1, same L2 organisation, same host link and driver), with the H200's
# source. Nothing here was fitted to H100 measurements; those in session12/ check it.
name = NVIDIA H100 80GB HBM3            # [query]
arch = sm_90
compute_major = 9
compute_minor = 0
multiprocessors = 132                   # [query]
warp_size = 32                          # [cuda]
max_threads_per_block = 1024            # [cuda]
max_threads_per_multiprocessor = 2048   # [cuda]
max_blocks_per_multiprocessor = 32      # [cuda]
shared_mem_per_block = 48K              # [cuda]
shared_mem_per_block_optin = 227K       # [query] 232448
shared_mem_per_multiprocessor = 228K           # [query]
regs_per_block = 65536                  # [cuda]
regs_per_multiprocessor = 65536         # [cuda]
clock_rate_khz = 1980000                # [query]
memory_clock_rate_khz = 2619000         # [query]
memory_bus_width = 5120                 # [query] tests/hardware/session12/gpu.txt
total_global_mem = 85017493504          # [query]
l2_cache_size = 50M                     # [query] 52428800 (the H200 reports 60 MB)
l2_partitions = 2                       # [arch] two L2 partitions (NVIDIA A100/H100 whitepapers); [probe] tests/hardware/probes/memory_latency.h200.txt
l1_cache_size = 256K                    # [arch] L1 and shared memory per SM (H100 whitepaper)
async_engine_count = 3                  # [query]
memory_bandwidth_gbs = 3350             # [spec] 2619 MHz x 2 x 5120 bits = 3.35 TB/s (the H200: 4.8)
host_link_bandwidth_gbs = 54            # [fit] pinned 64 MB copies (PCIe 5.0 x16)
max_block_dim = 1024,1024,64
max_grid_dim = 2147483647,65535,65535
total_const_mem = 64K
mem_pitch = 2147483647
texture_alignment = 512
texture_pitch_alignment = 32

# Timing model (simdevice/TIMING.md). [arch]: Hopper SM organisation from NVIDIA's H100
# whitepaper (4 schedulers, 128 FP32, 64 FP64, 64 INT32, 16 SFU, 32 LD/ST lanes per SM);
# [fit]: fitted to tests/validation/h200_measured.txt; [est]: estimate; [probe]: measured on
# the H200 by tests/hardware/probes/memory_latency.cu (not by either validation suite).
issue_width = 4                         # [arch]
fp32_lanes = 128                        # [arch]
fp64_lanes = 64                         # [arch]
int_lanes = 64                          # [arch]
imad_lanes = 64                         # [arch] IMAD runs on the FMA pipe's 16 lanes per scheduler (Hopper), beside the 16-lane integer ALU
tensor_fp16_macs_per_cycle = 1024       # [est] half the datasheet 2048 (989 TFLOPS dense fp16, 132 SMs, 1830 MHz), which only wgmma reaches; mma.sync (wmma) runs below it; tests/hardware/probes/tensor_rate.cu is to measure it
sfu_lanes = 16                          # [arch]
ldst_lanes = 32                         # [arch]
dependent_issue_cycles = 4              # [est]
dram_latency_cycles = 660                 # [probe] one thread chasing lines after a 512 MB sweep (memory_latency.h200.txt)
l1_latency_cycles = 43                  # [probe] one thread chasing lines in 16 KB (memory_latency.h200.txt)
l2_latency_cycles = 287                 # [probe] one thread chasing lines in 0.5-128 MB, warm
dram_loaded_cycles = 0.02               # [probe] coalesced line chains over 1 GB: 735 cycles a step for one warp, 904 for 8448 (loaded_latency.h200.txt)
l2_tail_cycles = 77                     # [probe] a warp whose 32 lanes chase lines in 4 MB: 386 cycles a step, one lane 309
dram_tail_cycles = 467                  # [probe] the same over 1 GB: 1169 cycles, one lane 702 (loaded_latency.h200.txt)
l1_sectors_per_cycle = 4                # [arch] 128 bytes per cycle per SM
l2_requests_per_cycle = 80              # [probe] a warp gathering from 32 random lines of a 1-16 MB array: 4.3 M line requests in 27 us after the launch (request_rates.h200.txt); was [fit] 30
l2_store_requests_per_cycle = 37        # [probe] stores to random lines of a 1-16 MB array: 4.2 M in 57 us after the launch (store_rates.h200.txt)
l2_bandwidth_gbs = 7000                 # [probe] coalesced float4 reads (ld.global.cg) of a 4-32 MB array L2 holds, every SM full: 6.5-6.85 TB/s with the launch, about 7 without (an H100 at 1980 MHz, the H200's L2; tests/hardware/session23/l2_bandwidth.h100.txt); was [est] 5500
dram_efficiency = 0.945                   # [probe] a read-only sum over 2 GB streams 4537 GB/s (stream_bandwidth.h200.txt)
dram_write_efficiency = 0.84              # [probe] a float4 copy of 2 GB streams 4275 GB/s, read and written: with reads at 0.945, writes at 0.84
dram_scattered_efficiency = 0.46        # [probe] warps gathering one sector per line from 1 GB: 34.35 lines a ns, 2.2 TB/s in 64-byte granules (request_rates.h200.txt)
dram_access_bytes = 64                  # [probe] a lane per 64 or 128 bytes streams 58 or 53 sectors a ns: 3.4-3.7 TB/s at 64 bytes a sector (request_rates.h200.txt)
atomic_sectors_per_cycle = 55           # [probe] device-wide atomic sector requests a cycle: random atomicAdd over 1-16 MB, 46-52 a cycle (atomic_footprint.h200.txt)
atomic_ops_per_cycle = 200              # [probe] device-wide atomic addresses a cycle: a warp's lanes on 32 words of one line, 186 a cycle (atomic_footprint.h200.txt)
atomic_sector_cycles = 1.4              # [probe] one sector request at a 512-byte unit: random atomicAdd over 1-4 KB, 1.4 cycles; one address, 1.45 cycles a warp (atomic_footprint, mechanisms.h200.txt)
same_address_atomic_cycles = 1.4        # [probe] per further lane on an address a request carries: random atomicAdd over 64-256 bytes (atomic_footprint.h200.txt)
same_address_float_atomic_cycles = 3.3  # [probe] float atomicAdd, every lane of 512x256 threads on one word: 3.58 cycles a lane, integer ops 1.54 (atomic_ops.h100.txt; scaled to this 1.4)
atomic_unit_bytes = 512                 # [est] atomics within 512 bytes (one L2 slice) serialise
cas_try_cycles = 0.5                    # [probe] a compare-and-swap try at a unit, a warp's lanes on one address: 0.43-0.57 cycles (mechanisms.h200.txt)
cas_round_cycles = 1100                 # [probe] compare-and-swap loops, lanes apart: 1040-1220 cycles per success and
cas_line_cycles = 5                     # [probe] address at 16-512 contenders; 4.7-5.6 cycles per line request (mechanisms.h200.txt)
shared_cas_round_cycles = 8.3           # [probe] float atomicAdd to a hashed word of 64 in shared memory: 23.7 SM cycles a warp, 2.85 rounds (shared_atomics.h200.txt)
shared_cas_serial_cycles = 105          # [probe] one or two shared words all lanes of a block add floats to: 104-110 cycles per add (shared_atomics.h200.txt)
barrier_cycles = 24                     # [est]
term_overlap = 0.1                       # [fit] a kernel takes its largest term plus this share of the others (fitted on the three H200 suites: 0.2 and 0.3 are worse)
block_launch_cycles = 160                # [probe] empty blocks of 32-256 threads: one a multiprocessor every 80-82 ns, 1.6 a ns device-wide (block_turnover.h200.txt)
warp_launch_cycles = 6.25               # [probe] blocks of 1024 threads: one every 100 ns (32 warps)
const_address_cycles = 2.2                # [probe] constant loads whose warp touches 8-32 addresses: 2.2-2.3 cycles an address (workload_probe.h200.txt)
kernel_launch_us = 6.2                  # [fit] two-fold grid (5.4, 5.8, 6.2): both halves choose 6.2; isolated empty launches, event-timed: 5.5-7.1 us (launch_gap, kernel_startup.h200.txt)
host_launch_us = 3.7                    # [probe] launch calls in a burst of 1000 (launch_gap.h200.txt)
host_launch_cold_us = 1.1               # [probe] bursts of 10, 100 and 1000 launch calls after a synchronize: 4.63, 3.98
host_launch_warmup_calls = 26           # [probe] and 3.71 us a call: the extra decays over about 26 calls (launch_gap.h200.txt)
event_record_us = 1.6                   # [probe] a kernel queued behind an event record starts 1.58 us later (launch_gap: 10, 100, 1000 queued launches; kernel_startup: 2.9-3.1 us for a tiny kernel after a record)
graph_kernel_node_us = 0.8              # [probe] graphs of 10 and 100 empty kernel nodes: 0.82 us a node (workload_probe.h200.txt)
copy_latency_us = 4.5                   # [probe] an isolated asynchronous pinned copy between events: 3.9-5.2 us for 4 KB, then the bytes at the link (async_copies.h200.txt); was 6.6, synchronous copies' figure
sync_return_us = 4.5                    # [probe] a synchronous one takes 5.1-5.4 us more between events (9.1-10.3 us for 4 KB), 7.8-9.3 us each back to back (async_copies.h200.txt)
copy_queued_us = 2.1                     # [probe] 4 KB pinned copies queued behind a kernel, one direction: 2.54 us each (H2D), 1.72 (D2H) (copy_queue.h200.txt)
copy_switch_us = 4.1                     # [probe] the same, alternating directions: 4.10-4.14 us each (copy_queue.h200.txt)
memset_latency_us = 1.6                 # [probe] 4 KB memsets back to back: 1.6 us each (workload_probe.h200.txt)
memset_kernel_us = 4.4                  # [probe] memsets of 6 KB to 4 MB: 4.1-4.8 us each (a kernel), runs of 128: 4.0 (memset_sizes.h200.txt)
memset_inline_bytes = 4096              # [probe] 2-4 KB memsets 1.5-1.6 us, 6 KB 4.3-4.7 us (memset_sizes.h200.txt)
copy_2d_latency_us = 8.6                # [probe] pitched device copies: start-up (mechanisms.h200.txt, fitted there
copy_2d_bandwidth_gbs = 830             # [probe] without the suites' 4000 x 4096 case): at most this rate
copy_2d_row_ns = 0.62                   # [probe] and at least this per row
pageable_copy_factor = 0.23             # [probe] pageable host-to-device copies of 1-64 MB: 11.2-12.9 GB/s (pageable_copies.h200.txt; the first suite's 64 MB ones ran at 6.4-8 GB/s)
pageable_d2h_factor = 0.213             # [probe] pageable device-to-host copies of 16-256 MB: 11.0-11.6 GB/s (pageable_copies.h200.txt)
pageable_stage_bytes = 2097152          # [fit] the bounce buffer a device-to-host copy waits for first: 256 KB to 64 MB copies take 19-70 us more than their bytes at 11.5 GB/s (pageable_copies.h200.txt)
peer_bandwidth_gbs = 450                # [spec] NVLink 4, one direction
regs_per_thread = 32                    # [est]
