# Configuring without LLVM 19 stops with an error that names the package and how to get it
# (cmake/KajiLLVM.cmake), and so does finding another major version. CMake wraps the message at
# word boundaries that move with the length of the paths in it, so the checks read it as one line.
# RUN: rm -rf %t && mkdir -p %t/other
# RUN: %not cmake -S %S/../../.. -B %t/none -DCMAKE_DISABLE_FIND_PACKAGE_LLVM=ON 2>&1 | tr -s '\n ' '  ' | %FileCheck %s --check-prefix=NONE
# RUN: echo 'set(LLVM_FOUND TRUE)' > %t/other/LLVMConfig.cmake
# RUN: echo 'set(LLVM_PACKAGE_VERSION 14.0.6)' >> %t/other/LLVMConfig.cmake
# RUN: echo 'set(LLVM_VERSION_MAJOR 14)' >> %t/other/LLVMConfig.cmake
# RUN: %not cmake -S %S/../../.. -B %t/old -DLLVM_DIR=%t/other 2>&1 | tr -s '\n ' '  ' | %FileCheck %s --check-prefix=OLD
# NONE: LLVM was not found.
# NONE: llvm-19-dev
# NONE: -DLLVM_DIR=<LLVM 19
# OLD: found LLVM 14.0.6 in
# OLD: not 19.
# OLD: llvm-19-dev
