# RUN: %not %kaji-compile %s --kernel k --sig 'void(record<8, align 4, x: f32 at 0, y: i32 at 4>[:], record<8, align 4, x: f32 at 0, y: f32 at 4>[:])' --emit ir 2>&1 | %FileCheck %s
# A record takes a whole record of its own type only: the same field names at other types
# are another record.
def k(a, b):
    a[0] = b[1]

# CHECK: {{.*}}record_assignment_of_another_type.py:5:5: error: cannot assign 'record<8, align 4, x: f32 at 0, y: f32 at 4>[]' to 'a[0]', a record<8, align 4, x: f32 at 0, y: i32 at 4>[]: a record takes a record of its own type
