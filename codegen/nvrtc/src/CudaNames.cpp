#include "CudaNames.h"

#include "CudaMath.h"

#include <string_view>

namespace kaji::codegen::nvrtc {
namespace {

constexpr std::string_view kReserved[] = {
    // C++ keywords and alternative tokens
    "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break",
    "case", "catch", "char", "char8_t", "char16_t", "char32_t", "class", "compl", "concept",
    "const", "consteval", "constexpr", "constinit", "const_cast", "continue", "co_await",
    "co_return", "co_yield", "decltype", "default", "delete", "do", "double", "dynamic_cast",
    "else", "enum", "explicit", "export", "extern", "false", "float", "for", "friend", "goto", "if",
    "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq", "nullptr",
    "operator", "or", "or_eq", "private", "protected", "public", "register", "reinterpret_cast",
    "requires", "return", "short", "signed", "sizeof", "static", "static_assert", "static_cast",
    "struct", "switch", "template", "this", "thread_local", "throw", "true", "try", "typedef",
    "typeid", "typename", "union", "unsigned", "using", "virtual", "void", "volatile", "wchar_t",
    "while", "xor", "xor_eq",
    // the prelude's types and what CUDA and C declare that the emitted code uses
    "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f16", "bf16", "f32", "f64", "c64",
    "c128", "threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize", "printf", "std", "main"};

bool isReserved(std::string_view name) {
  for (std::string_view reserved : kReserved)
    if (name == reserved)
      return true;
  return false;
}

} // namespace

bool isUsableIdentifier(const std::string &name) {
  if (name.empty() || name[0] == '_' || (name[0] >= '0' && name[0] <= '9') ||
      name.rfind("kaji", 0) == 0 || isReserved(name) || isMathSymbol(name))
    return false;
  for (char c : name)
    if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')))
      return false;
  return true;
}

bool NameTable::claimAll(const std::vector<std::string> &names) {
  for (const std::string &name : names)
    if (!isUsableIdentifier(name) || taken_.count(name))
      return false;
  taken_.insert(names.begin(), names.end());
  return true;
}

std::string NameTable::fresh(const std::string &prefix) {
  unsigned &next = next_[prefix];
  for (;;) {
    std::string name = prefix + std::to_string(next++);
    if (taken_.insert(name).second)
      return name;
  }
}

} // namespace kaji::codegen::nvrtc
