# RUN: %not %kaji-compile %s --emit ir 2>&1 | %FileCheck %s --strict-whitespace
import kaji


@kaji.jit("void(complex128[:], complex128)")
def k(out, z):
    out[0] = z // 2

# CHECK: {{.*}}complex_floor_division.py:7:14: error: unsupported operand types for //: 'complex128' and 'int64' in 'z // 2' (complex numbers have no //, as in Python)
