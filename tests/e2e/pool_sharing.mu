// A memory pool shared between two processes, as CUDA's streamOrderedAllocationIPC sample
// shares one: the parent makes a pool with POSIX file descriptors as its handle type,
// allocates from it in stream order, fills the allocation and exports the pool (a descriptor
// the child inherits) and the pointer (64 bytes, passed in hex); the child imports both, maps
// the pointer, doubles every value with a kernel and frees it in stream order; the parent then
// reads the doubled values. Also the errors: a pool made without a handle type cannot be
// exported, an imported pool allocates nothing, and a pointer of a plain pool cannot be exported.
#include "check.h"

#include <spawn.h>
#include <stdlib.h>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char **environ;

__global__ void fill(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = 3 * i;
}

__global__ void twice(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] *= 2;
}

static const int N = 1 << 16;

static int child(int fd, const char *hex) {
  musaMemPool_t pool;
  CHECK_MUSA(musaMemPoolImportFromShareableHandle(&pool, (void *)(long)fd,
                                                  musaMemHandleTypePosixFileDescriptor, 0));
  musaMemPoolPtrExportData data;
  for (int i = 0; i < 64; ++i) {
    unsigned byte = 0;
    sscanf(hex + 2 * i, "%2x", &byte);
    data.reserved[i] = (unsigned char)byte;
  }
  int *p = nullptr;
  CHECK_MUSA(musaMemPoolImportPointer((void **)&p, pool, &data));
  musaStream_t s;
  CHECK_MUSA(musaStreamCreate(&s));
  int *own = nullptr;
  CHECK(musaMallocFromPoolAsync((void **)&own, 64, pool, s) == musaErrorInvalidValue,
        "an imported pool allocated");
  musaGetLastError();
  twice<<<N / 256, 256, 0, s>>>(p, N);
  CHECK_MUSA(musaFreeAsync(p, s));
  CHECK_MUSA(musaStreamSynchronize(s));
  CHECK_MUSA(musaMemPoolDestroy(pool));
  return finish("pool_sharing child");
}

int main(int argc, char **argv) {
  setvbuf(stdout, nullptr, _IONBF, 0);
  if (argc == 4 && std::string(argv[1]) == "child")
    return child(atoi(argv[2]), argv[3]);

  musaMemPoolProps props = {};
  props.allocType = musaMemAllocationTypePinned;
  props.handleTypes = musaMemHandleTypePosixFileDescriptor;
  props.location.type = musaMemLocationTypeDevice;
  props.location.id = 0;
  musaMemPool_t pool, plain;
  CHECK_MUSA(musaMemPoolCreate(&pool, &props));
  props.handleTypes = musaMemHandleTypeNone;
  CHECK_MUSA(musaMemPoolCreate(&plain, &props));
  musaStream_t s;
  CHECK_MUSA(musaStreamCreate(&s));
  int *p = nullptr, *q = nullptr;
  CHECK_MUSA(musaMallocFromPoolAsync((void **)&p, N * sizeof(int), pool, s));
  CHECK_MUSA(musaMallocFromPoolAsync((void **)&q, 256, plain, s));
  fill<<<N / 256, 256, 0, s>>>(p, N);
  CHECK_MUSA(musaStreamSynchronize(s));

  int fd = -1;
  CHECK(musaMemPoolExportToShareableHandle(&fd, plain, musaMemHandleTypePosixFileDescriptor, 0) ==
            musaErrorInvalidValue,
        "a pool without a shareable handle type was exported");
  musaMemPoolPtrExportData data, none;
  CHECK(musaMemPoolExportPointer(&none, q) == musaErrorInvalidValue,
        "a pointer of a pool that cannot be shared was exported");
  musaGetLastError();
  CHECK_MUSA(musaMemPoolExportToShareableHandle(&fd, pool, musaMemHandleTypePosixFileDescriptor, 0));
  CHECK_MUSA(musaMemPoolExportPointer(&data, p));
  char hex[129] = {};
  for (int i = 0; i < 64; ++i)
    snprintf(hex + 2 * i, 3, "%02x", data.reserved[i]);

  std::string fdText = std::to_string(fd);
  char *childArgv[] = {argv[0], (char *)"child", fdText.data(), hex, nullptr};
  pid_t pid;
  int status = -1;
  CHECK(posix_spawn(&pid, "/proc/self/exe", nullptr, nullptr, childArgv, environ) == 0, "spawn");
  waitpid(pid, &status, 0);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the child failed (status %d)", status);
  close(fd);

  std::vector<int> back(N);
  CHECK_MUSA(musaMemcpy(back.data(), p, N * sizeof(int), musaMemcpyDeviceToHost));
  int wrong = 0;
  for (int i = 0; i < N; ++i)
    wrong += back[i] != 6 * i;
  CHECK(wrong == 0, "%d values were not doubled by the child (first %d)", wrong, back[1]);
  printf("pool shared with a child process: it doubled %d values, %d wrong\n", N, wrong);
  CHECK_MUSA(musaFreeAsync(p, s));
  CHECK_MUSA(musaFreeAsync(q, s));
  CHECK_MUSA(musaStreamSynchronize(s));
  CHECK_MUSA(musaMemPoolDestroy(pool));
  CHECK_MUSA(musaMemPoolDestroy(plain));
  return finish("pool_sharing");
}
