// Rodinia lavaMD: particle potentials and forces in a 3D grid of boxes, one block of 128 threads per box, the home
// box's 100 particles (FOUR_VECTOR structs of doubles) and each neighbour box's particles and charges staged in
// shared memory (while (wtx < NUMBER_PAR_PER_BOX) strided loops), exp() interaction; structs par_str/dim_str (with
// long fields) passed by value, box_str with a 26-entry neighbour array; several box counts.
#include <musa_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define fp double
#define NUMBER_PAR_PER_BOX 100
#define NUMBER_THREADS 128
#define DOT(A, B) ((A.x) * (B.x) + (A.y) * (B.y) + (A.z) * (B.z))

#define CHECK(call)                                                                          \
  do {                                                                                       \
    musaError_t err_ = (call);                                                               \
    if (err_ != musaSuccess) {                                                               \
      printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, musaGetErrorString(err_));  \
      exit(1);                                                                               \
    }                                                                                        \
  } while (0)

typedef struct {
  fp x, y, z;
} THREE_VECTOR;
typedef struct {
  fp v, x, y, z;
} FOUR_VECTOR;
typedef struct nei_str {
  int x, y, z;
  int number;
  long offset;
} nei_str;
typedef struct box_str {
  int x, y, z;
  int number;
  long offset;
  int nn;
  nei_str nei[26];
} box_str;
typedef struct par_str {
  fp alpha;
} par_str;
typedef struct dim_str {
  int cur_arg;
  int arch_arg;
  int cores_arg;
  int boxes1d_arg;
  long number_boxes;
  long box_mem;
  long space_elem;
  long space_mem;
  long space_mem2;
} dim_str;

__global__ void kernel_gpu_cuda(par_str d_par_gpu, dim_str d_dim_gpu, box_str *d_box_gpu, FOUR_VECTOR *d_rv_gpu,
                                fp *d_qv_gpu, FOUR_VECTOR *d_fv_gpu) {
  int bx = blockIdx.x;
  int tx = threadIdx.x;
  int wtx = tx;
  if (bx < d_dim_gpu.number_boxes) {
    fp a2 = 2.0 * d_par_gpu.alpha * d_par_gpu.alpha;
    int first_i;
    FOUR_VECTOR *rA;
    FOUR_VECTOR *fA;
    __shared__ FOUR_VECTOR rA_shared[100];
    int pointer;
    int k = 0;
    int first_j;
    FOUR_VECTOR *rB;
    fp *qB;
    int j = 0;
    __shared__ FOUR_VECTOR rB_shared[100];
    __shared__ double qB_shared[100];
    fp r2, u2, vij, fs, fxij, fyij, fzij;
    THREE_VECTOR d;
    first_i = d_box_gpu[bx].offset;
    rA = &d_rv_gpu[first_i];
    fA = &d_fv_gpu[first_i];
    while (wtx < NUMBER_PAR_PER_BOX) {
      rA_shared[wtx] = rA[wtx];
      wtx = wtx + NUMBER_THREADS;
    }
    wtx = tx;
    __syncthreads();
    for (k = 0; k < (1 + d_box_gpu[bx].nn); k++) {
      if (k == 0) {
        pointer = bx;
      } else {
        pointer = d_box_gpu[bx].nei[k - 1].number;
      }
      first_j = d_box_gpu[pointer].offset;
      rB = &d_rv_gpu[first_j];
      qB = &d_qv_gpu[first_j];
      while (wtx < NUMBER_PAR_PER_BOX) {
        rB_shared[wtx] = rB[wtx];
        qB_shared[wtx] = qB[wtx];
        wtx = wtx + NUMBER_THREADS;
      }
      wtx = tx;
      __syncthreads();
      while (wtx < NUMBER_PAR_PER_BOX) {
        for (j = 0; j < NUMBER_PAR_PER_BOX; j++) {
          r2 = (fp)rA_shared[wtx].v + (fp)rB_shared[j].v - DOT((fp)rA_shared[wtx], (fp)rB_shared[j]);
          u2 = a2 * r2;
          vij = exp(-u2);
          fs = 2 * vij;
          d.x = (fp)rA_shared[wtx].x - (fp)rB_shared[j].x;
          fxij = fs * d.x;
          d.y = (fp)rA_shared[wtx].y - (fp)rB_shared[j].y;
          fyij = fs * d.y;
          d.z = (fp)rA_shared[wtx].z - (fp)rB_shared[j].z;
          fzij = fs * d.z;
          fA[wtx].v += (double)((fp)qB_shared[j] * vij);
          fA[wtx].x += (double)((fp)qB_shared[j] * fxij);
          fA[wtx].y += (double)((fp)qB_shared[j] * fyij);
          fA[wtx].z += (double)((fp)qB_shared[j] * fzij);
        }
        wtx = wtx + NUMBER_THREADS;
      }
      wtx = tx;
      __syncthreads();
    }
  }
}

