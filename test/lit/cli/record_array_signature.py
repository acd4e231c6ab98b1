# An array of records in Numba's array form, the record spelt as kaji IR spells it (what
# kaji.types' record type objects hand the parser), compiles like the subscript form.
# RUN: %kaji-compile %s --kernel k --sig '(array(record<8, align 4, x: f32 at 0, n: i32 at 4>, 1d, C), int32) -> none' --emit ir | %FileCheck %s
# RUN: %kaji-compile %s --kernel k --sig 'void(record<8, align 4, x: f32 at 0, n: i32 at 4>[::1], int32)' --emit ir | %FileCheck %s
# RUN: %not %kaji-compile %s --kernel k --sig '(array(record<8, align 4, x: f32 at 0, n: i32>, 1d, C), int32) -> none' --emit ir 2>&1 | %FileCheck %s --check-prefix=MALFORMED
# RUN: %not %kaji-compile %s --kernel k --sig 'void(record<8, align 4, x: f32 at 0, n: i32 at 6>[:], int32)' --emit ir 2>&1 | %FileCheck %s --check-prefix=PAST-END
# RUN: %not %kaji-compile %s --kernel k --sig 'void(record<12, align 4, x: f32 at 0, n: record<4, align 4, i: i32 at 0, w: f32 at 4> at 4>[:], int32)' --emit ir 2>&1 | %FileCheck %s --check-prefix=NESTED-PAST-END
def k(a, n):
    a[0].n = n

# CHECK-LABEL: kernel @k(%a: array<record<8, align 4, x: f32 at 0, n: i32 at 4>, 1, C>, %n: i32)
# MALFORMED: error: malformed record type
# PAST-END: error: unusable record type: field 'n' ends at byte 10, past the record's 8
# NESTED-PAST-END: error: unusable record type: in field 'n': field 'w' ends at byte 8, past the record's 4
