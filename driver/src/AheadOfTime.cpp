#include "kaji/driver/AheadOfTime.h"

#include "kaji/abi/KernelABI.h"
#include "kaji/driver/Fatbin.h"
#include "kaji/driver/Version.h"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <stdexcept>

namespace kaji::driver {
namespace {

bool isIdentifier(const std::string &name) {
  return !name.empty() && (std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_') &&
         std::all_of(name.begin(), name.end(), [](char c) {
           return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
         });
}

// The C type of a scalar kind as the kernel ABI passes it.
std::string cScalar(ir::ScalarKind kind) {
  using K = ir::ScalarKind;
  switch (kind) {
  case K::Bool:
    return "bool";
  case K::Int8:
    return "int8_t";
  case K::Int16:
    return "int16_t";
  case K::Int32:
    return "int32_t";
  case K::Int64:
    return "int64_t";
  case K::UInt8:
  case K::Float8E4M3:
  case K::Float8E5M2:
  case K::Float8E8M0:
    return "uint8_t";
  case K::UInt16:
    return "uint16_t";
  case K::UInt32:
    return "uint32_t";
  case K::UInt64:
    return "uint64_t";
  case K::Float16:
  case K::BFloat16:
    return "uint16_t";
  case K::Float32:
    return "float";
  case K::Float64:
    return "double";
  case K::Complex64:
    return "kaji_complex64";
  case K::Complex128:
    return "kaji_complex128";
  }
  return "";
}

// One parameter of a kernel as its launcher takes it.
struct Parameter {
  std::string name;
  ir::Type type;
  std::string cType;    // scalars: cScalar; arrays: their struct
  std::string typeText; // as the signature writes it, for the comment
};

std::string arrayStruct(const ir::Type &type) {
  return "kaji_array_" + std::string(ir::numpyName(type.scalarKind())) + "_" +
         std::to_string(type.ndim()) + "d";
}

// The type as a signature writes it: float32, float32[:, ::1].
std::string signatureText(const ir::Type &type) {
  std::string text(ir::numpyName(type.scalarKind()));
  if (!type.isArray())
    return text;
  text += "[";
  for (unsigned d = 0; d < type.ndim(); ++d) {
    bool unit = (type.layout() == ir::Layout::C && d + 1 == type.ndim()) ||
                (type.layout() == ir::Layout::F && d == 0);
    text += (d ? ", " : "") + std::string(unit ? "::1" : ":");
  }
  return text + "]";
}

std::vector<Parameter> parametersOf(const KernelSpec &kernel) {
  const std::string &kernelName = kernel.function.def->name;
  if (!kernel.structure.empty())
    for (size_t i = 0; i < kernel.structure.size(); ++i) {
      const frontend::ParameterStructure &shape = kernel.structure[i];
      if (shape.tuple || shape.pointee || shape.typeValue)
        throw std::invalid_argument(
            "--emit aot: parameter " + std::to_string(i + 1) + " of '" + kernelName +
            "' is a tuple, a C pointer or a type; an ahead-of-time launcher takes arrays and "
            "scalars");
    }
  std::vector<Parameter> parameters;
  for (size_t i = 0; i < kernel.argTypes.size(); ++i) {
    const ir::Type &type = kernel.argTypes[i];
    std::string name = i < kernel.function.def->params.size() ? kernel.function.def->params[i].name
                                                              : "arg" + std::to_string(i);
    bool plainArray = type.isArray() && !type.isVectorArray() && type.elementType().isScalar();
    if (!type.isScalar() && !plainArray)
      throw std::invalid_argument("--emit aot: parameter '" + name + "' of '" + kernelName +
                                  "' is " + type.str() +
                                  "; an ahead-of-time launcher takes arrays of numbers and "
                                  "numbers");
    parameters.push_back({name, type,
                          type.isArray() ? arrayStruct(type) : cScalar(type.scalarKind()),
                          signatureText(type)});
  }
  return parameters;
}

std::string cString(const std::string &text) {
  std::string quoted = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\')
      quoted += std::string("\\") + char(c);
    else if (c == '\n')
      quoted += "\\n";
    else if (c < 0x20 || c >= 0x7f) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\%03o", c);
      quoted += escaped;
    } else
      quoted += char(c);
  }
  return quoted + "\"";
}

std::string upper(std::string text) {
  for (char &c : text)
    c = char(std::toupper(static_cast<unsigned char>(c)));
  return text;
}

struct Kernel {
  std::string name;
  std::string entry;
  bool cooperative = false;
  std::vector<Parameter> parameters;
};

std::string prototype(const std::string &module, const Kernel &kernel) {
  std::string text = "CUresult " + module + "_" + kernel.name + "(kaji_launch launch";
  for (const Parameter &parameter : kernel.parameters)
    text += ", " + parameter.cType + " " + parameter.name;
  return text + ")";
}

std::string header(const std::string &module, const std::vector<Kernel> &kernels,
                   const std::vector<std::string> &archs, const std::string &ptxArch) {
  std::ostringstream out;
  std::string guard = "KAJI_AOT_" + upper(module) + "_H";
  out << "// " << module << ".h: launchers of kernels compiled ahead of time by kaji-compile "
      << compilerVersion() << " for";
  for (const std::string &arch : archs)
    out << " " << arch;
  out << " (and " << ptxArch << "'s PTX for newer GPUs).\n"
      << "// Each launcher loads the embedded fatbin into the calling thread's current CUDA\n"
      << "// context on first use and launches there; it returns the CUresult of what failed,\n"
      << "// and " << module << "_error() says what that was.\n"
      << "#ifndef " << guard << "\n#define " << guard << "\n\n"
      << "#include <cuda.h>\n#include <stdbool.h>\n#include <stdint.h>\n\n"
      << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n"
      << "#ifndef KAJI_AOT_COMMON\n#define KAJI_AOT_COMMON\n"
      << "// The grid and the block (x, y, z; 0 counts as 1), the dynamic shared memory in bytes\n"
      << "// and the stream of a launch.\n"
      << "typedef struct kaji_launch {\n  unsigned grid[3];\n  unsigned block[3];\n"
      << "  unsigned shared_bytes;\n  CUstream stream;\n} kaji_launch;\n"
      << "typedef struct kaji_complex64 {\n  float real, imag;\n} kaji_complex64;\n"
      << "typedef struct kaji_complex128 {\n  double real, imag;\n} kaji_complex128;\n"
      << "#endif\n\n";
  std::vector<std::string> declared;
  for (const Kernel &kernel : kernels)
    for (const Parameter &parameter : kernel.parameters) {
      if (!parameter.type.isArray() ||
          std::find(declared.begin(), declared.end(), parameter.cType) != declared.end())
        continue;
      declared.push_back(parameter.cType);
      std::string macro = upper(parameter.cType);
      unsigned ndim = parameter.type.ndim();
      out << "#ifndef " << macro << "\n#define " << macro << "\n"
          << "// A device array: its data, its extents and its strides in bytes.\n"
          << "typedef struct " << parameter.cType << " {\n  "
          << cScalar(parameter.type.scalarKind()) << " *data;\n  int64_t shape[" << ndim
          << "];\n  int64_t strides[" << ndim << "];\n} " << parameter.cType << ";\n#endif\n\n";
    }
  for (const Kernel &kernel : kernels) {
    out << "// " << kernel.name << "(";
    for (size_t i = 0; i < kernel.parameters.size(); ++i)
      out << (i ? ", " : "") << kernel.parameters[i].name << ": " << kernel.parameters[i].typeText;
    out << ")" << (kernel.cooperative ? ", a cooperative launch (grid sync)" : "") << "\n"
        << prototype(module, kernel) << ";\n\n";
  }
  out << "// What the last failing call of this module's functions on the calling thread failed\n"
      << "// on; \"\" after a call that succeeded.\n"
      << "const char *" << module << "_error(void);\n\n"
      << "// Once the launches have finished: *message is the first exception a kernel raised\n"
      << "// (\"file.py:line:col: in 'kernel': Class: text\"), or NULL when none did, and the\n"
      << "// record is cleared. Raises are reported by kernels compiled with debug=True.\n"
      << "CUresult " << module << "_exception(const char **message);\n\n"
      << "#ifdef __cplusplus\n}\n#endif\n\n#endif\n";
  return out.str();
}

// The test that an array argument has the layout its type promises (C or F contiguous), and
// holds no more than abi::kMaxArrayBytes.
void checkArray(std::ostream &out, const std::string &function, const Parameter &parameter) {
  unsigned ndim = parameter.type.ndim();
  const std::string &name = parameter.name;
  std::string element = "(int64_t)sizeof(*" + name + ".data)";
  out << "  {\n    int64_t bytes = " << element << ";\n";
  out << "    for (int d = 0; d < " << ndim << "; ++d) {\n"
      << "      if (" << name << ".shape[d] < 0 || (" << name << ".shape[d] != 0 && bytes > "
      << abi::kMaxArrayBytes << "LL / " << name << ".shape[d]))\n"
      << "        return invalid(\"" << function << ": argument '" << name
      << "' has a negative extent or more than 2**62 bytes\");\n"
      << "      bytes *= " << name << ".shape[d];\n    }\n";
  if (parameter.type.layout() != ir::Layout::Any) {
    bool c = parameter.type.layout() == ir::Layout::C;
    out << "    int64_t stride = " << element << ";\n"
        << "    for (int d = " << (c ? ndim - 1 : 0) << "; d "
        << (c ? ">= 0; --d" : "< " + std::to_string(ndim) + "; ++d") << ") {\n"
        << "      if (" << name << ".shape[d] > 1 && " << name << ".strides[d] != stride)\n"
        << "        return invalid(\"" << function << ": argument '" << name << "' is not "
        << (c ? "C" : "Fortran") << "-contiguous, as " << parameter.typeText << " says\");\n"
        << "      stride *= " << name << ".shape[d];\n    }\n";
  }
  out << "  }\n";
}

std::string source(const std::string &module, const std::vector<Kernel> &kernels,
                   const std::vector<ReportedException> &exceptions, const std::string &fatbin) {
  std::ostringstream out;
  out << "// " << module << ".c: the launchers declared in " << module
      << ".h and the fatbin they load.\n"
      << "#include \"" << module << ".h\"\n\n#include <pthread.h>\n#include <stdio.h>\n\n"
      << "static const unsigned char fatbin[] __attribute__((aligned(8))) = {";
  for (size_t i = 0; i < fatbin.size(); ++i)
    out << (i % 16 ? " " : "\n    ") << unsigned(static_cast<unsigned char>(fatbin[i])) << ",";
  out << "\n};\n\nenum { KERNELS = " << kernels.size() << ", CONTEXTS = 64 };\n"
      << "static const char *const entries[KERNELS] = {";
  for (const Kernel &kernel : kernels)
    out << cString(kernel.entry) << ", ";
  out << "};\n";
  if (!exceptions.empty()) {
    out << "static const char *const exceptions[] = {\n";
    for (const ReportedException &exception : exceptions)
      out << "    " << cString(exception.site + ": " + exception.exception) << ",\n";
    out << "};\n";
  }
  out << R"C(
// The fatbin's module in each context a launcher ran in (a context has its own modules).
static struct {
  CUcontext context;
  CUmodule module;
  CUfunction functions[KERNELS];
} loaded[CONTEXTS];
static unsigned loaded_count;
static pthread_mutex_t loading = PTHREAD_MUTEX_INITIALIZER;
static _Thread_local char last_error[512];

static CUresult failed(const char *call, CUresult result) {
  const char *name = NULL, *text = NULL;
  cuGetErrorName(result, &name);
  cuGetErrorString(result, &text);
  snprintf(last_error, sizeof last_error, "%s: %s (%s)", call, name ? name : "unknown error",
           text ? text : "");
  return result;
}

static CUresult invalid(const char *message) {
  snprintf(last_error, sizeof last_error, "%s", message);
  return CUDA_ERROR_INVALID_VALUE;
}

// The module loaded in the current context, loading it there the first time.
static CUresult module_here(unsigned *slot) {
  CUcontext context = NULL;
  CUresult result = cuCtxGetCurrent(&context);
  if (result != CUDA_SUCCESS)
    return failed("cuCtxGetCurrent", result);
  if (context == NULL)
    return failed(
        "cuCtxGetCurrent (no current context: cuCtxSetCurrent or cuDevicePrimaryCtxRetain first)",
        CUDA_ERROR_INVALID_CONTEXT);
  pthread_mutex_lock(&loading);
  for (unsigned i = 0; i < loaded_count; ++i)
    if (loaded[i].context == context) {
      *slot = i;
      pthread_mutex_unlock(&loading);
      return CUDA_SUCCESS;
    }
  if (loaded_count == CONTEXTS) {
    pthread_mutex_unlock(&loading);
    return invalid("the fatbin is loaded in 64 contexts already, the most this launcher keeps");
  }
  unsigned i = loaded_count;
  result = cuModuleLoadData(&loaded[i].module, fatbin);
  if (result != CUDA_SUCCESS) {
    pthread_mutex_unlock(&loading);
    return failed("cuModuleLoadData", result);
  }
  for (unsigned k = 0; k < KERNELS; ++k) {
    result = cuModuleGetFunction(&loaded[i].functions[k], loaded[i].module, entries[k]);
    if (result != CUDA_SUCCESS) {
      cuModuleUnload(loaded[i].module);
      pthread_mutex_unlock(&loading);
      return failed("cuModuleGetFunction", result);
    }
  }
  loaded[i].context = context;
  loaded_count = i + 1;
  *slot = i;
  pthread_mutex_unlock(&loading);
  return CUDA_SUCCESS;
}

static unsigned at_least_one(unsigned extent) { return extent ? extent : 1; }
)C";
  out << "\nconst char *" << module << "_error(void) { return last_error; }\n";
  for (size_t k = 0; k < kernels.size(); ++k) {
    const Kernel &kernel = kernels[k];
    std::string function = module + "_" + kernel.name;
    out << "\n" << prototype(module, kernel) << " {\n  last_error[0] = 0;\n";
    for (const Parameter &parameter : kernel.parameters)
      if (parameter.type.isArray())
        checkArray(out, function, parameter);
    out << "  unsigned slot;\n  CUresult result = module_here(&slot);\n"
        << "  if (result != CUDA_SUCCESS)\n    return result;\n  void *parameters[] = {";
    for (const Parameter &parameter : kernel.parameters) {
      const std::string &name = parameter.name;
      if (!parameter.type.isArray()) {
        if (ir::isComplex(parameter.type.scalarKind()))
          out << "&" << name << ".real, &" << name << ".imag, ";
        else
          out << "&" << name << ", ";
        continue;
      }
      out << "&" << name << ".data, ";
      for (const char *field : {"shape", "strides"})
        for (unsigned d = 0; d < parameter.type.ndim(); ++d)
          out << "&" << name << "." << field << "[" << d << "], ";
    }
    out << "NULL};\n";
    std::string call = kernel.cooperative ? "cuLaunchCooperativeKernel" : "cuLaunchKernel";
    out << "  result = " << call << "(loaded[slot].functions[" << k << "], "
        << "at_least_one(launch.grid[0]), at_least_one(launch.grid[1]), "
           "at_least_one(launch.grid[2]),\n      at_least_one(launch.block[0]), "
           "at_least_one(launch.block[1]), at_least_one(launch.block[2]),\n"
        << "      launch.shared_bytes, launch.stream, parameters"
        << (kernel.cooperative ? "" : ", NULL") << ");\n"
        << "  return result == CUDA_SUCCESS ? result : failed(\"" << call << " (" << kernel.name
        << ")\", result);\n}\n";
  }
  out << "\nCUresult " << module << "_exception(const char **message) {\n  *message = NULL;\n";
  if (exceptions.empty()) {
    out << "  return CUDA_SUCCESS;\n}\n";
    return out.str();
  }
  out << "  last_error[0] = 0;\n  unsigned slot;\n  CUresult result = module_here(&slot);\n"
      << "  if (result != CUDA_SUCCESS)\n    return result;\n"
      << "  CUdeviceptr record;\n  size_t bytes;\n"
      << "  result = cuModuleGetGlobal(&record, &bytes, loaded[slot].module, "
      << cString(abi::kExceptionSlotSymbol) << ");\n"
      << "  if (result != CUDA_SUCCESS)\n    return failed(\"cuModuleGetGlobal\", result);\n"
      << "  int32_t raised = 0;\n  result = cuMemcpyDtoH(&raised, record, sizeof raised);\n"
      << "  if (result != CUDA_SUCCESS)\n    return failed(\"cuMemcpyDtoH\", result);\n"
      << "  if (raised <= 0 || raised > " << exceptions.size() << ")\n    return CUDA_SUCCESS;\n"
      << "  *message = exceptions[raised - 1];\n"
      << "  result = cuMemsetD32(record, 0, 1);\n"
      << "  return result == CUDA_SUCCESS ? result : failed(\"cuMemsetD32\", result);\n}\n";
  return out.str();
}

} // namespace

