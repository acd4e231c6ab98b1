# bool crosses memory and parameters as one byte; float16 is the prelude's binary16, whose
# operators are the GPU's float16 arithmetic (float16_instructions.py).
# REQUIRES: nvrtc
# RUN: %kaji-compile %s --backend nvrtc --emit cuda | %FileCheck %s
# RUN: %kaji-compile %s --backend nvrtc --emit ptx -o %t.ptx
# RUN: %ptxas %t.ptx
import kaji


@kaji.jit("void(bool_[:], bool_, float16[:])")
def flags(out, flag, h):
    out[0] = flag and out[1]
    h[0] = h[1] * h[2] + h[3]

# CHECK: extern "C" __global__ void flags(u8 *out_data, i64 out_shape0, i64 out_stride0, u8 flag_byte, f16 *h_data
# CHECK: const bool flag = flag_byte != 0;
# CHECK-DAG: = (*kaji::element(out, v{{[0-9]+}}) != 0);
# CHECK-DAG: *kaji::element(out, v{{[0-9]+}}) = u8(v{{[0-9]+}});
# CHECK-DAG: = v{{[0-9]+}} * v{{[0-9]+}};
