// A dynamic global work queue in which processing an item pushes new items (graph traversal
// without levels, as in irregular-parallelism codes and GPU work-list BFS/SSSP kernels):
// a ring of item slots, `tail` reserved by atomicAdd, a ready flag per slot published after
// __threadfence, `head` advanced by atomicCAS over ready slots only, `pending` counting items
// pushed but not finished. Persistent workers loop until pending reaches 0.
//   A: one item per thread, claimed with atomicCAS;
//   B: a warp claims up to warpSize ready items at once (lane 0 CAS, __shfl_sync broadcast)
//      and pushes its children with a warp-aggregated atomicAdd (__ballot_sync/__popc);
//   C: a block claims a batch through shared memory (__syncthreads around it).
// The graph: node v has edges to (2v+1) % N, (v*v + 7) % N and (5v + 3) % N; a node is pushed
// once (atomicExch on visited). Each reachable node must be processed exactly once, with the
// right result.
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { musaError_t e = (x); if (e != musaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, musaGetErrorString(e)); exit(2);} } while (0)

constexpr int N = 30011;
constexpr int DEG = 3;

struct Queue {
  int *items;
  int *ready;
  int *visited;
  unsigned *head, *tail;
  int *pending;
  int *out;
  int *times;
};

__host__ __device__ int edge(int v, int k) {
  long long x = v;
  if (k == 0) return int((2 * x + 1) % N);
  if (k == 1) return int((x * x + 7) % N);
  return int((5 * x + 3) % N);
}
__host__ __device__ int work(int v) {
  unsigned h = v * 2654435761u;
  for (int i = 0; i < (v & 15); ++i) h = h * 1664525u + 1013904223u;
  return int(h >> 4);
}

__device__ void push(const Queue &q, int v) {
  if (atomicExch(&q.visited[v], 1) != 0) return;
  atomicAdd(q.pending, 1);
  unsigned slot = atomicAdd(q.tail, 1u);
  q.items[slot] = v;
  __threadfence();
  atomicExch(&q.ready[slot], 1);
}

__device__ void finish(const Queue &q, int v) {
  q.out[v] = work(v);
  atomicAdd(&q.times[v], 1);
}

__global__ void worker_thread(Queue q) {
  while (atomicAdd(q.pending, 0) > 0) {
    unsigned h = atomicAdd(q.head, 0u);
    if (!((volatile int *)q.ready)[h]) continue;
    if (atomicCAS(q.head, h, h + 1) != h) continue;
    __threadfence();
    int v = ((volatile int *)q.items)[h];
    finish(q, v);
    for (int k = 0; k < DEG; ++k) push(q, edge(v, k));
    __threadfence();
    atomicSub(q.pending, 1);
  }
}

__global__ void worker_warp(Queue q) {
  int lane = threadIdx.x % warpSize;
  unsigned lane32 = threadIdx.x % 32;
  while (true) {
    unsigned base = 0, count = 0;
    int stop = 0;
    if (lane == 0) {
      if (atomicAdd(q.pending, 0) == 0) stop = 1;
      else {
        unsigned h = atomicAdd(q.head, 0u), c = 0;
        while (c < (unsigned)warpSize && ((volatile int *)q.ready)[h + c]) ++c;
        if (c && atomicCAS(q.head, h, h + c) == h) base = h, count = c;
      }
    }
    stop = __shfl_sync(0xffffffffu, stop, 0);
    if (stop) break;
    base = __shfl_sync(0xffffffffu, base, 0);
    count = __shfl_sync(0xffffffffu, count, 0);
    __threadfence();
    int v = -1;
    if ((unsigned)lane < count) {
      v = ((volatile int *)q.items)[base + lane];
      finish(q, v);
    }
    for (int k = 0; k < DEG; ++k) {
      int c = v >= 0 ? edge(v, k) : 0;
      bool mine = v >= 0 && atomicExch(&q.visited[c], 1) == 0;
      // warp-aggregated reservation, per 32-lane slice
      unsigned m = __ballot_sync(0xffffffffu, mine);
      unsigned leader = m ? __ffs(m) - 1 : 0;
      unsigned slot0 = 0;
      if (mine && lane32 == leader) {
        atomicAdd(q.pending, __popc(m));
        slot0 = atomicAdd(q.tail, (unsigned)__popc(m));
      }
      slot0 = __shfl_sync(0xffffffffu, slot0, (lane / 32) * 32 + leader);
      if (mine) {
        unsigned slot = slot0 + __popc(m & ((1u << lane32) - 1));
        q.items[slot] = c;
        __threadfence();
        atomicExch(&q.ready[slot], 1);
      }
    }
    __syncwarp();
    if (lane == 0 && count) { __threadfence(); atomicSub(q.pending, (int)count); }
  }
}

