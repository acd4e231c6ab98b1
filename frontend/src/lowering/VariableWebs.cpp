#include "VariableWebs.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace kaji::frontend {
namespace {

// Calls `visit` on every name `expr` reads, with a stack of its own (forEachChild).
void forEachName(const Expr &expr, const std::function<void(const NameExpr &)> &visit) {
  std::vector<const Expr *> pending{&expr};
  while (!pending.empty()) {
    const Expr *e = pending.back();
    pending.pop_back();
    if (const auto *name = e->as<NameExpr>())
      visit(*name);
    else
      forEachChild(*e, [&](const Expr &child) { pending.push_back(&child); });
  }
}

// Reaching definitions over the statements of one function, joining into one web the
// definitions that reach a use together.
class WebBuilder {
public:
  explicit WebBuilder(const FunctionDefStmt &function) {
    std::optional<State> state = State{};
    for (const Parameter &param : function.params)
      (*state)[param.name] = {newDefinition(param.name, nullptr)};
    walk(function.body, state);
  }

  VariableWebs names() {
    std::map<std::string, std::vector<unsigned>> websByVariable; // in definition order
    for (unsigned d = 0; d < definitions_.size(); ++d) {
      std::vector<unsigned> &webs = websByVariable[definitions_[d].variable];
      if (std::find(webs.begin(), webs.end(), find(d)) == webs.end())
        webs.push_back(find(d));
    }
    std::unordered_map<unsigned, std::string> webName;
    for (const auto &[variable, webs] : websByVariable) {
      if (webs.size() < 2 || keptWhole_.count(variable))
        continue;
      for (size_t i = 1; i < webs.size(); ++i)
        webName[webs[i]] = variable + "." + std::to_string(i);
    }
    VariableWebs renamed;
    auto name = [&](const NameExpr *expr, unsigned definition) {
      if (auto it = webName.find(find(definition)); it != webName.end())
        renamed[expr] = it->second;
    };
    for (unsigned d = 0; d < definitions_.size(); ++d)
      if (definitions_[d].target)
        name(definitions_[d].target, d);
    for (const auto &[expr, definition] : reachingDefinition_)
      name(expr, definition);
    return renamed;
  }

private:
  // The definitions of each variable that may reach a point; none where it is unreachable.
  using State = std::map<std::string, std::vector<unsigned>, std::less<>>;
  struct Definition {
    std::string variable;
    const NameExpr *target; // null for a parameter
  };
  struct Loop {
    std::optional<State> continues, breaks;
  };

  unsigned newDefinition(const std::string &variable, const NameExpr *target) {
    definitions_.push_back({variable, target});
    parent_.push_back(unsigned(parent_.size()));
    return unsigned(definitions_.size() - 1);
  }

  unsigned find(unsigned d) {
    while (parent_[d] != d)
      d = parent_[d] = parent_[parent_[d]];
    return d;
  }
  void join(unsigned a, unsigned b) {
    a = find(a);
    b = find(b);
    if (a != b)
      parent_[std::max(a, b)] = std::min(a, b);
  }

  static void merge(std::optional<State> &into, const std::optional<State> &from) {
    if (!from)
      return;
    if (!into) {
      into = from;
      return;
    }
    for (const auto &[variable, definitions] : *from) {
      std::vector<unsigned> &mine = (*into)[variable];
      std::vector<unsigned> both;
      std::set_union(mine.begin(), mine.end(), definitions.begin(), definitions.end(),
                     std::back_inserter(both));
      mine = std::move(both);
    }
  }

  void read(const Expr *expr, const std::optional<State> &state) {
    if (!expr || !state)
      return;
    forEachName(*expr, [&](const NameExpr &name) { readName(name, *state); });
  }
  void readName(const NameExpr &name, const State &state) {
    auto it = state.find(name.id);
    if (it == state.end() || it->second.empty())
      return;
    for (unsigned d : it->second)
      join(it->second.front(), d);
    reachingDefinition_[&name] = it->second.front();
  }

  // A name bound by an assignment, a loop or an augmented assignment (which also reads it).
  void define(const NameExpr &name, std::optional<State> &state) {
    auto [it, fresh] = definitionAt_.try_emplace(&name, 0);
    if (fresh)
      it->second = newDefinition(name.id, &name);
    if (state)
      (*state)[name.id] = {it->second};
  }

  void assignTo(const Expr *target, std::optional<State> &state) {
    switch (target->kind) {
    case ExprKind::Name:
      define(*target->as<NameExpr>(), state);
      break;
    case ExprKind::Tuple:
      for (const ExprPtr &element : target->as<TupleExpr>()->elts)
        assignTo(element.get(), state);
      break;
    case ExprKind::List:
      for (const ExprPtr &element : target->as<ListExpr>()->elts)
        assignTo(element.get(), state);
      break;
    case ExprKind::Starred:
      assignTo(target->as<StarredExpr>()->value.get(), state);
      break;
    default: // a[i] = ..., a.x = ...: reads a and i
      read(target, state);
      break;
    }
  }

