# RUN: %not %kaji-compile %s --kernel k --sig 'void(float32[:, :])' --emit ir 2>&1 | %FileCheck %s --strict-whitespace
import math

import kaji


def k(a):
    a[0, 1, 2] = 1.0

# CHECK: {{.*}}wrong_index_count.py:8:5: error: 'a' has 2 dimensions but is indexed with 3 indices in 'a[0, 1, 2]'
# CHECK-NEXT: {{^}}    a[0, 1, 2] = 1.0{{$}}
# CHECK-NEXT: {{^}}    ^{{$}}
