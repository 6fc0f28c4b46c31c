// The graph layer alone: order, cycles, clones, DOT text and the executor.
#include "musa/graph/GraphExec.h"
#include "musa/graph/Update.h"

#include "StepWork.h"

#include <gtest/gtest.h>
#include <tbb/parallel_for.h>

#include <atomic>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

using namespace musa::graph;
using musa::graph::test::Log;
using musa::graph::test::Step;


TEST(Graph, DiamondRunsInDependencyOrderEveryLaunch) {
  Log log;
  Graph g;
  Node *a = g.add(NodeType::Kernel, std::make_unique<Step>(log, 0), {});
  Node *b = g.add(NodeType::Kernel, std::make_unique<Step>(log, 1), {a});
  Node *c = g.add(NodeType::Kernel, std::make_unique<Step>(log, 2), {a});
  g.add(NodeType::Kernel, std::make_unique<Step>(log, 3), {b, c});
  std::string error;
  auto exec = GraphExec::instantiate(g, error);
  ASSERT_TRUE(exec) << error;
  for (int launch = 0; launch < 3; ++launch) {
    log.order.clear();
    exec->run();
    ASSERT_EQ(log.order.size(), 4u);
    EXPECT_EQ(log.order.front(), 0);
    EXPECT_EQ(log.order.back(), 3);
  }
}

TEST(Graph, CyclesAreRefusedAndEdgesValidated) {
  Graph g;
  Node *a = g.add(NodeType::Empty, nullptr, {});
  Node *b = g.add(NodeType::Empty, nullptr, {a});
  EXPECT_FALSE(g.addEdge(a, b)); // exists
  EXPECT_FALSE(g.addEdge(a, a)); // self
  EXPECT_TRUE(g.addEdge(b, a));
  EXPECT_TRUE(g.topologicalOrder().empty());
  std::string error;
  EXPECT_FALSE(GraphExec::instantiate(g, error));
  EXPECT_NE(error.find("cycle"), std::string::npos);
  EXPECT_TRUE(g.removeEdge(b, a));
  EXPECT_FALSE(g.removeEdge(b, a));
  EXPECT_EQ(g.topologicalOrder().size(), 2u);
}

TEST(Graph, CloneCopiesStructureAndMapsNodes) {
  Log log;
  Graph g;
  Node *a = g.add(NodeType::Host, std::make_unique<Step>(log, 7), {});
  Node *b = g.add(NodeType::Empty, nullptr, {a});
  std::map<const Node *, Node *> map;
  auto copy = g.clone(&map);
  ASSERT_EQ(copy->nodes().size(), 2u);
  EXPECT_EQ(map[b]->dependencies.front(), map[a]);
  EXPECT_EQ(map[a]->original, a);
  EXPECT_FALSE(copy->owns(a));
  map[a]->work->run();
  EXPECT_EQ(log.order, std::vector<int>{7});
}

TEST(Graph, ChildGraphRunsItsNodesInOrder) {
  Log log;
  Graph child;
  Node *x = child.add(NodeType::Kernel, std::make_unique<Step>(log, 1), {});
  child.add(NodeType::Kernel, std::make_unique<Step>(log, 2), {x});
  Graph parent;
  Node *first = parent.add(NodeType::Kernel, std::make_unique<Step>(log, 0), {});
  parent.addChild(child, {first});
  std::string error;
  auto exec = GraphExec::instantiate(parent, error);
  ASSERT_TRUE(exec);
  exec->run();
  EXPECT_EQ(log.order, (std::vector<int>{0, 1, 2}));
}

TEST(Graph, DisabledNodesAreSkippedButOrderHolds) {
  Log log;
  Graph g;
  Node *a = g.add(NodeType::Kernel, std::make_unique<Step>(log, 0), {});
  Node *b = g.add(NodeType::Kernel, std::make_unique<Step>(log, 1), {a});
  g.add(NodeType::Kernel, std::make_unique<Step>(log, 2), {b});
  std::string error;
  auto exec = GraphExec::instantiate(g, error);
  exec->modifyNode(exec->copyOf(b), [](Node &n) { n.enabled = false; });
  exec->run();
  EXPECT_EQ(log.order, (std::vector<int>{0, 2}));
}

