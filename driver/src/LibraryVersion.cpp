// libkaji's own translation unit: the compiler version, part of every cache key.
#include "kaji/driver/Version.h"

namespace kaji::driver {

const char *compilerVersion() { return KAJI_VERSION_STRING; }

} // namespace kaji::driver
