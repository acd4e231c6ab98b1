# RUN: %kaji-compile %s --emit ast | %FileCheck %s --strict-whitespace
# Comments and blank lines, even badly indented ones, produce no statements.
# leading comment

def f(x):  # trailing comment

        # over-indented comment
    y = x  # trailing

  # under-indented comment
    return y

# CHECK: {{^}}FunctionDef f <5:1>{{$}}
# CHECK-NEXT: {{^}}  Param x <5:7>{{$}}
# CHECK-NEXT: {{^}}  Assign <8:5>{{$}}
# CHECK-NEXT: {{^}}    Name y <8:5>{{$}}
# CHECK-NEXT: {{^}}    Name x <8:9>{{$}}
# CHECK-NEXT: {{^}}  Return <11:5>{{$}}
# CHECK-NEXT: {{^}}    Name y <11:12>{{$}}
