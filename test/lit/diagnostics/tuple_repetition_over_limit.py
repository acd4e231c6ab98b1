# A tuple is refused before it is made: `(1,) * 10**11` ran out of memory, `(1,) * 10**6`
# unrolled for an hour.
# RUN: %not %kaji-compile %s --kernel k --sig 'void(int64[:])' --emit ir 2>&1 | %FileCheck %s --strict-whitespace
# CHECK: {{.*}}tuple_repetition_over_limit.py:10:9: error: tuple of 100000000000 elements in '(1,) * 10 ** 11' is over kaji's limit of 10000 (tuples are unrolled at compile time); use an array
# CHECK-NEXT: {{^}}    t = (1,) * 10**11{{$}}
# CHECK-NEXT: {{^}}        ^{{$}}


def k(out):
    t = (1,) * 10**11
    out[0] = len(t)
