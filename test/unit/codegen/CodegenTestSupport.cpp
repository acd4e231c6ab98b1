#include "CodegenTestSupport.h"

#include "kaji/ir/Verifier.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace kaji::codegen::test {

FunctionUnderConstruction addFunction(ir::Module &module, const std::string &name,
                                      ir::Function::Kind kind, std::vector<ir::Type> params,
                                      std::vector<std::string> names, ir::Type returnType) {
  auto function = std::make_unique<ir::Function>(name, kind, params, returnType, ir::Location{});
  function->paramNames() = std::move(names);
  ir::Function *added = module.addFunction(std::move(function));
  return {added, ir::Builder(added->entry())};
}

ir::Value *globalThreadIndex(ir::Builder &builder) {
  ir::Value *thread = builder.specialReg(ir::SpecialReg::ThreadIdx, 0);
  ir::Value *block = builder.specialReg(ir::SpecialReg::BlockIdx, 0);
  ir::Value *blockSize = builder.specialReg(ir::SpecialReg::BlockDim, 0);
  ir::Value *index =
      builder.binary(ir::Opcode::Add, builder.binary(ir::Opcode::Mul, block, blockSize), thread);
  return builder.cast(index, kI64);
}

ir::Value *load(ir::Builder &builder, ir::Value *array, std::vector<ir::Value *> indices) {
  indices.insert(indices.begin(), array);
  return builder.create(ir::Opcode::Load, scalar(array->type().scalarKind()), indices)->result();
}

void store(ir::Builder &builder, ir::Value *value, ir::Value *array,
           std::vector<ir::Value *> indices) {
  indices.insert(indices.begin(), {value, array});
  builder.create(ir::Opcode::Store, ir::Type(), indices);
}

ir::Value *arrayDim(ir::Builder &builder, ir::Value *array, int64_t dim) {
  return builder.create(ir::Opcode::ArrayDim, kI64, {array}, dim)->result();
}

void addSaxpy(ir::Module &module) {
  ir::Type vector = ir::Type::array(ir::ScalarKind::Float32, 1, ir::Layout::C);
  auto [function, b] = addFunction(module, "saxpy", ir::Function::Kind::Kernel,
                                   {vector, kF32, vector, vector}, {"out", "a", "x", "y"});
  ir::Value *out = function->entry()->argument(0);
  ir::Value *a = function->entry()->argument(1);
  ir::Value *x = function->entry()->argument(2);
  ir::Value *y = function->entry()->argument(3);
  ir::Block *body = function->addBlock();
  ir::Block *exit = function->addBlock();
  ir::Value *i = globalThreadIndex(b);
  b.condBr(b.cmp(ir::CmpPredicate::Lt, i, arrayDim(b, x, 0)), body, {}, exit, {});
  b.setBlock(body);
  ir::Value *product = b.binary(ir::Opcode::Mul, a, load(b, x, {i}));
  store(b, b.binary(ir::Opcode::Add, product, load(b, y, {i})), out, {i});
  b.br(exit);
  b.setBlock(exit);
  b.ret();
  ir::verify(module);
}

void expectPTXAssembles(const std::string &ptx) {
#ifdef KAJI_PTXAS
  std::filesystem::path dir = std::filesystem::temp_directory_path();
  std::string stem =
      (dir / ("kaji_codegen_" + std::to_string(getpid()) + "_" + std::to_string(std::rand())))
          .string();
  std::ofstream(stem + ".ptx") << ptx;
  std::string command = std::string(KAJI_PTXAS) + " --gpu-name sm_90 -o /dev/null " + stem +
                        ".ptx > " + stem + ".log 2>&1";
  int status = std::system(command.c_str());
  std::stringstream log;
  log << std::ifstream(stem + ".log").rdbuf();
  EXPECT_EQ(status, 0) << "ptxas rejected the PTX:\n" << log.str() << "\n" << ptx;
  std::filesystem::remove(stem + ".ptx");
  std::filesystem::remove(stem + ".log");
#else
  (void)ptx;
#endif
}

size_t countOccurrences(const std::string &text, const std::string &needle) {
  size_t count = 0;
  for (size_t at = text.find(needle); at != std::string::npos;
       at = text.find(needle, at + needle.size()))
    ++count;
  return count;
}

} // namespace kaji::codegen::test
