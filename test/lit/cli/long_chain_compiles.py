# A chain of 10 000 terms is one level of nesting: it compiles, from a file, with the
# compiler's stack limited to 1 MiB (each pass walks the chain in a loop).
# RUN: python3 -c "print('def k(out, x):\n    out[0] = ' + ' + '.join('x[%%d] * 2.0' %% (i %% 7) if i %% 3 == 0 else 'x[%%d]' %% (i %% 7) for i in range(10000)))" > %t.py
# RUN: sh -c "ulimit -s 1024 && %kaji-compile %t.py --kernel k --sig 'void(float32[:], float32[:])' --emit ir" | %FileCheck %s
# CHECK: kernel @k(
# CHECK: store %{{[0-9]+}}, %out{{\[}}%0]
