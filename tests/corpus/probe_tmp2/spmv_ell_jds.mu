// Sparse matrix-vector product in the formats of SHOC and Parboil: SHOC's templated spmv_ellpackr_kernel
// (column-major ELLPACK-R with per-row lengths, __restrict__ pointers, a texture-free vector reader functor using
// __ldg) for float and double, and Parboil's spmv_jds (rows sorted by length, jagged diagonals padded to 32-row
// chunks, jds_ptr and per-chunk nonzero counts in __constant__ memory, result scattered through the permutation).
#include <musa_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                                          \
  do {                                                                                       \
    musaError_t err_ = (call);                                                               \
    if (err_ != musaSuccess) {                                                               \
      printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, musaGetErrorString(err_));  \
      exit(1);                                                                               \
    }                                                                                        \
  } while (0)

template <typename T>
struct vecReaderLdg {
  const T *vec;
  __device__ T operator()(int i) const { return __ldg(vec + i); }
};

template <typename fpType, typename texReader>
__global__ void spmv_ellpackr_kernel(const fpType *__restrict__ val, const int *__restrict__ cols,
                                     const int *__restrict__ rowLengths, const int dim, fpType *__restrict__ out,
                                     texReader vecTexReader) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < dim) {
    fpType result = 0.0f;
    int max = rowLengths[t];
    for (int i = 0; i < max; i++) {
      int ind = i * dim + t;
      result += val[ind] * vecTexReader(cols[ind]);
    }
    out[t] = result;
  }
}

#define JDS_MAX_DIAG 512
#define JDS_MAX_CHUNKS 512
__constant__ int jds_ptr_int[JDS_MAX_DIAG];
__constant__ int sh_zcnt_int[JDS_MAX_CHUNKS];

__global__ void spmv_jds(float *dst_vector, const float *d_data, const int *d_index, const int *d_perm,
                         const float *x_vec, const int dim) {
  int ix = blockIdx.x * blockDim.x + threadIdx.x;
  if (ix < dim) {
    float sum = 0.0f;
    int bound = sh_zcnt_int[ix / 32];
    for (int k = 0; k < bound; k++) {
      int j = jds_ptr_int[k] + ix;
      int in = d_index[j];
      float d = d_data[j];
      float t = x_vec[in];
      sum += d * t;
    }
    dst_vector[d_perm[ix]] = sum;
  }
}

struct Csr {
  int n, nnz;
  int *rowptr, *col;
  double *val;
};

static Csr makeMatrix(int n, int maxLen, unsigned seed) {
  Csr m;
  m.n = n;
  m.rowptr = (int *)malloc((n + 1) * sizeof(int));
  m.col = (int *)malloc((size_t)n * maxLen * sizeof(int));
  m.val = (double *)malloc((size_t)n * maxLen * sizeof(double));
  int nnz = 0;
  for (int r = 0; r < n; r++) {
    m.rowptr[r] = nnz;
    seed = seed * 1664525u + 1013904223u;
    int len = (seed >> 10) % (maxLen + 1);
    if (r % 97 == 5)
      len = maxLen;  // a few long rows
    int c = (seed >> 4) % 7;
    for (int k = 0; k < len && c < n; k++) {
      seed = seed * 1664525u + 1013904223u;
      m.col[nnz] = c;
      m.val[nnz] = (float)(((seed >> 8) & 0xffff) / 32768.0 - 1.0);
      nnz++;
      c += 1 + (seed >> 20) % (2 * n / (maxLen + 1) + 1);
    }
  }
  m.rowptr[n] = nnz;
  m.nnz = nnz;
  return m;
}

