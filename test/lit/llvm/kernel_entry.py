# RUN: %kaji-compile %s --emit llvm | %FileCheck %s
import kaji


@kaji.jit("void(float32[:], float32)")
def scale(a, s):
    i = kaji.grid(1)
    if i < a.size:
        a[i] *= s

# Arrays are flattened into data pointer, shape and strides in global memory.
# CHECK: target triple = "nvptx64-nvidia-cuda"
# CHECK: define {{.*}}void @scale(ptr addrspace(1) {{[^,]*}}, i64 range(i64 0, 4611686018427387905) {{[^,]*}}, i64 {{[^,]*}}, float
# CHECK: call {{.*}}i32 @llvm.nvvm.read.ptx.sreg.tid.x()
# CHECK: load float, ptr addrspace(1)
# CHECK: store float {{.*}}, ptr addrspace(1)
