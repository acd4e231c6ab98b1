# A view is a kaji::array over the same data from a byte offset on, with its own extents and
# strides; array_index wraps a negative index as a load does.
# REQUIRES: nvrtc
# RUN: %kaji-compile %s --backend nvrtc --emit cuda | %FileCheck %s
# RUN: %kaji-compile %s --backend nvrtc --emit ptx -o %t.ptx
# RUN: %ptxas %t.ptx
from kaji import cuda


@cuda.jit("void(float32[:], float32[:, ::1], int64)")
def last_of_row(out, a, i):
    out[0] = a[i][::-1][0] + a.view(cuda.int32)[0].view(cuda.float32)[1]

# CHECK: = ([[I:v[0-9]+|i]] < 0 ? [[I]] + a.shape[0] : [[I]]);
# CHECK: = kaji::array<f32, 1>{(f32 *)((char *)a.data + v{{[0-9]+}}), {v{{[0-9]+}}}, {v{{[0-9]+}}}};
# CHECK: = kaji::array<i32, 2>{(i32 *)((char *)a.data + v{{[0-9]+}}), {v{{[0-9]+}}, v{{[0-9]+}}}, {v{{[0-9]+}}, v{{[0-9]+}}}};
