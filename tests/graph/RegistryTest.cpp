// The graph layer's handle registry and conditional nodes, without the runtime.
#include "musa/graph/Conditional.h"
#include "musa/graph/Registry.h"

#include "StepWork.h"

#include <gtest/gtest.h>

using namespace musa::graph;
using musa::graph::test::Log;
using musa::graph::test::Step;

TEST(Registry, HandlesNameOnlyLiveGraphsAndTheirNodes) {
  Registry &r = Registry::get();
  Log log;
  Graph *g = r.adopt(std::make_unique<Graph>());
  Node *a = g->add(NodeType::Kernel, std::make_unique<Step>(log, 1), {});
  Graph body;
  body.add(NodeType::Empty, nullptr, {});
  Node *child = g->addChild(body, {a});
  EXPECT_EQ(r.find(g), g);
  EXPECT_EQ(r.findNode(a), a);
  // A child node's embedded graph can be looked up, not destroyed; its nodes are not nodes of
  // a live top-level graph.
  EXPECT_EQ(r.find(child->child.get()), child->child.get());
  EXPECT_EQ(r.destroy(child->child.get()), Registry::DestroyResult::Unknown);
  EXPECT_EQ(r.findNode(child->child->nodes().front().get()), nullptr);
  int unrelated = 0;
  EXPECT_EQ(r.find(&unrelated), nullptr);
  EXPECT_EQ(r.findNode(&unrelated), nullptr);
  EXPECT_EQ(r.destroy(g), Registry::DestroyResult::Destroyed);
  EXPECT_EQ(r.find(g), nullptr);
  EXPECT_EQ(r.findNode(a), nullptr);
  EXPECT_EQ(r.destroy(g), Registry::DestroyResult::Unknown);
}

TEST(Registry, AGraphStreamsCaptureIntoCannotBeDestroyed) {
  Registry &r = Registry::get();
  Graph *g = r.adopt(std::make_unique<Graph>());
  r.setCapturing(g, true);
  r.setCapturing(g, true); // a second stream joined the capture
  EXPECT_EQ(r.destroy(g), Registry::DestroyResult::Capturing);
  r.setCapturing(g, false);
  EXPECT_EQ(r.destroy(g), Registry::DestroyResult::Capturing);
  r.setCapturing(g, false);
  EXPECT_EQ(r.destroy(g), Registry::DestroyResult::Destroyed);
}

TEST(Registry, ConditionsBelongToTheirGraphAndGoWithIt) {
  Registry &r = Registry::get();
  Graph *g = r.adopt(std::make_unique<Graph>());
  Graph *other = r.adopt(std::make_unique<Graph>());
  auto cell = std::make_shared<ConditionCell>();
  r.addCondition(g, cell);
  EXPECT_EQ(r.findCondition(g, &cell->value), cell);
  EXPECT_EQ(r.findCondition(other, &cell->value), nullptr);
  EXPECT_EQ(r.findCondition(g, cell.get() + 1), nullptr);
  ASSERT_EQ(r.destroy(g), Registry::DestroyResult::Destroyed);
  EXPECT_EQ(r.findCondition(g, &cell->value), nullptr);
  EXPECT_EQ(cell.use_count(), 1);
  r.destroy(other);
}

TEST(Registry, ExecutableGraphsKeepTheirFlagsUntilDestroyed) {
  Registry &r = Registry::get();
  Log log;
  Graph g;
  g.add(NodeType::Kernel, std::make_unique<Step>(log, 7), {});
  std::string error;
  std::shared_ptr<GraphExec> exec = GraphExec::instantiate(g, error);
  ASSERT_TRUE(exec) << error;
  GraphExec *handle = r.adoptExec(exec, 5);
  EXPECT_EQ(r.findExec(handle), exec);
  EXPECT_EQ(r.execFlags(handle), 5u);
  EXPECT_TRUE(r.destroyExec(handle));
  EXPECT_EQ(r.findExec(handle), nullptr);
  EXPECT_FALSE(r.destroyExec(handle));
  exec->run(*exec->snapshot()); // a holder's reference still runs
  EXPECT_EQ(log.order, std::vector<int>{7});
}

