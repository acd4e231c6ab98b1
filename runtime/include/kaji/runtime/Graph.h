// CUDA graphs: the work captured on a stream, replayed with one driver call.
#pragma once

#include "kaji/runtime/CudaDriverTypes.h"
#include "kaji/runtime/Launch.h"

namespace kaji::runtime {

class CudaDriver;
class Stream;

// A CUDA graph: the work queued on a stream between beginCapture and endCapture (kernels and
// copies, kaji's and other libraries'), instantiated so that launch() replays all of it with
// one driver call. Kernel nodes keep the parameter values they were captured with until
// setKernelParams replaces them (no recapture, no reinstantiation).
class Graph {
public:
  // Starts recording the work queued on `stream` instead of running it (cuStreamBeginCapture in
  // relaxed mode, as CuPy does: loading a kernel's module or allocating at its first launch
  // inside the capture stays legal; synchronizing does not). The legacy default stream cannot
  // be captured: std::invalid_argument.
  static void beginCapture(const Stream &stream);
  // Throws the std::invalid_argument beginCapture throws for `stream`, without the driver.
  static void checkCapturable(CUstream stream);
  // Ends the recording on `stream` and instantiates the graph. Throws CudaError naming
  // cuStreamEndCapture when the capture was invalidated (by a synchronization, say).
  static Graph endCapture(const Stream &stream);
  // Ends a capture that failed part-way and discards what it recorded; never throws.
  static void abandonCapture(const Stream &stream) noexcept;
  // The node the last operation queued on the capturing `stream` became (a kernel launched
  // just before, for setKernelParams).
  static CUgraphNode lastCapturedNode(const Stream &stream);

  Graph(Graph &&other) noexcept;
  Graph &operator=(Graph &&other) noexcept;
  Graph(const Graph &) = delete;
  Graph &operator=(const Graph &) = delete;
  ~Graph();

  // Queues the whole graph on `stream` (nullptr: the default stream).
  void launch(const Stream *stream) const;
  // Replaces the parameters (and shape) of kernel node `node` in the instantiated graph, which
  // later launches use (cuGraphExecKernelNodeSetParams; `function` must be the node's).
  void setKernelParams(CUgraphNode node, const Function &function, const LaunchConfig &config,
                       void **params);
  int device() const { return device_; }

private:
  Graph(CUgraph graph, CUgraphExec exec, int device, const CudaDriver *driver);
  void destroy() noexcept;

  CUgraph graph_ = nullptr;
  CUgraphExec exec_ = nullptr;
  int device_ = 0;
  const CudaDriver *driver_ = nullptr;
};

} // namespace kaji::runtime
