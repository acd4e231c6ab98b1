#include "kaji/driver/PtxAssembler.h"

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <system_error>
#include <vector>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace kaji::driver {
namespace {

bool isExecutable(const std::filesystem::path &path) {
  return access(path.c_str(), X_OK) == 0 && std::filesystem::is_regular_file(path);
}

// A file in the temporary directory that only this call uses; removed with the object.
class TemporaryFile {
public:
  explicit TemporaryFile(const char *suffix) {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "kaji-ptxas-XXXXXX").string() + suffix;
    int fd = mkstemps(pattern.data(), int(std::string_view(suffix).size()));
    if (fd < 0)
      throw std::runtime_error("cannot create a temporary file for ptxas: " +
                               std::generic_category().message(errno));
    close(fd);
    path_ = pattern;
  }
  ~TemporaryFile() {
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
  }
  TemporaryFile(const TemporaryFile &) = delete;
  TemporaryFile &operator=(const TemporaryFile &) = delete;
  const std::filesystem::path &path() const { return path_; }

private:
  std::filesystem::path path_;
};

std::string readFile(const std::filesystem::path &path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Runs `argv` with stdout and stderr into `log`; its exit status, or -1 if it did not exit.
int run(const std::vector<std::string> &argv, const std::filesystem::path &log) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  std::vector<char *> args;
  for (const std::string &arg : argv)
    args.push_back(const_cast<char *>(arg.c_str()));
  args.push_back(nullptr);
  pid_t pid;
  int spawned = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0)
    throw std::runtime_error("cannot run " + argv[0] + ": " +
                             std::generic_category().message(spawned));
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      throw std::runtime_error("waiting for ptxas failed: " +
                               std::generic_category().message(errno));
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

} // namespace

std::optional<std::filesystem::path> findPtxas() {
  std::vector<std::filesystem::path> candidates;
  if (const char *home = std::getenv("CUDA_HOME"); home && *home)
    candidates.push_back(std::filesystem::path(home) / "bin" / "ptxas");
  candidates.push_back("/usr/local/cuda/bin/ptxas");
  if (const char *path = std::getenv("PATH")) {
    std::istringstream directories(path);
    for (std::string directory; std::getline(directories, directory, ':');)
      if (!directory.empty())
        candidates.push_back(std::filesystem::path(directory) / "ptxas");
  }
  for (const std::filesystem::path &candidate : candidates)
    if (isExecutable(candidate))
      return candidate;
  return std::nullopt;
}

std::string assemblePTX(std::string_view ptx, const std::string &arch, unsigned optLevel) {
  std::optional<std::filesystem::path> ptxas = findPtxas();
  if (!ptxas)
    throw std::runtime_error("a cubin needs the CUDA toolkit's ptxas, found neither in "
                             "$CUDA_HOME/bin, /usr/local/cuda/bin nor $PATH");
  TemporaryFile input(".ptx"), output(".cubin"), log(".log");
  std::ofstream(input.path(), std::ios::binary).write(ptx.data(), std::streamsize(ptx.size()));
  int status = run({ptxas->string(), "--gpu-name", arch, "-O" + std::to_string(optLevel),
                    input.path().string(), "-o", output.path().string()},
                   log.path());
  if (status != 0)
    throw std::runtime_error(ptxas->string() + " failed (exit status " + std::to_string(status) +
                             "):\n" + readFile(log.path()));
  return readFile(output.path());
}

} // namespace kaji::driver
