// Probe (CUDA, run on the H200): what cudaStreamSetAttribute/GetAttribute do with a null value,
// and what cudaLaunchKernelEx answers for attribute corner cases. Each case runs in a child
// process so a crash is reported instead of ending the probe.
#include <cstdio>
#include <cstring>
#include <sys/wait.h>
#include <unistd.h>

__global__ void k(int *p) { if (p) atomicAdd(p, 1); }

static void child(const char *name, int (*f)()) {
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    int e = f();
    printf("%-40s -> %d (%s)\n", name, e, cudaGetErrorName(cudaError_t(e)));
    fflush(stdout);
    _exit(0);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFSIGNALED(status))
    printf("%-40s -> killed by signal %d\n", name, WTERMSIG(status));
}

static int launchWith(cudaLaunchAttribute *attrs, unsigned n, dim3 grid = dim3(4)) {
  cudaLaunchConfig_t c = {};
  c.gridDim = grid;
  c.blockDim = dim3(32);
  c.attrs = attrs;
  c.numAttrs = n;
  int *p = nullptr;
  int e = cudaLaunchKernelEx(&c, k, p);
  int s = cudaDeviceSynchronize();
  return e ? e : s;
}

int main() {
  child("StreamSetAttribute(window, null)", [] {
    cudaStream_t s; cudaStreamCreate(&s);
    return int(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, nullptr));
  });
  child("StreamGetAttribute(window, null)", [] {
    cudaStream_t s; cudaStreamCreate(&s);
    return int(cudaStreamGetAttribute(s, cudaStreamAttributeAccessPolicyWindow, nullptr));
  });
  child("LaunchKernelExC(null config)", [] {
    return int(cudaLaunchKernelExC(nullptr, (const void *)k, nullptr));
  });
  child("numAttrs 1, attrs null", [] { return launchWith(nullptr, 1); });
  child("unknown attribute 99", [] {
    cudaLaunchAttribute a = {}; a.id = cudaLaunchAttributeID(99); return launchWith(&a, 1);
  });
  child("cluster 2x1x1, grid 4", [] {
    cudaLaunchAttribute a = {}; a.id = cudaLaunchAttributeClusterDimension;
    a.val.clusterDim.x = 2; a.val.clusterDim.y = 1; a.val.clusterDim.z = 1; return launchWith(&a, 1);
  });
  child("cluster 3x1x1, grid 4", [] {
    cudaLaunchAttribute a = {}; a.id = cudaLaunchAttributeClusterDimension;
    a.val.clusterDim.x = 3; a.val.clusterDim.y = 1; a.val.clusterDim.z = 1; return launchWith(&a, 1);
  });
  child("cluster 0x1x1", [] {
    cudaLaunchAttribute a = {}; a.id = cudaLaunchAttributeClusterDimension;
    a.val.clusterDim.x = 0; a.val.clusterDim.y = 1; a.val.clusterDim.z = 1; return launchWith(&a, 1);
  });
  child("sync policy 9", [] {
    cudaLaunchAttribute a = {}; a.id = cudaLaunchAttributeSynchronizationPolicy;
    a.val.syncPolicy = cudaSynchronizationPolicy(9); return launchWith(&a, 1);
  });
  child("priority -100", [] {
    cudaLaunchAttribute a = {}; a.id = cudaLaunchAttributePriority; a.val.priority = -100;
    return launchWith(&a, 1);
  });
  child("programmatic event null", [] {
    cudaLaunchAttribute a = {}; a.id = cudaLaunchAttributeProgrammaticEvent;
    return launchWith(&a, 1);
  });
  child("programmatic event, timing event", [] {
    cudaEvent_t e; cudaEventCreate(&e);
    cudaLaunchAttribute a = {}; a.id = cudaLaunchAttributeProgrammaticEvent;
    a.val.programmaticEvent.event = e; int r = launchWith(&a, 1);
    return r ? r : int(cudaEventQuery(e));
  });
  child("programmatic event, no-timing event", [] {
    cudaEvent_t e; cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
    cudaLaunchAttribute a = {}; a.id = cudaLaunchAttributeProgrammaticEvent;
    a.val.programmaticEvent.event = e; int r = launchWith(&a, 1);
    return r ? r : int(cudaEventQuery(e));
  });
  child("mem sync domain 5", [] {
    cudaLaunchAttribute a = {}; a.id = cudaLaunchAttributeMemSyncDomain;
    a.val.memSyncDomain = cudaLaunchMemSyncDomain(5); return launchWith(&a, 1);
  });
  child("window hitRatio 1.5", [] {
    cudaLaunchAttribute a = {}; a.id = cudaLaunchAttributeAccessPolicyWindow;
    a.val.accessPolicyWindow.num_bytes = 1024; a.val.accessPolicyWindow.hitRatio = 1.5f;
    return launchWith(&a, 1);
  });
  child("cooperative 1", [] {
    cudaLaunchAttribute a = {}; a.id = cudaLaunchAttributeCooperative; a.val.cooperative = 1;
    return launchWith(&a, 1);
  });
  return 0;
}
