# RUN: %kaji-compile %s --emit ast | %FileCheck %s --strict-whitespace
# Integer, float, string, bool and None literals; integers are unsigned 64-bit.
def f():
    a = 0x_FF + 0o17 + 0b1_01 + 1_000 + 18446744073709551615
    b = 1. + .5 + 1e-3 + 1_000.5 + 1E+10
    c = 'x' "y" r'\n'
    d = True, False, None

# CHECK: {{^}}FunctionDef f <3:1>{{$}}
# CHECK-NEXT: {{^}}  Assign <4:5>{{$}}
# CHECK-NEXT: {{^}}    Name a <4:5>{{$}}
# CHECK-NEXT: {{^}}    BinOp + <4:9>{{$}}
# CHECK-NEXT: {{^}}      BinOp + <4:9>{{$}}
# CHECK-NEXT: {{^}}        BinOp + <4:9>{{$}}
# CHECK-NEXT: {{^}}          BinOp + <4:9>{{$}}
# CHECK-NEXT: {{^}}            Int 255 <4:9>{{$}}
# CHECK-NEXT: {{^}}            Int 15 <4:17>{{$}}
# CHECK-NEXT: {{^}}          Int 5 <4:24>{{$}}
# CHECK-NEXT: {{^}}        Int 1000 <4:33>{{$}}
# CHECK-NEXT: {{^}}      Int 18446744073709551615 <4:41>{{$}}
# CHECK-NEXT: {{^}}  Assign <5:5>{{$}}
# CHECK-NEXT: {{^}}    Name b <5:5>{{$}}
# CHECK-NEXT: {{^}}    BinOp + <5:9>{{$}}
# CHECK-NEXT: {{^}}      BinOp + <5:9>{{$}}
# CHECK-NEXT: {{^}}        BinOp + <5:9>{{$}}
# CHECK-NEXT: {{^}}          BinOp + <5:9>{{$}}
# CHECK-NEXT: {{^}}            Float 1.0 <5:9>{{$}}
# CHECK-NEXT: {{^}}            Float 0.5 <5:14>{{$}}
# CHECK-NEXT: {{^}}          Float 0.001 <5:19>{{$}}
# CHECK-NEXT: {{^}}        Float 1000.5 <5:26>{{$}}
# CHECK-NEXT: {{^}}      Float 1e+10 <5:36>{{$}}
# CHECK-NEXT: {{^}}  Assign <6:5>{{$}}
# CHECK-NEXT: {{^}}    Name c <6:5>{{$}}
# CHECK-NEXT: {{^}}    String 'xy\\n' <6:9>{{$}}
# CHECK-NEXT: {{^}}  Assign <7:5>{{$}}
# CHECK-NEXT: {{^}}    Name d <7:5>{{$}}
# CHECK-NEXT: {{^}}    Tuple <7:9>{{$}}
# CHECK-NEXT: {{^}}      Bool True <7:9>{{$}}
# CHECK-NEXT: {{^}}      Bool False <7:15>{{$}}
# CHECK-NEXT: {{^}}      None <7:22>{{$}}
