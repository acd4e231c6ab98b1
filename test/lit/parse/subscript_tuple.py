# RUN: %kaji-compile %s --emit ast | %FileCheck %s --strict-whitespace
# `a[i, j]` has a Tuple index.
def f(a, i, j):
    a[i, j] = a[j, i]

# CHECK: {{^}}FunctionDef f <3:1>{{$}}
# CHECK-NEXT: {{^}}  Param a <3:7>{{$}}
# CHECK-NEXT: {{^}}  Param i <3:10>{{$}}
# CHECK-NEXT: {{^}}  Param j <3:13>{{$}}
# CHECK-NEXT: {{^}}  Assign <4:5>{{$}}
# CHECK-NEXT: {{^}}    Subscript <4:5>{{$}}
# CHECK-NEXT: {{^}}      Name a <4:5>{{$}}
# CHECK-NEXT: {{^}}      Tuple <4:7>{{$}}
# CHECK-NEXT: {{^}}        Name i <4:7>{{$}}
# CHECK-NEXT: {{^}}        Name j <4:10>{{$}}
# CHECK-NEXT: {{^}}    Subscript <4:15>{{$}}
# CHECK-NEXT: {{^}}      Name a <4:15>{{$}}
# CHECK-NEXT: {{^}}      Tuple <4:17>{{$}}
# CHECK-NEXT: {{^}}        Name j <4:17>{{$}}
# CHECK-NEXT: {{^}}        Name i <4:20>{{$}}
