# RUN: %kaji-compile %s --emit ast | %FileCheck %s --strict-whitespace
# Annotated assignments, with and without a value.
def f():
    x: float32 = 0.0
    y: int

# CHECK: {{^}}FunctionDef f <3:1>{{$}}
# CHECK-NEXT: {{^}}  AnnAssign <4:5>{{$}}
# CHECK-NEXT: {{^}}    Name x <4:5>{{$}}
# CHECK-NEXT: {{^}}    Annotation{{$}}
# CHECK-NEXT: {{^}}      Name float32 <4:8>{{$}}
# CHECK-NEXT: {{^}}    Float 0.0 <4:18>{{$}}
# CHECK-NEXT: {{^}}  AnnAssign <5:5>{{$}}
# CHECK-NEXT: {{^}}    Name y <5:5>{{$}}
# CHECK-NEXT: {{^}}    Annotation{{$}}
# CHECK-NEXT: {{^}}      Name int <5:8>{{$}}
