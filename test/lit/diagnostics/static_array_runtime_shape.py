# A local or shared array whose shape is known only at run time: Numba's typing error (its
# header, with the argument types as Numba prints them), then kaji's words.
# RUN: %not %kaji-compile %s --kernel scalar_shape --sig 'void(float32[:])' --emit ir 2>&1 | %FileCheck %s --check-prefix=SCALAR --strict-whitespace
# RUN: %not %kaji-compile %s --kernel tuple_shape --sig 'void(float32[:, :])' --emit ir 2>&1 | %FileCheck %s --check-prefix=TUPLE --strict-whitespace
import numpy as np

from kaji import cuda


def scalar_shape(a):
    s = cuda.shared.array(shape=a[0], dtype=np.float32)
    a[0] = s[0]


def tuple_shape(a):
    s = cuda.local.array((1, a[0]), np.int16)
    a[0, 0] = s[0, 0]

# SCALAR: {{.*}}static_array_runtime_shape.py:11:33: error: No implementation of function Function(<function shared.array>) found for signature:
# SCALAR-NEXT: {{^}} {{$}}
# SCALAR-NEXT: {{^}} >>> array(shape=float32, dtype=class(float32)){{$}}
# SCALAR-NEXT: {{^}} {{$}}
# SCALAR-NEXT: {{^}}the shape of a shared array must be positive constant integers (or 0 for dynamic shared memory), not 'a[0]'{{$}}
# TUPLE: >>> array(shape=Tuple(Literal[int](1), array(float32, 1d, A)), dtype=class(int16))
# TUPLE-NEXT: {{^}} {{$}}
# TUPLE-NEXT: {{^}}the shape of a local array must be positive constant integers, not '(1, a[0])'{{$}}
