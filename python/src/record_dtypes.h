// numpy structured dtypes as kaji records (ir::RecordType) and back.
#pragma once

#include "kaji/ir/RecordType.h"

#include <pybind11/numpy.h>

namespace kaji::python {

namespace py = pybind11;

// Whether `dtype` is a structured dtype (it has named fields).
bool isStructured(const py::dtype &dtype);
// The record laid out as the structured `dtype` is: its fields' names, offsets and types,
// its itemsize, and the alignment every element of an array of it has (its numpy alignment
// with align=True; else what its size and fields allow). Throws TypeError for fields kernels
// cannot take.
const ir::RecordType *recordFromDtype(const py::dtype &dtype);
// The structured dtype with `record`'s layout.
py::dtype dtypeOfRecord(const ir::RecordType &record);

} // namespace kaji::python
