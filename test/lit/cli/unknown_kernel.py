# RUN: %not %kaji-compile %s --kernel nope --sig 'void()' 2>&1 | %FileCheck %s
import kaji

# CHECK: kaji-compile: error: no function named 'nope' in {{.*}}unknown_kernel.py