__global__ void worker_block(Queue q) {
  __shared__ unsigned base, count;
  __shared__ int stop;
  while (true) {
    if (threadIdx.x == 0) {
      count = 0;
      stop = atomicAdd(q.pending, 0) == 0;
      if (!stop) {
        unsigned h = atomicAdd(q.head, 0u), c = 0;
        while (c < blockDim.x && ((volatile int *)q.ready)[h + c]) ++c;
        if (c && atomicCAS(q.head, h, h + c) == h) base = h, count = c;
      }
    }
    __syncthreads();
    if (stop) break;
    __threadfence();
    if (threadIdx.x < count) {
      int v = ((volatile int *)q.items)[base + threadIdx.x];
      finish(q, v);
      for (int k = 0; k < DEG; ++k) push(q, edge(v, k));
    }
    __syncthreads();
    if (threadIdx.x == 0 && count) { __threadfence(); atomicSub(q.pending, (int)count); }
    __syncthreads();
  }
}

int main(int argc, char **argv) {
  int only = argc > 1 ? atoi(argv[1]) : -1;
  // host reference: reachable set from node 0
  std::vector<char> reach(N, 0);
  std::vector<int> stack{0};
  reach[0] = 1;
  while (!stack.empty()) {
    int v = stack.back(); stack.pop_back();
    for (int k = 0; k < DEG; ++k) { int c = edge(v, k); if (!reach[c]) { reach[c] = 1; stack.push_back(c); } }
  }
  int nreach = 0;
  for (char r : reach) nreach += r;
  Queue q;
  CK(musaMalloc(&q.items, (N + 1024) * 4));
  CK(musaMalloc(&q.ready, (N + 1024) * 4));
  CK(musaMalloc(&q.visited, N * 4));
  CK(musaMalloc(&q.head, 4));
  CK(musaMalloc(&q.tail, 4));
  CK(musaMalloc(&q.pending, 4));
  CK(musaMalloc(&q.out, N * 4));
  CK(musaMalloc(&q.times, N * 4));
  bool ok = true;
  const char *names[] = {"thread", "warp", "block"};
  for (int v = 0; v < 3; ++v) {
    if (only >= 0 && v != only) continue;
    CK(musaMemset(q.ready, 0, (N + 1024) * 4));
    CK(musaMemset(q.visited, 0, N * 4));
    CK(musaMemset(q.times, 0, N * 4));
    CK(musaMemset(q.out, 0, N * 4));
    int zero = 0, one = 1;
    CK(musaMemcpy(q.items, &zero, 4, musaMemcpyHostToDevice));
    CK(musaMemcpy(q.ready, &one, 4, musaMemcpyHostToDevice));
    CK(musaMemcpy(q.visited, &one, 4, musaMemcpyHostToDevice));
    CK(musaMemcpy(q.head, &zero, 4, musaMemcpyHostToDevice));
    CK(musaMemcpy(q.tail, &one, 4, musaMemcpyHostToDevice));
    CK(musaMemcpy(q.pending, &one, 4, musaMemcpyHostToDevice));
    if (v == 0) worker_thread<<<6, 128>>>(q);
    if (v == 1) worker_warp<<<6, 256>>>(q);
    if (v == 2) worker_block<<<6, 256>>>(q);
    CK(musaGetLastError());
    CK(musaDeviceSynchronize());
    std::vector<int> out(N), times(N);
    CK(musaMemcpy(out.data(), q.out, N * 4, musaMemcpyDeviceToHost));
    CK(musaMemcpy(times.data(), q.times, N * 4, musaMemcpyDeviceToHost));
    unsigned tail;
    CK(musaMemcpy(&tail, q.tail, 4, musaMemcpyDeviceToHost));
    bool good = tail == (unsigned)nreach;
    if (!good) printf("%s: %u items pushed, %d reachable\n", names[v], tail, nreach);
    for (int i = 0; i < N && good; ++i)
      if (times[i] != reach[i] || (reach[i] && out[i] != work(i))) {
        printf("%s: node %d processed %d times (reachable %d), out %d expected %d\n", names[v], i, times[i], reach[i], out[i], work(i));
        good = false;
      }
    printf("%s: %d nodes %s\n", names[v], nreach, good ? "ok" : "wrong");
    ok &= good;
  }
  printf("dynamic_work_queue %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
