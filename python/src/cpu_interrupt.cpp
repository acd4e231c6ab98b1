#include "cpu_interrupt.h"

#include "bindings.h"

#include "kaji/runtime/CpuExecutor.h"

namespace kaji::python {
namespace {

// The handler a launch replaced; launches hold the GIL, so one at a time installs.
struct sigaction replaced;

bool isFunction(const struct sigaction &action) {
  return (action.sa_flags & SA_SIGINFO) ||
         (action.sa_handler != SIG_DFL && action.sa_handler != SIG_IGN);
}

void stopLaunchThenForward(int signal, siginfo_t *info, void *context) {
  runtime::CpuExecutor::requestInterrupt();
  if (!isFunction(replaced))
    return; // only between installing and finding SIG_DFL or SIG_IGN there, put back at once
  if (replaced.sa_flags & SA_SIGINFO)
    replaced.sa_sigaction(signal, info, context);
  else
    replaced.sa_handler(signal);
}

// Python runs its signal handlers on the main thread only; a launch elsewhere goes on.
bool onMainThread() {
  static const unsigned long mainThread =
      py::module_::import("threading").attr("main_thread")().attr("ident").cast<unsigned long>();
  return PyThread_get_thread_ident() == mainThread;
}

} // namespace

// One system call to install and one to restore: a launch on the cpu target can take a
// microsecond, and asking first which handler is there was a third.
SigintStopsCpuLaunch::SigintStopsCpuLaunch() {
  if (!onMainThread())
    return;
  struct sigaction forwarding = {};
  forwarding.sa_flags = SA_SIGINFO | SA_ONSTACK;
  forwarding.sa_sigaction = &stopLaunchThenForward;
  sigemptyset(&forwarding.sa_mask);
  if (sigaction(SIGINT, &forwarding, &replaced) != 0)
    return;
  installed_ = true;
  if (!isFunction(replaced)) {
    sigaction(SIGINT, &replaced, nullptr);
    installed_ = false;
    return;
  }
  // A SIGINT that came after Python last looked and before the handler above is pending in
  // Python, which would not look again until the launch returned: a kernel that never ends
  // would never be stopped. Raise it now, instead of the launch (whose stop the handler may
  // have asked for too).
  if (PyErr_CheckSignals() != 0) {
    sigaction(SIGINT, &replaced, nullptr);
    installed_ = false;
    runtime::CpuExecutor::withdrawInterrupt();
    throw py::error_already_set();
  }
}

SigintStopsCpuLaunch::~SigintStopsCpuLaunch() {
  if (installed_)
    sigaction(SIGINT, &replaced, nullptr);
}

} // namespace kaji::python
