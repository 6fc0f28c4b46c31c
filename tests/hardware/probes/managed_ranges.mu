// What musaMemRangeGetAttribute reads back after advice and prefetches on parts of a managed
// allocation (the checks of MemoryShapes.ManagedRangeAttributesReadBackAdvicePerPage), as the
// hardware answers; build as CUDA (musa -> cuda) and compare with the unit test.
#include <musa_runtime.h>

#include <cstdio>

static char *m;
static void show(const char *what, musaMemRangeAttribute which, size_t offset, size_t count) {
  int value = 12345;
  musaError_t e = musaMemRangeGetAttribute(&value, 4, which, m + offset, count);
  std::printf("%-44s %d (error %d)\n", what, value, int(e));
}

int main() {
  const size_t page = 4096, bytes = 8 * page;
  musaMallocManaged(&m, bytes);
  show("none read_mostly", musaMemRangeAttributeReadMostly, 0, bytes);
  show("none preferred", musaMemRangeAttributePreferredLocation, 0, bytes);
  show("none last_prefetch", musaMemRangeAttributeLastPrefetchLocation, 0, bytes);
  show("none preferred_type", musaMemRangeAttributePreferredLocationType, 0, bytes);
  show("none preferred_id", musaMemRangeAttributePreferredLocationId, 0, bytes);
  std::printf("advise read_mostly %d\n", int(musaMemAdvise(m + 10, page + 20, musaMemAdviseSetReadMostly, 0)));
  show("read_mostly pages 0-1", musaMemRangeAttributeReadMostly, 0, 2 * page);
  show("read_mostly pages 0-2", musaMemRangeAttributeReadMostly, 0, 3 * page);
  show("read_mostly page 7", musaMemRangeAttributeReadMostly, 7 * page, page);
  musaMemAdvise(m, 4 * page, musaMemAdviseSetPreferredLocation, 0);
  musaMemAdvise(m + 4 * page, 4 * page, musaMemAdviseSetPreferredLocation, musaCpuDeviceId);
  show("preferred pages 1-2 (device)", musaMemRangeAttributePreferredLocation, page, 2 * page);
  show("preferred_type page 0", musaMemRangeAttributePreferredLocationType, 0, page);
  show("preferred_id page 0", musaMemRangeAttributePreferredLocationId, 0, page);
  show("preferred page 5 (host)", musaMemRangeAttributePreferredLocation, 5 * page, page);
  show("preferred_type page 5", musaMemRangeAttributePreferredLocationType, 5 * page, page);
  show("preferred_id page 5", musaMemRangeAttributePreferredLocationId, 5 * page, page);
  show("preferred all (mixed)", musaMemRangeAttributePreferredLocation, 0, bytes);
  show("preferred_type all (mixed)", musaMemRangeAttributePreferredLocationType, 0, bytes);
  musaMemAdvise(m, page, musaMemAdviseUnsetPreferredLocation, 0);
  show("preferred page 0 after unset", musaMemRangeAttributePreferredLocation, 0, page);
  show("preferred page 1 after unset of 0", musaMemRangeAttributePreferredLocation, page, page);
  musaMemAdvise(m, bytes, musaMemAdviseSetAccessedBy, 0);
  musaMemAdvise(m, page, musaMemAdviseSetAccessedBy, musaCpuDeviceId);
  int ids[3] = {7, 7, 7};
  musaError_t e = musaMemRangeGetAttribute(ids, sizeof ids, musaMemRangeAttributeAccessedBy, m, page);
  std::printf("accessed_by page 0: %d %d %d (error %d)\n", ids[0], ids[1], ids[2], int(e));
  e = musaMemRangeGetAttribute(ids, sizeof ids, musaMemRangeAttributeAccessedBy, m, bytes);
  std::printf("accessed_by all: %d %d %d (error %d)\n", ids[0], ids[1], ids[2], int(e));
  musaMemPrefetchAsync(m, 2 * page, 0, 0);
  musaMemPrefetchAsync(m + page, page, musaCpuDeviceId, 0);
  show("last_prefetch page 0", musaMemRangeAttributeLastPrefetchLocation, 0, page);
  show("last_prefetch page 1", musaMemRangeAttributeLastPrefetchLocation, page, page);
  show("last_prefetch pages 0-1", musaMemRangeAttributeLastPrefetchLocation, 0, 2 * page);
  show("last_prefetch_type page 1", musaMemRangeAttributeLastPrefetchLocationType, page, page);
  show("last_prefetch_id page 1", musaMemRangeAttributeLastPrefetchLocationId, page, page);
  musaDeviceSynchronize();
  int value = 0;
  std::printf("size 8: %d\n", int(musaMemRangeGetAttribute(&value, 8, musaMemRangeAttributeReadMostly, m, page)));
  std::printf("list size 6: %d\n", int(musaMemRangeGetAttribute(ids, 6, musaMemRangeAttributeAccessedBy, m, page)));
  std::printf("null data: %d\n", int(musaMemRangeGetAttribute(nullptr, 4, musaMemRangeAttributeReadMostly, m, page)));
  std::printf("attribute 42: %d\n", int(musaMemRangeGetAttribute(&value, 4, musaMemRangeAttribute(42), m, page)));
  std::printf("past the end: %d\n", int(musaMemRangeGetAttribute(&value, 4, musaMemRangeAttributeReadMostly, m, bytes + 1)));
  std::printf("count 0: %d\n", int(musaMemRangeGetAttribute(&value, 4, musaMemRangeAttributeReadMostly, m, 0)));
  int *plain;
  musaMalloc(&plain, 64);
  std::printf("plain memory: %d\n", int(musaMemRangeGetAttribute(&value, 4, musaMemRangeAttributeReadMostly, plain, 64)));
  musaFree(m);
  std::printf("freed: %d\n", int(musaMemRangeGetAttribute(&value, 4, musaMemRangeAttributeReadMostly, m, page)));
  char *again;
  musaMallocManaged(&again, bytes);
  value = 9;
  e = musaMemRangeGetAttribute(&value, 4, musaMemRangeAttributeReadMostly, again, page);
  std::printf("new allocation read_mostly %d (error %d, same address %d)\n", value, int(e), int(again == m));
  return 0;
}
