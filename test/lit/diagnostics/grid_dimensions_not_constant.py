# cuda.grid() and cuda.gridsize() take the number of dimensions as a constant: a run-time value
# is named with Numba's word for the error (RequireLiteralValue); no argument is an error too.
# RUN: %not %kaji-compile %s --kernel runtime_ndim --sig 'void(int32)' --emit ir 2>&1 | %FileCheck %s --check-prefix=RUNTIME
# RUN: %not %kaji-compile %s --kernel no_ndim --sig 'void()' --emit ir 2>&1 | %FileCheck %s --check-prefix=NONE
from kaji import cuda


def runtime_ndim(n):
    cuda.gridsize(n)


def no_ndim():
    cuda.grid()

# RUNTIME: {{.*}}grid_dimensions_not_constant.py:9:5: error: kaji.gridsize() takes one constant argument, 1, 2 or 3 (the number of dimensions); RequireLiteralValue: 'n' is not a constant
# NONE: {{.*}}grid_dimensions_not_constant.py:13:5: error: kaji.grid() takes one constant argument, 1, 2 or 3 (the number of dimensions){{$}}
