// Copies, memsets, graphs and stream pipelines of timing_unseen.mu (suite 7): a pitched
// device-to-host 2D copy, pinned device-to-host async copies of three sizes, a 256 MB memset,
// a captured graph of copy, kernel, memset and kernel nodes replayed 20 times, 16 launches on
// each of 8 streams, and a ping-pong of dependent kernels between two streams through events.
// Included by that program only, after suite_harness.h.
#pragma once

// ---- pitched device-to-host 2D copy into pinned memory: 6000 bytes x 2048 rows -------------
__global__ void fill_pitched(unsigned char *p, size_t pitch, int width, int rows) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < width && y < rows) p[size_t(y) * pitch + x] = (unsigned char)((x * 7 + y * 13) & 255);
}

static void bench_memcpy2d_d2h() {
  const int width = 6000, rows = 2048;
  const char *cfg = "width=6000B,rows=2048,pinned";
  unsigned char *host, *dev;
  size_t pitch = 0;
  CHECK(musaMallocHost((void **)&host, size_t(width) * rows));
  CHECK(musaMallocPitch((void **)&dev, &pitch, width, rows));
  fill_pitched<<<dim3((width + 255) / 256, rows), 256>>>(dev, pitch, width, rows);
  CHECK(musaDeviceSynchronize());
  std::memset(host, 0, size_t(width) * rows);
  auto op = [&] {
    CHECK(musaMemcpy2D(host, width, dev, pitch, width, rows, musaMemcpyDeviceToHost));
  };
  warm(op);
  for (size_t i = 0; i < size_t(width) * rows; i += 37) {
    int x = int(i % width), y = int(i / width);
    unsigned char want = (unsigned char)((x * 7 + y * 13) & 255);
    if (host[i] != want) { fail("memcpy2d_d2h_pitched", cfg, long(i), host[i], want); break; }
  }
  report("memcpy2d_d2h_pitched", cfg, time_median(op));
  CHECK(musaFreeHost(host));
  CHECK(musaFree(dev));
}

// ---- pinned device-to-host musaMemcpyAsync on stream 0: 64 KB, 4 MB and 64 MB ---------------
static void bench_memcpy_async_d2h() {
  const size_t max_bytes = size_t(64) << 20;
  unsigned char *host, *dev;
  CHECK(musaMallocHost((void **)&host, max_bytes));
  CHECK(musaMalloc(&dev, max_bytes));
  std::vector<unsigned char> src(max_bytes);
  for (size_t i = 0; i < max_bytes; ++i)
    src[i] = (unsigned char)(hash_u32(unsigned(i / 4)) >> (8 * (i % 4)));
  CHECK(musaMemcpy(dev, src.data(), max_bytes, musaMemcpyHostToDevice));
  for (size_t bytes : {size_t(64) << 10, size_t(4) << 20, size_t(64) << 20}) {
    char cfg[64];
    std::snprintf(cfg, sizeof cfg, "bytes=%zu,pinned", bytes);
    std::memset(host, 0, bytes);
    auto op = [&] { CHECK(musaMemcpyAsync(host, dev, bytes, musaMemcpyDeviceToHost, 0)); };
    warm(op);
    long bad = -1;
    for (size_t i = 0; i < bytes && bad < 0; i += 61)
      if (host[i] != src[i]) bad = long(i);
    if (bad < 0 && host[bytes - 1] != src[bytes - 1]) bad = long(bytes - 1);
    if (bad >= 0) fail("memcpy_async_d2h", cfg, bad, host[bad], src[bad]);
    report("memcpy_async_d2h", cfg, time_median(op));
  }
  CHECK(musaFreeHost(host));
  CHECK(musaFree(dev));
}

