# A vector is a literal struct of its lanes: make_vector is a chain of insertvalue, a lane an
# extractvalue; a function kept as a function (inline="never") takes the struct (LLVM narrows
# its result to the one lane the caller reads).
# RUN: %kaji-compile %s --emit llvm | %FileCheck %s
from kaji import cuda


@cuda.jit(device=True, inline="never")
def swapped(v):
    return cuda.uint16x3(v.z, v.y, v.x)


@cuda.jit("void(uint16[:])")
def k(a):
    v = swapped(cuda.ushort3(a[0], a[1], a[2]))
    a[0] = v.x

# CHECK: define {{.*}}void @k(
# CHECK: insertvalue { i16, i16, i16 } poison, i16 %{{[0-9]+}}, 0
# CHECK: call {{.*}} @swapped__v3u16({ i16, i16, i16 } %{{[0-9]+}})
# CHECK: define internal {{.*}} @swapped__v3u16({ i16, i16, i16 } %v)
# CHECK: extractvalue { i16, i16, i16 } %v, 2
