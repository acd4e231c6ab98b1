#pragma once

namespace kaji::driver {

// "0.1.0": the version of the compiler, part of every on-disk cache key.
const char *compilerVersion();

} // namespace kaji::driver
