# RUN: %kaji-compile %s --kernel k --sig 'void(float32[:], float32[:, ::1], int64)' --emit ir | %FileCheck %s
import kaji


@kaji.jit
def k(out, a, i):
    row = a[i]
    col = a[1:, ::2]
    out[0] = row[0] + col[0, 0]

# a[i] of a C array: a checked index, the row's offset, and a C-contiguous 1-d view whose
# unit stride is a constant.
# CHECK: %[[I:[0-9]+]] = array_index %a, 0, %i : i64
# CHECK: %[[S0:[0-9]+]] = array_stride %a, 0 : i64
# CHECK: %[[OFF:[0-9]+]] = mul %[[I]], %[[S0]] : i64
# CHECK: %[[FOUR:[0-9]+]] = const 4 : i64
# CHECK: array_view %a, %[[OFF]], [%{{[0-9]+}}], [%[[FOUR]]] : array<f32, 1, C>
# A slice with a step is strided: layout any, the second stride doubled; `1:` starts at
# min(1, extent) rows.
# CHECK: %[[START:[0-9]+]] = min %{{[0-9]+}}, %{{[0-9]+}} : i64
# CHECK: %[[ROWS:[0-9]+]] = mul %[[START]], %[[S0]] : i64
# CHECK: %[[EIGHT:[0-9]+]] = const 8 : i64
# CHECK: array_view %a, %[[ROWS]], [%{{[0-9]+}}, %{{[0-9]+}}], [%[[S0]], %[[EIGHT]]] : array<f32, 2, any>
