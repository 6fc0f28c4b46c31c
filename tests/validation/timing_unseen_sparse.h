// The sparse, gather and GEMV kernels of timing_unseen.mu (suite 7): a vector CSR SpMV, a
// segmented reduction by keys, a merge-path merge, a sparse-dense double dot product, an
// embedding bag, an int4 dequantising GEMV and an int8 __dp4a GEMV. Included by that program
// only, after suite_harness.h.
#pragma once

// ---- CSR SpMV, vector kernel: a warp a row, lanes striding over the row's entries ----------
__global__ void spmv_csr_vector(const int *rowptr, const int *col, const float *val,
                                const float *x, float *y, int rows) {
  int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32, lane = threadIdx.x % 32;
  if (row >= rows) return;
  int end = rowptr[row + 1];
  float s = 0.f;
  for (int e = rowptr[row] + lane; e < end; e += 32) s += val[e] * x[col[e]];
  for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
  if (lane == 0) y[row] = s;
}

static void bench_spmv_csr_vector() {
  const int rows = 1 << 17;
  const char *cfg = "rows=131072,nnz/row=16..111";
  std::vector<int> rowptr(rows + 1, 0);
  for (int r = 0; r < rows; ++r) rowptr[r + 1] = rowptr[r] + 16 + int(hash_u32(unsigned(r)) % 96);
  const int nnz = rowptr[rows];
  std::vector<int> col(nnz);
  std::vector<float> val(nnz), x(rows);
  for (int r = 0; r < rows; ++r)
    for (int e = rowptr[r]; e < rowptr[r + 1]; ++e) {
      unsigned h = hash_u32(unsigned(e) ^ 0x9e3779b9u);
      // Mostly within a band of +-4096 around the diagonal, one in eight anywhere.
      int c = h % 8 == 0 ? int((h >> 3) % unsigned(rows)) : r + int((h >> 3) % 8193) - 4096;
      col[e] = std::min(std::max(c, 0), rows - 1);
      val[e] = float(1 + (h >> 20) % 4);
    }
  for (int r = 0; r < rows; ++r) x[r] = float(r % 15);
  int *drp, *dc;
  float *dv, *dx, *dy;
  CHECK(musaMalloc(&drp, size_t(rows + 1) * 4));
  CHECK(musaMalloc(&dc, size_t(nnz) * 4));
  CHECK(musaMalloc(&dv, size_t(nnz) * 4));
  CHECK(musaMalloc(&dx, size_t(rows) * 4));
  CHECK(musaMalloc(&dy, size_t(rows) * 4));
  CHECK(musaMemcpy(drp, rowptr.data(), size_t(rows + 1) * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dc, col.data(), size_t(nnz) * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dv, val.data(), size_t(nnz) * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dx, x.data(), size_t(rows) * 4, musaMemcpyHostToDevice));
  auto op = [&] { spmv_csr_vector<<<rows / 8, 256>>>(drp, dc, dv, dx, dy, rows); };
  warm(op);
  std::vector<float> y(rows);
  CHECK(musaMemcpy(y.data(), dy, size_t(rows) * 4, musaMemcpyDeviceToHost));
  for (int r = 0; r < rows; r += 97) {
    float want = 0.f;  // small integers: exact in any order
    for (int e = rowptr[r]; e < rowptr[r + 1]; ++e) want += val[e] * x[col[e]];
    if (y[r] != want) { fail("spmv_csr_vector", cfg, r, y[r], want); break; }
  }
  report("spmv_csr_vector", cfg, time_median(op));
  CHECK(musaFree(drp));
  CHECK(musaFree(dc));
  CHECK(musaFree(dv));
  CHECK(musaFree(dx));
  CHECK(musaFree(dy));
}

// ---- reduction by key over sorted keys: a segmented shuffle scan inside each warp, then one
// float atomicAdd for each piece of a segment that a warp holds ----------------------------
__global__ void segreduce_keys(const int *keys, const float *vals, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x % 32;
  if (i >= n) return;  // n is a multiple of the block size
  int k = keys[i];
  float v = vals[i];
  for (int o = 1; o < 32; o <<= 1) {
    float u = __shfl_up_sync(0xffffffffu, v, o);
    int ku = __shfl_up_sync(0xffffffffu, k, o);
    if (lane >= o && ku == k) v += u;
  }
  int next = __shfl_down_sync(0xffffffffu, k, 1);
  if (lane == 31 || next != k) atomicAdd(&out[k], v);
}

