// How long cudaMemset2D takes by row width, pitch and row count on the H200 (run on the
// device machine):
//   nvcc -O3 -arch=sm_90 tests/hardware/probes/memset2d_rows.cu -o /tmp/m2 && /tmp/m2
// Per shape, one cudaMemset2D (value 0x3c) on a cudaMallocPitch allocation and on a plain one
// whose pitch equals the width, and one cudaMemset of the same width x rows bytes (median of
// 9 event-timed runs after two warm-ups, probe.h). Output: memset2d_rows.h200.txt. Asked by
// the sixth suite's memset2d_pitched (3000-byte rows, 8192 rows: 13.95 us measured, 7.7 us
// predicted by a contiguous memset's cost).
#include "../probe.h"

int main() {
  struct Shape {
    size_t width, rows;
  };
  const Shape shapes[] = {{3000, 8192}, {3072, 8192}, {4096, 8192}, {2048, 8192}, {1000, 8192},
                          {256, 8192},  {64, 65536},  {3000, 1024}, {3000, 65536}, {4000, 4000},
                          {16384, 2048}, {65536, 512}, {1, 65536},  {12, 65536}};
  for (const Shape &s : shapes) {
    unsigned char *pitched = nullptr, *flat = nullptr;
    size_t pitch = 0;
    PROBE_CHECK(cudaMallocPitch(reinterpret_cast<void **>(&pitched), &pitch, s.width, s.rows));
    PROBE_CHECK(cudaMalloc(&flat, s.width * s.rows));
    float p = median_us([&] { PROBE_CHECK(cudaMemset2D(pitched, pitch, 0x3c, s.width, s.rows)); });
    float dense = median_us([&] { PROBE_CHECK(cudaMemset2D(flat, s.width, 0x3c, s.width, s.rows)); });
    float linear = median_us([&] { PROBE_CHECK(cudaMemset(flat, 0x3c, s.width * s.rows)); });
    std::printf("RESULT memset2d width=%zu rows=%zu pitch=%zu bytes=%zu pitched_us=%.2f "
                "pitch_eq_width_us=%.2f memset_us=%.2f pitched_GBs=%.0f\n",
                s.width, s.rows, pitch, s.width * s.rows, p, dense, linear,
                double(s.width * s.rows) / (p * 1e3));
    PROBE_CHECK(cudaFree(pitched));
    PROBE_CHECK(cudaFree(flat));
  }
  return 0;
}
