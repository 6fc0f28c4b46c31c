// Stream capture's graph side: how a capturing stream's tail moves, and the join rule.
#include "musa/graph/Capture.h"

#include "StepWork.h"

#include <gtest/gtest.h>

using namespace musa::graph;
using musa::graph::test::Log;
using musa::graph::test::Step;

TEST(CaptureTail, EachCapturedOperationFollowsTheTailAndBecomesIt) {
  Log log;
  Graph g;
  CaptureTail tail;
  Node *a = tail.append(g, NodeType::Kernel, std::make_unique<Step>(log, 1));
  Node *b = tail.append(g, NodeType::Kernel, std::make_unique<Step>(log, 2));
  EXPECT_TRUE(a->dependencies.empty());
  EXPECT_EQ(b->dependencies, std::vector<Node *>{a});
  EXPECT_EQ(tail.nodes(), std::vector<Node *>{b});
}

TEST(CaptureTail, ForkAndJoinThroughMergedTails) {
  // Origin: A; a second stream waits on an event recorded after A (fork) and runs B; the origin
  // runs C, then waits on an event recorded after B (join) and runs D: 4 nodes, 4 edges.
  Log log;
  Graph g;
  CaptureTail origin, other;
  Node *a = origin.append(g, NodeType::Kernel, std::make_unique<Step>(log, 1));
  other.merge(origin.nodes());
  Node *b = other.append(g, NodeType::Kernel, std::make_unique<Step>(log, 2));
  Node *c = origin.append(g, NodeType::Kernel, std::make_unique<Step>(log, 3));
  EXPECT_FALSE(joinedBack(origin.nodes(), other.nodes())); // B not joined yet
  origin.merge(other.nodes());
  origin.merge(other.nodes()); // waiting twice adds nothing
  EXPECT_EQ(origin.nodes(), (std::vector<Node *>{c, b}));
  Node *d = origin.append(g, NodeType::Kernel, std::make_unique<Step>(log, 4));
  EXPECT_EQ(g.nodes().size(), 4u);
  EXPECT_EQ(g.edges().size(), 4u);
  EXPECT_EQ(d->dependencies, (std::vector<Node *>{c, b}));
  EXPECT_TRUE(joinedBack(origin.nodes(), other.nodes()));
  EXPECT_TRUE(joinedBack(origin.nodes(), {a})); // an ancestor counts as joined
}

TEST(CaptureTail, UpdatesAddOrReplaceAndRefuseForeignNodes) {
  Log log;
  Graph g, foreign;
  CaptureTail tail;
  Node *a = tail.append(g, NodeType::Kernel, std::make_unique<Step>(log, 1));
  Node *b = g.add(NodeType::Empty, nullptr, {});
  Node *stranger = foreign.add(NodeType::Empty, nullptr, {});
  EXPECT_TRUE(tail.update(g, {b, a}, false));
  EXPECT_EQ(tail.nodes(), (std::vector<Node *>{a, b}));
  EXPECT_FALSE(tail.update(g, {stranger}, true));
  EXPECT_EQ(tail.nodes(), (std::vector<Node *>{a, b})); // unchanged
  EXPECT_TRUE(tail.update(g, {b}, true));
  EXPECT_EQ(tail.nodes(), std::vector<Node *>{b});
  EXPECT_TRUE(tail.update(g, {}, true));
  EXPECT_TRUE(tail.nodes().empty());
}
