# RUN: %kaji-compile %s --kernel k --sig 'void(int64[:])' --emit ir | %FileCheck %s
import kaji


@kaji.jit(device=True)
def divide(a, b):
    return a // b, a % b


@kaji.jit
def k(a):
    q, r = divide(a[0], a[1])
    a[2] = q + r

# The tuple comes back through one-element local arrays the caller passes after the
# arguments.
# CHECK: local_array
# CHECK: local_array
# CHECK: call @divide__i64_i64(%{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}})
# CHECK: device @divide__i64_i64(%a: i64, %b: i64, %return_0: array<i64, 1, C, local>, %return_1: array<i64, 1, C, local>)
# CHECK: store %{{[0-9]+}}, %return_0[
# CHECK: store %{{[0-9]+}}, %return_1[
