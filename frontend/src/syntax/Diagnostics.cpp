#include "kaji/frontend/Diagnostics.h"

#include <fstream>
#include <optional>
#include <string_view>

namespace kaji::frontend {
namespace {

constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";

// Line `index` (0-based) of `text`, with "\n", "\r\n" and "\r" all ending a line,
// as the lexer counts them.
std::optional<std::string> nthLine(std::string_view text, unsigned index) {
  if (text.starts_with(kByteOrderMark))
    text.remove_prefix(kByteOrderMark.size());
  size_t begin = 0;
  for (unsigned line = 0; line < index; ++line) {
    size_t end = text.find_first_of("\r\n", begin);
    if (end == std::string_view::npos)
      return std::nullopt;
    begin = end + (text.compare(end, 2, "\r\n") == 0 ? 2 : 1);
  }
  if (begin >= text.size())
    return std::nullopt;
  size_t end = text.find_first_of("\r\n", begin);
  return std::string(text.substr(begin, end == std::string_view::npos ? end : end - begin));
}

// The line as the user wrote it: dedented text gets its indentation back as
// spaces, so that columns (which include columnOffset) line up with it.
std::optional<std::string> lineFromSources(const ir::Location &loc,
                                           const std::vector<const SourceFile *> &sources) {
  for (const SourceFile *source : sources) {
    if (!source || !source->name || *source->name != *loc.file || loc.line < source->firstLine)
      continue;
    if (auto line = nthLine(source->text, loc.line - source->firstLine))
      return std::string(source->columnOffset, ' ') + *line;
  }
  return std::nullopt;
}

std::optional<std::string> lineFromDisk(const ir::Location &loc) {
  std::ifstream file(*loc.file, std::ios::binary);
  if (!file)
    return std::nullopt;
  std::string line;
  for (unsigned number = 1; std::getline(file, line); ++number) {
    if (number < loc.line)
      continue;
    if (!line.empty() && line.back() == '\r')
      line.pop_back();
    if (number == 1 && std::string_view(line).starts_with(kByteOrderMark))
      line.erase(0, kByteOrderMark.size());
    return line;
  }
  return std::nullopt;
}

// Spaces up to the column, except that tabs in the line are copied so that the
// caret lines up however the terminal expands them. Columns count code points.
std::string caretLine(const std::string &line, unsigned column) {
  std::string prefix;
  unsigned current = 1;
  for (size_t i = 0; i < line.size() && current < column; ++i) {
    unsigned char c = static_cast<unsigned char>(line[i]);
    if ((c & 0xC0) == 0x80)
      continue;
    prefix += c == '\t' ? '\t' : ' ';
    ++current;
  }
  if (current < column)
    prefix.append(column - current, ' ');
  return prefix + "^";
}

} // namespace

std::string renderDiagnostic(const ir::CompileError &error,
                             const std::vector<const SourceFile *> &sources) {
  const ir::Location &loc = error.location();
  std::string header = loc.fileName();
  if (loc.known()) {
    header.append(":").append(std::to_string(loc.line));
    if (loc.col)
      header.append(":").append(std::to_string(loc.col));
  }
  std::string out = header + ": error: " + error.what() + "\n";
  if (!loc.known() || !loc.file)
    return out;
  std::optional<std::string> line = lineFromSources(loc, sources);
  if (!line)
    line = lineFromDisk(loc);
  if (!line)
    return out;
  out += *line + "\n";
  if (loc.col)
    out += caretLine(*line, loc.col) + "\n";
  return out;
}

} // namespace kaji::frontend
