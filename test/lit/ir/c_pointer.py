# RUN: %kaji-compile %s --kernel add_one --sig 'void(uint8*, uint32)' --emit ir | %FileCheck %s
# RUN: %kaji-compile %s --kernel add_one --sig '(float64 *, uint32) -> none' --emit ir | %FileCheck %s --check-prefix=F64
# RUN: %not %kaji-compile %s --kernel add_one --sig 'void(float32[:]*, uint32)' --emit ir 2>&1 | %FileCheck %s --check-prefix=NOT-NUMBERS
import kaji


# A C pointer parameter is its address, a u64; the kernel indexes the array that starts
# there, which has no end.
# CHECK-LABEL: kernel @add_one(%x: u64, %n: u32)
# CHECK: %[[ADDRESS:[0-9]+]] = cast %x : u64 to i64
# CHECK: array_at %[[ADDRESS]], [%{{[0-9]+}}], [%{{[0-9]+}}] : array<u8, 1, C>
# F64: array_at {{.*}} : array<f64, 1, C>
# NOT-NUMBERS: error: a C pointer points to numbers, not to 'float32[:]'
def add_one(x, n):
    i = kaji.grid(1)
    if i < n:
        x[i] += 1
