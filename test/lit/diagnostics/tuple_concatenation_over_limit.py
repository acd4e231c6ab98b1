# RUN: %not %kaji-compile %s --kernel k --sig 'void(int64[:])' --emit ir 2>&1 | %FileCheck %s
# CHECK: tuple_concatenation_over_limit.py:7:9: error: tuple of 10001 elements in 't + (3,)' is over kaji's limit of 10000


def k(out):
    t = (1, 2) * 5000
    u = t + (3,)
    out[0] = len(u)
