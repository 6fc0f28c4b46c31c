// Graph memcpy nodes on __device__ and __constant__ variables and their one-row forms:
// musaGraphAddMemcpyNodeToSymbol/FromSymbol, musaGraphMemcpyNodeSetParams1D/ToSymbol/
// FromSymbol before instantiation, musaGraphExecMemcpyNodeSetParams1D/ToSymbol/FromSymbol
// after it, and the errors a wrong direction, a range past the variable or a pointer that
// names no variable give.
#include "check.h"

__device__ int table[64];
__constant__ int scale[1];

__global__ void scaleTable(int *out) {
  int i = threadIdx.x;
  table[i] = table[i] * scale[0];
  out[i] = table[i] + 1;
}

int main() {
  int in[64], in2[64], back[64] = {}, seen[64] = {}, two = 2, three = 3;
  for (int i = 0; i < 64; ++i)
    in[i] = i, in2[i] = 100 + i;
  int *out;
  CHECK_MUSA(musaMalloc(&out, sizeof in));

  musaGraph_t g;
  CHECK_MUSA(musaGraphCreate(&g, 0));
  musaGraphNode_t toTable, toScale, kernel, fromTable, fromOut;
  CHECK_MUSA(musaGraphAddMemcpyNodeToSymbol(&toTable, g, nullptr, 0, table, in, sizeof in, 0,
                                            musaMemcpyHostToDevice));
  CHECK_MUSA(musaGraphAddMemcpyNodeToSymbol(&toScale, g, &toTable, 1, scale, &two, sizeof two,
                                            0, musaMemcpyHostToDevice));
  musaKernelNodeParams k = {};
  void *args[] = {&out};
  k.func = (void *)scaleTable;
  k.gridDim = dim3(1);
  k.blockDim = dim3(64);
  k.kernelParams = args;
  CHECK_MUSA(musaGraphAddKernelNode(&kernel, g, &toScale, 1, &k));
  // Half the table back, from element 32 on (an offset into the variable).
  CHECK_MUSA(musaGraphAddMemcpyNodeFromSymbol(&fromTable, g, &kernel, 1, back, table,
                                              32 * sizeof(int), 32 * sizeof(int),
                                              musaMemcpyDeviceToHost));
  CHECK_MUSA(musaGraphAddMemcpyNode1D(&fromOut, g, &kernel, 1, seen, out, sizeof seen,
                                      musaMemcpyDeviceToHost));

  // Errors, each leaving the graph as it was.
  musaGraphNode_t bad;
  CHECK(musaGraphAddMemcpyNodeToSymbol(&bad, g, nullptr, 0, table, in, sizeof in, 0,
                                       musaMemcpyDeviceToHost) == musaErrorInvalidMemcpyDirection,
        "a copy to a symbol in the device-to-host direction");
  CHECK(musaGraphAddMemcpyNodeToSymbol(&bad, g, nullptr, 0, table, in, sizeof in, 4,
                                       musaMemcpyHostToDevice) == musaErrorInvalidValue,
        "a copy past the variable's end");
  CHECK(musaGraphAddMemcpyNodeFromSymbol(&bad, g, nullptr, 0, back, in, 4, 0,
                                         musaMemcpyDeviceToHost) == musaErrorInvalidSymbol,
        "a host array as the symbol");
  CHECK(musaGraphMemcpyNodeSetParams1D(kernel, back, out, 4, musaMemcpyDeviceToHost) ==
            musaErrorInvalidValue,
        "1D parameters for a kernel node");
  musaGetLastError();
  size_t count = 0;
  CHECK_MUSA(musaGraphGetNodes(g, nullptr, &count));
  CHECK(count == 5, "%zu nodes", count);

  musaGraphExec_t exec;
  CHECK_MUSA(musaGraphInstantiate(&exec, g, 0));
  CHECK_MUSA(musaGraphLaunch(exec, 0));
  CHECK_MUSA(musaStreamSynchronize(0));
  for (int i = 0; i < 64; ++i) {
    CHECK(seen[i] == 2 * i + 1, "launch 1: out[%d] = %d", i, seen[i]);
    if (i < 32)
      CHECK(back[i] == 2 * (32 + i), "launch 1: table[%d] = %d", 32 + i, back[i]);
  }

  // The executable graph's nodes take new sources: in2 and a scale of 3.
  CHECK_MUSA(musaGraphExecMemcpyNodeSetParamsToSymbol(exec, toTable, table, in2, sizeof in2, 0,
                                                      musaMemcpyHostToDevice));
  CHECK_MUSA(musaGraphExecMemcpyNodeSetParamsToSymbol(exec, toScale, scale, &three,
                                                      sizeof three, 0, musaMemcpyHostToDevice));
  CHECK_MUSA(musaGraphExecMemcpyNodeSetParamsFromSymbol(exec, fromTable, back, table,
                                                        32 * sizeof(int), 0,
                                                        musaMemcpyDeviceToHost));
  CHECK_MUSA(musaGraphExecMemcpyNodeSetParams1D(exec, fromOut, seen, out, 16 * sizeof(int),
                                                musaMemcpyDeviceToHost));
  for (int i = 0; i < 64; ++i)
    seen[i] = -1;
  CHECK_MUSA(musaGraphLaunch(exec, 0));
  CHECK_MUSA(musaStreamSynchronize(0));
  for (int i = 0; i < 64; ++i) {
    CHECK(seen[i] == (i < 16 ? 3 * (100 + i) + 1 : -1), "launch 2: seen[%d] = %d", i, seen[i]);
    if (i < 32)
      CHECK(back[i] == 3 * (100 + i), "launch 2: table[%d] = %d", i, back[i]);
  }

  // The graph's own nodes take new parameters too (the executable graph keeps its own).
  CHECK_MUSA(musaGraphMemcpyNodeSetParamsToSymbol(toScale, scale, &three, sizeof three, 0,
                                                  musaMemcpyHostToDevice));
  CHECK_MUSA(musaGraphMemcpyNodeSetParamsFromSymbol(fromTable, back, table, 8 * sizeof(int),
                                                    0, musaMemcpyDeviceToHost));
  CHECK_MUSA(musaGraphMemcpyNodeSetParams1D(fromOut, seen, out, 8 * sizeof(int),
                                            musaMemcpyDeviceToHost));
  musaMemcpy3DParms p = {};
  CHECK_MUSA(musaGraphMemcpyNodeGetParams(fromOut, &p));
  CHECK(p.extent.width == 8 * sizeof(int) && p.extent.height == 1 && p.dstPtr.ptr == seen,
        "1D parameters read back: width %zu height %zu", p.extent.width, p.extent.height);
  musaGraphExec_t exec2;
  CHECK_MUSA(musaGraphInstantiate(&exec2, g, 0));
  for (int i = 0; i < 64; ++i)
    seen[i] = -1;
  CHECK_MUSA(musaGraphLaunch(exec2, 0));
  CHECK_MUSA(musaStreamSynchronize(0));
  for (int i = 0; i < 8; ++i)
    CHECK(seen[i] == 3 * i + 1 && seen[8 + i] == -1, "launch 3: seen[%d] = %d", i, seen[i]);

  CHECK_MUSA(musaGraphExecDestroy(exec));
  CHECK_MUSA(musaGraphExecDestroy(exec2));
  CHECK_MUSA(musaGraphDestroy(g));
  CHECK_MUSA(musaFree(out));
  return finish("graph_symbols");
}
