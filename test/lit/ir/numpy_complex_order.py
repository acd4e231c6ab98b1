# RUN: %kaji-compile %s --kernel k --sig 'void(boolean[:], complex64[:], complex64[:])' --emit ir | %FileCheck %s
# np.less of complex numbers is numpy's lexicographic order on the parts (the operator `<`
# is an error, test/lit/diagnostics/complex_ordering.py): the real parts order numbers whose
# imaginary parts are not NaN, equal real parts leave it to the imaginary ones.
import numpy as np

import kaji


@kaji.jit
def k(out, a, b):
    out[0] = np.less(a[0], b[0])

# CHECK: %[[A:[0-9]+]] = load %a[
# CHECK: %[[B:[0-9]+]] = load %b[
# CHECK: %[[AR:[0-9]+]] = real %[[A]] : f32
# CHECK: %[[AI:[0-9]+]] = imag %[[A]] : f32
# CHECK: %[[BR:[0-9]+]] = real %[[B]] : f32
# CHECK: %[[BI:[0-9]+]] = imag %[[B]] : f32
# CHECK-DAG: %[[BN:[0-9]+]] = cmp eq %[[BI]], %[[BI]] : f32
# CHECK-DAG: %[[AN:[0-9]+]] = cmp eq %[[AI]], %[[AI]] : f32
# CHECK: %[[NUMBERS:[0-9]+]] = and %[[AN]], %[[BN]] : bool
# CHECK: %[[LT:[0-9]+]] = cmp lt %[[AR]], %[[BR]] : f32
# CHECK: %[[BYREAL:[0-9]+]] = and %[[LT]], %[[NUMBERS]] : bool
# CHECK-DAG: %[[ILT:[0-9]+]] = cmp lt %[[AI]], %[[BI]] : f32
# CHECK-DAG: %[[EQ:[0-9]+]] = cmp eq %[[AR]], %[[BR]] : f32
# CHECK: %[[BYIMAG:[0-9]+]] = and %[[EQ]], %[[ILT]] : bool
# CHECK: %[[LESS:[0-9]+]] = or %[[BYREAL]], %[[BYIMAG]] : bool
# CHECK: store %[[LESS]], %out[