static void bench_segreduce() {
  const int n = 1 << 23;
  const char *cfg = "n=8388608,seg=1..128";
  std::vector<int> keys(n);
  std::vector<float> vals(n);
  int key = 0, left = 1;
  for (int i = 0; i < n; ++i) {
    if (--left == 0) left = 1 + int(hash_u32(unsigned(key) + 31u) % 128), key += i ? 1 : 0;
    keys[i] = key;
    vals[i] = float(hash_u32(unsigned(i) * 9u) % 8);
  }
  const int nkeys = key + 1;
  int *dk;
  float *dv, *dout;
  CHECK(musaMalloc(&dk, size_t(n) * 4));
  CHECK(musaMalloc(&dv, size_t(n) * 4));
  CHECK(musaMalloc(&dout, size_t(nkeys) * 4));
  CHECK(musaMemcpy(dk, keys.data(), size_t(n) * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dv, vals.data(), size_t(n) * 4, musaMemcpyHostToDevice));
  auto op = [&] {
    CHECK(musaMemsetAsync(dout, 0, size_t(nkeys) * 4));
    segreduce_keys<<<n / 256, 256>>>(dk, dv, dout, n);
  };
  warm(op);
  std::vector<float> got(nkeys), want(nkeys, 0.f);
  CHECK(musaMemcpy(got.data(), dout, size_t(nkeys) * 4, musaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) want[keys[i]] += vals[i];
  for (int k = 0; k < nkeys; ++k)
    if (got[k] != want[k]) { fail("segreduce_keys", cfg, k, got[k], want[k]); break; }
  report("segreduce_keys", cfg, time_median(op));
  CHECK(musaFree(dk));
  CHECK(musaFree(dv));
  CHECK(musaFree(dout));
}

// ---- merge path: tile boundaries by binary search, then 8 outputs a thread in shared memory --
#define MERGE_ITEMS 8
#define MERGE_TILE (256 * MERGE_ITEMS)

// How many of the first diag outputs come from a (ties go to a first).
__host__ __device__ inline int merge_search(const int *a, int na, const int *b, int nb,
                                            int diag) {
  int lo = max(0, diag - nb), hi = min(diag, na);
  while (lo < hi) {
    int mid = (lo + hi) >> 1;
    if (a[mid] <= b[diag - 1 - mid]) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

__global__ void merge_partition(const int *a, int na, const int *b, int nb, int *part,
                                int tiles) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t <= tiles) part[t] = merge_search(a, na, b, nb, min(t * MERGE_TILE, na + nb));
}

__global__ void merge_tiles(const int *a, int na, const int *b, int nb, const int *part,
                            int *out) {
  __shared__ int sin[MERGE_TILE], sout[MERGE_TILE];
  int tile0 = blockIdx.x * MERGE_TILE, tile1 = min(tile0 + MERGE_TILE, na + nb);
  int a0 = part[blockIdx.x], a1 = part[blockIdx.x + 1];
  int b0 = tile0 - a0, b1 = tile1 - a1;
  int la = a1 - a0, lb = b1 - b0, len = la + lb;
  for (int i = threadIdx.x; i < la; i += blockDim.x) sin[i] = a[a0 + i];
  for (int i = threadIdx.x; i < lb; i += blockDim.x) sin[la + i] = b[b0 + i];
  __syncthreads();
  int diag = min(int(threadIdx.x) * MERGE_ITEMS, len);
  int ia = merge_search(sin, la, sin + la, lb, diag), ib = diag - ia;
  for (int k = 0; k < MERGE_ITEMS && diag + k < len; ++k) {
    bool take_a = ib >= lb || (ia < la && sin[ia] <= sin[la + ib]);
    sout[diag + k] = take_a ? sin[ia++] : sin[la + ib++];
  }
  __syncthreads();
  for (int i = threadIdx.x; i < len; i += blockDim.x) out[tile0 + i] = sout[i];
}

static void bench_merge_path() {
  const int na = 1 << 22, nb = 1 << 22, total = na + nb, tiles = total / MERGE_TILE;
  const char *cfg = "na=4194304,nb=4194304";
  std::vector<int> a(na), b(nb);
  int va = 0, vb = 0;
  for (int i = 0; i < na; ++i) a[i] = va += int(hash_u32(unsigned(i)) % 4);
  for (int i = 0; i < nb; ++i) b[i] = vb += int(hash_u32(unsigned(i) + 0x1234567u) % 4);
  int *da, *db, *dp, *dout;
  CHECK(musaMalloc(&da, size_t(na) * 4));
  CHECK(musaMalloc(&db, size_t(nb) * 4));
  CHECK(musaMalloc(&dp, size_t(tiles + 1) * 4));
  CHECK(musaMalloc(&dout, size_t(total) * 4));
  CHECK(musaMemcpy(da, a.data(), size_t(na) * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(db, b.data(), size_t(nb) * 4, musaMemcpyHostToDevice));
  auto op = [&] {
    merge_partition<<<(tiles + 1 + 255) / 256, 256>>>(da, na, db, nb, dp, tiles);
    merge_tiles<<<tiles, 256>>>(da, na, db, nb, dp, dout);
  };
  warm(op);
  std::vector<int> got(total), want(total);
  CHECK(musaMemcpy(got.data(), dout, size_t(total) * 4, musaMemcpyDeviceToHost));
  std::merge(a.begin(), a.end(), b.begin(), b.end(), want.begin());
  for (int i = 0; i < total; ++i)
    if (got[i] != want[i]) { fail("merge_path", cfg, i, got[i], want[i]); break; }
  report("merge_path", cfg, time_median(op));
  CHECK(musaFree(da));
  CHECK(musaFree(db));
  CHECK(musaFree(dp));
  CHECK(musaFree(dout));
}

// ---- sparse-dense dot product in double: grid-stride gather, warp sum, one double atomic a
// warp ----------------------------------------------------------------------------------------
__global__ void sparse_dot_f64(const int *idx, const double *val, const double *x, int nnz,
                               double *out) {
  double s = 0.0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < nnz; i += gridDim.x * blockDim.x)
    s += val[i] * x[idx[i]];
  for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
  if (threadIdx.x % 32 == 0) atomicAdd(out, s);
}

static void bench_sparse_dot_f64() {
  const int nnz = 1 << 22, n = 1 << 24;
  const char *cfg = "nnz=4194304,n=16777216";
  std::vector<int> idx(nnz);
  std::vector<double> val(nnz), x(n);
  int at = 0;
  for (int i = 0; i < nnz; ++i) {
    idx[i] = at;
    at += 1 + int(hash_u32(unsigned(i) + 77u) % 7);
    val[i] = double(int(hash_u32(unsigned(i) ^ 0x51ed270bu) % 33) - 16) * 0.25;
  }
  // Multiples of 1/8 and 1/4: every product and sum is exact, in any order.
  for (int i = 0; i < n; ++i) x[i] = double(int(hash_u32(unsigned(i) * 3u) % 65) - 32) * 0.125;
  int *di;
  double *dv, *dx, *ds;
  CHECK(musaMalloc(&di, size_t(nnz) * 4));
  CHECK(musaMalloc(&dv, size_t(nnz) * 8));
  CHECK(musaMalloc(&dx, size_t(n) * 8));
  CHECK(musaMalloc(&ds, 8));
  CHECK(musaMemcpy(di, idx.data(), size_t(nnz) * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dv, val.data(), size_t(nnz) * 8, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dx, x.data(), size_t(n) * 8, musaMemcpyHostToDevice));
  auto op = [&] {
    CHECK(musaMemsetAsync(ds, 0, 8));
    sparse_dot_f64<<<1056, 256>>>(di, dv, dx, nnz, ds);
  };
  warm(op);
  double got = 0, want = 0;
  CHECK(musaMemcpy(&got, ds, 8, musaMemcpyDeviceToHost));
  for (int i = 0; i < nnz; ++i) want += val[i] * x[idx[i]];
  if (got != want) fail("sparse_dot_f64", cfg, 0, got, want);
  report("sparse_dot_f64", cfg, time_median(op));
  CHECK(musaFree(di));
  CHECK(musaFree(dv));
  CHECK(musaFree(dx));
  CHECK(musaFree(ds));
}

// ---- embedding bag: a warp sums 32 gathered 64-float rows (a float2 a lane); the row index
// is a warp-uniform load ------------------------------------------------------------------------
__global__ void embedding_bag(const float2 *table, const int *indices, float2 *out, int bags) {
  int bag = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32, lane = threadIdx.x % 32;
  if (bag >= bags) return;
  const int *mine = indices + size_t(bag) * 32;
  float2 acc = make_float2(0.f, 0.f);
  for (int k = 0; k < 32; ++k) {
    int row = mine[k];
    float2 v = table[size_t(row) * 32 + lane];
    acc.x += v.x;
    acc.y += v.y;
  }
  out[size_t(bag) * 32 + lane] = acc;
}

static void bench_embedding_bag() {
  const int rows = 1 << 18, dim = 64, bags = 16384;
  const char *cfg = "table=262144x64,bags=16384x32";
  size_t tn = size_t(rows) * dim;
  std::vector<float> table(tn);
  for (size_t i = 0; i < tn; ++i) table[i] = float(int(hash_u32(unsigned(i) + 3u) % 129) - 64);
  std::vector<int> ind(size_t(bags) * 32);
  for (size_t i = 0; i < ind.size(); ++i) {
    unsigned h = hash_u32(unsigned(i) ^ 0xdeadbeefu);
    // One lookup in four goes to the 1024 hottest rows.
    ind[i] = h % 4 == 0 ? int((h >> 2) % 1024) : int((h >> 2) % unsigned(rows));
  }
  float *dt, *dout;
  int *di;
  CHECK(musaMalloc(&dt, tn * 4));
  CHECK(musaMalloc(&di, ind.size() * 4));
  CHECK(musaMalloc(&dout, size_t(bags) * dim * 4));
  CHECK(musaMemcpy(dt, table.data(), tn * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(di, ind.data(), ind.size() * 4, musaMemcpyHostToDevice));
  auto op = [&] {
    embedding_bag<<<bags / 8, 256>>>((const float2 *)dt, di, (float2 *)dout, bags);
  };
  warm(op);
  std::vector<float> out(size_t(bags) * dim);
  CHECK(musaMemcpy(out.data(), dout, out.size() * 4, musaMemcpyDeviceToHost));
  for (int bag = 0; bag < bags; bag += 53)
    for (int c = 0; c < dim; c += 5) {
      float want = 0.f;
      for (int k = 0; k < 32; ++k) want += table[size_t(ind[size_t(bag) * 32 + k]) * dim + c];
      float got = out[size_t(bag) * dim + c];
      if (got != want) {
        fail("embedding_bag", cfg, long(bag) * dim + c, got, want);
        bag = bags;
        break;
      }
    }
  report("embedding_bag", cfg, time_median(op));
  CHECK(musaFree(dt));
  CHECK(musaFree(di));
  CHECK(musaFree(dout));
}

// ---- int4-weight GEMV: eight 4-bit weights a word, a float scale a group of 128 columns ------
__global__ void gemv_int4(const unsigned *w, const float *scales, const float *x, float *y,
                          int rows, int cols) {
  int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32, lane = threadIdx.x % 32;
  if (row >= rows) return;
  const int words = cols / 8, groups = cols / 128;
  const unsigned *wr = w + size_t(row) * words;
  const float *sr = scales + size_t(row) * groups;
  float acc = 0.f;
  for (int j = lane; j < words; j += 32) {
    unsigned q = wr[j];
    float4 x0 = *(const float4 *)&x[8 * j], x1 = *(const float4 *)&x[8 * j + 4];
    float p = float(int(q & 15u) - 8) * x0.x + float(int((q >> 4) & 15u) - 8) * x0.y +
              float(int((q >> 8) & 15u) - 8) * x0.z + float(int((q >> 12) & 15u) - 8) * x0.w +
              float(int((q >> 16) & 15u) - 8) * x1.x + float(int((q >> 20) & 15u) - 8) * x1.y +
              float(int((q >> 24) & 15u) - 8) * x1.z + float(int(q >> 28) - 8) * x1.w;
    acc += sr[j / 16] * p;
  }
  for (int o = 16; o > 0; o >>= 1) acc += __shfl_xor_sync(0xffffffffu, acc, o);
  if (lane == 0) y[row] = acc;
}

static void bench_gemv_int4() {
  const int rows = 8192, cols = 4096, words = cols / 8, groups = cols / 128;
  const char *cfg = "rows=8192,cols=4096,group=128";
  std::vector<unsigned> w(size_t(rows) * words);
  std::vector<float> sc(size_t(rows) * groups), x(cols);
  for (size_t i = 0; i < w.size(); ++i) w[i] = hash_u32(unsigned(i) ^ 0x7f4a7c15u);
  for (size_t i = 0; i < sc.size(); ++i) sc[i] = float(1 + hash_u32(unsigned(i)) % 16) / 16.f;
  for (int c = 0; c < cols; ++c) x[c] = float(int(hash_u32(unsigned(c) + 1u) % 33) - 16) / 8.f;
  unsigned *dw;
  float *ds, *dx, *dy;
  CHECK(musaMalloc(&dw, w.size() * 4));
  CHECK(musaMalloc(&ds, sc.size() * 4));
  CHECK(musaMalloc(&dx, size_t(cols) * 4));
  CHECK(musaMalloc(&dy, size_t(rows) * 4));
  CHECK(musaMemcpy(dw, w.data(), w.size() * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(ds, sc.data(), sc.size() * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dx, x.data(), size_t(cols) * 4, musaMemcpyHostToDevice));
  auto op = [&] { gemv_int4<<<rows / 4, 128>>>(dw, ds, dx, dy, rows, cols); };
  warm(op);
  std::vector<float> y(rows);
  CHECK(musaMemcpy(y.data(), dy, size_t(rows) * 4, musaMemcpyDeviceToHost));
  for (int r = 0; r < rows; r += 31) {
    double want = 0;  // multiples of 1/128 below 2^16: exact in float as well
    for (int c = 0; c < cols; ++c) {
      int q = int((w[size_t(r) * words + c / 8] >> (4 * (c % 8))) & 15u) - 8;
      want += double(sc[size_t(r) * groups + c / 128]) * q * x[c];
    }
    if (y[r] != want) { fail("gemv_int4", cfg, r, y[r], want); break; }
  }
  report("gemv_int4", cfg, time_median(op));
  CHECK(musaFree(dw));
  CHECK(musaFree(ds));
  CHECK(musaFree(dx));
  CHECK(musaFree(dy));
}

// ---- int8 GEMV with __dp4a: a warp a row, 16 bytes a lane a step ---------------------------
__global__ void gemv_dp4a(const int4 *w, const int4 *x, int *y, int rows, int cols) {
  int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32, lane = threadIdx.x % 32;
  if (row >= rows) return;
  const int vecs = cols / 16;
  const int4 *wr = w + size_t(row) * vecs;
  int acc = 0;
  for (int j = lane; j < vecs; j += 32) {
    int4 a = wr[j], b = x[j];
    acc = __dp4a(a.x, b.x, acc);
    acc = __dp4a(a.y, b.y, acc);
    acc = __dp4a(a.z, b.z, acc);
    acc = __dp4a(a.w, b.w, acc);
  }
  for (int o = 16; o > 0; o >>= 1) acc += __shfl_xor_sync(0xffffffffu, acc, o);
  if (lane == 0) y[row] = acc;
}

static void bench_gemv_dp4a() {
  const int rows = 8192, cols = 4096;
  const char *cfg = "rows=8192,cols=4096,int8";
  std::vector<signed char> w(size_t(rows) * cols), x(cols);
  for (size_t i = 0; i < w.size(); ++i) w[i] = (signed char)(hash_u32(unsigned(i) + 12u) & 255u);
  for (int c = 0; c < cols; ++c) x[c] = (signed char)(hash_u32(unsigned(c) * 5u) & 255u);
  signed char *dw, *dx;
  int *dy;
  CHECK(musaMalloc(&dw, w.size()));
  CHECK(musaMalloc(&dx, size_t(cols)));
  CHECK(musaMalloc(&dy, size_t(rows) * 4));
  CHECK(musaMemcpy(dw, w.data(), w.size(), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dx, x.data(), size_t(cols), musaMemcpyHostToDevice));
  auto op = [&] {
    gemv_dp4a<<<rows / 8, 256>>>((const int4 *)dw, (const int4 *)dx, dy, rows, cols);
  };
  warm(op);
  std::vector<int> y(rows);
  CHECK(musaMemcpy(y.data(), dy, size_t(rows) * 4, musaMemcpyDeviceToHost));
  for (int r = 0; r < rows; r += 29) {
    int want = 0;
    for (int c = 0; c < cols; ++c) want += int(w[size_t(r) * cols + c]) * int(x[c]);
    if (y[r] != want) { fail("gemv_dp4a", cfg, r, y[r], want); break; }
  }
  report("gemv_dp4a", cfg, time_median(op));
  CHECK(musaFree(dw));
  CHECK(musaFree(dx));
  CHECK(musaFree(dy));
}