  void walk(const Body &body, std::optional<State> &state) {
    for (const StmtPtr &stmt : body)
      walk(*stmt, state);
  }

  // A loop: `enter` at the top of each trip (a while's test, a for's target), then `body`,
  // run until the definitions reaching the head settle; then `orelse` from the head.
  template <class Enter>
  void walkLoop(std::optional<State> &state, Enter enter, const Body &body, const Body &orelse) {
    std::optional<State> head = state;
    Loop exits;
    while (true) {
      loops_.emplace_back();
      std::optional<State> trip = head;
      enter(trip);
      walk(body, trip);
      exits = std::move(loops_.back());
      loops_.pop_back();
      std::optional<State> next = head;
      merge(next, trip);
      merge(next, exits.continues);
      if (next == head)
        break;
      head = std::move(next);
    }
    walk(orelse, head);
    merge(head, exits.breaks);
    state = std::move(head);
  }

  void walk(const Stmt &stmt, std::optional<State> &state) {
    switch (stmt.kind) {
    case StmtKind::Assign: {
      auto &assign = *stmt.as<AssignStmt>();
      read(assign.value.get(), state);
      for (const ExprPtr &target : assign.targets)
        assignTo(target.get(), state);
      break;
    }
    case StmtKind::AugAssign: {
      auto &assign = *stmt.as<AugAssignStmt>();
      read(assign.value.get(), state);
      if (auto *name = assign.target->as<NameExpr>()) {
        // One name both reads and writes: the definition joins the web it reads.
        std::vector<unsigned> reaching;
        if (state && state->count(name->id))
          reaching = state->at(name->id);
        read(name, state);
        define(*name, state);
        for (unsigned d : reaching)
          join(d, definitionAt_.at(name));
      } else {
        read(assign.target.get(), state);
      }
      break;
    }
    case StmtKind::AnnAssign: {
      auto &assign = *stmt.as<AnnAssignStmt>();
      read(assign.value.get(), state);
      if (auto *name = assign.target->as<NameExpr>())
        keptWhole_.insert(name->id);
      assignTo(assign.target.get(), state);
      break;
    }
    case StmtKind::If: {
      auto &ifStmt = *stmt.as<IfStmt>();
      read(ifStmt.test.get(), state);
      std::optional<State> orelse = state;
      walk(ifStmt.body, state);
      walk(ifStmt.orelse, orelse);
      merge(state, orelse);
      break;
    }
    case StmtKind::While: {
      auto &loop = *stmt.as<WhileStmt>();
      walkLoop(
          state, [&](const std::optional<State> &trip) { read(loop.test.get(), trip); }, loop.body,
          loop.orelse);
      break;
    }
    case StmtKind::For: {
      auto &loop = *stmt.as<ForStmt>();
      read(loop.iter.get(), state);
      walkLoop(
          state, [&](std::optional<State> &trip) { assignTo(loop.target.get(), trip); }, loop.body,
          loop.orelse);
      break;
    }
    case StmtKind::Break:
      if (!loops_.empty())
        merge(loops_.back().breaks, state);
      state.reset();
      break;
    case StmtKind::Continue:
      if (!loops_.empty())
        merge(loops_.back().continues, state);
      state.reset();
      break;
    case StmtKind::Return:
      read(stmt.as<ReturnStmt>()->value.get(), state);
      state.reset();
      break;
    case StmtKind::Raise:
      read(stmt.as<RaiseStmt>()->exception.get(), state);
      state.reset();
      break;
    case StmtKind::Assert:
      read(stmt.as<AssertStmt>()->test.get(), state);
      read(stmt.as<AssertStmt>()->message.get(), state);
      break;
    case StmtKind::ExprStmt:
      read(stmt.as<ExprStmt>()->value.get(), state);
      break;
    case StmtKind::Import: // compile-time names, not variables
    case StmtKind::ImportFrom:
    case StmtKind::FunctionDef: // an error in kernels
    case StmtKind::Pass:
      break;
    }
  }

  std::vector<Definition> definitions_;
  std::vector<unsigned> parent_; // union-find over definitions: their webs
  std::unordered_map<const NameExpr *, unsigned> definitionAt_;
  std::unordered_map<const NameExpr *, unsigned> reachingDefinition_; // a read: one it sees
  std::set<std::string> keptWhole_;
  std::vector<Loop> loops_;
};

} // namespace

VariableWebs findVariableWebs(const FunctionDefStmt &function) {
  return WebBuilder(function).names();
}

std::string_view sourceVariableName(std::string_view variable) {
  return variable.substr(0, variable.find('.'));
}

} // namespace kaji::frontend
