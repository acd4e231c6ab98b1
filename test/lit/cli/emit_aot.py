# REQUIRES: ptxas
# RUN: rm -rf %t && %kaji-compile %s --emit aot --arch sm_90,sm_80 -o %t/aot
# RUN: %FileCheck %s --check-prefix=HEADER < %t/aot/emit_aot.h
# RUN: %FileCheck %s --check-prefix=SOURCE < %t/aot/emit_aot.c
# RUN: od -A n -t x1 -N 4 %t/aot/emit_aot.fatbin | %FileCheck %s --check-prefix=FATBIN
# RUN: cc -std=c11 -Wall -Wextra -Werror -fsyntax-only -I%t/aot -I%cuda-include %t/aot/emit_aot.c
# RUN: %not %kaji-compile %s --emit aot 2>&1 | %FileCheck %s --check-prefix=NO-DIR
# RUN: %not %kaji-compile %s --emit ptx --arch sm_80,sm_90 2>&1 | %FileCheck %s --check-prefix=LIST
# RUN: %not %kaji-compile %s --emit aot --arch sm_80,compute_90 -o %t/bad 2>&1 | %FileCheck %s --check-prefix=ARCH
# RUN: %not %kaji-compile %s --emit aot --kernel pair --sig 'void(UniTuple(float32 x 2), float32[:])' -o %t/tuple 2>&1 | %FileCheck %s --check-prefix=TUPLE
import numpy as np

import kaji


@kaji.jit("void(float32[::1], float64, complex64, float32[:, :])")
def scale(out, factor, z, table):
    i = kaji.grid(1)
    if i < out.size:
        out[i] = out[i] * factor + z.real + table[0, i % table.shape[1]]


@kaji.jit
def pair(p, out):
    out[0] = p[0] + p[1]

# One launcher per kernel with typed parameters: an array as a struct of its data, extents and
# byte strides; scalars by value; the architectures in order, the newest's PTX for newer GPUs.
# HEADER: // emit_aot.h: launchers of kernels compiled ahead of time by kaji-compile {{.*}} for sm_80 sm_90 (and sm_90's PTX for newer GPUs).
# HEADER: typedef struct kaji_launch {
# HEADER: typedef struct kaji_array_float32_1d {
# HEADER-NEXT: float *data;
# HEADER-NEXT: int64_t shape[1];
# HEADER-NEXT: int64_t strides[1];
# HEADER: typedef struct kaji_array_float32_2d {
# HEADER: // scale(out: float32[::1], factor: float64, z: complex64, table: float32[:, :])
# HEADER-NEXT: CUresult emit_aot_scale(kaji_launch launch, kaji_array_float32_1d out, double factor, kaji_complex64 z, kaji_array_float32_2d table);
# HEADER: const char *emit_aot_error(void);
# HEADER: CUresult emit_aot_exception(const char **message);

# The fatbin is embedded; a C-contiguous array's layout is checked, an arbitrary one's not; the
# parameters are flattened as the kernel ABI says (a complex as its two parts).
# SOURCE: static const unsigned char fatbin[] __attribute__((aligned(8))) = {
# SOURCE: static const char *const entries[KERNELS] = {"scale", };
# SOURCE: CUresult emit_aot_scale(
# SOURCE: return invalid("emit_aot_scale: argument 'out' is not C-contiguous, as float32[::1] says");
# SOURCE-NOT: argument 'table' is not
# SOURCE: void *parameters[] = {&out.data, &out.shape[0], &out.strides[0], &factor, &z.real, &z.imag, &table.data, &table.shape[0], &table.shape[1], &table.strides[0], &table.strides[1], NULL};
# SOURCE: cuLaunchKernel(loaded[slot].functions[0],

# FATBIN: 50 ed 55 ba
# NO-DIR: kaji-compile: error: --emit aot compiles for the GPU into a directory: give it with -o DIR
# LIST: kaji-compile: error: --arch takes a list (sm_80,sm_90) with --emit aot only
# ARCH: kaji-compile: error: 'compute_90' is not an architecture (sm_80, sm_90, ...)
# TUPLE: kaji-compile: error: --emit aot: parameter 1 of 'pair' is a tuple, a C pointer or a type; an ahead-of-time launcher takes arrays and scalars
