# cmath.sqrt takes its formula while both parts are finite and branches to CPython's
# special-value table otherwise: each part classified (an i64 class), the table's row
# selected, the entry shifted out of it; the two sides join in a block argument.
# RUN: %kaji-compile %s --kernel k --sig 'void(complex128[:], complex128[:])' --emit ir | %FileCheck %s
import cmath

import kaji


@kaji.jit
def k(out, z):
    out[0] = cmath.sqrt(z[0])

# CHECK-LABEL: kernel @k(
# CHECK: const 1.7976931348623157e+308 : f64
# CHECK: cond_br %{{[0-9]+}}, ^[[SPECIAL:bb[0-9]+]], ^[[FORMULA:bb[0-9]+]]
# CHECK: ^[[SPECIAL]]:
# CHECK: select %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} : i64
# CHECK: shr %{{[0-9]+}}, %{{[0-9]+}} : i64
# CHECK: br ^[[JOIN:bb[0-9]+]](%{{[0-9]+}} : c128)
# CHECK: ^[[FORMULA]]:
# CHECK: math hypot(
# CHECK: math sqrt(
# CHECK: br ^[[JOIN]](%{{[0-9]+}} : c128)
# CHECK: ^[[JOIN]](%[[R:[0-9]+]]: c128):
# CHECK: store %[[R]], %out[%{{[0-9]+}}]
