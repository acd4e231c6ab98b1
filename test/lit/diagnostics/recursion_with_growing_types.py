# RUN: %not %kaji-compile %s --kernel k --sig 'void(int64[:])' --emit ir 2>&1 | %FileCheck %s --strict-whitespace
import kaji


@kaji.jit(device=True)
def grow(t, n):
    if n == 0:
        return 0
    return grow(t + (n,), n - 1)


def k(a):
    a[0] = grow((a[0],), a[1])

# Each call makes a longer tuple, so each is a new specialisation: kaji stops after 16.
# CHECK: {{.*}}recursion_with_growing_types.py:6:1: error: 'grow' calls itself with ever new argument types; give its recursive calls the types of its parameters