TEST(Graph, ALaunchRunsTheParametersItWasMadeWith) {
  Log log;
  Graph g;
  Node *a = g.add(NodeType::Kernel, std::make_unique<Step>(log, 0), {});
  Node *b = g.add(NodeType::Kernel, std::make_unique<Step>(log, 1), {a});
  std::string error;
  auto exec = GraphExec::instantiate(g, error);
  auto first = exec->snapshot();
  exec->modifyNode(exec->copyOf(a), [&](Node &n) { n.work = std::make_unique<Step>(log, 5); });
  exec->modifyNode(exec->copyOf(b), [](Node &n) { n.enabled = false; });
  auto second = exec->snapshot();
  exec->modifyNode(exec->copyOf(a), [&](Node &n) { n.work = std::make_unique<Step>(log, 7); });
  exec->run(*first);
  exec->run(*second);
  exec->run();
  EXPECT_EQ(log.order, (std::vector<int>{0, 1, 5, 7}));
}

TEST(Graph, UpdatesAfterALaunchAllReachTheNextOneAndNotIt) {
  Log log;
  Graph g;
  Node *a = g.add(NodeType::Kernel, std::make_unique<Step>(log, 0), {});
  Node *b = g.add(NodeType::Kernel, std::make_unique<Step>(log, 1), {a});
  std::string error;
  auto exec = GraphExec::instantiate(g, error);
  auto taken = exec->snapshot();
  // The first update copies the taken snapshot; the second edits that copy.
  exec->modifyNode(exec->copyOf(a), [](Node &n) { n.enabled = false; });
  exec->modifyNode(exec->copyOf(b), [&](Node &n) { n.work = std::make_unique<Step>(log, 3); });
  auto next = exec->snapshot();
  EXPECT_NE(taken.get(), next.get());
  EXPECT_TRUE(taken->steps[0].enabled);
  EXPECT_FALSE(next->steps[0].enabled);
  exec->run(*taken);
  exec->run(*next);
  EXPECT_EQ(log.order, (std::vector<int>{0, 1, 3}));
}

TEST(Graph, ReplacingAChildKeepsItsNodesReachable) {
  Log log;
  Graph child;
  child.add(NodeType::Kernel, std::make_unique<Step>(log, 1), {});
  Graph g;
  Node *node = g.addChild(child, {});
  std::string error;
  auto exec = GraphExec::instantiate(g, error);
  const Node *innerOriginal = node->child->nodes()[0].get();
  Graph next;
  next.add(NodeType::Kernel, std::make_unique<Step>(log, 2), {});
  exec->replaceChild(exec->copyOf(node), next);
  Node *innerCopy = exec->copyOf(innerOriginal);
  ASSERT_TRUE(innerCopy);
  EXPECT_EQ(innerCopy, exec->copyOf(node)->child->nodes()[0].get());
  exec->run();
  EXPECT_EQ(log.order, (std::vector<int>{2}));
}

TEST(Graph, DotNamesEveryNodeAndEdge) {
  Log log;
  Graph g;
  Node *a = g.add(NodeType::Kernel, std::make_unique<Step>(log, 5), {});
  g.add(NodeType::Memcpy, std::make_unique<Step>(log, 6), {a});
  std::string dot = g.dot(true);
  EXPECT_NE(dot.find("digraph"), std::string::npos);
  EXPECT_NE(dot.find("step 5"), std::string::npos);
  EXPECT_NE(dot.find("Memcpy"), std::string::npos);
  EXPECT_NE(dot.find("n0 -> n1"), std::string::npos);
}

