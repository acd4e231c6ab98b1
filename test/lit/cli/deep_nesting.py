# RUN: python3 -c "print('x = ' + '(' * 100000 + '1' + ')' * 100000)" > %t.py
# RUN: %not %kaji-compile %t.py --emit ast 2>&1 | %FileCheck %s

# CHECK: error: expression nested too deeply
