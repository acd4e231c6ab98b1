# RUN: %kaji-compile %s --emit ast | %FileCheck %s --strict-whitespace
# Every augmented assignment operator.
def f(x, i):
    x[i] += 1
    x[i] -= 1
    x[i] *= 2
    x[i] /= 2
    x[i] //= 2
    x[i] %= 2
    x[i] **= 2
    i <<= 1
    i >>= 1
    i &= 1
    i |= 1
    i ^= 1
    i @= 1

# CHECK: {{^}}FunctionDef f <3:1>{{$}}
# CHECK-NEXT: {{^}}  Param x <3:7>{{$}}
# CHECK-NEXT: {{^}}  Param i <3:10>{{$}}
# CHECK-NEXT: {{^}}  AugAssign += <4:5>{{$}}
# CHECK-NEXT: {{^}}    Subscript <4:5>{{$}}
# CHECK-NEXT: {{^}}      Name x <4:5>{{$}}
# CHECK-NEXT: {{^}}      Name i <4:7>{{$}}
# CHECK-NEXT: {{^}}    Int 1 <4:13>{{$}}
# CHECK-NEXT: {{^}}  AugAssign -= <5:5>{{$}}
# CHECK-NEXT: {{^}}    Subscript <5:5>{{$}}
# CHECK-NEXT: {{^}}      Name x <5:5>{{$}}
# CHECK-NEXT: {{^}}      Name i <5:7>{{$}}
# CHECK-NEXT: {{^}}    Int 1 <5:13>{{$}}
# CHECK-NEXT: {{^}}  AugAssign *= <6:5>{{$}}
# CHECK-NEXT: {{^}}    Subscript <6:5>{{$}}
# CHECK-NEXT: {{^}}      Name x <6:5>{{$}}
# CHECK-NEXT: {{^}}      Name i <6:7>{{$}}
# CHECK-NEXT: {{^}}    Int 2 <6:13>{{$}}
# CHECK-NEXT: {{^}}  AugAssign /= <7:5>{{$}}
# CHECK-NEXT: {{^}}    Subscript <7:5>{{$}}
# CHECK-NEXT: {{^}}      Name x <7:5>{{$}}
# CHECK-NEXT: {{^}}      Name i <7:7>{{$}}
# CHECK-NEXT: {{^}}    Int 2 <7:13>{{$}}
# CHECK-NEXT: {{^}}  AugAssign //= <8:5>{{$}}
# CHECK-NEXT: {{^}}    Subscript <8:5>{{$}}
# CHECK-NEXT: {{^}}      Name x <8:5>{{$}}
# CHECK-NEXT: {{^}}      Name i <8:7>{{$}}
# CHECK-NEXT: {{^}}    Int 2 <8:14>{{$}}
# CHECK-NEXT: {{^}}  AugAssign %= <9:5>{{$}}
# CHECK-NEXT: {{^}}    Subscript <9:5>{{$}}
# CHECK-NEXT: {{^}}      Name x <9:5>{{$}}
# CHECK-NEXT: {{^}}      Name i <9:7>{{$}}
# CHECK-NEXT: {{^}}    Int 2 <9:13>{{$}}
# CHECK-NEXT: {{^}}  AugAssign **= <10:5>{{$}}
# CHECK-NEXT: {{^}}    Subscript <10:5>{{$}}
# CHECK-NEXT: {{^}}      Name x <10:5>{{$}}
# CHECK-NEXT: {{^}}      Name i <10:7>{{$}}
# CHECK-NEXT: {{^}}    Int 2 <10:14>{{$}}
# CHECK-NEXT: {{^}}  AugAssign <<= <11:5>{{$}}
# CHECK-NEXT: {{^}}    Name i <11:5>{{$}}
# CHECK-NEXT: {{^}}    Int 1 <11:11>{{$}}
# CHECK-NEXT: {{^}}  AugAssign >>= <12:5>{{$}}
# CHECK-NEXT: {{^}}    Name i <12:5>{{$}}
# CHECK-NEXT: {{^}}    Int 1 <12:11>{{$}}
# CHECK-NEXT: {{^}}  AugAssign &= <13:5>{{$}}
# CHECK-NEXT: {{^}}    Name i <13:5>{{$}}
# CHECK-NEXT: {{^}}    Int 1 <13:10>{{$}}
# CHECK-NEXT: {{^}}  AugAssign |= <14:5>{{$}}
# CHECK-NEXT: {{^}}    Name i <14:5>{{$}}
# CHECK-NEXT: {{^}}    Int 1 <14:10>{{$}}
# CHECK-NEXT: {{^}}  AugAssign ^= <15:5>{{$}}
# CHECK-NEXT: {{^}}    Name i <15:5>{{$}}
# CHECK-NEXT: {{^}}    Int 1 <15:10>{{$}}
# CHECK-NEXT: {{^}}  AugAssign @= <16:5>{{$}}
# CHECK-NEXT: {{^}}    Name i <16:5>{{$}}
# CHECK-NEXT: {{^}}    Int 1 <16:10>{{$}}
