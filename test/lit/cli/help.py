# RUN: %kaji-compile --help | %FileCheck %s
# RUN: %not %kaji-compile 2>&1 | %FileCheck %s --check-prefix=NOINPUT
# RUN: %not %kaji-compile %s --emit bytecode 2>&1 | %FileCheck %s --check-prefix=EMIT
# RUN: %not %kaji-compile %s --frobnicate 2>&1 | %FileCheck %s --check-prefix=OPTION
# RUN: %not %kaji-compile %s.missing 2>&1 | %FileCheck %s --check-prefix=MISSING

# CHECK: usage: kaji-compile FILE.py [options]
# CHECK: --emit KIND
# NOINPUT: kaji-compile: error: no input file
# EMIT: kaji-compile: error: unknown --emit kind 'bytecode' (expected ast, ir, llvm, cuda, ptx, cubin or ltoir)
# OPTION: kaji-compile: error: unknown option '--frobnicate'
# MISSING: kaji-compile: error: cannot open '{{.*}}help.py.missing'