namespace {
class Count final : public NodeWork {
public:
  explicit Count(std::atomic<int> &n) : n_(n) {}
  std::unique_ptr<NodeWork> clone() const override { return std::make_unique<Count>(n_); }
  void run() override { ++n_; }
  std::string label() const override { return "count"; }

private:
  std::atomic<int> &n_;
};
class Throw final : public NodeWork {
public:
  std::unique_ptr<NodeWork> clone() const override { return std::make_unique<Throw>(); }
  void run() override { throw std::runtime_error("node failed"); }
  std::string label() const override { return "throw"; }
};
} // namespace

TEST(Graph, TenThousandExecutableGraphsAllRun) {
  // Thousands of live executable graphs, made by a thread that has used oneTBB and launched
  // one after another from another thread, as a stream's worker does. (The runtime's case,
  // which hung with a flow graph per executable graph, is the e2e test graph_many.)
  constexpr int Graphs = 10000;
  std::atomic<int> ran{0};
  tbb::parallel_for(0, 4, [](int) {});
  std::vector<std::unique_ptr<GraphExec>> execs;
  for (int i = 0; i < Graphs; ++i) {
    Graph g;
    g.add(NodeType::Kernel, std::make_unique<Count>(ran), {});
    std::string error;
    execs.push_back(GraphExec::instantiate(g, error));
    ASSERT_TRUE(execs.back()) << error;
  }
  std::thread launcher([&] {
    for (auto &exec : execs)
      exec->run();
  });
  launcher.join();
  EXPECT_EQ(ran.load(), Graphs);
}

TEST(Graph, ANodeThatThrowsStillLetsTheLaunchEnd) {
  std::atomic<int> ran{0};
  Graph g;
  Node *a = g.add(NodeType::Kernel, std::make_unique<Throw>(), {});
  g.add(NodeType::Kernel, std::make_unique<Count>(ran), {a});
  g.add(NodeType::Kernel, std::make_unique<Count>(ran), {});
  std::string error;
  auto exec = GraphExec::instantiate(g, error);
  ASSERT_TRUE(exec) << error;
  EXPECT_THROW(exec->run(), std::runtime_error);
  EXPECT_EQ(ran.load(), 2); // the dependent of the failed node ran, and the other root
  EXPECT_THROW(exec->run(), std::runtime_error);
  EXPECT_EQ(ran.load(), 4);
}

namespace {
/// Work that refuses an update to work with another tag (as a kernel node refuses another
/// function).
class Tagged final : public NodeWork {
public:
  explicit Tagged(int tag) : tag_(tag) {}
  std::unique_ptr<NodeWork> clone() const override { return std::make_unique<Tagged>(tag_); }
  void run() override {}
  std::string label() const override { return "tag " + std::to_string(tag_); }
  UpdateResult updatableTo(const NodeWork &next) const override {
    return static_cast<const Tagged &>(next).tag_ == tag_ ? UpdateResult::Success
                                                         : UpdateResult::FunctionChanged;
  }
  int tag() const { return tag_; }

private:
  int tag_;
};

std::unique_ptr<Graph> chain(std::vector<std::pair<NodeType, int>> nodes) {
  auto g = std::make_unique<Graph>();
  Node *last = nullptr;
  for (auto [type, tag] : nodes) {
    std::vector<Node *> deps;
    if (last)
      deps.push_back(last);
    last = g->add(type, std::make_unique<Tagged>(tag), deps);
  }
  return g;
}
} // namespace

