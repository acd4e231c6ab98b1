#include "TestIR.h"

#include <cmath>
#include <limits>

using namespace kaji::ir;
using namespace kaji::ir::test;

namespace {

// Every opcode appears at least once.
constexpr std::string_view kAllOpcodes = R"(kernel @k(%out: array<f32, 2, C>, %a: f32, %n: i64) {
^bb0:
  %0 = const 2 : i64
  %1 = add %n, %0 : i64
  %2 = sub %1, %0 : i64
  %3 = mul %2, %0 : i64
  %4 = div %3, %0 : i64
  %5 = floordiv %4, %0 : i64
  %6 = mod %5, %0 : i64
  %7 = pow %6, %0 : i64
  %8 = min %7, %0 : i64
  %9 = max %8, %0 : i64
  %10 = and %9, %0 : i64
  %11 = or %10, %0 : i64
  %12 = xor %11, %0 : i64
  %13 = shl %12, %0 : i64
  %14 = shr %13, %0 : i64
  %15 = neg %14 : i64
  %16 = not %15 : i64
  %17 = abs %16 : i64
  %18 = cmp ge %17, %0 : i64
  %19 = select %18, %a, %a : f32
  %20 = cast %17 : i64 to f32
  %21 = math atan2(%19, %20) : f32
  %22 = sreg nctaid.z : i32
  barrier
  %23 = array_dim %out, 1 : i64
  %24 = array_stride %out, 0 : i64
  %25 = load %out[%23, %24] : f32
  store %25, %out[%0, %0]
  %26 = atomic add %out[%0, %0], %21 : f32
  %27 = shared_array [32, 8] : array<f32, 2, C, shared>
  %28 = call @d(%26) : f32
  call @v()
  cond_br %18, ^bb1(%28 : f32), ^bb2
^bb1(%29: f32):
  br ^bb2
^bb2:
  ret
}

device @d(%x: f32) -> f32 {
^bb0:
  ret %x : f32
}

device @v() {
^bb0:
  ret
}
)";

} // namespace

TEST(PrinterParser, EveryOpcodeRoundTrips) {
  auto module = parse(kAllOpcodes);
  EXPECT_EQ(printModule(*module), kAllOpcodes);
  EXPECT_NO_THROW(verify(*module));
}

TEST(PrinterParser, RenumbersAndKeepsParameterNames) {
  auto module = parse(R"(device @f(%7: i32, %x: i32) -> i32 {
^start:
  br ^next(%x : i32)
^next(%v: i32):
  %s = add %v, %7 : i32
  ret %s : i32
})");
  EXPECT_EQ(printModule(*module), R"(device @f(%0: i32, %x: i32) -> i32 {
^bb0:
  br ^bb1(%x : i32)
^bb1(%1: i32):
  %2 = add %1, %0 : i32
  ret %2 : i32
}
)");
}

TEST(PrinterParser, ForwardReferencesResolve) {
  auto module = parse(R"(device @f(%x: i32) -> i32 {
^bb0:
  br ^bb2
^bb1:
  ret %y : i32
^bb2:
  %y = add %x, %x : i32
  br ^bb1
})");
  const Function &f = *module->functions()[0];
  const Operation &ret = *f.blocks()[1]->operations()[0];
  EXPECT_EQ(ret.operand(0), f.blocks()[2]->operations()[0]->result());
  EXPECT_NO_THROW(verify(*module));
}

TEST(PrinterParser, FloatConstantsRoundTripBitExactly) {
  for (double value : {0.1, -0.0, 0.0, 1e300, 5e-324, 3.0, std::numeric_limits<double>::infinity(),
                       -std::numeric_limits<double>::infinity(),
                       std::numeric_limits<double>::quiet_NaN(), double(0.1f), 16777217.0}) {
    Module module;
    auto *f = module.addFunction(std::make_unique<Function>(
        "f", Function::Kind::Device, std::vector<Type>{}, Type(), Location{}));
    f->entry()->append(std::make_unique<Operation>(Opcode::Constant,
                                                   Type::scalar(ScalarKind::Float64),
                                                   std::vector<Value *>{}, value, Location{}));
    std::string text = printModule(module);
    auto reparsed = parse(text);
    double back = reparsed->functions()[0]->entry()->operations()[0]->attrAs<double>();
    EXPECT_EQ(std::bit_cast<uint64_t>(back), std::bit_cast<uint64_t>(value)) << text;
    EXPECT_EQ(printModule(*reparsed), text);
  }
}

