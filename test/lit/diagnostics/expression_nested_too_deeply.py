# 200 levels of nesting; a chain such as a + b + c is one (docs/language.md, "Limits").
# RUN: python3 -c "print('def k(out, x):\n    out[0] = ' + '-' * 200 + 'x[0]')" > %t.py
# RUN: %not %kaji-compile %t.py --kernel k --sig 'void(float32[:], float32[:])' --emit ir 2>&1 | %FileCheck %s
# CHECK: error: expression nested too deeply (more than 200 levels of parentheses, operands and calls; a chain such as a + b + c counts as one level)
