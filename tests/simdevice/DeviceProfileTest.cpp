// Device profiles: the shipped files parse, and bad files are refused naming the field.
#include "musa/sim/DeviceProfile.h"

#include <gtest/gtest.h>

using musa::sim::DeviceProfile;

TEST(DeviceProfile, EveryShippedProfileParses) {
  auto ids = DeviceProfile::shippedIds();
  EXPECT_GE(ids.size(), 6u);
  for (const std::string &id : ids) {
    std::string error;
    auto p = DeviceProfile::load(id, error);
    ASSERT_TRUE(p) << id << ": " << error;
    EXPECT_EQ(p->id, id);
    EXPECT_GT(p->multiProcessorCount, 0);
  }
}

TEST(DeviceProfile, MusaWarpWidthsDifferByArchitecture) {
  std::string error;
  EXPECT_EQ(DeviceProfile::load("mtt-s4000", error)->warpSize, 128);
  EXPECT_EQ(DeviceProfile::load("mtt-s80", error)->warpSize, 128);
  EXPECT_EQ(DeviceProfile::load("mtt-s5000", error)->warpSize, 32);
  EXPECT_EQ(DeviceProfile::load("h200", error)->warpSize, 32);
  EXPECT_EQ(DeviceProfile::load("h200", error)->multiProcessorCount, 132);
  EXPECT_EQ(DeviceProfile::load("mtt-s4000", error)->totalGlobalMem, uint64_t(48) << 30);
}

namespace {
std::string shipped(const char *id) {
  // Round-trip a shipped profile's fields through text to build a valid base document.
  std::string error;
  auto p = DeviceProfile::load(id, error);
  return "name = X\narch = mp_22\ncompute_major = 2\ncompute_minor = 2\nmultiprocessors = 4\n"
         "warp_size = 32\nmax_threads_per_block = 1024\nmax_block_dim = 1024,1024,64\n"
         "max_grid_dim = 2147483647,65535,65535\nmax_threads_per_multiprocessor = 2048\n"
         "max_blocks_per_multiprocessor = 16\nshared_mem_per_block = 48K\n"
         "shared_mem_per_block_optin = 48K\nshared_mem_per_multiprocessor = 96K\n"
         "regs_per_block = 65536\nregs_per_multiprocessor = 65536\nclock_rate_khz = 1000000\n"
         "memory_clock_rate_khz = 1\nmemory_bus_width = 64\ntotal_global_mem = 1G\n"
         "total_const_mem = 64K\nl2_cache_size = 1M\nl2_partitions = 1\nhost_launch_us = 1\nhost_launch_cold_us = 0.5\nhost_launch_warmup_calls = 20\nevent_record_us = 1\ngraph_kernel_node_us = 1\nconst_address_cycles = 2\nmemset_latency_us = 1\nmemset_kernel_us = 3\nmemset_inline_bytes = 4096\nl1_cache_size = 64K\nmem_pitch = 1\ntexture_alignment = 512\n"
         "texture_pitch_alignment = 32\nasync_engine_count = 1\nmemory_bandwidth_gbs = 10\n"
         "host_link_bandwidth_gbs = 1\n"
         "issue_width = 2\nfp32_lanes = 64\nfp64_lanes = 8\nint_lanes = 32\nimad_lanes = 32\nsfu_lanes = 8\n"
         "tensor_fp16_macs_per_cycle = 256\n"
         "ldst_lanes = 16\ndependent_issue_cycles = 4\ndram_latency_cycles = 400\n"
         "l1_latency_cycles = 30\nl2_latency_cycles = 200\nl1_sectors_per_cycle = 2\n"
         "dram_loaded_cycles = 0.02\nl2_tail_cycles = 70\ndram_tail_cycles = 400\n"
         "l2_requests_per_cycle = 4\nl2_store_requests_per_cycle = 2\n"
         "l2_bandwidth_gbs = 30\ndram_efficiency = 0.8\ndram_write_efficiency = 0.7\ndram_scattered_efficiency = 0.4\ndram_access_bytes = 32\natomic_ops_per_cycle = 8\n"
         "atomic_sectors_per_cycle = 8\nsame_address_atomic_cycles = 4\nsame_address_float_atomic_cycles = 8\natomic_sector_cycles = 1\natomic_unit_bytes = 512\ncas_try_cycles = 1\ncas_round_cycles = 1000\ncas_line_cycles = 5\nshared_cas_round_cycles = 8\nshared_cas_serial_cycles = 100\nbarrier_cycles = 20\nterm_overlap = 0.1\nblock_launch_cycles = 160\nwarp_launch_cycles = 6\n"
         "kernel_launch_us = 5\n"
         "copy_latency_us = 10\nsync_return_us = 4.5\ncopy_queued_us = 3\ncopy_switch_us = 6\ncopy_2d_latency_us = 10\ncopy_2d_bandwidth_gbs = 100\ncopy_2d_row_ns = 1\npageable_copy_factor = 0.5\npageable_d2h_factor = 0.5\npageable_stage_bytes = 2097152\npeer_bandwidth_gbs = 10\n"
         "regs_per_thread = 32\n";
}
} // namespace

TEST(DeviceProfile, ValidDocumentParses) {
  std::string error;
  auto p = DeviceProfile::parse(shipped("generic"), "test.profile", error);
  ASSERT_TRUE(p) << error;
  EXPECT_EQ(p->sharedMemPerBlock, 48u * 1024);
  EXPECT_EQ(p->maxGridDim[1], 65535);
}

TEST(DeviceProfile, ErrorsNameTheField) {
  std::string error;
  std::string doc = shipped("generic");
  auto replace = [&](const std::string &from, const std::string &to) {
    std::string d = doc;
    d.replace(d.find(from), from.size(), to);
    return d;
  };
  EXPECT_FALSE(DeviceProfile::parse(replace("warp_size = 32", "warp_size = abc"), "f", error));
  EXPECT_NE(error.find("'warp_size'"), std::string::npos) << error;
  EXPECT_FALSE(DeviceProfile::parse(replace("warp_size = 32", "warp_size = 48"), "f", error));
  EXPECT_NE(error.find("warp_size"), std::string::npos) << error;
  EXPECT_FALSE(DeviceProfile::parse(replace("regs_per_block = 65536\n", ""), "f", error));
  EXPECT_NE(error.find("missing field 'regs_per_block'"), std::string::npos) << error;
  EXPECT_FALSE(DeviceProfile::parse(doc + "colour = red\n", "f", error));
  EXPECT_NE(error.find("unknown field 'colour'"), std::string::npos) << error;
  EXPECT_FALSE(DeviceProfile::parse(replace("max_block_dim = 1024,1024,64",
                                            "max_block_dim = 1024,0,64"), "f", error));
  EXPECT_NE(error.find("max_block_dim"), std::string::npos) << error;
  EXPECT_FALSE(DeviceProfile::parse(replace("dram_efficiency = 0.8", "dram_efficiency = 1.5"),
                                    "f", error));
  EXPECT_NE(error.find("dram_efficiency"), std::string::npos) << error;
  EXPECT_FALSE(DeviceProfile::parse(replace("kernel_launch_us = 5", "kernel_launch_us = -1"),
                                    "f", error));
  EXPECT_NE(error.find("'kernel_launch_us'"), std::string::npos) << error;
  EXPECT_FALSE(DeviceProfile::load("no-such-gpu", error));
  EXPECT_NE(error.find("mtt-s4000"), std::string::npos) << error;
}