TEST(PrinterParser, LinkFilesRoundTripEachOnce) {
  Module module;
  module.addLinkFile("ops.cu");
  module.addLinkFile("dir with space/\"quoted\".ptx");
  module.addLinkFile("ops.cu");
  module
      .addFunction(std::make_unique<Function>("f", Function::Kind::Device, std::vector<Type>{},
                                              Type(), Location{}))
      ->entry()
      ->append(std::make_unique<Operation>(Opcode::Return, Type(), std::vector<Value *>{}, Attr{},
                                           Location{}));
  EXPECT_EQ(module.linkFiles(),
            (std::vector<std::string>{"ops.cu", "dir with space/\"quoted\".ptx"}));
  std::string text = printModule(module);
  EXPECT_TRUE(text.starts_with("link \"ops.cu\"\n")) << text;
  auto reparsed = parse(text);
  EXPECT_EQ(reparsed->linkFiles(), module.linkFiles());
  EXPECT_EQ(printModule(*reparsed), text);
}

TEST(PrinterParser, CooperativeSymbolsRoundTripEachOnceAfterTheLinkFiles) {
  auto module = parse("link \"ops.cu\"\ncooperative \"grid_wait\"\ncooperative \"grid_wait\"\n"
                      "cooperative \"tile_wait\"\n\ndevice @f() {\n^entry:\n  ret\n}\n");
  EXPECT_EQ(module->cooperativeSymbols(), (std::vector<std::string>{"grid_wait", "tile_wait"}));
  std::string text = printModule(*module);
  EXPECT_TRUE(text.starts_with("link \"ops.cu\"\ncooperative \"grid_wait\"\ncooperative "
                               "\"tile_wait\"\n\n"))
      << text;
  EXPECT_EQ(printModule(*parse(text)), text);
}

TEST(PrinterParser, IntegerConstantsPrintInTheirType) {
  auto module = parse(R"(device @f() {
^bb0:
  %0 = const 18446744073709551615 : u64
  %1 = const -9223372036854775808 : i64
  %2 = const false : bool
  ret
})");
  const auto &ops = module->functions()[0]->entry()->operations();
  EXPECT_EQ(ops[0]->attrAs<int64_t>(), -1);
  EXPECT_EQ(ops[1]->attrAs<int64_t>(), std::numeric_limits<int64_t>::min());
  EXPECT_NE(printModule(*module).find("const 18446744073709551615 : u64"), std::string::npos);
}

TEST(PrinterParser, LocationsArePrintedOnRequestAndParsed) {
  auto module = parse(R"(kernel @k() loc("k.py":1:1) {
^bb0:
  ret loc("k.py":3:5)
})");
  const Operation &ret = *module->functions()[0]->entry()->operations()[0];
  EXPECT_EQ(ret.location().fileName(), "k.py");
  EXPECT_EQ(ret.location().line, 3u);
  EXPECT_EQ(ret.location().col, 5u);
  std::string withLocations = printModule(*module, {.locations = true});
  EXPECT_NE(withLocations.find("ret loc(\"k.py\":3:5)"), std::string::npos) << withLocations;
  EXPECT_EQ(printModule(*parse(withLocations), {.locations = true}), withLocations);
  EXPECT_EQ(printModule(*module).find("loc("), std::string::npos);
}