TEST(GraphUpdate, RulesNameTheFirstNodeThatDiffers) {
  auto now = chain({{NodeType::Kernel, 1}, {NodeType::Host, 2}});
  // Same shape, types and tags: success, and the work is taken.
  auto same = chain({{NodeType::Kernel, 1}, {NodeType::Host, 2}});
  EXPECT_EQ(checkUpdate(*now, *same).result, UpdateResult::Success);
  // Another node count.
  auto longer = chain({{NodeType::Kernel, 1}, {NodeType::Host, 2}, {NodeType::Empty, 0}});
  EXPECT_EQ(checkUpdate(*now, *longer).result, UpdateResult::TopologyChanged);
  // Another type at the second node: that node is named.
  auto retyped = chain({{NodeType::Kernel, 1}, {NodeType::Memset, 2}});
  UpdateCheck c = checkUpdate(*now, *retyped);
  EXPECT_EQ(c.result, UpdateResult::NodeTypeChanged);
  EXPECT_EQ(c.node, retyped->nodes()[1].get());
  // The work's own rule.
  auto refunctioned = chain({{NodeType::Kernel, 3}, {NodeType::Host, 2}});
  c = checkUpdate(*now, *refunctioned);
  EXPECT_EQ(c.result, UpdateResult::FunctionChanged);
  EXPECT_EQ(c.node, refunctioned->nodes()[0].get());
  // Same nodes, another edge: the dependency that differs is named.
  Graph rewired;
  Node *a = rewired.add(NodeType::Kernel, std::make_unique<Tagged>(1), {});
  Node *b = rewired.add(NodeType::Host, std::make_unique<Tagged>(2), {});
  Graph other;
  Node *x = other.add(NodeType::Kernel, std::make_unique<Tagged>(1), {});
  Node *y = other.add(NodeType::Host, std::make_unique<Tagged>(2), {});
  rewired.addEdge(a, b);
  other.addEdge(y, x);
  c = checkUpdate(rewired, other);
  EXPECT_EQ(c.result, UpdateResult::TopologyChanged);
  // Node types whose parameters cannot be updated.
  auto alloc = chain({{NodeType::MemAlloc, 0}});
  EXPECT_EQ(checkUpdate(*alloc, *chain({{NodeType::MemAlloc, 0}})).result,
            UpdateResult::NotSupported);
}

TEST(GraphUpdate, TakeWorkCopiesTheNewWork) {
  auto now = chain({{NodeType::Kernel, 1}, {NodeType::Kernel, 1}});
  auto next = chain({{NodeType::Kernel, 1}, {NodeType::Kernel, 1}});
  next->nodes()[1]->work = std::make_shared<Tagged>(5);
  takeWork(*now, *next);
  EXPECT_EQ(static_cast<Tagged &>(*now->nodes()[1]->work).tag(), 5);
  EXPECT_NE(now->nodes()[1]->work, next->nodes()[1]->work); // a copy, not shared
}

TEST(Graph, EdgeBatchesChangeAllOrNothing) {
  Graph g, other;
  Node *a = g.add(NodeType::Empty, nullptr, {});
  Node *b = g.add(NodeType::Empty, nullptr, {});
  Node *c = g.add(NodeType::Empty, nullptr, {});
  Node *stranger = other.add(NodeType::Empty, nullptr, {});
  EXPECT_FALSE(g.addEdges({{a, b}, {c, c}}));        // a self edge: nothing added
  EXPECT_FALSE(g.addEdges({{a, b}, {stranger, c}})); // a foreign node: nothing added
  EXPECT_TRUE(g.edges().empty());
  EXPECT_TRUE(g.addEdges({{a, b}, {b, c}}));
  EXPECT_FALSE(g.addEdges({{a, c}, {a, b}})); // a->b exists: a->c not added either
  EXPECT_EQ(g.edges().size(), 2u);
  EXPECT_FALSE(g.removeEdges({{b, c}, {a, c}})); // no a->c: b->c stays
  EXPECT_EQ(g.edges().size(), 2u);
  EXPECT_TRUE(g.removeEdges({{b, c}}));
  EXPECT_EQ(g.edges(), (std::vector<Graph::Edge>{{a, b}}));
  EXPECT_TRUE(g.validDependencies({a, c}));
  EXPECT_FALSE(g.validDependencies({a, a}));
  EXPECT_FALSE(g.validDependencies({stranger}));
  EXPECT_TRUE(g.validDependencies({}));
}
