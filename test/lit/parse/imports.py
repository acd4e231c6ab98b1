# RUN: %kaji-compile %s --emit ast | %FileCheck %s --strict-whitespace
# import and from-import, with and without `as`.
import math
import numpy as np, os.path
from kaji import cuda, jit as j
from math import (sqrt,
                  exp,)

# CHECK: {{^}}Import <3:1>{{$}}
# CHECK-NEXT: {{^}}  Alias math <3:8>{{$}}
# CHECK-NEXT: {{^}}Import <4:1>{{$}}
# CHECK-NEXT: {{^}}  Alias numpy as np <4:8>{{$}}
# CHECK-NEXT: {{^}}  Alias os.path <4:21>{{$}}
# CHECK-NEXT: {{^}}ImportFrom kaji <5:1>{{$}}
# CHECK-NEXT: {{^}}  Alias cuda <5:18>{{$}}
# CHECK-NEXT: {{^}}  Alias jit as j <5:24>{{$}}
# CHECK-NEXT: {{^}}ImportFrom math <6:1>{{$}}
# CHECK-NEXT: {{^}}  Alias sqrt <6:19>{{$}}
# CHECK-NEXT: {{^}}  Alias exp <7:19>{{$}}
