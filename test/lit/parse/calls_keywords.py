# RUN: %kaji-compile %s --emit ast | %FileCheck %s --strict-whitespace
# Calls with positional and keyword arguments, attribute chains.
def f(x):
    kaji.shared.array(shape=(32, 4), dtype=float32)
    g(x, 1)(2)

# CHECK: {{^}}FunctionDef f <3:1>{{$}}
# CHECK-NEXT: {{^}}  Param x <3:7>{{$}}
# CHECK-NEXT: {{^}}  Expr <4:5>{{$}}
# CHECK-NEXT: {{^}}    Call <4:5>{{$}}
# CHECK-NEXT: {{^}}      Attribute array <4:5>{{$}}
# CHECK-NEXT: {{^}}        Attribute shared <4:5>{{$}}
# CHECK-NEXT: {{^}}          Name kaji <4:5>{{$}}
# CHECK-NEXT: {{^}}      Keyword shape <4:23>{{$}}
# CHECK-NEXT: {{^}}        Tuple <4:29>{{$}}
# CHECK-NEXT: {{^}}          Int 32 <4:30>{{$}}
# CHECK-NEXT: {{^}}          Int 4 <4:34>{{$}}
# CHECK-NEXT: {{^}}      Keyword dtype <4:38>{{$}}
# CHECK-NEXT: {{^}}        Name float32 <4:44>{{$}}
# CHECK-NEXT: {{^}}  Expr <5:5>{{$}}
# CHECK-NEXT: {{^}}    Call <5:5>{{$}}
# CHECK-NEXT: {{^}}      Call <5:5>{{$}}
# CHECK-NEXT: {{^}}        Name g <5:5>{{$}}
# CHECK-NEXT: {{^}}        Name x <5:7>{{$}}
# CHECK-NEXT: {{^}}        Int 1 <5:10>{{$}}
# CHECK-NEXT: {{^}}      Int 2 <5:13>{{$}}
