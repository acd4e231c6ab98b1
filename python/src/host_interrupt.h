// Ctrl-C during a launch on the cpu target. While the launch runs on the main thread, SIGINT
// also asks the executor to stop it (runtime::HostExecutor::requestInterrupt), then runs the
// handler it replaced, Python's, which raises KeyboardInterrupt once the launch has returned
// (errors.cpp turns runtime::LaunchInterrupted into what that handler raises). A SIGINT that
// Python received before the handler was installed is raised before the launch.
#pragma once

#include <signal.h>

namespace kaji::python {

class SigintStopsHostLaunch {
public:
  SigintStopsHostLaunch();
  ~SigintStopsHostLaunch();
  SigintStopsHostLaunch(const SigintStopsHostLaunch &) = delete;
  SigintStopsHostLaunch &operator=(const SigintStopsHostLaunch &) = delete;

private:
  bool installed_ = false;
};

} // namespace kaji::python
