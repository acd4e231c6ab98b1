# LLVM 19, linked statically into libkaji so the shipped library has no libLLVM dependency.
# LLVM's package version file only accepts an exact major.minor, so check the major here. The
# distributions' LLVM 19 locations come first (Debian and Ubuntu's llvm-19-dev, Fedora's
# llvm19-devel), then -DLLVM_DIR and CMake's default search.
find_package(LLVM CONFIG QUIET
  HINTS /usr/lib/llvm-19/lib/cmake/llvm /usr/lib64/llvm19/lib/cmake/llvm
        /usr/lib/llvm19/lib/cmake/llvm)
set(KAJI_LLVM_HELP
  "kaji needs the development files of LLVM 19 (its CMake package, headers and static "
  "libraries): on Debian or Ubuntu `apt-get install llvm-19-dev` (older releases: from "
  "apt.llvm.org), on Fedora `dnf install llvm19-devel`, or configure with "
  "-DLLVM_DIR=<LLVM 19 prefix>/lib/cmake/llvm")
if(NOT LLVM_FOUND)
  message(FATAL_ERROR "LLVM was not found. " ${KAJI_LLVM_HELP})
endif()
if(NOT LLVM_VERSION_MAJOR EQUAL 19)
  message(FATAL_ERROR "found LLVM ${LLVM_PACKAGE_VERSION} in ${LLVM_DIR}, not 19. "
                      ${KAJI_LLVM_HELP})
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
