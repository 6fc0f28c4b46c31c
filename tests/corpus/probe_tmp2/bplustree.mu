// Rodinia b+tree: findK (one block per query, one thread per key slot, descending `height` levels of a B+ tree
// stored as an array of knode structs, with the currKnode/offset arrays updated by thread 0 between barriers) and
// findRangeK (two simultaneous descents for the start and end keys, record start and length); long (64-bit) index
// arrays, tree built on the host as Rodinia's transform_to_cuda lays it out; several tree orders and sizes.
#include <musa_runtime.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <vector>

#define DEFAULT_ORDER 32

#define CHECK(call)                                                                          \
  do {                                                                                       \
    musaError_t err_ = (call);                                                               \
    if (err_ != musaSuccess) {                                                               \
      printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, musaGetErrorString(err_));  \
      exit(1);                                                                               \
    }                                                                                        \
  } while (0)

typedef struct record {
  int value;
} record;

typedef struct knode {
  int location;
  int indices[DEFAULT_ORDER + 1];
  int keys[DEFAULT_ORDER + 1];
  bool is_leaf;
  int num_keys;
} knode;

__global__ void findK(long height, knode *knodesD, long knodes_elem, record *recordsD, long *currKnodeD,
                      long *offsetD, int *keysD, record *ansD) {
  int thid = threadIdx.x;
  int bid = blockIdx.x;
  int i;
  for (i = 0; i < height; i++) {
    if ((knodesD[currKnodeD[bid]].keys[thid]) <= keysD[bid] && (knodesD[currKnodeD[bid]].keys[thid + 1] > keysD[bid])) {
      if (knodesD[offsetD[bid]].indices[thid] < knodes_elem) {
        offsetD[bid] = knodesD[offsetD[bid]].indices[thid];
      }
    }
    __syncthreads();
    if (thid == 0) {
      currKnodeD[bid] = offsetD[bid];
    }
    __syncthreads();
  }
  if (knodesD[currKnodeD[bid]].keys[thid] == keysD[bid]) {
    ansD[bid].value = recordsD[knodesD[currKnodeD[bid]].indices[thid]].value;
  }
}

__global__ void findRangeK(long height, knode *knodesD, long knodes_elem, long *currKnodeD, long *offsetD,
                           long *lastKnodeD, long *offset_2D, int *startD, int *endD, int *RecstartD,
                           int *ReclenD) {
  int thid = threadIdx.x;
  int bid = blockIdx.x;
  int i;
  for (i = 0; i < height; i++) {
    if ((knodesD[currKnodeD[bid]].keys[thid] <= startD[bid]) && (knodesD[currKnodeD[bid]].keys[thid + 1] > startD[bid])) {
      if (knodesD[currKnodeD[bid]].indices[thid] < knodes_elem) {
        offsetD[bid] = knodesD[currKnodeD[bid]].indices[thid];
      }
    }
    if ((knodesD[lastKnodeD[bid]].keys[thid] <= endD[bid]) && (knodesD[lastKnodeD[bid]].keys[thid + 1] > endD[bid])) {
      if (knodesD[lastKnodeD[bid]].indices[thid] < knodes_elem) {
        offset_2D[bid] = knodesD[lastKnodeD[bid]].indices[thid];
      }
    }
    __syncthreads();
    if (thid == 0) {
      currKnodeD[bid] = offsetD[bid];
      lastKnodeD[bid] = offset_2D[bid];
    }
    __syncthreads();
  }
  if (knodesD[currKnodeD[bid]].keys[thid] == startD[bid]) {
    RecstartD[bid] = knodesD[currKnodeD[bid]].indices[thid];
  }
  __syncthreads();
  if (knodesD[lastKnodeD[bid]].keys[thid] == endD[bid]) {
    ReclenD[bid] = knodesD[lastKnodeD[bid]].indices[thid] - RecstartD[bid] + 1;
  }
}

