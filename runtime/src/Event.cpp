#include "kaji/runtime/Event.h"

#include "kaji/runtime/Context.h"
#include "kaji/runtime/CudaDriver.h"
#include "kaji/runtime/Stream.h"

#include <stdexcept>
#include <utility>

namespace kaji::runtime {

Event::Event(bool timing)
    : device_(selectedDevice()), driver_(&CudaDriver::get()), timing_(timing) {
  makeCurrent(device_);
  driver_->check(
      driver_->api().cuEventCreate(&handle_, timing ? CU_EVENT_DEFAULT : CU_EVENT_DISABLE_TIMING),
      "cuEventCreate");
}

Event::Event(Event &&other) noexcept
    : handle_(std::exchange(other.handle_, nullptr)), device_(other.device_),
      driver_(other.driver_), timing_(other.timing_) {}

Event &Event::operator=(Event &&other) noexcept {
  if (this != &other) {
    destroy();
    handle_ = std::exchange(other.handle_, nullptr);
    device_ = other.device_;
    driver_ = other.driver_;
    timing_ = other.timing_;
  }
  return *this;
}

Event::~Event() { destroy(); }

void Event::destroy() noexcept {
  if (handle_)
    driver_->api().cuEventDestroy(handle_);
  handle_ = nullptr;
}

void Event::record(const Stream *stream) {
  if (stream && stream->device() != device_)
    throw std::invalid_argument("cannot record an event of device " + std::to_string(device_) +
                                " on a stream of device " + std::to_string(stream->device()));
  makeCurrent(device_);
  driver_->check(driver_->api().cuEventRecord(handle_, stream ? stream->queueHandle() : nullptr),
                 "cuEventRecord");
}

void Event::synchronize() const {
  driver_->check(driver_->api().cuEventSynchronize(handle_), "cuEventSynchronize");
}

bool Event::query() const {
  CUresult result = driver_->api().cuEventQuery(handle_);
  if (result == CUDA_ERROR_NOT_READY)
    return false;
  driver_->check(result, "cuEventQuery");
  return true;
}

void Event::wait(const Stream *stream) const {
  makeCurrent(device_);
  driver_->check(
      driver_->api().cuStreamWaitEvent(stream ? stream->queueHandle() : nullptr, handle_, 0),
      "cuStreamWaitEvent");
}

float Event::elapsedMs(const Event &start, const Event &end) {
  if (!start.timing_ || !end.timing_)
    throw std::invalid_argument("elapsed time needs events made with timing=True");
  float milliseconds = 0;
  end.driver_->check(
      end.driver_->api().cuEventElapsedTime(&milliseconds, start.handle_, end.handle_),
      "cuEventElapsedTime");
  return milliseconds;
}

} // namespace kaji::runtime
