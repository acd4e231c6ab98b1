// The compiler version, part of every on-disk cache key.
#include "kaji/driver/Version.h"

namespace kaji::driver {

const char *compilerVersion() { return KAJI_VERSION_STRING; }

} // namespace kaji::driver
