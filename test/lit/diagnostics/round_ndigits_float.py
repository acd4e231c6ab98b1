# RUN: %not %kaji-compile %s --kernel k --sig 'void(float64[:])' --emit ir 2>&1 | %FileCheck %s --strict-whitespace
def k(a):
    a[0] = round(a[0], 1.5)

# CHECK: {{.*}}round_ndigits_float.py:3:24: error: round()'s ndigits must be an integer, not 'float64', in 'round(a[0], 1.5)'