static int run(int boxes1d, unsigned seed) {
  par_str par_cpu;
  dim_str dim_cpu;
  par_cpu.alpha = 0.5;
  dim_cpu.cur_arg = 1;
  dim_cpu.arch_arg = 0;
  dim_cpu.cores_arg = 1;
  dim_cpu.boxes1d_arg = boxes1d;
  dim_cpu.number_boxes = dim_cpu.boxes1d_arg * dim_cpu.boxes1d_arg * dim_cpu.boxes1d_arg;
  dim_cpu.space_elem = dim_cpu.number_boxes * NUMBER_PAR_PER_BOX;
  dim_cpu.space_mem = dim_cpu.space_elem * sizeof(FOUR_VECTOR);
  dim_cpu.space_mem2 = dim_cpu.space_elem * sizeof(fp);
  dim_cpu.box_mem = dim_cpu.number_boxes * sizeof(box_str);
  box_str *box_cpu = (box_str *)malloc(dim_cpu.box_mem);
  int nh = 0;
  for (int i = 0; i < dim_cpu.boxes1d_arg; i++)
    for (int j = 0; j < dim_cpu.boxes1d_arg; j++)
      for (int k = 0; k < dim_cpu.boxes1d_arg; k++) {
        box_cpu[nh].x = k;
        box_cpu[nh].y = j;
        box_cpu[nh].z = i;
        box_cpu[nh].number = nh;
        box_cpu[nh].offset = nh * NUMBER_PAR_PER_BOX;
        box_cpu[nh].nn = 0;
        for (int l = -1; l < 2; l++)
          for (int m = -1; m < 2; m++)
            for (int n = -1; n < 2; n++) {
              if ((((i + l) >= 0 && (j + m) >= 0 && (k + n) >= 0) == true &&
                   ((i + l) < dim_cpu.boxes1d_arg && (j + m) < dim_cpu.boxes1d_arg &&
                    (k + n) < dim_cpu.boxes1d_arg) == true) &&
                  (l == 0 && m == 0 && n == 0) == false) {
                box_cpu[nh].nei[box_cpu[nh].nn].x = (k + n);
                box_cpu[nh].nei[box_cpu[nh].nn].y = (j + m);
                box_cpu[nh].nei[box_cpu[nh].nn].z = (i + l);
                box_cpu[nh].nei[box_cpu[nh].nn].number =
                    (box_cpu[nh].nei[box_cpu[nh].nn].z * dim_cpu.boxes1d_arg * dim_cpu.boxes1d_arg) +
                    (box_cpu[nh].nei[box_cpu[nh].nn].y * dim_cpu.boxes1d_arg) + box_cpu[nh].nei[box_cpu[nh].nn].x;
                box_cpu[nh].nei[box_cpu[nh].nn].offset = box_cpu[nh].nei[box_cpu[nh].nn].number * NUMBER_PAR_PER_BOX;
                box_cpu[nh].nn = box_cpu[nh].nn + 1;
              }
            }
        nh = nh + 1;
      }
  FOUR_VECTOR *rv_cpu = (FOUR_VECTOR *)malloc(dim_cpu.space_mem);
  fp *qv_cpu = (fp *)malloc(dim_cpu.space_mem2);
  FOUR_VECTOR *fv_cpu = (FOUR_VECTOR *)calloc(dim_cpu.space_elem, sizeof(FOUR_VECTOR));
  FOUR_VECTOR *fv_ref = (FOUR_VECTOR *)calloc(dim_cpu.space_elem, sizeof(FOUR_VECTOR));
  for (int i = 0; i < dim_cpu.space_elem; i = i + 1) {
    seed = seed * 1664525u + 1013904223u;
    rv_cpu[i].v = (((seed >> 8) % 10) + 1) / 10.0;
    seed = seed * 1664525u + 1013904223u;
    rv_cpu[i].x = (((seed >> 8) % 10) + 1) / 10.0;
    seed = seed * 1664525u + 1013904223u;
    rv_cpu[i].y = (((seed >> 8) % 10) + 1) / 10.0;
    seed = seed * 1664525u + 1013904223u;
    rv_cpu[i].z = (((seed >> 8) % 10) + 1) / 10.0;
    seed = seed * 1664525u + 1013904223u;
    qv_cpu[i] = (((seed >> 8) % 10) + 1) / 10.0;
  }
  box_str *d_box_gpu;
  FOUR_VECTOR *d_rv_gpu, *d_fv_gpu;
  fp *d_qv_gpu;
  CHECK(musaMalloc((void **)&d_box_gpu, dim_cpu.box_mem));
  CHECK(musaMalloc((void **)&d_rv_gpu, dim_cpu.space_mem));
  CHECK(musaMalloc((void **)&d_qv_gpu, dim_cpu.space_mem2));
  CHECK(musaMalloc((void **)&d_fv_gpu, dim_cpu.space_mem));
  CHECK(musaMemcpy(d_box_gpu, box_cpu, dim_cpu.box_mem, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(d_rv_gpu, rv_cpu, dim_cpu.space_mem, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(d_qv_gpu, qv_cpu, dim_cpu.space_mem2, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(d_fv_gpu, fv_cpu, dim_cpu.space_mem, musaMemcpyHostToDevice));
  dim3 threads, blocks;
  blocks.x = dim_cpu.number_boxes;
  blocks.y = 1;
  threads.x = NUMBER_THREADS;
  threads.y = 1;
  musaEvent_t e0, e1;
  CHECK(musaEventCreate(&e0));
  CHECK(musaEventCreate(&e1));
  CHECK(musaEventRecord(e0));
  kernel_gpu_cuda<<<blocks, threads>>>(par_cpu, dim_cpu, d_box_gpu, d_rv_gpu, d_qv_gpu, d_fv_gpu);
  CHECK(musaEventRecord(e1));
  CHECK(musaEventSynchronize(e1));
  CHECK(musaGetLastError());
  float ms;
  CHECK(musaEventElapsedTime(&ms, e0, e1));
  CHECK(musaMemcpy(fv_cpu, d_fv_gpu, dim_cpu.space_mem, musaMemcpyDeviceToHost));
  // host: the same loops (Rodinia's OpenMP kernel_cpu)
  fp a2 = 2.0 * par_cpu.alpha * par_cpu.alpha;
  for (int l = 0; l < dim_cpu.number_boxes; l++) {
    long first_i = box_cpu[l].offset;
    for (int k = 0; k < (1 + box_cpu[l].nn); k++) {
      int pointer = k == 0 ? l : box_cpu[l].nei[k - 1].number;
      long first_j = box_cpu[pointer].offset;
      for (int i = 0; i < NUMBER_PAR_PER_BOX; i++)
        for (int j = 0; j < NUMBER_PAR_PER_BOX; j++) {
          FOUR_VECTOR &a = rv_cpu[first_i + i], &b = rv_cpu[first_j + j];
          fp r2 = a.v + b.v - DOT(a, b);
          fp vij = exp(-a2 * r2);
          fp fs = 2. * vij;
          fp q = qv_cpu[first_j + j];
          fv_ref[first_i + i].v += q * vij;
          fv_ref[first_i + i].x += q * fs * (a.x - b.x);
          fv_ref[first_i + i].y += q * fs * (a.y - b.y);
          fv_ref[first_i + i].z += q * fs * (a.z - b.z);
        }
    }
  }
  int bad = 0;
  double maxerr = 0, sumv = 0;
  for (long i = 0; i < dim_cpu.space_elem; i++) {
    double e = fmax(fmax(fabs(fv_cpu[i].v - fv_ref[i].v), fabs(fv_cpu[i].x - fv_ref[i].x)),
                    fmax(fabs(fv_cpu[i].y - fv_ref[i].y), fabs(fv_cpu[i].z - fv_ref[i].z))) /
               (fabs(fv_ref[i].v) + 1.0);
    sumv += fv_cpu[i].v;
    if (e > maxerr)
      maxerr = e;
    if (!(e < 1e-12)) {
      if (bad < 4)
        printf("  particle %ld: v %g vs %g\n", i, fv_cpu[i].v, fv_ref[i].v);
      bad++;
    }
  }
  printf("lavaMD %d^3 boxes, %ld particles: %.3f ms, sum v %.6f, max scaled err %.2e%s\n", boxes1d,
         dim_cpu.space_elem, ms, sumv, maxerr, bad ? " MISMATCH" : "");
  musaFree(d_box_gpu); musaFree(d_rv_gpu); musaFree(d_qv_gpu); musaFree(d_fv_gpu);
  musaEventDestroy(e0); musaEventDestroy(e1);
  free(box_cpu); free(rv_cpu); free(qv_cpu); free(fv_cpu); free(fv_ref);
  return bad;
}

int main() {
  int bad = 0;
  bad += run(1, 1);
  bad += run(2, 2);
  bad += run(3, 3);
  printf("lavaMD: %s\n", bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
