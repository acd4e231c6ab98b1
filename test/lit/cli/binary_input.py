# RUN: printf '\x7fELF\x00\x01\x02' > %t.py
# RUN: %not %kaji-compile %t.py --emit ast 2>&1 | %FileCheck %s
# RUN: head -c 100000 /dev/urandom > %t.rand.py
# RUN: %not %kaji-compile %t.rand.py 2>&1 | %FileCheck %s --check-prefix=RANDOM

# CHECK: error: source contains a NUL byte
# RANDOM: error:
