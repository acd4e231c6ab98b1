// Running the CUDA toolkit's programs (ptxas, nvdisasm, cuobjdump) on files in the
// temporary directory: finding them, scratch files, and a run that captures their output.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace kaji::driver {

// `name` from the toolkit's bin/ (abi::inCudaToolkit) or $PATH; nothing when there is none.
std::optional<std::filesystem::path> findToolkitProgram(const std::string &name);

// A file in the temporary directory that only this object uses; removed with the object.
class TemporaryFile {
public:
  explicit TemporaryFile(const char *suffix);
  ~TemporaryFile();
  TemporaryFile(const TemporaryFile &) = delete;
  TemporaryFile &operator=(const TemporaryFile &) = delete;
  const std::filesystem::path &path() const { return path_; }

private:
  std::filesystem::path path_;
};

std::string readFile(const std::filesystem::path &path);
void writeFile(const std::filesystem::path &path, std::string_view bytes);

// Runs `argv` with stdout and stderr into `log`; its exit status, or -1 if it did not exit.
// Throws std::runtime_error when it cannot be started.
int runProgram(const std::vector<std::string> &argv, const std::filesystem::path &log);

} // namespace kaji::driver