// Build a B+ tree of the given fan-out over sorted keys; nodes laid out breadth first from the root (index 0).
static long buildTree(const std::vector<int> &keys, int fan, std::vector<knode> &out) {
  struct N {
    std::vector<int> k, idx;
    bool leaf;
  };
  std::vector<std::vector<N> > levels;
  std::vector<N> leaves;
  for (size_t i = 0; i < keys.size(); i += fan) {
    N n;
    n.leaf = true;
    for (size_t j = i; j < keys.size() && j < i + fan; j++) {
      n.k.push_back(keys[j]);
      n.idx.push_back((int)j);
    }
    leaves.push_back(n);
  }
  levels.push_back(leaves);
  while (levels.back().size() > 1) {
    std::vector<N> &below = levels.back();
    std::vector<N> up;
    for (size_t i = 0; i < below.size(); i += fan) {
      N n;
      n.leaf = false;
      for (size_t j = i; j < below.size() && j < i + fan; j++) {
        n.k.push_back(j == i && i == 0 ? INT_MIN : below[j].k[0]);
        n.idx.push_back((int)j);  // position within the level below, fixed up later
      }
      up.push_back(n);
    }
    levels.push_back(up);
  }
  long height = (long)levels.size() - 1;
  // breadth-first numbering: root level first
  std::vector<int> base(levels.size());
  int total = 0;
  for (int l = (int)levels.size() - 1; l >= 0; l--) {
    base[l] = total;
    total += (int)levels[l].size();
  }
  out.assign(total, knode());
  for (int l = (int)levels.size() - 1; l >= 0; l--)
    for (size_t i = 0; i < levels[l].size(); i++) {
      N &n = levels[l][i];
      knode &kn = out[base[l] + i];
      kn.location = base[l] + (int)i;
      kn.is_leaf = n.leaf;
      kn.num_keys = (int)n.k.size();
      for (int t = 0; t <= DEFAULT_ORDER; t++) {
        kn.keys[t] = n.leaf ? -1 : INT_MAX;
        kn.indices[t] = n.leaf ? 0 : total;  // >= knodes_elem: never followed
      }
      for (size_t t = 0; t < n.k.size(); t++) {
        kn.keys[t] = n.k[t];
        kn.indices[t] = n.leaf ? n.idx[t] : base[l - 1] + n.idx[t];
      }
    }
  return height;
}

