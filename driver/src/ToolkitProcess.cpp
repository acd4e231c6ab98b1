#include "ToolkitProcess.h"

#include "kaji/abi/CudaToolkit.h"

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <system_error>

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

} // namespace

std::optional<std::filesystem::path> findToolkitProgram(const std::string &name) {
  std::vector<std::filesystem::path> candidates =
      abi::inCudaToolkit(std::filesystem::path("bin") / name);
  if (const char *path = std::getenv("PATH")) {
    std::istringstream directories(path);
    for (std::string directory; std::getline(directories, directory, ':');)
      if (!directory.empty())
        candidates.push_back(std::filesystem::path(directory) / name);
  }
  for (const std::filesystem::path &candidate : candidates)
    if (isExecutable(candidate))
      return candidate;
  return std::nullopt;
}

TemporaryFile::TemporaryFile(const char *suffix) {
  std::string pattern =
      (std::filesystem::temp_directory_path() / "kaji-toolkit-XXXXXX").string() + suffix;
  int fd = mkstemps(pattern.data(), int(std::string_view(suffix).size()));
  if (fd < 0)
    throw std::runtime_error("cannot create a temporary file for the CUDA toolkit: " +
                             std::generic_category().message(errno));
  close(fd);
  path_ = pattern;
}

TemporaryFile::~TemporaryFile() {
  std::error_code ignored;
  std::filesystem::remove(path_, ignored);
}

std::string readFile(const std::filesystem::path &path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void writeFile(const std::filesystem::path &path, std::string_view bytes) {
  std::ofstream(path, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
}

int runProgram(const std::vector<std::string> &argv, const std::filesystem::path &log) {
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
      throw std::runtime_error("waiting for " + argv[0] +
                               " failed: " + std::generic_category().message(errno));
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

} // namespace kaji::driver
