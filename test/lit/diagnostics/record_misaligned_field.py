# RUN: %not %kaji-compile %s --kernel k --sig 'void(float64[:], record<12, align 4, n: i32 at 0, x: f64 at 4>[:])' --emit ir 2>&1 | %FileCheck %s
# A packed record (numpy's default, align=False) of 12 bytes leaves its float64 field
# misaligned in every other element: reading it is an error, not a misaligned load.
def k(out, a):
    out[0] = a[1].x

# CHECK: {{.*}}record_misaligned_field.py:5:14: error: field 'x' at byte 4 needs 8-byte alignment, which the record's elements (12 bytes, aligned to 4) do not give it; lay the record out with np.dtype(..., align=True), in 'a[1].x'
