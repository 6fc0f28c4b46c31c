// The copies, memsets and graph of timing_blind.mu (suite 6): musaMemset2D, async
// device-to-device copies and a captured fork-join graph. Included by that program only,
// after suite_harness.h.
#pragma once

// ---- musaMemset2D over a pitched allocation: 3000-byte rows, 8192 rows --------------------
static void bench_memset2d() {
  const size_t width = 3000, rows = 8192;
  const char *cfg = "width=3000B,rows=8192";
  unsigned char *d;
  size_t pitch = 0;
  CHECK(musaMallocPitch((void **)&d, &pitch, width, rows));
  CHECK(musaMemset(d, 0, pitch * rows));
  auto op = [&] { CHECK(musaMemset2D(d, pitch, 0x3c, width, rows)); };
  warm(op);
  std::vector<unsigned char> back(pitch * rows);
  CHECK(musaMemcpy(back.data(), d, pitch * rows, musaMemcpyDeviceToHost));
  for (size_t r = 0; r < rows; r += 7) {
    size_t c = 0;
    for (; c < pitch; ++c)
      if (back[r * pitch + c] != (c < width ? 0x3c : 0)) break;
    if (c < pitch) { fail("memset2d_pitched", cfg, long(r * pitch + c), back[r * pitch + c], c < width ? 0x3c : 0); break; }
  }
  report("memset2d_pitched", cfg, time_median(op));
  CHECK(musaFree(d));
}

// ---- four musaMemcpyAsync device-to-device copies on stream 0: 4 KB, 64 KB, 1 MB, 16 MB ---
static void bench_memcpy_async_d2d() {
  const size_t sizes[4] = {4u << 10, 64u << 10, 1u << 20, 16u << 20};
  const char *cfg = "sizes=4K+64K+1M+16M";
  size_t total = 0;
  for (size_t s : sizes) total += s;
  std::vector<unsigned char> h(total);
  for (size_t i = 0; i < total; ++i) h[i] = (unsigned char)(hash_u32(unsigned(i)) >> 11);
  unsigned char *src, *dst;
  CHECK(musaMalloc(&src, total));
  CHECK(musaMalloc(&dst, total));
  CHECK(musaMemcpy(src, h.data(), total, musaMemcpyHostToDevice));
  CHECK(musaMemset(dst, 0, total));
  auto op = [&] {
    size_t off = 0;
    for (size_t s : sizes) {
      CHECK(musaMemcpyAsync(dst + off, src + off, s, musaMemcpyDeviceToDevice, 0));
      off += s;
    }
  };
  warm(op);
  std::vector<unsigned char> back(total);
  CHECK(musaMemcpy(back.data(), dst, total, musaMemcpyDeviceToHost));
  for (size_t i = 0; i < total; i += 101)
    if (back[i] != h[i]) { fail("memcpy_async_d2d", cfg, long(i), back[i], h[i]); break; }
  if (back[total - 1] != h[total - 1]) fail("memcpy_async_d2d", cfg, long(total - 1), back[total - 1], h[total - 1]);
  report("memcpy_async_d2d", cfg, time_median(op));
  CHECK(musaFree(src));
  CHECK(musaFree(dst));
}

// ---- a captured fork-join graph of five small kernels over two streams ---------------------
__global__ void g_double(const float *in, float *t, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) t[i] = 2.f * in[i];
}

__global__ void g_square(const float *t, float *u, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) u[i] = t[i] * t[i];
}

__global__ void g_shift(const float *t, float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = t[i] + 3.f;
}

__global__ void g_diff(const float *u, const float *v, float *w, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) w[i] = u[i] - v[i];
}

__global__ void g_half(const float *w, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 0.5f * w[i];
}

static void bench_graph_fork_join() {
  const int n = 16384;
  const char *cfg = "kernels=5,streams=2,n=16384";
  std::vector<float> in(n);
  for (int i = 0; i < n; ++i) in[i] = float(int(hash_u32(unsigned(i)) % 64) - 32);
  float *buf;
  CHECK(musaMalloc(&buf, size_t(n) * 4 * 6));
  float *din = buf, *dt = buf + n, *du = buf + 2 * n, *dv = buf + 3 * n, *dw = buf + 4 * n,
        *dout = buf + 5 * n;
  CHECK(musaMemcpy(din, in.data(), size_t(n) * 4, musaMemcpyHostToDevice));
  musaStream_t s, s2;
  musaEvent_t fork, join;
  CHECK(musaStreamCreate(&s));
  CHECK(musaStreamCreate(&s2));
  CHECK(musaEventCreate(&fork));
  CHECK(musaEventCreate(&join));
  musaGraph_t graph;
  musaGraphExec_t exec;
  CHECK(musaStreamBeginCapture(s, musaStreamCaptureModeGlobal));
  g_double<<<n / 256, 256, 0, s>>>(din, dt, n);
  CHECK(musaEventRecord(fork, s));
  CHECK(musaStreamWaitEvent(s2, fork, 0));
  g_square<<<n / 256, 256, 0, s>>>(dt, du, n);
  g_shift<<<n / 256, 256, 0, s2>>>(dt, dv, n);
  CHECK(musaEventRecord(join, s2));
  CHECK(musaStreamWaitEvent(s, join, 0));
  g_diff<<<n / 256, 256, 0, s>>>(du, dv, dw, n);
  g_half<<<n / 256, 256, 0, s>>>(dw, dout, n);
  CHECK(musaStreamEndCapture(s, &graph));
  CHECK(musaGraphInstantiate(&exec, graph, 0));
  auto op = [&] { CHECK(musaGraphLaunch(exec, s)); };
  warm(op);
  std::vector<float> out(n);
  CHECK(musaMemcpy(out.data(), dout, size_t(n) * 4, musaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    float t = 2.f * in[i], want = 0.5f * (t * t - (t + 3.f));
    if (out[i] != want) { fail("graph_fork_join", cfg, i, out[i], want); break; }
  }
  report("graph_fork_join", cfg, time_median(op));
  CHECK(musaGraphExecDestroy(exec));
  CHECK(musaGraphDestroy(graph));
  CHECK(musaEventDestroy(fork));
  CHECK(musaEventDestroy(join));
  CHECK(musaStreamDestroy(s));
  CHECK(musaStreamDestroy(s2));
  CHECK(musaFree(buf));
}
