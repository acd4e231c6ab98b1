#include "code_object.h"

#include <pybind11/stl.h>

namespace kaji::python {

namespace {

frontend::BytecodeConstant constantOf(const py::handle &value) {
  using Kind = frontend::BytecodeConstant::Kind;
  frontend::BytecodeConstant constant;
  if (value.is_none())
    return constant;
  if (PyBool_Check(value.ptr())) {
    constant.kind = Kind::Bool;
    constant.magnitude = value.ptr() == Py_True;
  } else if (PyLong_Check(value.ptr())) {
    py::int_ number = py::reinterpret_borrow<py::int_>(value);
    constant.negative = number < py::int_(0);
    py::int_ magnitude = constant.negative ? py::int_(-number) : number;
    int overflow = 0;
    unsigned long long bits = PyLong_AsUnsignedLongLong(magnitude.ptr());
    if (bits == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
      PyErr_Clear();
      overflow = 1;
    }
    constant.kind = overflow ? Kind::Unsupported : Kind::Int;
    constant.magnitude = bits;
    if (overflow)
      constant.text = "int beyond 64 bits";
  } else if (PyFloat_Check(value.ptr())) {
    constant.kind = Kind::Float;
    constant.floatValue = value.cast<double>();
  } else if (PyUnicode_Check(value.ptr())) {
    constant.kind = Kind::String;
    constant.text = value.cast<std::string>();
  } else if (PyTuple_Check(value.ptr())) {
    constant.kind = Kind::Tuple;
    for (const py::handle &element : py::reinterpret_borrow<py::tuple>(value))
      constant.elements.push_back(constantOf(element));
  } else {
    constant.kind = Kind::Unsupported;
    constant.text = Py_TYPE(value.ptr())->tp_name;
  }
  return constant;
}

} // namespace

frontend::CodeObject codeObject(const py::tuple &description) {
  if (description.size() != 11)
    throw py::type_error("a code object description has 11 fields");
  frontend::CodeObject code;
  code.pythonMinor = description[0].cast<unsigned>();
  code.name = description[1].cast<std::string>();
  code.fileName = description[2].cast<std::string>();
  code.firstLine = description[3].cast<unsigned>();
  code.argCount = description[4].cast<unsigned>();
  code.varNames = description[5].cast<std::vector<std::string>>();
  code.cellVars = description[6].cast<std::vector<std::string>>();
  for (const py::handle &value : description[7].cast<py::tuple>())
    code.constants.push_back(constantOf(value));
  for (const py::handle &entry : description[8].cast<py::list>()) {
    auto fields = entry.cast<py::tuple>();
    if (fields.size() != 7)
      throw py::type_error("an instruction description has 7 fields");
    frontend::BytecodeInstruction instruction;
    instruction.offset = fields[0].cast<unsigned>();
    instruction.opname = fields[1].cast<std::string>();
    instruction.arg = fields[2].is_none() ? 0 : fields[2].cast<int64_t>();
    instruction.argText = fields[3].cast<std::string>();
    instruction.jumpTarget = fields[4].cast<int64_t>();
    instruction.line = fields[5].cast<unsigned>();
    instruction.column = fields[6].cast<unsigned>();
    code.instructions.push_back(std::move(instruction));
  }
  code.hasExceptionTable = description[9].cast<bool>();
  for (const py::handle &value : description[10].cast<py::tuple>())
    code.defaults.push_back(constantOf(value));
  return code;
}

} // namespace kaji::python
