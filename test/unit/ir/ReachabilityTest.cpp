// Which functions a kernel reaches that may recurse: those on a cycle of calls, direct or
// through others, and not those that merely call one.
#include "TestIR.h"

#include "kaji/ir/Reachability.h"

#include <algorithm>
#include <string>
#include <vector>

namespace {

std::vector<std::string> recursiveNames(const kaji::ir::Module &module, const char *kernel) {
  std::vector<std::string> names;
  for (const kaji::ir::Function *function :
       kaji::ir::recursiveFunctions(module, *module.lookup(kernel)))
    names.push_back(function->name());
  return names;
}

constexpr const char *kModule = R"(device noinline @leaf(%v: i64) -> i64 {
^entry:
  ret %v : i64
}

device noinline @self(%v: i64) -> i64 {
^entry:
  %r = call @self(%v) : i64
  ret %r : i64
}

device noinline @even(%v: i64) -> i64 {
^entry:
  %r = call @odd(%v) : i64
  ret %r : i64
}

device noinline @odd(%v: i64) -> i64 {
^entry:
  %l = call @leaf(%v) : i64
  %r = call @even(%l) : i64
  ret %r : i64
}

device noinline @caller(%v: i64) -> i64 {
^entry:
  %r = call @self(%v) : i64
  ret %r : i64
}

kernel @mutual(%a: array<i64, 1, C>) {
^entry:
  %z = const 0 : i64
  %x = load %a[%z] : i64
  %y = call @even(%x) : i64
  store %y, %a[%z]
  ret
}

kernel @through(%a: array<i64, 1, C>) {
^entry:
  %z = const 0 : i64
  %x = load %a[%z] : i64
  %y = call @caller(%x) : i64
  %w = call @leaf(%y) : i64
  store %w, %a[%z]
  ret
}

kernel @flat(%a: array<i64, 1, C>) {
^entry:
  %z = const 0 : i64
  %x = load %a[%z] : i64
  %y = call @leaf(%x) : i64
  store %y, %a[%z]
  ret
}
)";

TEST(Reachability, FunctionsOnACycleOfCallsAreRecursive) {
  auto module = kaji::ir::test::parse(kModule);
  EXPECT_EQ(recursiveNames(*module, "mutual"), (std::vector<std::string>{"even", "odd"}));
  EXPECT_EQ(recursiveNames(*module, "through"), (std::vector<std::string>{"self"}));
  EXPECT_TRUE(recursiveNames(*module, "flat").empty());
}

// A kernel synchronizing its grid, itself or through a device function, or calling an external
// function declared to (declare_device(use_cooperative=True)), is launched cooperatively.
TEST(Reachability, GridSyncsAndCooperativeExternalsMakeAKernelCooperative) {
  auto module = kaji::ir::test::parse(R"(cooperative "grid_wait"

device noinline @syncs() {
^entry:
  grid_sync
  ret
}

kernel @direct() {
^entry:
  grid_sync
  ret
}

kernel @through() {
^entry:
  call @syncs()
  ret
}

kernel @external() {
^entry:
  %z = const 0 : i32
  %r = extern_call @grid_wait(%z) : i32
  ret
}

kernel @other_external() {
^entry:
  %z = const 0 : i32
  %r = extern_call_c @block_wait(%z) : i32
  ret
}
)");
  for (const char *kernel : {"direct", "through", "external"})
    EXPECT_TRUE(kaji::ir::usesGridSync(*module, *module->lookup(kernel))) << kernel;
  EXPECT_FALSE(kaji::ir::usesGridSync(*module, *module->lookup("other_external")));
}

} // namespace
