# RUN: %not %kaji-compile %s --kernel k --sig 'void(int64[:], UniTuple(UniTuple(int32 x 200) x 200))' --emit ir 2>&1 | %FileCheck %s
# CHECK: error: 'UniTuple(type x 200)' is over kaji's limit of 10000 tuple elements; use an array


def k(out, t):
    out[0] = len(t)
