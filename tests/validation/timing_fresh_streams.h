// Copies, streams, memsets and launch pipelines of timing_fresh.mu (suite 5): a pitched
// host copy, a copy overlapping a kernel, a fork-join over four streams, small memsets and a
// pipeline of tiny launches. Included by that program only, after suite_harness.h.
#pragma once

// ---- pitched host-to-device 2D copy from pinned memory: 1000 floats x 4096 rows ----------
static void bench_memcpy2d_h2d() {
  const size_t width = 1000 * sizeof(float), rows = 4096;
  const char *cfg = "width=4000B,rows=4096,pinned";
  unsigned char *host;
  float *dev;
  size_t pitch = 0;
  CHECK(musaMallocHost((void **)&host, width * rows));
  CHECK(musaMallocPitch((void **)&dev, &pitch, width, rows));
  for (size_t i = 0; i < width * rows; ++i) host[i] = (unsigned char)(hash_u32(unsigned(i)) >> 5);
  auto op = [&] {
    CHECK(musaMemcpy2D(dev, pitch, host, width, width, rows, musaMemcpyHostToDevice));
  };
  warm(op);
  std::vector<unsigned char> back(width * rows);
  CHECK(musaMemcpy2D(back.data(), width, dev, pitch, width, rows, musaMemcpyDeviceToHost));
  for (size_t i = 0; i < width * rows; i += 97)
    if (back[i] != host[i]) { fail("memcpy2d_h2d_pitched", cfg, long(i), back[i], host[i]); break; }
  report("memcpy2d_h2d_pitched", cfg, time_median(op));
  CHECK(musaFreeHost(host));
  CHECK(musaFree(dev));
}

// ---- an 8 MB pinned host-to-device copy on one stream, a dependent FMA chain on another ------
__global__ void fma_spin(float *out, int iters) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = float(i % 64) * 0.01f;
  for (int k = 0; k < iters; ++k) v = fmaf(v, 0.99993f, 0.00007f);
  out[i] = v;
}

static void bench_overlap() {
  // 64 blocks of 64 threads (one SM each, two warps), 65536 dependent FMAs a thread: about as
  // long as the copy. Each op joins both streams back into stream 0 through events.
  const size_t bytes = 8 << 20;
  const int blocks = 64, threads = 64, iters = 65536;
  unsigned char *host, *dA;
  float *dB;
  CHECK(musaMallocHost((void **)&host, bytes));
  CHECK(musaMalloc(&dA, bytes));
  CHECK(musaMalloc(&dB, blocks * threads * sizeof(float)));
  for (size_t i = 0; i < bytes; ++i) host[i] = (unsigned char)(i * 31 >> 3);
  musaStream_t s1, s2;
  musaEvent_t e1, e2;
  CHECK(musaStreamCreate(&s1));
  CHECK(musaStreamCreate(&s2));
  CHECK(musaEventCreate(&e1));
  CHECK(musaEventCreate(&e2));
  float want = 0.f;
  {
    int i = 37;
    float v = float(i % 64) * 0.01f;
    for (int k = 0; k < iters; ++k) v = std::fma(v, 0.99993f, 0.00007f);
    want = v;
  }
  std::vector<unsigned char> back(bytes);
  for (int overlap = 1; overlap >= 0; --overlap) {
    const char *name = overlap ? "h2d_kernel_overlap" : "h2d_kernel_serial";
    const char *cfg = "bytes=8388608,fma_iters=65536";
    musaStream_t sk = overlap ? s2 : s1;
    auto op = [&] {
      CHECK(musaMemcpyAsync(dA, host, bytes, musaMemcpyHostToDevice, s1));
      fma_spin<<<blocks, threads, 0, sk>>>(dB, iters);
      CHECK(musaEventRecord(e1, s1));
      CHECK(musaEventRecord(e2, sk));
      CHECK(musaStreamWaitEvent(0, e1, 0));
      CHECK(musaStreamWaitEvent(0, e2, 0));
    };
    CHECK(musaMemset(dA, 0, bytes));
    warm(op);
    CHECK(musaMemcpy(back.data(), dA, bytes, musaMemcpyDeviceToHost));
    for (size_t i = 0; i < bytes; i += 4093)
      if (back[i] != host[i]) { fail(name, cfg, long(i), back[i], host[i]); break; }
    float got = 0.f;
    CHECK(musaMemcpy(&got, dB + 37, 4, musaMemcpyDeviceToHost));
    if (!near(got, want, 1e-5)) fail(name, cfg, 37, got, want);
    report(name, cfg, time_median(op));
  }
  CHECK(musaEventDestroy(e1));
  CHECK(musaEventDestroy(e2));
  CHECK(musaStreamDestroy(s1));
  CHECK(musaStreamDestroy(s2));
  CHECK(musaFreeHost(host));
  CHECK(musaFree(dA));
  CHECK(musaFree(dB));
}

// ---- fork-join: 4 streams, each a chain of 8 small dependent launches on its own slice -------
__global__ void axpb_inplace(float *y, float a, float b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = y[i] * a + b;
}

