// Builders for small kernels and a ptxas check shared by the codegen tests.
#pragma once

#include "kaji/codegen/nvptx/NVPTXCodegen.h"
#include "kaji/ir/Builder.h"
#include "kaji/ir/IR.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace kaji::codegen::test {

inline ir::Type scalar(ir::ScalarKind kind) { return ir::Type::scalar(kind); }
inline const ir::Type kI32 = scalar(ir::ScalarKind::Int32);
inline const ir::Type kI64 = scalar(ir::ScalarKind::Int64);
inline const ir::Type kF32 = scalar(ir::ScalarKind::Float32);
inline const ir::Type kF64 = scalar(ir::ScalarKind::Float64);
inline const ir::Type kBool = scalar(ir::ScalarKind::Bool);

// A function added to `module`, with a Builder at the end of its entry block.
struct FunctionUnderConstruction {
  ir::Function *function;
  ir::Builder builder;
  ir::Value *param(unsigned i) const { return function->entry()->argument(i); }
};

FunctionUnderConstruction addFunction(ir::Module &module, const std::string &name,
                                      ir::Function::Kind kind, std::vector<ir::Type> params,
                                      std::vector<std::string> names,
                                      ir::Type returnType = ir::Type());

// blockIdx.x * blockDim.x + threadIdx.x, as i64.
ir::Value *globalThreadIndex(ir::Builder &builder);
ir::Value *load(ir::Builder &builder, ir::Value *array, std::vector<ir::Value *> indices);
void store(ir::Builder &builder, ir::Value *value, ir::Value *array,
           std::vector<ir::Value *> indices);
ir::Value *arrayDim(ir::Builder &builder, ir::Value *array, int64_t dim);

// out[i] = a * x[i] + y[i] for i < x.shape[0], over float32 C-contiguous vectors.
void addSaxpy(ir::Module &module);

// Assembles `ptx` with `ptxas --gpu-name sm_90`; a failure reports ptxas's output. Does
// nothing where the build found no ptxas.
void expectPTXAssembles(const std::string &ptx);

// Number of non-overlapping occurrences of `needle` in `text`.
size_t countOccurrences(const std::string &text, const std::string &needle);

} // namespace kaji::codegen::test
