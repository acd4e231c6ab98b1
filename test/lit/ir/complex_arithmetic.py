# Complex arithmetic is expanded on the parts: a product is four float multiplies; a Python
# complex literal next to complex64 stays complex64 (NEP 50), its parts folded to f32.
# RUN: %kaji-compile %s --kernel k --sig 'void(complex64[:], complex64[:])' --emit ir | %FileCheck %s
import kaji


@kaji.jit
def k(out, x):
    out[0] = x[0] * x[1] + 2j

# CHECK-LABEL: kernel @k(%out: array<c64, 1, any>, %x: array<c64, 1, any>) {
# CHECK: %[[A:[0-9]+]] = load %x[%{{[0-9]+}}] : c64
# CHECK: %[[B:[0-9]+]] = load %x[%{{[0-9]+}}] : c64
# CHECK-DAG: real %[[A]] : f32
# CHECK-DAG: imag %[[A]] : f32
# CHECK-DAG: real %[[B]] : f32
# CHECK-DAG: imag %[[B]] : f32
# CHECK-COUNT-4: mul %{{[0-9]+}}, %{{[0-9]+}} : f32
# CHECK: const 2.0 : f32
# CHECK: %[[R:[0-9]+]] = complex %{{[0-9]+}}, %{{[0-9]+}} : c64
# CHECK: store %[[R]], %out[%{{[0-9]+}}]
