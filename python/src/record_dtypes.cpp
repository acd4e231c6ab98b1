#include "record_dtypes.h"

#include "dtypes.h"

// std::vector's caster, for a field's shape (py::cast(f.shape)): without it pybind11 raised
// "Unregistered type : std::vector<long, ...>" when a record dtype with an array field was
// rebuilt (the dtype of a DeviceArray of such records, copy_to_host, ...).
#include <pybind11/stl.h>

namespace kaji::python {

bool isStructured(const py::dtype &dtype) { return !dtype.attr("names").is_none(); }

const ir::RecordType *recordFromDtype(const py::dtype &dtype) {
  std::vector<ir::RecordField> fields;
  py::dict described = dtype.attr("fields");
  for (py::handle name : dtype.attr("names")) {
    ir::RecordField &f = fields.emplace_back();
    f.name = py::str(name);
    if (!py::str(name).attr("isidentifier")().cast<bool>())
      throw py::type_error("record field name '" + f.name +
                           "' is not a Python identifier, which kernels need to name it");
    py::tuple entry = described[name];
    py::dtype type = py::reinterpret_borrow<py::dtype>(entry[0]);
    f.offset = entry[1].cast<int64_t>();
    if (entry.size() > 2) {
      if (!py::isinstance<py::str>(entry[2]))
        throw py::type_error("record field '" + f.name + "' has the title " +
                             py::repr(entry[2]).cast<std::string>() +
                             ", which is not a str; kernels take str titles only");
      f.title = py::str(entry[2]);
    }
    py::dtype base = type.attr("base");
    for (py::handle extent : type.attr("shape"))
      f.shape.push_back(extent.cast<int64_t>());
    if (isStructured(base))
      f.record = recordFromDtype(base);
    else
      f.scalar = scalarKindFromDtype(base);
  }
  const ir::RecordType *record = ir::RecordType::laidOut(
      std::move(fields), dtype.itemsize(), dtype.attr("isalignedstruct").cast<bool>());
  if (std::string problem = record->problem(); !problem.empty())
    throw py::type_error("dtype " + py::str(dtype).cast<std::string>() + ": " + problem);
  return record;
}

py::dtype dtypeOfRecord(const ir::RecordType &record) {
  py::list names, formats, offsets, titles;
  bool titled = false;
  for (const ir::RecordField &f : record.fields()) {
    names.append(f.name);
    titles.append(f.title.empty() ? py::none() : py::object(py::str(f.title)));
    titled |= !f.title.empty();
    py::object element = f.record ? py::object(dtypeOfRecord(*f.record)) : numpyDtype(f.scalar);
    formats.append(f.shape.empty()
                       ? element
                       : py::object(py::make_tuple(element, py::tuple(py::cast(f.shape)))));
    offsets.append(f.offset);
  }
  py::dict spec;
  spec["names"] = names;
  spec["formats"] = formats;
  spec["offsets"] = offsets;
  spec["itemsize"] = record.size();
  if (titled)
    spec["titles"] = titles;
  // align=True checks the offsets against the fields' alignments and marks the dtype.
  return py::module_::import("numpy").attr("dtype")(spec,
                                                    py::arg("align") = record.alignedStruct());
}

} // namespace kaji::python