namespace {
/// A conditional node with `bodies` bodies, body i holding one Step with id i.
std::unique_ptr<ConditionalWork> conditional(ConditionalType type, int bodies, Log &log,
                                             std::shared_ptr<ConditionCell> cell,
                                             std::vector<std::unique_ptr<Graph>> &owned) {
  std::vector<Graph *> raw;
  for (int i = 0; i < bodies; ++i) {
    owned.push_back(std::make_unique<Graph>());
    owned.back()->add(NodeType::Kernel, std::make_unique<Step>(log, i), {});
    raw.push_back(owned.back().get());
  }
  return std::make_unique<ConditionalWork>(std::move(cell), type, raw, nullptr);
}

/// Decrements the condition each time it runs (a WHILE body counting down).
class CountDown final : public NodeWork {
public:
  explicit CountDown(std::shared_ptr<ConditionCell> cell) : cell_(std::move(cell)) {}
  std::unique_ptr<NodeWork> clone() const override { return std::make_unique<CountDown>(cell_); }
  void run() override { --cell_->value; }
  std::string label() const override { return "count down"; }

private:
  std::shared_ptr<ConditionCell> cell_;
};
} // namespace

TEST(Conditional, BodyCountsFollowCuda) {
  EXPECT_TRUE(validBodyCount(ConditionalType::If, 1));
  EXPECT_TRUE(validBodyCount(ConditionalType::If, 2));
  EXPECT_FALSE(validBodyCount(ConditionalType::If, 3));
  EXPECT_FALSE(validBodyCount(ConditionalType::While, 2));
  EXPECT_FALSE(validBodyCount(ConditionalType::Switch, 0));
  EXPECT_TRUE(validBodyCount(ConditionalType::Switch, 5));
}

TEST(Conditional, IfRunsItsElseBodyWhenZeroAndSwitchPicksByValue) {
  Log log;
  std::vector<std::unique_ptr<Graph>> owned;
  auto cell = std::make_shared<ConditionCell>();
  auto ifElse = conditional(ConditionalType::If, 2, log, cell, owned);
  auto sw = conditional(ConditionalType::Switch, 3, log, cell, owned);
  ifElse->run(); // 0: the ELSE body
  cell->value = 9;
  ifElse->run(); // non-zero: the first body
  sw->run();     // 9: no such body
  cell->value = 2;
  sw->run();
  EXPECT_EQ(log.order, (std::vector<int>{1, 0, 2}));
}

TEST(Conditional, WhileLoopsAndDefaultsResetBeforeEachLaunch) {
  auto cell = std::make_shared<ConditionCell>();
  cell->defaultValue = 3;
  cell->assignDefault = true;
  Graph body;
  body.add(NodeType::Host, std::make_unique<CountDown>(cell), {});
  ConditionalWork loop(cell, ConditionalType::While, {&body}, nullptr);
  loop.beforeLaunch();
  EXPECT_EQ(cell->value, 3u);
  loop.run();
  EXPECT_EQ(cell->value, 0u);
  loop.beforeLaunch();
  EXPECT_EQ(cell->value, 3u);
}

TEST(Conditional, AClonedNodeKeepsTheBodiesAsTheyWereAndTheOriginalReleasesThem) {
  Log log;
  std::vector<std::unique_ptr<Graph>> owned;
  auto cell = std::make_shared<ConditionCell>();
  cell->value = 1;
  auto original = conditional(ConditionalType::If, 1, log, cell, owned);
  std::unique_ptr<NodeWork> copy = original->clone();
  owned[0]->add(NodeType::Kernel, std::make_unique<Step>(log, 5), {}); // after the clone
  copy->run();
  EXPECT_EQ(log.order, std::vector<int>{0});
  bool released = false;
  {
    ConditionalWork withRelease(cell, ConditionalType::If, {owned[0].get()},
                                [&] { released = true; });
    EXPECT_EQ(withRelease.label(), "conditional IF");
  }
  EXPECT_TRUE(released);
}

TEST(Conditional, AWhileLoopWhoseBodyFaultedStops) {
  // The body never changes the condition (its kernel faulted): the loop ends when the launch
  // is cancelled instead of spinning forever.
  Log log;
  std::vector<std::unique_ptr<Graph>> owned;
  auto cell = std::make_shared<ConditionCell>();
  cell->value = 1;
  int polls = 0;
  owned.push_back(std::make_unique<Graph>());
  owned.back()->add(NodeType::Kernel, std::make_unique<Step>(log, 4), {});
  ConditionalWork loop(cell, ConditionalType::While, {owned.back().get()}, nullptr,
                       [&] { return ++polls > 3; });
  std::unique_ptr<NodeWork> instantiated = loop.clone();
  instantiated->run();
  EXPECT_EQ(log.order, (std::vector<int>{4, 4, 4}));
}
