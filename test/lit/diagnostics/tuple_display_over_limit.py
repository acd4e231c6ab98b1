# A tuple written out element by element counts too.
# RUN: python3 -c "print('def k(out):\n    t = (' + '1, ' * 10001 + ')\n    out[0] = len(t)')" > %t.py
# RUN: %not %kaji-compile %t.py --kernel k --sig 'void(int64[:])' --emit ir 2>&1 | %FileCheck %s
# CHECK: :2:9: error: tuple of 10001 elements in this tuple display is over kaji's limit of 10000