// ---- one 256 MB musaMemsetAsync ---------------------------------------------------------------
static void bench_memset_large() {
  const size_t bytes = size_t(256) << 20;
  const char *cfg = "bytes=268435456,value=0x5a";
  unsigned char *dev;
  CHECK(musaMalloc(&dev, bytes));
  CHECK(musaMemset(dev, 0, bytes));
  auto op = [&] { CHECK(musaMemsetAsync(dev, 0x5a, bytes)); };
  warm(op);
  std::vector<unsigned char> back(bytes);
  CHECK(musaMemcpy(back.data(), dev, bytes, musaMemcpyDeviceToHost));
  long bad = -1;
  for (size_t i = 0; i < bytes && bad < 0; i += 4093)
    if (back[i] != 0x5a) bad = long(i);
  if (bad < 0 && back[bytes - 1] != 0x5a) bad = long(bytes - 1);
  if (bad >= 0) fail("memset_large", cfg, bad, back[bad], 0x5a);
  report("memset_large", cfg, time_median(op));
  CHECK(musaFree(dev));
}

// ---- a captured graph (D2D copy, kernel, memset, kernel) replayed 20 times on stream 0 -------
__global__ void g_affine(int *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = 2 * x[i] + 1;
}

__global__ void g_sub_bias(const int *x, const int *bias, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = x[i] - bias[i % 1024];
}

