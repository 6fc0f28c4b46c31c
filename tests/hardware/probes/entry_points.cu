// What cudaGetDriverEntryPoint(ByVersion), cudaDeviceGetTexture1DLinearMaxWidth,
// cudaArrayGetPlane and cudaGraphDestroyNode answer on a GPU (hw-session19.sh).
#include <cstdio>

int main() {
  setvbuf(stdout, nullptr, _IONBF, 0); // a crash keeps what was printed
  cudaSetDevice(0);
  const char *names[] = {"cuMemAlloc", "cuLaunchKernel", "cuGetProcAddress", "cuNoSuchThing"};
  for (const char *name : names) {
    void *fn = (void *)1;
    cudaDriverEntryPointQueryResult status = (cudaDriverEntryPointQueryResult)77;
    cudaError_t e = cudaGetDriverEntryPoint(name, &fn, cudaEnableDefault, &status);
    printf("GetDriverEntryPoint(%s): %s fn %s status %d\n", name, cudaGetErrorName(e),
           fn ? (fn == (void *)1 ? "untouched" : "set") : "null", int(status));
    cudaGetLastError();
  }
  {
    void *fn = (void *)1;
    cudaError_t e = cudaGetDriverEntryPoint("cuMemAlloc", &fn, cudaEnableDefault, nullptr);
    printf("GetDriverEntryPoint(cuMemAlloc, no status): %s fn %s\n", cudaGetErrorName(e),
           fn ? "set" : "null");
    e = cudaGetDriverEntryPoint("cuMemAlloc", &fn, 0x100, nullptr);
    printf("GetDriverEntryPoint(bad flags): %s\n", cudaGetErrorName(e));
    cudaDriverEntryPointQueryResult status;
    e = cudaGetDriverEntryPointByVersion("cuMemAlloc", &fn, 12000, cudaEnableDefault, &status);
    printf("ByVersion(cuMemAlloc, 12000): %s status %d\n", cudaGetErrorName(e), int(status));
    e = cudaGetDriverEntryPointByVersion("cuMemAlloc", &fn, 1000, cudaEnableDefault, &status);
    printf("ByVersion(cuMemAlloc, 1000): %s status %d fn %s\n", cudaGetErrorName(e), int(status),
           fn ? "set" : "null");
    cudaGetLastError();
  }
  cudaChannelFormatDesc formats[] = {cudaCreateChannelDesc<char>(), cudaCreateChannelDesc<float>(),
                                     cudaCreateChannelDesc<float2>(),
                                     cudaCreateChannelDesc<float4>(),
                                     cudaCreateChannelDesc<short2>()};
  for (auto &f : formats) {
    size_t w = 0;
    cudaError_t e = cudaDeviceGetTexture1DLinearMaxWidth(&w, &f, 0);
    printf("Texture1DLinearMaxWidth(%d,%d,%d,%d kind %d): %s %zu\n", f.x, f.y, f.z, f.w, int(f.f),
           cudaGetErrorName(e), w);
  }
  int attr = 0;
  cudaDeviceGetAttribute(&attr, cudaDevAttrMaxTexture1DLinearWidth, 0);
  printf("cudaDevAttrMaxTexture1DLinearWidth %d\n", attr);
  cudaArray_t a, plane = nullptr;
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaMallocArray(&a, &fd, 16, 16);
  printf("ArrayGetPlane(float array, 0): %s\n", cudaGetErrorName(cudaArrayGetPlane(&plane, a, 0)));
  cudaGetLastError();
  cudaFreeArray(a); // cudaArrayGetPlane of a freed array crashes the process on the H100
  cudaGraph_t g;
  cudaGraphCreate(&g, 0);
  cudaGraphNode_t n;
  cudaGraphAddEmptyNode(&n, g, nullptr, 0);
  printf("GraphDestroyNode: %s\n", cudaGetErrorName(cudaGraphDestroyNode(n)));
  // cudaGraphDestroyNode of the destroyed node again crashes the process on the H100.
  printf("GraphDestroyNode(null): %s\n", cudaGetErrorName(cudaGraphDestroyNode(nullptr)));
  cudaGetLastError();
  cudaGraphAddEmptyNode(&n, g, nullptr, 0);
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaError_t e = cudaStreamBeginCaptureToGraph(s, g, nullptr, nullptr, 0,
                                                cudaStreamCaptureModeRelaxed);
  printf("BeginCaptureToGraph: %s\n", cudaGetErrorName(e));
  printf("GraphDestroyNode while captured into: %s\n", cudaGetErrorName(cudaGraphDestroyNode(n)));
  cudaGetLastError();
  cudaGraph_t same;
  printf("EndCapture: %s\n", cudaGetErrorName(cudaStreamEndCapture(s, &same)));
  return 0;
}
