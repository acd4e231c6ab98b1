# LLVM 19, linked statically into libkaji so the shipped library has no libLLVM dependency.
# LLVM's package version file only accepts an exact major.minor, so check the major here.
find_package(LLVM REQUIRED CONFIG HINTS /usr/lib/llvm-19/lib/cmake/llvm NO_DEFAULT_PATH)
if(NOT LLVM_VERSION_MAJOR EQUAL 19)
  message(FATAL_ERROR "kaji needs LLVM 19, found ${LLVM_PACKAGE_VERSION} in ${LLVM_DIR}")
endif()
message(STATUS "kaji: LLVM ${LLVM_PACKAGE_VERSION} from ${LLVM_DIR}")
llvm_map_components_to_libnames(KAJI_LLVM_LIBS
  core support irreader bitreader bitwriter analysis passes target transformutils
  ipo scalaropts instcombine linker nvptxcodegen nvptxdesc nvptxinfo
  x86codegen x86desc x86info x86asmparser orcjit executionengine)
add_library(kaji_llvm INTERFACE)
target_include_directories(kaji_llvm SYSTEM INTERFACE ${LLVM_INCLUDE_DIRS})
target_compile_definitions(kaji_llvm INTERFACE ${LLVM_DEFINITIONS})
target_link_libraries(kaji_llvm INTERFACE ${KAJI_LLVM_LIBS})
find_program(KAJI_FILECHECK FileCheck HINTS ${LLVM_TOOLS_BINARY_DIR} /usr/lib/llvm-19/bin)
