// A dispatcher's construction and its eager signatures. The rest of Dispatcher is in
// dispatcher_queries.cpp, dispatcher_launch.cpp, overload_resolution.cpp,
// specialization_cache.cpp and configured_launch.cpp (the CPython side).
#include "dispatcher.h"

#include "kaji/runtime/CpuExecutor.h"

#include <algorithm>

namespace kaji::python {

Dispatcher::Dispatcher(std::shared_ptr<driver::FunctionSource> source, py::object describeGlobals,
                       std::vector<std::string> parameterNames, Options options)
    : kernel_{std::move(source), std::move(describeGlobals)},
      parameterNames_(std::move(parameterNames)), diskCache_(options.diskCache),
      sharedCarveout_(options.sharedCarveout), linkFiles_(std::move(options.linkFiles)) {
  settings_.target = options.target;
  settings_.ptx.fastMath = settings_.cpu.fastMath = options.fastMath;
  settings_.ptx.optLevel = settings_.cpu.optLevel = options.optLevel;
  settings_.ptx.lineInfo = options.lineInfo;
  settings_.ptx.debugInfo = options.debug;
  settings_.backend = options.backend;
  settings_.lto = options.lto;
  settings_.ptx.limits = options.limits;
  settings_.cpu.boundsCheck = settings_.ptx.boundsCheck = options.boundsCheck;
  settings_.cpu.hooks = runtime::CpuExecutor::hooks();
  settings_.debug = options.debug;
}

frontend::Signature Dispatcher::parameterTypes(const std::string &signature) const {
  frontend::Signature parsed = parseKernelSignature(signature);
  if (parsed.structure.size() != parameterNames_.size())
    throw py::type_error("kernel '" + name() + "' takes " + std::to_string(parameterNames_.size()) +
                         " arguments but the signature '" + signature + "' has " +
                         std::to_string(parsed.structure.size()));
  if (std::none_of(parsed.structure.begin(), parsed.structure.end(),
                   [](const frontend::ParameterStructure &p) {
                     return p.tuple || p.pointee || p.typeValue;
                   }))
    parsed.structure.clear();
  return parsed;
}

void Dispatcher::compileSignature(const std::string &signature) {
  frontend::Signature params = parameterTypes(signature);
  if (target() == driver::Target::CPU)
    compiledForCpu(params);
  else
    compiled(params, settings_.ptx.arch);
}

void Dispatcher::addSignature(const std::string &signature) {
  compileSignature(signature);
  eagerSignatures_.push_back(parameterTypes(signature));
}

} // namespace kaji::python