template <typename T>
static int testEllpack(const Csr &m, const double *x, int blockSize) {
  int n = m.n, width = 0;
  for (int r = 0; r < n; r++)
    if (m.rowptr[r + 1] - m.rowptr[r] > width)
      width = m.rowptr[r + 1] - m.rowptr[r];
  T *val = (T *)calloc((size_t)n * width + 1, sizeof(T));
  int *cols = (int *)calloc((size_t)n * width + 1, sizeof(int));
  int *rowLengths = (int *)malloc(n * sizeof(int));
  T *xv = (T *)malloc(n * sizeof(T)), *out = (T *)malloc(n * sizeof(T));
  for (int r = 0; r < n; r++) {
    rowLengths[r] = m.rowptr[r + 1] - m.rowptr[r];
    for (int k = 0; k < rowLengths[r]; k++) {
      val[k * n + r] = (T)m.val[m.rowptr[r] + k];
      cols[k * n + r] = m.col[m.rowptr[r] + k];
    }
  }
  for (int i = 0; i < n; i++)
    xv[i] = (T)x[i];
  T *d_val, *d_x, *d_out;
  int *d_cols, *d_len;
  size_t ell = (size_t)n * width + 1;
  CHECK(musaMalloc((void **)&d_val, ell * sizeof(T)));
  CHECK(musaMalloc((void **)&d_cols, ell * sizeof(int)));
  CHECK(musaMalloc((void **)&d_len, n * sizeof(int)));
  CHECK(musaMalloc((void **)&d_x, n * sizeof(T)));
  CHECK(musaMalloc((void **)&d_out, n * sizeof(T)));
  CHECK(musaMemcpy(d_val, val, ell * sizeof(T), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(d_cols, cols, ell * sizeof(int), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(d_len, rowLengths, n * sizeof(int), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(d_x, xv, n * sizeof(T), musaMemcpyHostToDevice));
  vecReaderLdg<T> reader = {d_x};
  musaEvent_t e0, e1;
  CHECK(musaEventCreate(&e0));
  CHECK(musaEventCreate(&e1));
  CHECK(musaEventRecord(e0));
  spmv_ellpackr_kernel<T, vecReaderLdg<T> ><<<(n + blockSize - 1) / blockSize, blockSize>>>(d_val, d_cols, d_len, n,
                                                                                          d_out, reader);
  CHECK(musaEventRecord(e1));
  CHECK(musaEventSynchronize(e1));
  CHECK(musaGetLastError());
  float ms;
  CHECK(musaEventElapsedTime(&ms, e0, e1));
  CHECK(musaMemcpy(out, d_out, n * sizeof(T), musaMemcpyDeviceToHost));
  int bad = 0;
  for (int r = 0; r < n; r++) {
    double s = 0, mag = 0;
    for (int k = m.rowptr[r]; k < m.rowptr[r + 1]; k++) {
      double p = (double)(T)m.val[k] * (double)xv[m.col[k]];
      s += p;
      mag += fabs(p);
    }
    if (!(fabs(out[r] - s) <= (sizeof(T) == 4 ? 1e-6 : 1e-14) * (mag + 1e-30))) {
      if (bad < 4)
        printf("  row %d: %g vs %g\n", r, (double)out[r], s);
      bad++;
    }
  }
  printf("ELLPACK-R %s n=%d nnz=%d width=%d block=%d: %.3f ms%s\n", sizeof(T) == 4 ? "float" : "double", n, m.nnz,
         width, blockSize, ms, bad ? " MISMATCH" : "");
  musaFree(d_val); musaFree(d_cols); musaFree(d_len); musaFree(d_x); musaFree(d_out);
  musaEventDestroy(e0); musaEventDestroy(e1);
  free(val); free(cols); free(rowLengths); free(xv); free(out);
  return bad;
}

static int testJds(const Csr &m, const double *x) {
  int n = m.n;
  int *perm = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < n; i++)
    perm[i] = i;
  // stable sort rows by length, longest first
  for (int i = 1; i < n; i++) {
    int p = perm[i], len = m.rowptr[p + 1] - m.rowptr[p], j = i;
    while (j > 0 && m.rowptr[perm[j - 1] + 1] - m.rowptr[perm[j - 1]] < len) {
      perm[j] = perm[j - 1];
      j--;
    }
    perm[j] = p;
  }
  int nchunks = (n + 31) / 32;
  int *zcnt = (int *)calloc(JDS_MAX_CHUNKS, sizeof(int));
  for (int c = 0; c < nchunks; c++)
    zcnt[c] = m.rowptr[perm[c * 32] + 1] - m.rowptr[perm[c * 32]];
  int ndiag = zcnt[0];
  if (ndiag > JDS_MAX_DIAG || nchunks > JDS_MAX_CHUNKS) {
    printf("too large\n");
    exit(1);
  }
  int *ptr = (int *)calloc(JDS_MAX_DIAG, sizeof(int));
  int total = 0;
  for (int k = 0; k < ndiag; k++) {
    ptr[k] = total;
    int rowsWithK = 0;
    for (int c = 0; c < nchunks; c++)
      if (zcnt[c] > k)
        rowsWithK = (c + 1) * 32;
    total += rowsWithK;
  }
  float *data = (float *)calloc(total + 1, sizeof(float));
  int *index = (int *)calloc(total + 1, sizeof(int));
  for (int k = 0; k < ndiag; k++)
    for (int ix = 0; ix < n; ix++) {
      int r = perm[ix], len = m.rowptr[r + 1] - m.rowptr[r];
      if (k < len) {
        data[ptr[k] + ix] = (float)m.val[m.rowptr[r] + k];
        index[ptr[k] + ix] = m.col[m.rowptr[r] + k];
      }
    }
  float *xv = (float *)malloc(n * sizeof(float)), *out = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; i++)
    xv[i] = (float)x[i];
  float *d_data, *d_x, *d_out;
  int *d_index, *d_perm;
  CHECK(musaMalloc((void **)&d_data, (total + 1) * sizeof(float)));
  CHECK(musaMalloc((void **)&d_index, (total + 1) * sizeof(int)));
  CHECK(musaMalloc((void **)&d_perm, n * sizeof(int)));
  CHECK(musaMalloc((void **)&d_x, n * sizeof(float)));
  CHECK(musaMalloc((void **)&d_out, n * sizeof(float)));
  CHECK(musaMemcpy(d_data, data, (total + 1) * sizeof(float), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(d_index, index, (total + 1) * sizeof(int), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(d_perm, perm, n * sizeof(int), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(d_x, xv, n * sizeof(float), musaMemcpyHostToDevice));
  CHECK(musaMemset(d_out, 0xff, n * sizeof(float)));
  CHECK(musaMemcpyToSymbol(jds_ptr_int, ptr, JDS_MAX_DIAG * sizeof(int)));
  CHECK(musaMemcpyToSymbol(sh_zcnt_int, zcnt, JDS_MAX_CHUNKS * sizeof(int)));
  int block = 192;
  musaEvent_t e0, e1;
  CHECK(musaEventCreate(&e0));
  CHECK(musaEventCreate(&e1));
  CHECK(musaEventRecord(e0));
  for (int it = 0; it < 3; it++)
    spmv_jds<<<(n + block - 1) / block, block>>>(d_out, d_data, d_index, d_perm, d_x, n);
  CHECK(musaEventRecord(e1));
  CHECK(musaEventSynchronize(e1));
  CHECK(musaGetLastError());
  float ms;
  CHECK(musaEventElapsedTime(&ms, e0, e1));
  CHECK(musaMemcpy(out, d_out, n * sizeof(float), musaMemcpyDeviceToHost));
  int bad = 0;
  for (int r = 0; r < n; r++) {
    double s = 0, mag = 0;
    for (int k = m.rowptr[r]; k < m.rowptr[r + 1]; k++) {
      double p = (double)(float)m.val[k] * xv[m.col[k]];
      s += p;
      mag += fabs(p);
    }
    if (!(fabs(out[r] - s) <= 1e-6 * (mag + 1e-30))) {
      if (bad < 4)
        printf("  row %d: %g vs %g\n", r, (double)out[r], s);
      bad++;
    }
  }
  printf("JDS float n=%d nnz=%d diagonals=%d padded=%d: %.3f ms for 3 launches%s\n", n, m.nnz, ndiag, total, ms,
         bad ? " MISMATCH" : "");
  musaFree(d_data); musaFree(d_index); musaFree(d_perm); musaFree(d_x); musaFree(d_out);
  musaEventDestroy(e0); musaEventDestroy(e1);
  free(perm); free(zcnt); free(ptr); free(data); free(index); free(xv); free(out);
  return bad;
}

int main() {
  int bad = 0;
  int sizes[3] = {100, 1000, 4097}, lens[3] = {9, 24, 40}, blocks[3] = {64, 128, 256};
  for (int t = 0; t < 3; t++) {
    Csr m = makeMatrix(sizes[t], lens[t], 11 + t);
    double *x = (double *)malloc(sizes[t] * sizeof(double));
    for (int i = 0; i < sizes[t]; i++)
      x[i] = (float)sin(0.37 * i) + 0.25;
    bad += testEllpack<float>(m, x, blocks[t]);
    bad += testEllpack<double>(m, x, blocks[t]);
    bad += testJds(m, x);
    free(x); free(m.rowptr); free(m.col); free(m.val);
  }
  printf("spmv_ell_jds: %s\n", bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
