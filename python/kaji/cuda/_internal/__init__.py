"""Numba's ``numba.cuda._internal`` path, where its generated CUDA C++ bindings live; kaji
has the half-precision ones, backed by its own cuda.fp16 and cuda.bf16 tables."""
