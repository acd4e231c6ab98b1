# RUN: %not %kaji-compile %s --kernel k --sig 'void(record<8, align 4, x: f32 at 0, y: i32 at 4>[:])' --emit ir 2>&1 | %FileCheck %s
def k(a):
    a[0] = a[1]

# CHECK: {{.*}}record_whole_assignment.py:3:5: error: cannot assign to 'a[0]': kernels assign a record's fields, not a whole record
