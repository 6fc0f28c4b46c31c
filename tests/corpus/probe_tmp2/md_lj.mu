// SHOC md: Lennard-Jones forces over a precomputed neighbour list (column-major neighList[j*inum+idx]), one thread
// per atom; the templated kernel compute_lj_force<T, forceVecType, posVecType, useTexture, texReader> instantiated
// for float/float4 and double/double4 with a texture-free reader functor, __restrict__ arguments; several atom
// counts (one not a multiple of the block, bounds-guarded), passes timed with events.
#include <musa_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <float.h>

#define CHECK(call)                                                                          \
  do {                                                                                       \
    musaError_t err_ = (call);                                                               \
    if (err_ != musaSuccess) {                                                               \
      printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, musaGetErrorString(err_));  \
      exit(1);                                                                               \
    }                                                                                        \
  } while (0)

static const float cutsqF = 16.0f;
static const float lj1F = 1.5f, lj2F = 2.0f;
static const int maxNeighbors = 32;
static const float domainEdge = 20.0f;

template <typename posVecType>
struct texReaderNone {
  __device__ posVecType operator()(int idx) const { return posVecType(); }
};

template <class T, class forceVecType, class posVecType, bool useTexture, typename texReader>
__global__ void compute_lj_force(forceVecType *__restrict__ force3, const posVecType *__restrict__ position,
                                 const int neighCount, const int *__restrict__ neighList, const T cutsq, const T lj1,
                                 const T lj2, const int inum) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= inum)
    return;
  posVecType ipos = position[idx];
  forceVecType f = {0.0f, 0.0f, 0.0f, 0.0f};
  texReader positionTexReader;
  int j = 0;
  while (j < neighCount) {
    int jidx = neighList[j * inum + idx];
    posVecType jpos;
    if (useTexture) {
      jpos = positionTexReader(jidx);
    } else {
      jpos = position[jidx];
    }
    T delx = ipos.x - jpos.x;
    T dely = ipos.y - jpos.y;
    T delz = ipos.z - jpos.z;
    T r2inv = delx * delx + dely * dely + delz * delz;
    if (r2inv < cutsq) {
      r2inv = 1.0f / r2inv;
      T r6inv = r2inv * r2inv * r2inv;
      T force = r2inv * r6inv * (lj1 * r6inv - lj2);
      f.x += delx * force;
      f.y += dely * force;
      f.z += delz * force;
    }
    j++;
  }
  force3[idx] = f;
}

// SHOC-style neighbour list: for each atom the maxNeighbors closest others, by insertion into a sorted list.
static void buildNeighborList(int nAtoms, const double *px, const double *py, const double *pz, int *neighborList) {
  double *dist = (double *)malloc(maxNeighbors * sizeof(double));
  int *nl = (int *)malloc(maxNeighbors * sizeof(int));
  for (int i = 0; i < nAtoms; i++) {
    for (int k = 0; k < maxNeighbors; k++) {
      dist[k] = DBL_MAX;
      nl[k] = 0;
    }
    for (int j = 0; j < nAtoms; j++) {
      if (i == j)
        continue;
      double dx = px[i] - px[j], dy = py[i] - py[j], dz = pz[i] - pz[j];
      double r2 = dx * dx + dy * dy + dz * dz;
      if (r2 < dist[maxNeighbors - 1]) {
        int k = maxNeighbors - 1;
        while (k > 0 && dist[k - 1] > r2) {
          dist[k] = dist[k - 1];
          nl[k] = nl[k - 1];
          k--;
        }
        dist[k] = r2;
        nl[k] = j;
      }
    }
    for (int k = 0; k < maxNeighbors; k++)
      neighborList[k * nAtoms + i] = nl[k];
  }
  free(dist);
  free(nl);
}

