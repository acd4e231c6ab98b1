# RUN: %kaji-compile %s --emit ast | %FileCheck %s --strict-whitespace
# Operator precedence: * binds tighter than +, shifts looser than +, | loosest.
def f(a, b, c, d):
    return a + b * c - d << 1 | c & d ^ a

# CHECK: {{^}}FunctionDef f <3:1>{{$}}
# CHECK-NEXT: {{^}}  Param a <3:7>{{$}}
# CHECK-NEXT: {{^}}  Param b <3:10>{{$}}
# CHECK-NEXT: {{^}}  Param c <3:13>{{$}}
# CHECK-NEXT: {{^}}  Param d <3:16>{{$}}
# CHECK-NEXT: {{^}}  Return <4:5>{{$}}
# CHECK-NEXT: {{^}}    BinOp | <4:12>{{$}}
# CHECK-NEXT: {{^}}      BinOp << <4:12>{{$}}
# CHECK-NEXT: {{^}}        BinOp - <4:12>{{$}}
# CHECK-NEXT: {{^}}          BinOp + <4:12>{{$}}
# CHECK-NEXT: {{^}}            Name a <4:12>{{$}}
# CHECK-NEXT: {{^}}            BinOp * <4:16>{{$}}
# CHECK-NEXT: {{^}}              Name b <4:16>{{$}}
# CHECK-NEXT: {{^}}              Name c <4:20>{{$}}
# CHECK-NEXT: {{^}}          Name d <4:24>{{$}}
# CHECK-NEXT: {{^}}        Int 1 <4:29>{{$}}
# CHECK-NEXT: {{^}}      BinOp ^ <4:33>{{$}}
# CHECK-NEXT: {{^}}        BinOp & <4:33>{{$}}
# CHECK-NEXT: {{^}}          Name c <4:33>{{$}}
# CHECK-NEXT: {{^}}          Name d <4:37>{{$}}
# CHECK-NEXT: {{^}}        Name a <4:41>{{$}}
