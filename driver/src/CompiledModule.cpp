#include "kaji/driver/CompiledModule.h"

#include <charconv>

namespace kaji::driver {
namespace {

// The first line names the format, so that a record of another layout is never misread.
constexpr std::string_view kFormatLine = "kaji compiled module 1\n";
constexpr std::string_view kPtxLine = "ptx\n";
constexpr std::string_view kLtoIrLine = "lto-ir\n";

// Fields are tab-separated and records newline-ended, so both are escaped inside a field.
std::string escape(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '\\')
      out += "\\\\";
    else if (c == '\n')
      out += "\\n";
    else if (c == '\t')
      out += "\\t";
    else
      out += c;
  }
  return out;
}

std::optional<std::string> unescape(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\\') {
      out += text[i];
      continue;
    }
    if (++i == text.size())
      return std::nullopt;
    char next = text[i];
    if (next != 'n' && next != 't' && next != '\\')
      return std::nullopt;
    out += next == 'n' ? '\n' : next == 't' ? '\t' : '\\';
  }
  return out;
}

std::vector<std::string_view> fields(std::string_view line) {
  std::vector<std::string_view> parts;
  for (size_t tab; (tab = line.find('\t')) != std::string_view::npos; line.remove_prefix(tab + 1))
    parts.push_back(line.substr(0, tab));
  parts.push_back(line);
  return parts;
}

std::optional<unsigned> number(std::string_view text) {
  unsigned value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size())
    return std::nullopt;
  return value;
}

std::optional<bool> flag(std::string_view text) {
  if (text == "0" || text == "1")
    return text == "1";
  return std::nullopt;
}

// One line of the record before the PTX, read into `module`; false if it is malformed.
bool readLine(std::string_view line, CompiledModule &module) {
  std::vector<std::string_view> parts = fields(line);
  std::string_view kind = parts[0];
  if (kind == "kernel" && parts.size() == 3) {
    std::optional<std::string> name = unescape(parts[1]);
    std::optional<bool> cooperative = flag(parts[2]);
    if (!name || !cooperative)
      return false;
    module.kernels.push_back({std::move(*name), *cooperative, {}});
    return true;
  }
  if (kind == "recursive" && parts.size() == 3 && !module.kernels.empty()) {
    std::optional<std::string> name = unescape(parts[1]);
    std::optional<unsigned> line = number(parts[2]);
    if (!name || !line)
      return false;
    module.kernels.back().recursiveFunctions.push_back({std::move(*name), *line});
    return true;
  }
  if (kind == "link" && parts.size() == 2) {
    std::optional<std::string> file = unescape(parts[1]);
    if (!file)
      return false;
    module.linkFiles.push_back(std::move(*file));
    return true;
  }
  if (kind == "exception" && parts.size() == 4) {
    std::optional<std::string> site = unescape(parts[1]);
    std::optional<std::string> exception = unescape(parts[2]);
    std::optional<bool> indexError = flag(parts[3]);
    if (!site || !exception || !indexError)
      return false;
    module.exceptions.push_back({std::move(*site), std::move(*exception), *indexError});
    return true;
  }
  return false;
}

} // namespace

std::string serializeCompiledModule(const CompiledModule &module) {
  std::string text(kFormatLine);
  for (const CompiledKernelInfo &kernel : module.kernels) {
    text.append("kernel\t").append(escape(kernel.entryName));
    text.append(kernel.cooperative ? "\t1\n" : "\t0\n");
    for (const RecursiveFunction &function : kernel.recursiveFunctions)
      text.append("recursive\t")
          .append(escape(function.name))
          .append("\t")
          .append(std::to_string(function.line))
          .append("\n");
  }
  for (const ReportedException &entry : module.exceptions)
    text.append("exception\t")
        .append(escape(entry.site))
        .append("\t")
        .append(escape(entry.exception))
        .append(entry.indexError ? "\t1\n" : "\t0\n");
  for (const std::string &file : module.linkFiles)
    text.append("link\t").append(escape(file)).append("\n");
  return module.ltoIr.empty() ? text.append(kPtxLine).append(module.ptx)
                              : text.append(kLtoIrLine).append(module.ltoIr);
}

std::optional<CompiledModule> deserializeCompiledModule(std::string_view text, size_t kernelCount) {
  if (!text.starts_with(kFormatLine))
    return std::nullopt;
  text.remove_prefix(kFormatLine.size());
  CompiledModule module;
  while (!text.starts_with(kPtxLine) && !text.starts_with(kLtoIrLine)) {
    size_t end = text.find('\n');
    if (end == std::string_view::npos || !readLine(text.substr(0, end), module))
      return std::nullopt;
    text.remove_prefix(end + 1);
  }
  if (module.kernels.size() != kernelCount)
    return std::nullopt;
  if (text.starts_with(kPtxLine))
    module.ptx = text.substr(kPtxLine.size());
  else
    module.ltoIr = text.substr(kLtoIrLine.size());
  module.fromDiskCache = true;
  return module;
}

} // namespace kaji::driver