AheadOfTimeFiles emitAheadOfTime(CompileRequest request, const std::vector<std::string> &archs,
                                 const std::string &name) {
  if (!isIdentifier(name))
    throw std::invalid_argument("--emit aot: the module name '" + name +
                                "' is no C identifier (it prefixes the launchers' names)");
  if (archs.empty())
    throw std::invalid_argument("--emit aot: no architecture to compile for");
  std::vector<std::string> sorted = archs;
  for (const std::string &arch : sorted)
    architectureNumber(arch);
  std::sort(sorted.begin(), sorted.end(), [](const std::string &a, const std::string &b) {
    return std::stoi(architectureNumber(a)) < std::stoi(architectureNumber(b));
  });
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  request.target = Target::CUDA;

  std::vector<Kernel> kernels;
  for (const KernelSpec &spec : request.kernels)
    kernels.push_back({spec.function.def->name, "", false, parametersOf(spec)});
  std::vector<std::pair<std::string, std::string>> cubins;
  for (const std::string &arch : sorted) {
    request.ptx.arch = arch;
    cubins.emplace_back(arch, emitStage(request, Stage::Cubin));
  }
  // The newest architecture's record: its PTX, entry names and exception table.
  CompiledModule record = compile(request);
  if (!record.linkFiles.empty())
    throw std::invalid_argument("--emit aot: the kernels call CUDA C++ functions of " +
                                record.linkFiles.front() +
                                " (cuda.declare_device's link=), which a fatbin of their own "
                                "cannot hold");
  for (size_t k = 0; k < kernels.size(); ++k) {
    kernels[k].entry = record.kernels[k].entryName;
    kernels[k].cooperative = record.kernels[k].cooperative;
  }
  AheadOfTimeFiles files;
  files.fatbin = packFatbin(cubins, sorted.back(), record.ptx);
  files.header = header(name, kernels, sorted, sorted.back());
  files.source = source(name, kernels, record.exceptions, files.fatbin);
  return files;
}

} // namespace kaji::driver
