#include "musa/graph/Conditional.h"

namespace musa::graph {

bool validBodyCount(ConditionalType type, unsigned bodies) {
  switch (type) {
  case ConditionalType::If:
    return bodies == 1 || bodies == 2;
  case ConditionalType::While:
    return bodies == 1;
  case ConditionalType::Switch:
    return bodies >= 1;
  }
  return false;
}

ConditionalWork::ConditionalWork(std::shared_ptr<ConditionCell> cell, ConditionalType type,
                                 std::vector<Graph *> bodies,
                                 std::function<void()> releaseBodies,
                                 std::function<bool()> cancelled)
    : cell_(std::move(cell)), type_(type), bodies_(std::move(bodies)),
      releaseBodies_(std::move(releaseBodies)), cancelled_(std::move(cancelled)) {}

ConditionalWork::~ConditionalWork() {
  if (releaseBodies_)
    releaseBodies_();
}

std::unique_ptr<NodeWork> ConditionalWork::clone() const {
  auto copy = std::make_unique<ConditionalWork>(cell_, type_, std::vector<Graph *>(), nullptr,
                                                cancelled_);
  for (size_t i = 0; i < size(); ++i)
    copy->frozen_.push_back(body(i).clone());
  return copy;
}

void ConditionalWork::beforeLaunch() {
  if (cell_->assignDefault)
    cell_->value = cell_->defaultValue;
}

void ConditionalWork::run() {
  unsigned value = cell_->value.load();
  switch (type_) {
  case ConditionalType::While:
    for (; value && !(cancelled_ && cancelled_()); value = cell_->value.load())
      body(0).runInline();
    return;
  case ConditionalType::Switch:
    if (value < size())
      body(value).runInline();
    return;
  case ConditionalType::If:
    if (value)
      body(0).runInline();
    else if (size() == 2)
      body(1).runInline();
    return;
  }
}

std::string ConditionalWork::label() const {
  return type_ == ConditionalType::While    ? "conditional WHILE"
         : type_ == ConditionalType::Switch ? "conditional SWITCH"
                                            : "conditional IF";
}

} // namespace musa::graph
