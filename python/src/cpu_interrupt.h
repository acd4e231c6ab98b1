// Ctrl-C during a launch on the cpu target. While the launch runs on the main thread, SIGINT
// also asks the executor to stop it (runtime::CpuExecutor::requestInterrupt), then runs the
// handler it replaced, Python's, which raises KeyboardInterrupt once the launch has returned
// (errors.cpp turns runtime::LaunchInterrupted into what that handler raises). A SIGINT that
// Python received before the handler was installed is raised before the launch.
#pragma once

#include <signal.h>

namespace kaji::python {

class SigintStopsCpuLaunch {
public:
  SigintStopsCpuLaunch();
  ~SigintStopsCpuLaunch();
  SigintStopsCpuLaunch(const SigintStopsCpuLaunch &) = delete;
  SigintStopsCpuLaunch &operator=(const SigintStopsCpuLaunch &) = delete;

private:
  bool installed_ = false;
};

} // namespace kaji::python
