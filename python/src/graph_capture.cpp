#include "graph_capture.h"

#include "bindings.h"
#include "cycle_collection.h"
#include "instances.h"

#include <pybind11/stl.h>

namespace kaji::python {

thread_local GraphCapture *GraphCapture::active_ = nullptr;

GraphCapture::GraphCapture(py::handle stream) : stream_(stream) {
  runtime::Graph::checkCapturable(stream_.get() ? stream_.get()->handle() : nullptr);
}

std::string GraphCapture::numpyArgumentProblem(const std::string &kernel) {
  return "kernel '" + kernel +
         "' is launched in a CUDA graph capture with a numpy array: its copies to and from "
         "the device would not be replayed with the graph; pass kaji.to_device(array) instead";
}

void GraphCapture::begin() {
  if (active_)
    throw std::runtime_error("this thread is already capturing a CUDA graph; kaji.graph "
                             "captures do not nest");
  if (graph_)
    throw std::runtime_error("this kaji.graph was captured already; make a new one");
  runtime::Graph::beginCapture(*stream_.get());
  active_ = this;
}

void GraphCapture::end(bool blockRaised) {
  if (active_ != this)
    return;
  active_ = nullptr;
  if (blockRaised) {
    runtime::Graph::abandonCapture(*stream_.get());
    launches_.clear();
    return;
  }
  try {
    graph_.emplace(runtime::Graph::endCapture(*stream_.get()));
  } catch (...) {
    launches_.clear();
    throw;
  }
}

void GraphCapture::recordKernel(py::handle dispatcher, LoadedKernel &kernel,
                                const runtime::LaunchConfig &config, py::handle args) {
  launches_.push_back({py::reinterpret_borrow<py::object>(dispatcher), &kernel, config,
                       runtime::Graph::lastCapturedNode(*stream_.get()),
                       py::reinterpret_borrow<py::object>(args)});
}

const runtime::Graph &GraphCapture::instantiated() const {
  if (active_ == this)
    throw std::runtime_error("the graph is still being captured: launch it after the "
                             "`with kaji.graph(...)` block");
  if (!graph_)
    throw std::runtime_error("the graph was not captured (its `with` block did not run to "
                             "the end)");
  return *graph_;
}

void GraphCapture::launch(py::handle stream) const {
  const runtime::Graph &graph = instantiated();
  LaunchStream launchStream(stream);
  graph.launch(launchStream.get());
}

void GraphCapture::update(size_t index, py::handle args) {
  runtime::Graph &graph = const_cast<runtime::Graph &>(instantiated());
  if (index >= launches_.size())
    throw py::index_error("the graph has " + std::to_string(launches_.size()) +
                          " kernel launches; there is no launch " + std::to_string(index));
  CapturedLaunch &launch = launches_[index];
  Dispatcher &dispatcher = cppObject<Dispatcher>(launch.dispatcher.ptr());
  void **params = dispatcher.packedParameters(*launch.kernel, args);
  graph.setKernelParams(launch.node, launch.kernel->function, launch.config, params);
  launch.args = py::reinterpret_borrow<py::object>(args);
}

void bindGraphs(py::module_ &m) {
  py::class_<GraphCapture>(m, "Graph",
                           "kaji.graph(stream): a CUDA graph captured in a `with` block.",
                           cycleCollected<GraphCapture>())
      .def(py::init<py::handle>(), py::arg("stream"))
      .def("__enter__",
           [](py::object self) {
             self.cast<GraphCapture &>().begin();
             return self;
           })
      .def("__exit__",
           [](GraphCapture &graph, py::handle type, py::handle, py::handle) {
             graph.end(!type.is_none());
             return false;
           })
      .def("launch", &GraphCapture::launch, py::arg("stream") = py::none(),
           "Replays the captured work on `stream` (default: the default stream).")
      .def(
          "update",
          [](GraphCapture &graph, size_t index, py::args args) { graph.update(index, args); },
          py::arg("index"),
          "update(index, *args): kernel launch `index` of the capture (0 for the first) takes "
          "`args`, of the types it was captured with, at later launches; nothing is "
          "recaptured.")
      .def_property_readonly("kernel_launches", &GraphCapture::kernelCount);
}

} // namespace kaji::python
