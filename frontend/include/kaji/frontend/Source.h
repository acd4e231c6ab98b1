// A piece of Python source handed to the compiler: a whole file (CLI) or one
// function's dedented text with where it sits in its file (decorator).
#pragma once

#include <memory>
#include <string>

namespace kaji::frontend {

struct SourceFile {
  std::shared_ptr<const std::string> name; // file name used in every Location
  std::string text;
  unsigned firstLine = 1;    // line number of text's first line in the file
  unsigned columnOffset = 0; // columns removed by dedenting, added back to every column
};

} // namespace kaji::frontend