TEST(PrinterParser, OperationsWithoutLocGetTheirIRPosition) {
  auto module = parse("kernel @k() {\n^bb0:\n    ret\n}\n");
  const Location &loc = module->functions()[0]->entry()->operations()[0]->location();
  EXPECT_EQ(loc.fileName(), "test.kir");
  EXPECT_EQ(loc.line, 3u);
  EXPECT_EQ(loc.col, 5u);
}

TEST(PrinterParser, ReportsErrorsWithLineAndColumn) {
  struct Case {
    std::string_view text;
    std::string_view error;
  };
  const Case cases[] = {
      {"kernel @k() {\n^bb0:\n  %0 = frob : i32\n}", "3:8: unknown operation 'frob'"},
      {"kernel @k() {\n^bb0:\n  ret %x : i32\n}", "3:7: use of undefined value %x"},
      {"kernel @k() {\n^bb0:\n  br ^nowhere\n}", "3:6: use of undefined block ^nowhere"},
      {"kernel @k(%a: f33) {", "1:15: malformed type 'f33'"},
      {"kernel @k() {\n^bb0:\n  %0 = const 1 : i32\n  %0 = const 2 : i32\n",
       "4:3: redefinition of value %0"},
      {"kernel @k() {\n^bb0:\n  %0 = const 1.5 : i32\n  ret\n}",
       "3:14: invalid integer constant '1.5' for type i32"},
      {"kernel @k() {\n^bb0:\n  store %0\n}", "4:1: expected ',', found '}'"},
      {"kernel @k() {\n^bb0:\n  %0 = store %a, %b[]\n}", "3:3: 'store' produces no result"},
      {"kernel @k() {\n^bb0:\n  add %a, %b : i32\n}",
       "3:3: the result of 'add' must be named ('%x = add ...')"},
      {"kernel @k() {\n^bb0:\n  %0 = sreg tid.w : i32\n}",
       "3:13: unknown special register 'tid.w'"},
      {"kernel @k() {\n^bb0:\n  %0 = math frob(%x) : f32\n}", "3:13: unknown math function 'frob'"},
      {"kernel @k() {\n^bb0:\n  %0 = bits frob(%x) : i32\n}", "3:13: unknown bit function 'frob'"},
      {"kernel @k() {\n^bb0:\n  %0 = warp frob() : u32\n}", "3:13: unknown warp collective 'frob'"},
      {"kernel @k() {\n^bb0:\n  %0 = barrier_reduce frob(%x) : i32\n}",
       "3:23: unknown barrier reduction 'frob'"},
      {"kernel @k() {\n^bb0:\n  %0 = atomic frob %a[%i], %x : i32\n}",
       "3:15: unknown atomic operation 'frob'"},
      {"kernel @k() {\n^bb0:\n  fence galaxy\n}", "3:9: unknown fence scope 'galaxy'"},
      {"func @k() {", "1:1: expected 'kernel' or 'device', found 'func'"},
      {"kernel @k() {\n^bb0:\n  ret\n}\nkernel @k() {\n^bb0:\n  ret\n}",
       "5:8: redefinition of function @k"},
      {"kernel @k() {\n^bb0:\n  ret\n^bb1(%x: i32):\n  ret\n^bb1:\n  ret\n}",
       "6:1: redefinition of block ^bb1"},
      {"kernel @k() {\n^bb0(%x: i32):\n  ret\n}",
       "2:1: the entry block's arguments are the function parameters; it declares none"},
      {"kernel @k() { ~", "1:15: unexpected character '~'"},
      {"kernel @k() loc(\"a.py:1:1) {", "1:17: unterminated string"},
  };
  for (const Case &c : cases)
    EXPECT_EQ(errorOf([&] { parse(c.text); }), c.error) << c.text;
}

TEST(PrinterParser, GarbageNeverCrashes) {
  std::string text(kAllOpcodes);
  // Every prefix of a valid module either parses or throws a CompileError.
  for (size_t n = 0; n < text.size(); n += 7) {
    try {
      parse(text.substr(0, n));
    } catch (const CompileError &) {
    }
  }
}
