# Nested loops over tuples multiply their copies; a function unrolls at most 10 000.
# RUN: %not %kaji-compile %s --kernel k --sig 'void(int64[:])' --emit ir 2>&1 | %FileCheck %s
# CHECK: unrolled_copies_over_limit.py:10:13: error: loops over tuples in 'k' unroll more than 10000 copies of their bodies (nested loops multiply); loop over a range or an array instead


def k(out):
    n = 0
    for i in (0,) * 30:
        for j in (1,) * 30:
            for m in (2,) * 30:
                n += i + j + m
    out[0] = n
