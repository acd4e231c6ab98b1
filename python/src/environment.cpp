#include "environment.h"

#include "array_interop.h"
#include "compilation.h"
#include "device_array.h"
#include "dtypes.h"
#include "instances.h"
#include "record_dtypes.h"
#include "scalars.h"

#include "kaji/driver/Compiler.h"

#include <pybind11/stl.h>

namespace kaji::python {

frontend::FunctionRef
EnvironmentBuilder::function(const std::shared_ptr<driver::FunctionSource> &source,
                             const py::handle &describeGlobals, bool isDevice,
                             std::vector<frontend::Signature> signatures) {
  if (auto known = functions_.find(source.get()); known != functions_.end())
    return known->second;
  keepAlive_.push_back(source);
  sources_.push_back(&source->source());

  auto environment = std::make_shared<frontend::Environment>();
  frontend::FunctionRef ref =
      driver::findFunction(source->module(), source->functionName(), environment);
  if (const frontend::SourceFile *translation = source->translation())
    sources_.push_back(translation);
  ref.isDevice = isDevice;
  ref.signatures = std::move(signatures);
  // Registered before its globals are resolved, so that a cycle of calls ends here.
  functions_.emplace(source.get(), ref);

  py::object description = describeGlobals();
  if (!py::isinstance<py::dict>(description))
    throw py::type_error("the globals description of '" + source->functionName() +
                         "' must be a dict");
  for (auto [name, entry] : py::reinterpret_borrow<py::dict>(description)) {
    std::string key = py::str(name);
    environment->names.insert_or_assign(key, globalValue(key, entry));
  }
  return ref;
}

namespace {

ir::Function::Inlining inlining(const std::string &policy, const std::string &name) {
  if (policy == "default")
    return ir::Function::Inlining::Default;
  if (policy == "always")
    return ir::Function::Inlining::Always;
  if (policy == "never")
    return ir::Function::Inlining::Never;
  throw py::value_error("malformed inlining '" + policy + "' in the description of global '" +
                        name + "'");
}

} // namespace

frontend::GlobalValue EnvironmentBuilder::deviceArray(const std::string &name,
                                                      const py::handle &array) {
  ArrayView view;
  bool onHost = false;
  if (const DeviceArray *kajiArray = cppObjectIf<DeviceArray>(array)) {
    if (kajiArray->element().record)
      throw py::type_error("the global device array '" + name +
                           "' holds records, which a kernel cannot capture: pass it as an "
                           "argument");
    view.element = kajiArray->element().scalar;
    view.data = kajiArray->data();
    view.shape = kajiArray->shape();
    view.strides = kajiArray->strides();
    onHost = kajiArray->onHost();
  } else if (!cudaArrayInterfaceView(array, view)) {
    throw py::type_error("the global '" + name + "' has no __cuda_array_interface__");
  }
  if (onHost && target_ == driver::Target::CUDA)
    throw py::type_error("the global device array '" + name +
                         "' is in host memory (made while the default target was cpu): a cuda "
                         "kernel cannot capture it");
  if (!onHost && target_ == driver::Target::CPU)
    throw py::type_error("the global device array '" + name +
                         "' is in GPU memory: a cpu kernel cannot capture it");
  captured_.push_back(py::reinterpret_borrow<py::object>(array));
  ir::Layout layout = layoutOf(view.shape, view.strides, ir::byteSize(view.element));
  return frontend::GlobalValue::deviceArray(name, view.element, std::move(view.shape),
                                            std::move(view.strides), layout, view.data);
}

frontend::GlobalValue EnvironmentBuilder::globalValue(const std::string &name,
                                                      const py::handle &entry) {
  auto malformed = [&] {
    return py::type_error("malformed description of global '" + name +
                          "': " + py::repr(entry).cast<std::string>());
  };
  if (!py::isinstance<py::tuple>(entry) || py::len(entry) < 2)
    throw malformed();
  py::tuple fields = py::reinterpret_borrow<py::tuple>(entry);
  std::string kind = py::str(fields[0]);
  if (kind == "module")
    return frontend::GlobalValue::module(fields[1].cast<std::string>());
  if (kind == "none")
    return frontend::GlobalValue::none();
  if (kind == "string")
    return frontend::GlobalValue::string(fields[1].cast<std::string>());
  if (kind == "builtin")
    return frontend::GlobalValue::builtin(fields[1].cast<std::string>());
  if (kind == "exception")
    return frontend::GlobalValue::exceptionClass(fields[1].cast<std::string>());
  if (kind == "constant") {
    std::optional<ScalarValue> value = scalarValue(fields[1]);
    if (!value)
      throw malformed();
    if (ir::isComplex(value->kind))
      throw py::type_error("global '" + name +
                           "' is a complex number: kernels do not read complex globals yet; pass "
                           "it as an argument");
    if (ir::isFloat(value->kind))
      return frontend::GlobalValue::floatConstant(value->kind, value->asDouble(), value->weak);
    return frontend::GlobalValue::intConstant(value->kind, value->asInt64(), value->weak);
  }
  if (kind == "enum_member" && fields.size() == 5) {
    frontend::GlobalValue value = globalValue(name, py::make_tuple("constant", fields[3]));
    return frontend::GlobalValue::enumMemberOf(std::move(value), fields[1].cast<std::string>(),
                                               fields[2].cast<std::string>(),
                                               fields[4].cast<bool>());
  }
  if (kind == "enum" && fields.size() == 4) {
    std::vector<frontend::GlobalValue> members;
    for (py::handle entry : fields[3]) {
      auto [key, member] = entry.cast<std::pair<std::string, py::object>>();
      members.push_back(globalValue(name, member));
      members.back().qualifiedName = key;
    }
    return frontend::GlobalValue::enumClassOf(fields[1].cast<std::string>(), fields[2].cast<bool>(),
                                              std::move(members));
  }
  if (kind == "array" && fields.size() == 4) {
    std::optional<Element> element;
    try {
      element = elementFromDtype(fields[1]);
    } catch (const py::type_error &error) {
      throw py::type_error("the global array '" + name + "': " + error.what());
    }
    std::optional<std::string> bytes;
    if (!fields[3].is_none())
      bytes = fields[3].cast<std::string>();
    return frontend::GlobalValue::array(name, element->scalar, element->record,
                                        fields[2].cast<std::vector<int64_t>>(), std::move(bytes));
  }
  if (kind == "device_array" && fields.size() == 2)
    return deviceArray(name, fields[1]);
  if (kind == "record" && fields.size() == 2) {
    try {
      return frontend::GlobalValue::recordType(name,
                                               recordFromDtype(py::dtype::from_args(fields[1])));
    } catch (const py::type_error &error) {
      throw py::type_error("the record dtype '" + name + "': " + error.what());
    }
  }
  if (kind == "namedtuple" && fields.size() == 3)
    return frontend::GlobalValue::namedTupleClass(fields[1].cast<std::string>(),
                                                  fields[2].cast<std::vector<std::string>>());
  if (kind == "tuple" && fields.size() == 4) {
    std::vector<frontend::GlobalValue> elements;
    for (py::handle element : fields[1])
      elements.push_back(globalValue(name, element));
    std::string tupleClass = fields[2].is_none() ? std::string() : fields[2].cast<std::string>();
    std::vector<std::string> names;
    if (!fields[3].is_none())
      names = fields[3].cast<std::vector<std::string>>();
    return frontend::GlobalValue::tuple(std::move(elements), std::move(tupleClass),
                                        std::move(names));
  }
  if (kind == "namespace" && fields.size() == 3) {
    std::string module = fields[1].cast<std::string>();
    std::vector<std::string> memberNames;
    std::vector<frontend::GlobalValue> members;
    for (auto [memberName, member] : fields[2].cast<py::dict>()) {
      memberNames.push_back(memberName.cast<std::string>());
      members.push_back(globalValue(module + "." + memberNames.back(), member));
    }
    return frontend::GlobalValue::namespaceOf(std::move(module), std::move(memberNames),
                                              std::move(members));
  }
  if (kind == "external" && fields.size() == 6)
    return frontend::GlobalValue::external(
        fields[1].cast<std::string>(), name,
        parseSignatureText(fields[2].cast<std::string>(), /*kernel=*/false),
        fields[3].cast<std::vector<std::string>>(), fields[4].cast<std::string>() == "c",
        fields[5].cast<bool>());
  if (kind == "unusable")
    return frontend::GlobalValue::unusable(name, fields[1].cast<std::string>());
  if (kind == "overloaded" && fields.size() == 4)
    return overloaded(name, fields[1].cast<std::string>(), fields[2],
                      fields[3].cast<std::string>());
  if (kind == "function" && (fields.size() == 5 || fields.size() == 6)) {
    std::vector<frontend::Signature> signatures;
    for (const py::handle &text : fields[4])
      signatures.push_back(parseSignatureText(text.cast<std::string>(), /*kernel=*/false));
    frontend::FunctionRef ref = function(fields[1].cast<std::shared_ptr<driver::FunctionSource>>(),
                                         fields[2], fields[3].cast<bool>(), std::move(signatures));
    if (fields.size() == 6)
      ref.inlining = inlining(fields[5].cast<std::string>(), name);
    return frontend::GlobalValue::functionRef(std::move(ref));
  }
  throw malformed();
}

frontend::GlobalValue EnvironmentBuilder::overloaded(const std::string &name,
                                                     const std::string &function,
                                                     const py::handle &pick,
                                                     const std::string &fingerprint) {
  auto overloaded = std::make_shared<frontend::OverloadedFunction>();
  overloaded->fingerprint = fingerprint;
  // Called while this builder's compile lowers the kernel, with the GIL held (compiles hold it).
  overloaded->implementation =
      [this, name, pick = py::reinterpret_borrow<py::object>(pick)](
          const std::vector<std::string> &types,
          const std::vector<std::string> &keywords) -> std::optional<frontend::FunctionRef> {
    py::object entry;
    try {
      entry = pick(types, keywords);
    } catch (py::error_already_set &failure) {
      throw std::runtime_error(failure.what());
    }
    if (entry.is_none())
      return std::nullopt;
    frontend::GlobalValue implementation = globalValue(name, entry);
    if (implementation.kind != frontend::GlobalValue::Kind::Function)
      throw std::runtime_error("its implementation is not a function: " +
                               py::repr(entry).cast<std::string>());
    return implementation.function;
  };
  return frontend::GlobalValue::overloadedFunction(function, std::move(overloaded));
}

} // namespace kaji::python
