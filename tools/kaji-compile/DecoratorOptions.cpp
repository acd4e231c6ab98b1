#include "DecoratorOptions.h"

namespace kaji::tools {
namespace {

std::string warningAt(const ir::Location &loc, const std::string &message) {
  return loc.fileName() + ":" + std::to_string(loc.line) + ":" + std::to_string(loc.col) +
         ": warning: " + message;
}

std::optional<unsigned> positiveInt(const frontend::Expr &value) {
  auto *literal = value.as<frontend::IntLiteralExpr>();
  if (!literal || literal->value == 0 || literal->value > UINT32_MAX)
    return std::nullopt;
  return unsigned(literal->value);
}

// Python's launch_bounds: an int or a tuple of 1 to 3 positive ints, unset ones 0.
std::optional<std::array<unsigned, 3>> launchBounds(const frontend::Expr &value) {
  std::vector<const frontend::Expr *> elements{&value};
  if (auto *tuple = value.as<frontend::TupleExpr>()) {
    elements.clear();
    for (const frontend::ExprPtr &element : tuple->elts)
      elements.push_back(element.get());
  }
  if (elements.empty() || elements.size() > 3)
    return std::nullopt;
  std::array<unsigned, 3> bounds{};
  for (size_t i = 0; i < elements.size(); ++i) {
    std::optional<unsigned> bound = positiveInt(*elements[i]);
    if (!bound)
      return std::nullopt;
    bounds[i] = *bound;
  }
  return bounds;
}

// Python's opt: True (3), False (0) or a level 0 to 3; None is the default.
std::optional<unsigned> optLevel(const frontend::Expr &value) {
  if (auto *flag = value.as<frontend::BoolLiteralExpr>())
    return flag->value ? 3u : 0u;
  auto *level = value.as<frontend::IntLiteralExpr>();
  if (level && level->value <= 3)
    return unsigned(level->value);
  return std::nullopt;
}

} // namespace

DecoratorOptions readDecoratorOptions(const frontend::CallExpr &decorator, const CommandLine &cl) {
  DecoratorOptions options;
  for (const frontend::Keyword &kw : decorator.keywords) {
    const frontend::Expr &value = *kw.value;
    auto unread = [&](const std::string &expected) {
      options.warnings.push_back(
          warningAt(value.loc, "'" + kw.name + "' is not applied: " + "kaji-compile reads " +
                                   expected + " written in the decorator"));
    };
    auto notApplied = [&](const std::string &why) {
      options.warnings.push_back(warningAt(value.loc, "'" + kw.name + "' is not applied: " + why));
    };
    if (value.as<frontend::NoneLiteralExpr>() && kw.name != "target" && kw.name != "backend")
      continue; // None is every option's default
    auto *flag = value.as<frontend::BoolLiteralExpr>();
    auto *text = value.as<frontend::StringLiteralExpr>();
    if (kw.name == "device" || kw.name == "inline" || kw.name == "forceinline" ||
        kw.name == "cache") {
      // The frontend reads device/inline/forceinline; the disk cache is no part of an output.
    } else if (kw.name == "fastmath" || kw.name == "lineinfo" || kw.name == "debug" ||
               kw.name == "boundscheck") {
      if (!flag) {
        unread("only True or False");
        continue;
      }
      Stated<bool> stated{flag->value, value.loc};
      (kw.name == "fastmath"   ? options.fastMath
       : kw.name == "lineinfo" ? options.lineInfo
       : kw.name == "debug"    ? options.debug
                               : options.boundsCheck) = stated;
    } else if (kw.name == "opt") {
      std::optional<unsigned> level = optLevel(value);
      if (!level)
        unread("only True, False or a level 0 to 3");
      else
        options.optLevel = Stated<unsigned>{*level, value.loc};
    } else if (kw.name == "max_registers") {
      std::optional<unsigned> count = positiveInt(value);
      if (!count)
        unread("only a positive int");
      else
        options.maxRegisters = Stated<unsigned>{*count, value.loc};
    } else if (kw.name == "launch_bounds") {
      std::optional<std::array<unsigned, 3>> bounds = launchBounds(value);
      if (!bounds)
        unread("only a positive int or a tuple of 1 to 3 of them");
      else
        options.launchBounds = Stated<std::array<unsigned, 3>>{*bounds, value.loc};
    } else if (kw.name == "target" || kw.name == "backend") {
      // The command line chooses what it emits (--target, --backend); a decorator naming
      // the same is no conflict.
      std::string chosen = kw.name == "target" ? (cl.target == TargetKind::CPU ? "cpu" : "cuda")
                                               : (cl.nvrtc ? "nvrtc" : "llvm");
      if (!text || text->value != chosen)
        notApplied("kaji-compile compiles for --" + kw.name + " " + chosen + " (pass --" + kw.name +
                   " to choose)");
    } else if (kw.name == "lto") {
      notApplied("link-time optimisation happens when the kernel is loaded, and kaji-compile's "
                 "output holds the kernel's code alone (--backend nvrtc --emit ltoir gives its "
                 "LTO-IR)");
    } else if (kw.name == "link") {
      notApplied("the files are linked when the kernel is loaded, and kaji-compile's output "
                 "holds the kernel's code alone");
    } else if (kw.name == "shared_memory_carveout") {
      notApplied("the carveout is set when the kernel is loaded, not in its code");
    } else if (kw.name == "extensions") {
      notApplied("kaji-compile has no Python objects to extend the typing with");
    } else {
      notApplied("it is not an option of jit");
    }
  }
  // debug=True also marks lines, as the decorator's debug does.
  if (options.debug && options.debug->value && !(options.lineInfo && options.lineInfo->value))
    options.lineInfo = options.debug;
  return options;
}

namespace {

// The value of one option for the whole output: the command line's, else the one every
// kernel has (stated, or `fallback` where unstated); kernels that differ keep `fallback`.
template <class T>
T combined(const char *keyword, const std::optional<T> &commandLine, const T &fallback,
           const std::vector<KernelOptions> &kernels,
           std::optional<Stated<T>> DecoratorOptions::*option, std::vector<std::string> &warnings) {
  if (commandLine)
    return *commandLine;
  auto valueOf = [&](const KernelOptions &kernel) {
    const std::optional<Stated<T>> &stated = kernel.options.*option;
    return stated ? stated->value : fallback;
  };
  for (const KernelOptions &kernel : kernels)
    if (valueOf(kernel) != valueOf(kernels.front())) {
      for (const KernelOptions &stating : kernels)
        if (const std::optional<Stated<T>> &stated = stating.options.*option)
          warnings.push_back(
              warningAt(stated->loc, std::string("'") + keyword + "' of kernel '" + stating.name +
                                         "' is not applied: the kernels of one output share their "
                                         "options, and theirs differ; compile '" +
                                         stating.name + "' alone (--kernel " + stating.name + ")"));
      return fallback;
    }
  return kernels.empty() ? fallback : valueOf(kernels.front());
}

} // namespace

CommandLine applyDecoratorOptions(const CommandLine &cl, const std::vector<KernelOptions> &kernels,
                                  std::vector<std::string> &warnings) {
  CommandLine applied = cl;
  for (const KernelOptions &kernel : kernels)
    warnings.insert(warnings.end(), kernel.options.warnings.begin(), kernel.options.warnings.end());
  using Options = DecoratorOptions;
  applied.fastMath =
      combined("fastmath", cl.fastMath, false, kernels, &Options::fastMath, warnings);
  applied.debug = combined("debug", cl.debug, false, kernels, &Options::debug, warnings);
  applied.lineInfo =
      combined("lineinfo", cl.lineInfo, false, kernels, &Options::lineInfo, warnings);
  applied.optLevel = combined("opt", cl.optLevel, 3u, kernels, &Options::optLevel, warnings);
  applied.maxRegisters =
      combined("max_registers", cl.maxRegisters, 0u, kernels, &Options::maxRegisters, warnings);
  applied.launchBounds = combined("launch_bounds", cl.launchBounds, std::array<unsigned, 3>{},
                                  kernels, &Options::launchBounds, warnings);
  // Unset, bounds checks follow the target and debug (as boundscheck=None).
  bool checkedByDefault = cl.target == TargetKind::CPU || *applied.debug;
  applied.boundsCheck = combined("boundscheck", cl.boundsCheck, checkedByDefault, kernels,
                                 &Options::boundsCheck, warnings);
  return applied;
}

} // namespace kaji::tools
