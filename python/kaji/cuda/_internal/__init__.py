"""Numba's ``numba.cuda._internal`` path, where its generated CUDA C++ bindings live; kaji
has the half-precision ones and the 8-bit floats', backed by its own cuda.fp16, cuda.bf16 and
kaji.fp8 tables."""
