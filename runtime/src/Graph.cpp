#include "kaji/runtime/Graph.h"

#include "kaji/runtime/Context.h"
#include "kaji/runtime/CudaDriver.h"
#include "kaji/runtime/Stream.h"

#include <stdexcept>
#include <utility>

namespace kaji::runtime {

namespace {

// The process driver, checked to have the graph entry points (Driver.cpp binds them optionally).
const CudaDriver &graphDriver() {
  const CudaDriver &driver = CudaDriver::get();
  const CudaDriverApi &api = driver.api();
  if (!api.cuStreamBeginCapture || !api.cuStreamEndCapture || !api.cuStreamGetCaptureInfo ||
      !api.cuGraphInstantiate || !api.cuGraphLaunch || !api.cuGraphExecKernelNodeSetParams ||
      !api.cuGraphExecDestroy || !api.cuGraphDestroy)
    throw DriverUnavailable("the CUDA driver '" + driver.libraryPath() +
                            "' has no CUDA graph entry points (CUDA 12 or newer needed); update "
                            "the NVIDIA driver");
  return driver;
}

} // namespace

void Graph::checkCapturable(CUstream stream) {
  if (!stream || stream == CU_STREAM_LEGACY)
    throw std::invalid_argument(
        "a CUDA graph cannot be captured on the legacy default stream (cuStreamBeginCapture "
        "fails there with CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED); capture on a created stream "
        "(kaji.stream())");
}

Graph::Graph(CUgraph graph, CUgraphExec exec, int device, const CudaDriver *driver)
    : graph_(graph), exec_(exec), device_(device), driver_(driver) {}

void Graph::beginCapture(const Stream &stream) {
  checkCapturable(stream.handle());
  const CudaDriver &driver = graphDriver();
  makeCurrent(stream.device());
  driver.check(driver.api().cuStreamBeginCapture(stream.handle(), CU_STREAM_CAPTURE_MODE_RELAXED),
               "cuStreamBeginCapture");
}

Graph Graph::endCapture(const Stream &stream) {
  const CudaDriver &driver = graphDriver();
  const CudaDriverApi &api = driver.api();
  makeCurrent(stream.device());
  CUgraph graph = nullptr;
  driver.check(api.cuStreamEndCapture(stream.handle(), &graph), "cuStreamEndCapture");
  CUgraphExec exec = nullptr;
  if (CUresult result = api.cuGraphInstantiate(&exec, graph, 0); result != CUDA_SUCCESS) {
    api.cuGraphDestroy(graph);
    driver.raise(result, "cuGraphInstantiate");
  }
  return Graph(graph, exec, stream.device(), &driver);
}

void Graph::abandonCapture(const Stream &stream) noexcept {
  if (!CudaDriver::available() || !CudaDriver::get().api().cuStreamEndCapture)
    return;
  const CudaDriverApi &api = CudaDriver::get().api();
  CUgraph graph = nullptr;
  if (api.cuStreamEndCapture(stream.handle(), &graph) == CUDA_SUCCESS && graph)
    api.cuGraphDestroy(graph);
}

CUgraphNode Graph::lastCapturedNode(const Stream &stream) {
  const CudaDriver &driver = graphDriver();
  CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
  const CUgraphNode *dependencies = nullptr;
  size_t count = 0;
  driver.check(driver.api().cuStreamGetCaptureInfo(stream.handle(), &status, nullptr, nullptr,
                                                   &dependencies, &count),
               "cuStreamGetCaptureInfo");
  // After an operation on a capturing stream, the stream's dependency set is that one node.
  if (status != CU_STREAM_CAPTURE_STATUS_ACTIVE || count != 1)
    throw std::logic_error("the stream is not capturing a single chain of operations");
  return dependencies[0];
}

Graph::Graph(Graph &&other) noexcept
    : graph_(std::exchange(other.graph_, nullptr)), exec_(std::exchange(other.exec_, nullptr)),
      device_(other.device_), driver_(std::exchange(other.driver_, nullptr)) {}

Graph &Graph::operator=(Graph &&other) noexcept {
  if (this != &other) {
    destroy();
    graph_ = std::exchange(other.graph_, nullptr);
    exec_ = std::exchange(other.exec_, nullptr);
    device_ = other.device_;
    driver_ = std::exchange(other.driver_, nullptr);
  }
  return *this;
}

Graph::~Graph() { destroy(); }

void Graph::destroy() noexcept {
  // After a device fault or at exit the driver refuses these; the memory goes with the context.
  if (driver_) {
    if (exec_)
      driver_->api().cuGraphExecDestroy(exec_);
    if (graph_)
      driver_->api().cuGraphDestroy(graph_);
  }
  exec_ = nullptr;
  graph_ = nullptr;
  driver_ = nullptr;
}

void Graph::launch(const Stream *stream) const {
  makeCurrent(device_);
  driver_->check(driver_->api().cuGraphLaunch(exec_, stream ? stream->handle() : nullptr),
                 "cuGraphLaunch");
}

void Graph::setKernelParams(CUgraphNode node, const Function &function, const LaunchConfig &config,
                            void **params) {
  CUDA_KERNEL_NODE_PARAMS nodeParams{};
  nodeParams.func = function.handle();
  nodeParams.gridDimX = config.grid.x;
  nodeParams.gridDimY = config.grid.y;
  nodeParams.gridDimZ = config.grid.z;
  nodeParams.blockDimX = config.block.x;
  nodeParams.blockDimY = config.block.y;
  nodeParams.blockDimZ = config.block.z;
  nodeParams.sharedMemBytes = config.sharedBytes;
  nodeParams.kernelParams = params;
  makeCurrent(device_);
  driver_->check(driver_->api().cuGraphExecKernelNodeSetParams(exec_, node, &nodeParams),
                 "cuGraphExecKernelNodeSetParams");
}

} // namespace kaji::runtime
