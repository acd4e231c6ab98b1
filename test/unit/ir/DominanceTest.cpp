#include "kaji/ir/Dominance.h"
#include "kaji/ir/Builder.h"

#include <gtest/gtest.h>

using namespace kaji::ir;

namespace {

// ^bb0 .. ^bb(n-1) each branch on to the next or to `exit`, as an `and` chain's blocks do:
// `exit` has n predecessors along one long idom chain.
struct Chain {
  Function function{"k", Function::Kind::Kernel, {Type::scalar(ScalarKind::Bool)}, Type(), {}};
  std::vector<Block *> links;
  Block *exit = nullptr;

  explicit Chain(size_t n) {
    links.push_back(function.entry());
    for (size_t i = 1; i < n; ++i)
      links.push_back(function.addBlock());
    exit = function.addBlock();
    Value *cond = function.entry()->argument(0);
    Builder builder;
    for (size_t i = 0; i < n; ++i) {
      builder.setBlock(links[i]);
      builder.condBr(cond, i + 1 < n ? links[i + 1] : exit, {}, exit, {});
    }
    builder.setBlock(exit);
    builder.ret();
  }
};

} // namespace

TEST(Dominance, BlockReachedFromEveryLinkOfALongChainIsDominatedByTheEntryOnly) {
  Chain chain(50000);
  DominatorTree dominance(chain.function);
  EXPECT_TRUE(dominance.dominates(chain.links[0], chain.exit));
  EXPECT_FALSE(dominance.dominates(chain.links[1], chain.exit));
  EXPECT_TRUE(dominance.dominates(chain.links[10], chain.links[40000]));
  EXPECT_FALSE(dominance.dominates(chain.links[40000], chain.links[10]));
  EXPECT_TRUE(dominance.dominates(chain.links.back(), chain.links.back()));
  EXPECT_EQ(dominance.children(chain.links[0]).size(), 2u);
  EXPECT_EQ(dominance.children(chain.links[1]).size(), 1u);
  EXPECT_EQ(dominance.reversePostOrder().size(), 50001u);
}

TEST(Dominance, JoinOfTwoPathsIsDominatedByTheirFork) {
  Function function("k", Function::Kind::Kernel, {Type::scalar(ScalarKind::Bool)}, Type(), {});
  Block *entry = function.entry();
  Block *left = function.addBlock(), *right = function.addBlock();
  Block *join = function.addBlock(), *dead = function.addBlock();
  Builder builder(entry);
  builder.condBr(entry->argument(0), left, {}, right, {});
  builder.setBlock(left);
  builder.br(join);
  builder.setBlock(right);
  builder.condBr(entry->argument(0), join, {}, left, {});
  builder.setBlock(join);
  builder.ret();
  builder.setBlock(dead);
  builder.br(join);
  DominatorTree dominance(function);
  EXPECT_TRUE(dominance.dominates(entry, join));
  EXPECT_FALSE(dominance.dominates(left, join));
  EXPECT_FALSE(dominance.dominates(right, join));
  EXPECT_FALSE(dominance.dominates(right, left));
  EXPECT_FALSE(dominance.isReachable(dead));
  EXPECT_TRUE(dominance.dominates(join, dead)); // unreachable blocks: dominated by all
}
