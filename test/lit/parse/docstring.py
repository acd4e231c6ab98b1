# RUN: %kaji-compile %s --emit ast | %FileCheck %s --strict-whitespace
# A docstring is an expression statement holding a string.
def f(x):
    """Adds one.

    Multi-line docstring.
    """
    return x + 1

# CHECK: {{^}}FunctionDef f <3:1>{{$}}
# CHECK-NEXT: {{^}}  Param x <3:7>{{$}}
# CHECK-NEXT: {{^}}  Expr <4:5>{{$}}
# CHECK-NEXT: {{^}}    String 'Adds one.\n\n    Multi-line docstring.\n    ' <4:5>{{$}}
# CHECK-NEXT: {{^}}  Return <8:5>{{$}}
# CHECK-NEXT: {{^}}    BinOp + <8:12>{{$}}
# CHECK-NEXT: {{^}}      Name x <8:12>{{$}}
# CHECK-NEXT: {{^}}      Int 1 <8:16>{{$}}
