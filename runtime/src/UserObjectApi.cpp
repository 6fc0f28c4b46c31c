// User objects: a pointer and a destructor with a reference count that the program and graphs
// hold. The destructor runs once, on the thread that drops the last reference (a release call,
// or the destruction of the last graph or executable graph holding one); CUDA runs it on a
// thread of its own, and in both a destructor may not call the runtime.
//
// A graph's references are a token (graph::Graph::ownedReferences) holding that many
// references: clones and instantiations share the token, so an executable graph keeps its
// references after the graph is destroyed, and a graph that retains or releases more takes a
// new token with its new count.
#include "GraphTables.h"
#include "backend/Backend.h"

#include <mutex>
#include <set>

using namespace musa::rt;
using namespace musa::rt::graphs;

struct musaUserObject {
  void *ptr = nullptr;
  musaHostFn_t destroy = nullptr;
  unsigned long long references = 0; // guarded by UserObjects::mutex
};

namespace {

struct UserObjects {
  std::mutex mutex;
  std::set<const musaUserObject *> live;
  static UserObjects &get() {
    static UserObjects *table = new UserObjects; // used by exit-time destructors: never freed
    return *table;
  }

  /// Takes `n` more references; false (nothing taken) for an object that is gone. One lock
  /// for the check and the count, so a concurrent last release cannot come between them.
  bool retain(musaUserObject *o, unsigned long long n) {
    std::lock_guard lock(mutex);
    if (!live.count(o))
      return false;
    o->references += n;
    return true;
  }
  /// Drops `n` references; the last runs the destructor (outside the lock). False if the
  /// object holds fewer.
  bool release(musaUserObject *o, unsigned long long n) {
    {
      std::lock_guard lock(mutex);
      if (!live.count(o) || o->references < n)
        return false;
      o->references -= n;
      if (o->references)
        return true;
      live.erase(o);
    }
    o->destroy(o->ptr);
    delete o;
    return true;
  }
};

/// `count` references held by one or more graphs sharing the token.
struct GraphReferences {
  musaUserObject *object;
  unsigned long long count;
  GraphReferences(musaUserObject *o, unsigned long long n) : object(o), count(n) {}
  ~GraphReferences() { UserObjects::get().release(object, count); }
  GraphReferences(const GraphReferences &) = delete;
  GraphReferences &operator=(const GraphReferences &) = delete;
};

/// The graph's own count of `o`'s references becomes `count` (0: none): a new token, whose
/// references are taken here; the old token's go when no clone shares it any more.
/// False (nothing changed) if the object is gone.
bool setGraphReferences(musa::graph::Graph &g, musaUserObject *o, unsigned long long count) {
  if (count == 0) {
    g.ownedReferences.erase(o);
    return true;
  }
  if (!UserObjects::get().retain(o, count))
    return false;
  g.ownedReferences[o] = std::make_shared<GraphReferences>(o, count);
  return true;
}

unsigned long long graphReferences(const musa::graph::Graph &g, const musaUserObject *o) {
  auto it = g.ownedReferences.find(o);
  return it == g.ownedReferences.end()
             ? 0
             : static_cast<const GraphReferences *>(it->second.get())->count;
}

} // namespace

extern "C" {

musaError_t musaUserObjectCreate(musaUserObject_t *out, void *ptr, musaHostFn_t destroy,
                                 unsigned int initialRefcount, unsigned int flags) {
  MUSA_BACKEND_HOOK(musaUserObjectCreate, out, ptr, destroy, initialRefcount, flags);
  return apiCall([&] {
    // CUDA requires the flag: destructors are never waited for by synchronisation.
    if (!out || !destroy || initialRefcount == 0 || flags != musaUserObjectNoDestructorSync)
      return musaErrorInvalidValue;
    auto *o = new musaUserObject{ptr, destroy, initialRefcount};
    UserObjects &table = UserObjects::get();
    std::lock_guard lock(table.mutex);
    table.live.insert(o);
    *out = o;
    return musaSuccess;
  });
}

musaError_t musaUserObjectRetain(musaUserObject_t object, unsigned int count) {
  MUSA_BACKEND_HOOK(musaUserObjectRetain, object, count);
  return apiCall([&] {
    if (count == 0 || !UserObjects::get().retain(object, count))
      return musaErrorInvalidValue;
    return musaSuccess;
  });
}

musaError_t musaUserObjectRelease(musaUserObject_t object, unsigned int count) {
  MUSA_BACKEND_HOOK(musaUserObjectRelease, object, count);
  return apiCall([&] {
    if (count == 0 || !UserObjects::get().release(object, count))
      return musaErrorInvalidValue;
    return musaSuccess;
  });
}

musaError_t musaGraphRetainUserObject(musaGraph_t graph, musaUserObject_t object,
                                      unsigned int count, unsigned int flags) {
  MUSA_BACKEND_HOOK(musaGraphRetainUserObject, graph, object, count, flags);
  return apiCall([&] {
    musa::graph::Graph *g = findGraph(graph);
    if (!g || count == 0 || (flags & ~unsigned(musaGraphUserObjectMove)) ||
        !setGraphReferences(*g, object, graphReferences(*g, object) + count))
      return musaErrorInvalidValue;
    // Move: the caller's references pass to the graph (taken above, so dropped here).
    if (flags & musaGraphUserObjectMove)
      UserObjects::get().release(object, count);
    return musaSuccess;
  });
}

musaError_t musaGraphReleaseUserObject(musaGraph_t graph, musaUserObject_t object,
                                       unsigned int count) {
  MUSA_BACKEND_HOOK(musaGraphReleaseUserObject, graph, object, count);
  return apiCall([&] {
    musa::graph::Graph *g = findGraph(graph);
    if (!g || count == 0)
      return musaErrorInvalidValue;
    unsigned long long held = graphReferences(*g, object);
    if (held < count)
      return musaErrorInvalidValue;
    setGraphReferences(*g, object, held - count);
    return musaSuccess;
  });
}

} // extern "C"