static void bench_fork_join() {
  const int nstreams = 4, launches = 8, n = 1 << 16;
  const char *cfg = "streams=4,launches=8,n=65536";
  float *d;
  CHECK(musaMalloc(&d, size_t(nstreams) * n * 4));
  std::vector<float> h(size_t(nstreams) * n);
  for (size_t i = 0; i < h.size(); ++i) h[i] = float(i % 1000);
  CHECK(musaMemcpy(d, h.data(), h.size() * 4, musaMemcpyHostToDevice));
  musaStream_t st[nstreams];
  musaEvent_t fork, join[nstreams];
  CHECK(musaEventCreate(&fork));
  for (int s = 0; s < nstreams; ++s) {
    CHECK(musaStreamCreate(&st[s]));
    CHECK(musaEventCreate(&join[s]));
  }
  auto op = [&] {
    CHECK(musaEventRecord(fork, 0));
    for (int s = 0; s < nstreams; ++s) {
      CHECK(musaStreamWaitEvent(st[s], fork, 0));
      for (int l = 0; l < launches; ++l)
        axpb_inplace<<<n / 256, 256, 0, st[s]>>>(d + size_t(s) * n, 1.f, 1.f, n);
      CHECK(musaEventRecord(join[s], st[s]));
    }
    for (int s = 0; s < nstreams; ++s) CHECK(musaStreamWaitEvent(0, join[s], 0));
  };
  warm(op);
  std::vector<float> out(h.size());
  CHECK(musaMemcpy(out.data(), d, h.size() * 4, musaMemcpyDeviceToHost));
  for (size_t i = 0; i < h.size(); i += 13)
    if (out[i] != h[i] + launches) { fail("fork_join_streams", cfg, long(i), out[i], h[i] + launches); break; }
  report("fork_join_streams", cfg, time_median(op));
  for (int s = 0; s < nstreams; ++s) {
    CHECK(musaStreamDestroy(st[s]));
    CHECK(musaEventDestroy(join[s]));
  }
  CHECK(musaEventDestroy(fork));
  CHECK(musaFree(d));
}

// ---- small memsets: eight separately allocated 32 KB buffers cleared one after another -----
static void bench_memset_small() {
  const size_t bytes = 32 << 10;
  const int buffers = 8;
  const char *cfg = "bytes=32768,buffers=8";
  unsigned char *d[buffers];
  for (int b = 0; b < buffers; ++b) {
    CHECK(musaMalloc(&d[b], bytes));
    CHECK(musaMemset(d[b], 0, bytes));
  }
  auto op = [&] {
    for (int b = 0; b < buffers; ++b) CHECK(musaMemset(d[b], 0x5a + b, bytes));
  };
  warm(op);
  std::vector<unsigned char> h(bytes);
  for (int b = 0; b < buffers; ++b) {
    CHECK(musaMemcpy(h.data(), d[b], bytes, musaMemcpyDeviceToHost));
    for (size_t i = 0; i < bytes; ++i)
      if (h[i] != 0x5a + b) { fail("memset_small", cfg, long(i), h[i], 0x5a + b); b = buffers; break; }
  }
  report("memset_small", cfg, time_median(op));
  for (int b = 0; b < buffers; ++b) CHECK(musaFree(d[b]));
}

// ---- a pipeline of 30 tiny dependent launches cycling through three kernels --------------
__global__ void pipe_scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 0.5f;
}

__global__ void pipe_bias(float *x, const float *bias, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += bias[i % 64];
}

__global__ void pipe_clamp(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = fminf(fmaxf(x[i], -4.f), 4.f);
}

static void bench_tiny_pipeline() {
  const int n = 4096, stages = 30;
  const char *cfg = "n=4096,kernels=30";
  std::vector<float> x(n), bias(64);
  for (int i = 0; i < n; ++i) x[i] = float(int(hash_u32(unsigned(i)) % 2001) - 1000) * 0.01f;
  for (int b = 0; b < 64; ++b) bias[b] = float(b % 9 - 4) * 0.75f;
  float *dx, *db;
  CHECK(musaMalloc(&dx, n * 4));
  CHECK(musaMalloc(&db, 64 * 4));
  CHECK(musaMemcpy(dx, x.data(), n * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(db, bias.data(), 64 * 4, musaMemcpyHostToDevice));
  auto op = [&] {
    for (int s = 0; s < stages; ++s) {
      if (s % 3 == 0) pipe_scale<<<n / 128, 128>>>(dx, n);
      else if (s % 3 == 1) pipe_bias<<<n / 128, 128>>>(dx, db, n);
      else pipe_clamp<<<n / 128, 128>>>(dx, n);
    }
  };
  warm(op);
  std::vector<float> out(n);
  CHECK(musaMemcpy(out.data(), dx, n * 4, musaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    float v = x[i];
    for (int s = 0; s < stages; ++s) {
      if (s % 3 == 0) v *= 0.5f;
      else if (s % 3 == 1) v += bias[i % 64];
      else v = std::min(std::max(v, -4.f), 4.f);
    }
    if (out[i] != v) { fail("tiny_pipeline", cfg, i, out[i], v); break; }
  }
  report("tiny_pipeline", cfg, time_median(op));
  CHECK(musaFree(dx));
  CHECK(musaFree(db));
}