template <class T, class forceVecType, class posVecType>
static int runTest(const char *name, int nAtoms, const double *px, const double *py, const double *pz,
                   const int *neighborList, int blockSize, int passes) {
  posVecType *position = (posVecType *)malloc(nAtoms * sizeof(posVecType));
  forceVecType *force = (forceVecType *)malloc(nAtoms * sizeof(forceVecType));
  for (int i = 0; i < nAtoms; i++) {
    position[i].x = (T)px[i];
    position[i].y = (T)py[i];
    position[i].z = (T)pz[i];
    position[i].w = 0;
  }
  posVecType *d_position;
  forceVecType *d_force;
  int *d_neighList;
  CHECK(musaMalloc((void **)&d_position, nAtoms * sizeof(posVecType)));
  CHECK(musaMalloc((void **)&d_force, nAtoms * sizeof(forceVecType)));
  CHECK(musaMalloc((void **)&d_neighList, nAtoms * maxNeighbors * sizeof(int)));
  CHECK(musaMemcpy(d_position, position, nAtoms * sizeof(posVecType), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(d_neighList, neighborList, nAtoms * maxNeighbors * sizeof(int), musaMemcpyHostToDevice));
  int gridSize = (nAtoms + blockSize - 1) / blockSize;
  musaEvent_t e0, e1;
  CHECK(musaEventCreate(&e0));
  CHECK(musaEventCreate(&e1));
  // warm-up, then timed passes
  compute_lj_force<T, forceVecType, posVecType, false, texReaderNone<posVecType> ><<<gridSize, blockSize>>>(
      d_force, d_position, maxNeighbors, d_neighList, (T)cutsqF, (T)lj1F, (T)lj2F, nAtoms);
  CHECK(musaGetLastError());
  float total = 0;
  for (int p = 0; p < passes; p++) {
    CHECK(musaEventRecord(e0, 0));
    compute_lj_force<T, forceVecType, posVecType, false, texReaderNone<posVecType> ><<<gridSize, blockSize>>>(
        d_force, d_position, maxNeighbors, d_neighList, (T)cutsqF, (T)lj1F, (T)lj2F, nAtoms);
    CHECK(musaEventRecord(e1, 0));
    CHECK(musaEventSynchronize(e1));
    float ms;
    CHECK(musaEventElapsedTime(&ms, e0, e1));
    total += ms;
  }
  CHECK(musaMemcpy(force, d_force, nAtoms * sizeof(forceVecType), musaMemcpyDeviceToHost));
  int bad = 0, inRange = 0;
  double maxerr = 0;
  for (int i = 0; i < nAtoms; i++) {
    double fx = 0, fy = 0, fz = 0, mag = 0;
    for (int j = 0; j < maxNeighbors; j++) {
      int jidx = neighborList[j * nAtoms + i];
      double delx = (double)position[i].x - (double)position[jidx].x;
      double dely = (double)position[i].y - (double)position[jidx].y;
      double delz = (double)position[i].z - (double)position[jidx].z;
      double r2 = delx * delx + dely * dely + delz * delz;
      if (r2 < cutsqF) {
        inRange++;
        double r2inv = 1.0 / r2, r6inv = r2inv * r2inv * r2inv;
        double force = r2inv * r6inv * (lj1F * r6inv - lj2F);
        fx += delx * force;
        fy += dely * force;
        fz += delz * force;
        mag += fabs(force) * sqrt(r2);
      }
    }
    double tol = (sizeof(T) == 4 ? 2e-5 : 1e-12) * (mag + 1e-30);
    double e = fmax(fabs(force[i].x - fx), fmax(fabs(force[i].y - fy), fabs(force[i].z - fz)));
    if (mag > 0 && e / mag > maxerr)
      maxerr = e / mag;
    if (!(e <= tol)) {
      if (bad < 4)
        printf("  atom %d: (%g,%g,%g) vs (%g,%g,%g)\n", i, (double)force[i].x, (double)force[i].y,
               (double)force[i].z, fx, fy, fz);
      bad++;
    }
  }
  printf("md %s: %d atoms, block %d, %d in-cutoff pairs, %.3f ms/pass, max scaled err %.2e%s\n", name, nAtoms,
         blockSize, inRange, total / passes, maxerr, bad ? " MISMATCH" : "");
  musaFree(d_position); musaFree(d_force); musaFree(d_neighList);
  musaEventDestroy(e0); musaEventDestroy(e1);
  free(position); free(force);
  return bad;
}

static int run(int nAtoms, int blockSize, unsigned seed) {
  double *px = (double *)malloc(nAtoms * sizeof(double)), *py = (double *)malloc(nAtoms * sizeof(double));
  double *pz = (double *)malloc(nAtoms * sizeof(double));
  double edge = domainEdge * cbrt(nAtoms / 1024.0);
  for (int i = 0; i < nAtoms; i++) {
    seed = seed * 1664525u + 1013904223u;
    px[i] = (float)(((seed >> 8) & 0xffff) / 65536.0 * edge);
    seed = seed * 1664525u + 1013904223u;
    py[i] = (float)(((seed >> 8) & 0xffff) / 65536.0 * edge);
    seed = seed * 1664525u + 1013904223u;
    pz[i] = (float)(((seed >> 8) & 0xffff) / 65536.0 * edge);
  }
  int *neighborList = (int *)malloc(nAtoms * maxNeighbors * sizeof(int));
  buildNeighborList(nAtoms, px, py, pz, neighborList);
  int bad = 0;
  bad += runTest<float, float4, float4>("SP", nAtoms, px, py, pz, neighborList, blockSize, 3);
  bad += runTest<double, double4, double4>("DP", nAtoms, px, py, pz, neighborList, blockSize, 3);
  free(px); free(py); free(pz); free(neighborList);
  return bad;
}

int main() {
  int bad = 0;
  bad += run(1024, 256, 1);
  bad += run(700, 128, 2);
  bad += run(33, 32, 3);
  printf("md_lj: %s\n", bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
