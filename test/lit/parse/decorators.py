# RUN: %kaji-compile %s --emit ast | %FileCheck %s --strict-whitespace
# Decorators: a dotted name, a call with a signature string, a call with keywords.
import kaji
from kaji import cuda, jit

@kaji.jit
def a(x):
    pass

@cuda.jit("void(float32[:])")
def b(x):
    pass

@jit(device=True)
def c(x: float, n: int = 4) -> float:
    return x

# CHECK: {{^}}Import <3:1>{{$}}
# CHECK-NEXT: {{^}}  Alias kaji <3:8>{{$}}
# CHECK-NEXT: {{^}}ImportFrom kaji <4:1>{{$}}
# CHECK-NEXT: {{^}}  Alias cuda <4:18>{{$}}
# CHECK-NEXT: {{^}}  Alias jit <4:24>{{$}}
# CHECK-NEXT: {{^}}FunctionDef a <7:1>{{$}}
# CHECK-NEXT: {{^}}  Decorator{{$}}
# CHECK-NEXT: {{^}}    Attribute jit <6:2>{{$}}
# CHECK-NEXT: {{^}}      Name kaji <6:2>{{$}}
# CHECK-NEXT: {{^}}  Param x <7:7>{{$}}
# CHECK-NEXT: {{^}}  Pass <8:5>{{$}}
# CHECK-NEXT: {{^}}FunctionDef b <11:1>{{$}}
# CHECK-NEXT: {{^}}  Decorator{{$}}
# CHECK-NEXT: {{^}}    Call <10:2>{{$}}
# CHECK-NEXT: {{^}}      Attribute jit <10:2>{{$}}
# CHECK-NEXT: {{^}}        Name cuda <10:2>{{$}}
# CHECK-NEXT: {{^}}      String 'void(float32[:])' <10:11>{{$}}
# CHECK-NEXT: {{^}}  Param x <11:7>{{$}}
# CHECK-NEXT: {{^}}  Pass <12:5>{{$}}
# CHECK-NEXT: {{^}}FunctionDef c <15:1>{{$}}
# CHECK-NEXT: {{^}}  Decorator{{$}}
# CHECK-NEXT: {{^}}    Call <14:2>{{$}}
# CHECK-NEXT: {{^}}      Name jit <14:2>{{$}}
# CHECK-NEXT: {{^}}      Keyword device <14:6>{{$}}
# CHECK-NEXT: {{^}}        Bool True <14:13>{{$}}
# CHECK-NEXT: {{^}}  Param x <15:7>{{$}}
# CHECK-NEXT: {{^}}    Annotation{{$}}
# CHECK-NEXT: {{^}}      Name float <15:10>{{$}}
# CHECK-NEXT: {{^}}  Param n <15:17>{{$}}
# CHECK-NEXT: {{^}}    Annotation{{$}}
# CHECK-NEXT: {{^}}      Name int <15:20>{{$}}
# CHECK-NEXT: {{^}}    Default{{$}}
# CHECK-NEXT: {{^}}      Int 4 <15:26>{{$}}
# CHECK-NEXT: {{^}}  Returns{{$}}
# CHECK-NEXT: {{^}}    Name float <15:32>{{$}}
# CHECK-NEXT: {{^}}  Return <16:5>{{$}}
# CHECK-NEXT: {{^}}    Name x <16:12>{{$}}
