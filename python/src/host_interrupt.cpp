#include "host_interrupt.h"

#include "bindings.h"

#include "kaji/runtime/HostExecutor.h"

namespace kaji::python {
namespace {

// The handler a launch replaced; launches hold the GIL, so one at a time installs.
struct sigaction replaced;

void stopLaunchThenForward(int signal, siginfo_t *info, void *context) {
  runtime::HostExecutor::requestInterrupt();
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

bool isFunction(const struct sigaction &action) {
  return (action.sa_flags & SA_SIGINFO) ||
         (action.sa_handler != SIG_DFL && action.sa_handler != SIG_IGN);
}

} // namespace

SigintStopsHostLaunch::SigintStopsHostLaunch() {
  if (!onMainThread() || sigaction(SIGINT, nullptr, &replaced) != 0 || !isFunction(replaced))
    return;
  struct sigaction forwarding = replaced;
  forwarding.sa_flags |= SA_SIGINFO;
  forwarding.sa_sigaction = &stopLaunchThenForward;
  installed_ = sigaction(SIGINT, &forwarding, nullptr) == 0;
}

SigintStopsHostLaunch::~SigintStopsHostLaunch() {
  if (installed_)
    sigaction(SIGINT, &replaced, nullptr);
}

} // namespace kaji::python
