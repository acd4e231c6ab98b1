# cuda.nanosleep by the nvrtc backend: CUDA's __nanosleep (kernel: ../ptx/nanosleep.py).
# REQUIRES: nvrtc
# RUN: %kaji-compile %S/../ptx/nanosleep.py --backend nvrtc --emit cuda | %FileCheck %s
# RUN: %kaji-compile %S/../ptx/nanosleep.py --backend nvrtc --emit ptx -o %t.ptx
# RUN: %FileCheck %S/../ptx/nanosleep.py < %t.ptx
# RUN: %ptxas %t.ptx
# CHECK: __nanosleep(
