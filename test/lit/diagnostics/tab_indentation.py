# RUN: %not %kaji-compile %s --emit ast 2>&1 | %FileCheck %s --strict-whitespace
# CHECK: {{.*}}tab_indentation.py:7:2: error: inconsistent use of tabs and spaces in indentation
# CHECK-NEXT: {{^}}	return y{{$}}
# CHECK-NEXT: {{^}}	^{{$}}
def f(x):
        y = x
	return y
