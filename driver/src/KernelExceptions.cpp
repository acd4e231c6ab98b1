#include "kaji/driver/KernelExceptions.h"

#include "PtxComments.h"

#include "kaji/ir/ExceptionTable.h"

namespace kaji::driver {
namespace {

constexpr std::string_view kPrefix = "// kaji.exception ";
constexpr std::string_view kIndexErrorMark = "\tindex";

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

std::string unescape(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\\' || i + 1 == text.size()) {
      out += text[i];
      continue;
    }
    char next = text[++i];
    out += next == 'n' ? '\n' : next == 't' ? '\t' : next;
  }
  return out;
}

} // namespace

std::string exceptionTableComments(const ir::Module &module, bool boundsChecked) {
  std::string text;
  for (const ir::RaiseSite &entry : ir::exceptionTable(module, boundsChecked))
    text += std::string(kPrefix) + escape(entry.site) + "\t" + escape(entry.exception) +
            (entry.indexError ? std::string(kIndexErrorMark) : "") + "\n";
  return text;
}

std::vector<ReportedException> readExceptionTable(std::string_view ptx) {
  std::vector<ReportedException> table;
  for (std::string_view line : ptxCommentLines(ptx, kPrefix)) {
    size_t tab = line.find('\t');
    if (tab == std::string_view::npos)
      continue;
    std::string_view exception = line.substr(tab + 1);
    bool indexError = exception.ends_with(kIndexErrorMark);
    if (indexError)
      exception.remove_suffix(kIndexErrorMark.size());
    table.push_back({unescape(line.substr(0, tab)), unescape(exception), indexError});
  }
  return table;
}

} // namespace kaji::driver
