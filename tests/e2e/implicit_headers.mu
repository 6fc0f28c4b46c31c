// No #include at all, as many CUDA samples are written: printf (host and device), malloc,
// memset/memcpy, sqrt and std::sqrt, clock(), INT_MIN/INT_MAX/UINT_MAX/LLONG_MAX,
// FLT_MAX/DBL_MAX/FLT_EPSILON, placement new and <utility> (std::pair, std::swap, a range-for
// over a braced list) come with the implicit runtime header, as they do with nvcc and mcc.
// Self-checking without check.h (which would include them).

static int failures = 0;
#define EXPECT(cond)                                                                         \
  do {                                                                                       \
    if (!(cond)) {                                                                           \
      printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                                 \
      ++failures;                                                                            \
    }                                                                                        \
  } while (0)

// A min-reduction seeded with INT_MAX and a max seeded with -FLT_MAX, as samples write them.
__global__ void extremes(const int *v, const float *f, int n, int *mn, float *mx) {
  int local = INT_MAX;
  float flocal = -FLT_MAX;
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    local = v[i] < local ? v[i] : local;
    flocal = f[i] > flocal ? f[i] : flocal;
  }
  atomicMin(mn, local);
  // no float atomicMax: publish through a CAS loop on the bits
  unsigned *bits = (unsigned *)mx;
  unsigned old = *bits;
  while (__uint_as_float(old) < flocal) {
    unsigned seen = atomicCAS(bits, old, __float_as_uint(flocal));
    if (seen == old)
      break;
    old = seen;
  }
  if (threadIdx.x == 0 && blockIdx.x == 0)
    printf("device printf: INT_MIN=%d UINT_MAX=%u sqrt=%.1f\n", INT_MIN, UINT_MAX,
           std::sqrt(16.0f));
}

struct Pair {
  int a, b;
  Pair(int x, int y) : a(x), b(y) {}
};

int main() {
  EXPECT(INT_MIN < 0 && INT_MAX == 2147483647 && UINT_MAX == 4294967295u);
  EXPECT(LLONG_MAX == 9223372036854775807ll && CHAR_BIT == 8 && SHRT_MAX == 32767);
  EXPECT(FLT_MAX > 3.0e38f && DBL_MAX > 1.0e308 && FLT_EPSILON < 1.0e-6f && FLT_MIN > 0.0f);
  EXPECT(sqrt(2.0) > 1.414 && std::fabs(-2.5f) == 2.5f && fabsf(floorf(-1.5f)) == 2.0f);
  EXPECT(clock() >= 0 && time(nullptr) > 0);
  char text[16];
  snprintf(text, sizeof text, "%d", 42);
  EXPECT(strcmp(text, "42") == 0 && strlen(text) == 2);
  alignas(Pair) unsigned char storage[sizeof(Pair)];
  Pair *p = new (storage) Pair(3, 4);
  EXPECT(p->a + p->b == 7);
  int sum = 0;
  for (int k : {10, 100, 1000}) // std::initializer_list, as launch_gap.cu uses it under nvcc
    sum += k;
  EXPECT(sum == 1110);
  std::pair<int, float> pr = std::make_pair(2, 0.5f);
  std::swap(pr.first, sum);
  EXPECT(pr.first == 1110 && sum == 2 && pr.second == 0.5f);

  const int n = 1000;
  int *hv = (int *)malloc(n * sizeof(int));
  float *hf = (float *)malloc(n * sizeof(float));
  memset(hv, 0, n * sizeof(int));
  for (int i = 0; i < n; ++i) {
    hv[i] = (i * 7919) % 2003 - 1000;
    hf[i] = (float)((i * 31) % 977) * 0.5f - 100.0f;
  }
  int wantMin = INT_MAX;
  float wantMax = -FLT_MAX;
  for (int i = 0; i < n; ++i) {
    wantMin = hv[i] < wantMin ? hv[i] : wantMin;
    wantMax = hf[i] > wantMax ? hf[i] : wantMax;
  }
  int *dv, *dmn;
  float *df, *dmx;
  musaMalloc(&dv, n * sizeof(int));
  musaMalloc(&df, n * sizeof(float));
  musaMalloc(&dmn, sizeof(int));
  musaMalloc(&dmx, sizeof(float));
  int seedMin = INT_MAX;
  float seedMax = -FLT_MAX;
  musaMemcpy(dv, hv, n * sizeof(int), musaMemcpyHostToDevice);
  musaMemcpy(df, hf, n * sizeof(float), musaMemcpyHostToDevice);
  musaMemcpy(dmn, &seedMin, sizeof(int), musaMemcpyHostToDevice);
  musaMemcpy(dmx, &seedMax, sizeof(float), musaMemcpyHostToDevice);
  extremes<<<4, 64>>>(dv, df, n, dmn, dmx);
  EXPECT(musaDeviceSynchronize() == musaSuccess);
  int gotMin = 0;
  float gotMax = 0;
  musaMemcpy(&gotMin, dmn, sizeof(int), musaMemcpyDeviceToHost);
  musaMemcpy(&gotMax, dmx, sizeof(float), musaMemcpyDeviceToHost);
  EXPECT(gotMin == wantMin);
  EXPECT(gotMax == wantMax);
  musaFree(dv);
  musaFree(df);
  musaFree(dmn);
  musaFree(dmx);
  free(hv);
  free(hf);
  if (failures) {
    printf("implicit_headers: %d check(s) failed\n", failures);
    exit(EXIT_FAILURE);
  }
  printf("implicit_headers: all checks passed\n");
  return 0;
}
