# RUN: %kaji-compile %s --kernel swap --sig 'void(float64[:], float64[:], int64)' --emit ir | %FileCheck %s --check-prefix=SWAP
# RUN: %kaji-compile %s --kernel row_after_loop --sig 'void(float64[:], float64[:, :])' --emit ir | %FileCheck %s --check-prefix=ROW
# RUN: %kaji-compile %s --kernel one_local_array --sig 'void(float64[:])' --emit ir | %FileCheck %s --check-prefix=LOCAL
# RUN: %not %kaji-compile %s --kernel two_types --sig 'void(float64[:], int32[:])' --emit ir 2>&1 | %FileCheck %s --check-prefix=TYPES
import kaji
import numpy as np


# Swapped arrays are block arguments of the loop header: SSA values like numbers.
# SWAP-LABEL: kernel @swap(
# SWAP: ^bb1({{.*}}: array<f64, 1, any>, {{.*}}: array<f64, 1, any>)
def swap(a, b, steps):
    for step in range(steps):
        a[0] += 1
        a, b = b, a


# A row bound by each iteration and read after the loop: the last one bound, through the
# loop's block argument.
# ROW-LABEL: kernel @row_after_loop(
# ROW: ^bb1(%{{[0-9]+}}: i64, %[[ROW:[0-9]+]]: array<f64, 1, any>)
# ROW: load %[[ROW]][
def row_after_loop(out, a):
    for i in range(3):
        row = a[i]
    out[0] = row[0]


# An array bound once is that array wherever it is read, past branches and loops: no block
# argument carries it.
# LOCAL-LABEL: kernel @one_local_array(
# LOCAL: %[[TMP:[0-9]+]] = local_array [4]
# LOCAL-NOT: local>)
# LOCAL: load %[[TMP]][
def one_local_array(out):
    tmp = kaji.local.array(4, np.float64)
    for i in range(len(tmp)):
        if i % 2:
            tmp[i] = i
        else:
            tmp[i] = -i
    out[0] = tmp[len(tmp) - 1]


# TYPES: array_variables.py:[[@LINE+4]]:9: error: variable 'x' is assigned both 'float64[:]' and 'int32[:]'; a variable has one type
def two_types(a, b):
    x = a
    if a[0] > 0:
        x = b
    a[0] = x[0]