static int run(int nrec, int order, int count, unsigned seed) {
  std::vector<int> keys(nrec);
  int k = 0;
  for (int i = 0; i < nrec; i++) {
    seed = seed * 1664525u + 1013904223u;
    k += 1 + (seed >> 16) % 4;
    keys[i] = k;
  }
  std::vector<knode> knodes;
  long height = buildTree(keys, order, knodes);
  long knodes_elem = (long)knodes.size();
  std::vector<record> records(nrec);
  for (int i = 0; i < nrec; i++)
    records[i].value = keys[i] * 3 + 7;
  std::vector<int> query(count), start(count), end(count);
  for (int q = 0; q < count; q++) {
    seed = seed * 1664525u + 1013904223u;
    query[q] = (seed >> 8) % (k + 10);  // some present, some absent
    seed = seed * 1664525u + 1013904223u;
    int a = (seed >> 8) % nrec;
    seed = seed * 1664525u + 1013904223u;
    int len = (seed >> 8) % 100;
    start[q] = keys[a];
    end[q] = keys[a + len < nrec ? a + len : nrec - 1];
  }
  knode *knodesD;
  record *recordsD, *ansD;
  long *currKnodeD, *offsetD, *lastKnodeD, *offset_2D;
  int *keysD, *startD, *endD, *RecstartD, *ReclenD;
  CHECK(musaMalloc((void **)&knodesD, knodes_elem * sizeof(knode)));
  CHECK(musaMalloc((void **)&recordsD, nrec * sizeof(record)));
  CHECK(musaMalloc((void **)&ansD, count * sizeof(record)));
  CHECK(musaMalloc((void **)&currKnodeD, count * sizeof(long)));
  CHECK(musaMalloc((void **)&offsetD, count * sizeof(long)));
  CHECK(musaMalloc((void **)&lastKnodeD, count * sizeof(long)));
  CHECK(musaMalloc((void **)&offset_2D, count * sizeof(long)));
  CHECK(musaMalloc((void **)&keysD, count * sizeof(int)));
  CHECK(musaMalloc((void **)&startD, count * sizeof(int)));
  CHECK(musaMalloc((void **)&endD, count * sizeof(int)));
  CHECK(musaMalloc((void **)&RecstartD, count * sizeof(int)));
  CHECK(musaMalloc((void **)&ReclenD, count * sizeof(int)));
  CHECK(musaMemcpy(knodesD, knodes.data(), knodes_elem * sizeof(knode), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(recordsD, records.data(), nrec * sizeof(record), musaMemcpyHostToDevice));
  std::vector<long> zeros(count, 0);
  std::vector<record> ans(count);
  for (int q = 0; q < count; q++)
    ans[q].value = -1;
  CHECK(musaMemcpy(currKnodeD, zeros.data(), count * sizeof(long), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(offsetD, zeros.data(), count * sizeof(long), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(lastKnodeD, zeros.data(), count * sizeof(long), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(offset_2D, zeros.data(), count * sizeof(long), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(keysD, query.data(), count * sizeof(int), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(startD, start.data(), count * sizeof(int), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(endD, end.data(), count * sizeof(int), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(ansD, ans.data(), count * sizeof(record), musaMemcpyHostToDevice));
  CHECK(musaMemset(RecstartD, 0, count * sizeof(int)));
  CHECK(musaMemset(ReclenD, 0, count * sizeof(int)));
  int threads = order < 1024 ? order : 1024;
  musaEvent_t e0, e1, e2;
  CHECK(musaEventCreate(&e0));
  CHECK(musaEventCreate(&e1));
  CHECK(musaEventCreate(&e2));
  CHECK(musaEventRecord(e0));
  findK<<<count, threads>>>(height, knodesD, knodes_elem, recordsD, currKnodeD, offsetD, keysD, ansD);
  CHECK(musaEventRecord(e1));
  CHECK(musaMemcpy(currKnodeD, zeros.data(), count * sizeof(long), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(offsetD, zeros.data(), count * sizeof(long), musaMemcpyHostToDevice));
  findRangeK<<<count, threads>>>(height, knodesD, knodes_elem, currKnodeD, offsetD, lastKnodeD, offset_2D, startD,
                                 endD, RecstartD, ReclenD);
  CHECK(musaEventRecord(e2));
  CHECK(musaEventSynchronize(e2));
  CHECK(musaGetLastError());
  float ms1, ms2;
  CHECK(musaEventElapsedTime(&ms1, e0, e1));
  CHECK(musaEventElapsedTime(&ms2, e1, e2));
  std::vector<int> recstart(count), reclen(count);
  CHECK(musaMemcpy(ans.data(), ansD, count * sizeof(record), musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(recstart.data(), RecstartD, count * sizeof(int), musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(reclen.data(), ReclenD, count * sizeof(int), musaMemcpyDeviceToHost));
  int bad = 0, found = 0;
  for (int q = 0; q < count; q++) {
    int lo = 0, hi = nrec - 1, pos = -1;
    while (lo <= hi) {
      int mid = (lo + hi) / 2;
      if (keys[mid] == query[q]) {
        pos = mid;
        break;
      }
      if (keys[mid] < query[q])
        lo = mid + 1;
      else
        hi = mid - 1;
    }
    int expect = pos >= 0 ? records[pos].value : -1;
    found += pos >= 0;
    int s = -1, e = -1;
    for (int i = 0; i < nrec; i++) {
      if (keys[i] == start[q]) s = i;
      if (keys[i] == end[q]) e = i;
    }
    if (ans[q].value != expect || recstart[q] != s || reclen[q] != e - s + 1) {
      if (bad < 4)
        printf("  query %d key %d: value %d (want %d); range [%d,%d] start %d len %d (want %d %d)\n", q, query[q],
               ans[q].value, expect, start[q], end[q], recstart[q], reclen[q], s, e - s + 1);
      bad++;
    }
  }
  printf("b+tree %d records, order %d, %ld nodes, height %ld, %d queries (%d hits): findK %.3f ms, findRangeK %.3f ms%s\n",
         nrec, order, knodes_elem, height, count, found, ms1, ms2, bad ? " MISMATCH" : "");
  musaFree(knodesD); musaFree(recordsD); musaFree(ansD); musaFree(currKnodeD); musaFree(offsetD);
  musaFree(lastKnodeD); musaFree(offset_2D); musaFree(keysD); musaFree(startD); musaFree(endD);
  musaFree(RecstartD); musaFree(ReclenD);
  musaEventDestroy(e0); musaEventDestroy(e1); musaEventDestroy(e2);
  return bad;
}

int main() {
  int bad = 0;
  bad += run(1000, 32, 200, 1);
  bad += run(20000, 32, 300, 2);
  bad += run(77, 16, 50, 3);
  bad += run(5000, 24, 100, 4);
  printf("b+tree: %s\n", bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