static void bench_graph_replay() {
  const int n = 1 << 18, replays = 20;
  const char *cfg = "nodes=4,replays=20,n=262144";
  std::vector<int> src(n);
  for (int i = 0; i < n; ++i) src[i] = int(hash_u32(unsigned(i)) % 100000);
  int *dsrc, *dwork, *dbias, *dout;
  CHECK(musaMalloc(&dsrc, size_t(n) * 4));
  CHECK(musaMalloc(&dwork, size_t(n) * 4));
  CHECK(musaMalloc(&dbias, 1024 * 4));
  CHECK(musaMalloc(&dout, size_t(n) * 4));
  CHECK(musaMemcpy(dsrc, src.data(), size_t(n) * 4, musaMemcpyHostToDevice));
  CHECK(musaMemset(dout, 0, size_t(n) * 4));
  musaStream_t s;
  CHECK(musaStreamCreate(&s));
  musaGraph_t graph;
  musaGraphExec_t exec;
  CHECK(musaStreamBeginCapture(s, musaStreamCaptureModeGlobal));
  CHECK(musaMemcpyAsync(dwork, dsrc, size_t(n) * 4, musaMemcpyDeviceToDevice, s));
  g_affine<<<n / 256, 256, 0, s>>>(dwork, n);
  CHECK(musaMemsetAsync(dbias, 1, 1024 * 4, s));
  g_sub_bias<<<n / 256, 256, 0, s>>>(dwork, dbias, dout, n);
  CHECK(musaStreamEndCapture(s, &graph));
  CHECK(musaGraphInstantiate(&exec, graph, 0));
  auto op = [&] {
    for (int r = 0; r < replays; ++r) CHECK(musaGraphLaunch(exec, 0));
  };
  warm(op);
  std::vector<int> out(n);
  CHECK(musaMemcpy(out.data(), dout, size_t(n) * 4, musaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    int want = 2 * src[i] + 1 - 0x01010101;
    if (out[i] != want) { fail("graph_replay", cfg, i, out[i], want); break; }
  }
  report("graph_replay", cfg, time_median(op));
  CHECK(musaGraphExecDestroy(exec));
  CHECK(musaGraphDestroy(graph));
  CHECK(musaStreamDestroy(s));
  CHECK(musaFree(dsrc));
  CHECK(musaFree(dwork));
  CHECK(musaFree(dbias));
  CHECK(musaFree(dout));
}

// ---- 8 streams, 16 small launches each, forked from and joined back into stream 0 -----------
__global__ void inc_ints(int *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 1;
}

static void bench_streams8() {
  const int streams = 8, launches = 16, n = 4096;
  const char *cfg = "streams=8,launches=16,n=4096";
  int *buf;
  CHECK(musaMalloc(&buf, size_t(streams) * n * 4));
  CHECK(musaMemset(buf, 0, size_t(streams) * n * 4));
  musaStream_t st[streams];
  musaEvent_t fork, join[streams];
  CHECK(musaEventCreate(&fork));
  for (int s = 0; s < streams; ++s) {
    CHECK(musaStreamCreate(&st[s]));
    CHECK(musaEventCreate(&join[s]));
  }
  auto op = [&] {
    CHECK(musaEventRecord(fork, 0));
    for (int s = 0; s < streams; ++s) CHECK(musaStreamWaitEvent(st[s], fork, 0));
    for (int l = 0; l < launches; ++l)
      for (int s = 0; s < streams; ++s) inc_ints<<<n / 256, 256, 0, st[s]>>>(buf + s * n, n);
    for (int s = 0; s < streams; ++s) {
      CHECK(musaEventRecord(join[s], st[s]));
      CHECK(musaStreamWaitEvent(0, join[s], 0));
    }
  };
  warm(op);
  std::vector<int> out(size_t(streams) * n);
  CHECK(musaMemcpy(out.data(), buf, out.size() * 4, musaMemcpyDeviceToHost));
  for (size_t i = 0; i < out.size(); ++i)
    if (out[i] != launches) { fail("streams8_launches", cfg, long(i), out[i], launches); break; }
  report("streams8_launches", cfg, time_median(op));
  for (int s = 0; s < streams; ++s) {
    CHECK(musaStreamDestroy(st[s]));
    CHECK(musaEventDestroy(join[s]));
  }
  CHECK(musaEventDestroy(fork));
  CHECK(musaFree(buf));
}

// ---- 16 dependent kernels alternating between two streams, each waiting on the last's event --
__global__ void pingpong_step(unsigned *x, int n, unsigned k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * 3u + k;
}

static void bench_event_pingpong() {
  const int stages = 16, n = 1 << 16;
  const char *cfg = "stages=16,streams=2,n=65536";
  unsigned *dx;
  CHECK(musaMalloc(&dx, size_t(n) * 4));
  musaStream_t st[2];
  musaEvent_t start, ev[stages];
  CHECK(musaStreamCreate(&st[0]));
  CHECK(musaStreamCreate(&st[1]));
  CHECK(musaEventCreate(&start));
  for (int k = 0; k < stages; ++k) CHECK(musaEventCreate(&ev[k]));
  auto op = [&] {
    CHECK(musaEventRecord(start, 0));
    CHECK(musaStreamWaitEvent(st[0], start, 0));
    for (int k = 0; k < stages; ++k) {
      musaStream_t s = st[k % 2];
      if (k > 0) CHECK(musaStreamWaitEvent(s, ev[k - 1], 0));
      pingpong_step<<<n / 256, 256, 0, s>>>(dx, n, unsigned(k));
      CHECK(musaEventRecord(ev[k], s));
    }
    CHECK(musaStreamWaitEvent(0, ev[stages - 1], 0));
  };
  std::vector<unsigned> init(n), out(n);
  for (int i = 0; i < n; ++i) init[i] = hash_u32(unsigned(i) + 4242u);
  CHECK(musaMemcpy(dx, init.data(), size_t(n) * 4, musaMemcpyHostToDevice));
  warm(op);
  CHECK(musaMemcpy(out.data(), dx, size_t(n) * 4, musaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    unsigned want = init[i];
    for (int k = 0; k < stages; ++k) want = want * 3u + unsigned(k);
    if (out[i] != want) { fail("event_pingpong", cfg, i, out[i], want); break; }
  }
  report("event_pingpong", cfg, time_median(op));
  for (int k = 0; k < stages; ++k) CHECK(musaEventDestroy(ev[k]));
  CHECK(musaEventDestroy(start));
  CHECK(musaStreamDestroy(st[0]));
  CHECK(musaStreamDestroy(st[1]));
  CHECK(musaFree(dx));
}
