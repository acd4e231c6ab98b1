# RUN: %not %kaji-compile %s --kernel k --sig 'void(record<8, align 4, x: f32 at 0, y: i32 at 4>[:])' --emit ir 2>&1 | %FileCheck %s --strict-whitespace
def k(a):
    a[0].z = a[0].x

# CHECK: {{.*}}record_unknown_field.py:3:5: error: the record has no field 'z' (its fields: x, y), in 'a[0].z'
# CHECK-NEXT: {{^}}    a[0].z = a[0].x{{$}}
