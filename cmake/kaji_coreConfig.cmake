# Imported targets of an installed kaji core: kaji::kaji (libkaji with its headers).
include(${CMAKE_CURRENT_LIST_DIR}/kaji_coreTargets.cmake)
