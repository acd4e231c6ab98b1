// `kaji.graph(stream)`: a CUDA graph captured from what a `with` block queues on a stream,
// replayed with one launch. Kernel launches kaji makes on the capturing stream are recorded
// (their graph node, specialization, shape and arguments), so that update() can give a node
// new arguments without capturing again; the arguments of each node are kept alive while the
// graph can replay them.
#pragma once

#include "dispatcher.h"
#include "launch_stream.h"

#include "kaji/runtime/Graph.h"

#include <pybind11/pybind11.h>

#include <optional>
#include <string>
#include <vector>

namespace kaji::python {

namespace py = pybind11;

class GraphCapture {
public:
  // Throws ValueError (std::invalid_argument) for the legacy default stream, which cannot be
  // captured.
  explicit GraphCapture(py::handle stream);

  // The capture this thread runs on `stream` (null: the default stream), or null.
  static GraphCapture *on(const runtime::Stream *stream) {
    return active_ && stream && stream->handle() == active_->stream_.get()->handle() ? active_
                                                                                     : nullptr;
  }
  static bool anyOnThisThread() { return active_ != nullptr; }
  // Why a numpy array cannot be an argument of a captured launch.
  static std::string numpyArgumentProblem(const std::string &kernel);

  // `with` entry and exit: begins the capture; ends it and instantiates the graph (or, when
  // the block raised, discards it).
  void begin();
  void end(bool blockRaised);
  // Called by the dispatcher after launching `kernel` on the capturing stream.
  void recordKernel(py::handle dispatcher, LoadedKernel &kernel,
                    const runtime::LaunchConfig &config, py::handle args);

  // Replays the graph on `stream` (None or 0: the default stream).
  void launch(py::handle stream) const;
  // Gives kernel launch number `index` of the capture new arguments of the same types.
  void update(size_t index, py::handle args);
  size_t kernelCount() const { return launches_.size(); }

  template <class F> void forEachPythonReference(F &&f) const {
    stream_.forEachPythonReference(f);
    for (const CapturedLaunch &launch : launches_) {
      f(launch.dispatcher);
      f(launch.args);
    }
  }
  void breakCycles() {}

private:
  struct CapturedLaunch {
    py::object dispatcher; // keeps the kernel, and so `kernel`, alive
    LoadedKernel *kernel;
    runtime::LaunchConfig config;
    runtime::CUgraphNode node;
    py::object args;
  };

  const runtime::Graph &instantiated() const;

  static thread_local GraphCapture *active_;
  LaunchStream stream_;
  std::optional<runtime::Graph> graph_;
  std::vector<CapturedLaunch> launches_;
};

} // namespace kaji::python
