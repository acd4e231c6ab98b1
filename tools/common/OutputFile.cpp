#include "OutputFile.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace kaji::tools {

std::string writeOutput(const std::string &path, std::string_view text) {
  bool toStdout = path.empty();
  std::string name = toStdout ? "to standard output" : "'" + path + "'";
  errno = 0;
  std::FILE *file = toStdout ? stdout : std::fopen(path.c_str(), "wb");
  if (!file)
    return "cannot write " + name + ": " + std::strerror(errno);
  bool written = std::fwrite(text.data(), 1, text.size(), file) == text.size();
  int error = written ? 0 : errno;
  bool finished = toStdout ? std::fflush(file) == 0 : std::fclose(file) == 0;
  if (written && !finished)
    error = errno;
  if (written && finished)
    return "";
  return "cannot write " + name + ": " + std::strerror(error ? error : EIO);
}

} // namespace kaji::tools
