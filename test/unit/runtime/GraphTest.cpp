#include "GpuTest.h"
#include "TestKernels.h"

#include "kaji/runtime/Graph.h"
#include "kaji/runtime/Memory.h"
#include "kaji/runtime/Module.h"

#include <numeric>
#include <stdexcept>
#include <vector>

using namespace kaji::runtime;

namespace {

TEST(GraphCapturable, TheLegacyDefaultStreamIsRefusedBeforeTheDriver) {
  for (CUstream stream : {static_cast<CUstream>(nullptr), CU_STREAM_LEGACY}) {
    try {
      Graph::checkCapturable(stream);
      FAIL() << "no error for the legacy default stream";
    } catch (const std::invalid_argument &error) {
      EXPECT_NE(std::string(error.what()).find("cuStreamBeginCapture"), std::string::npos);
    }
  }
  EXPECT_NO_THROW(Graph::checkCapturable(CU_STREAM_PER_THREAD));
}

class GraphTest : public GpuTest {};

TEST_F(GraphTest, ReplaysCapturedLaunchesAndTakesNewParameters) {
  Module module = Module::loadPtx(test::kAddOnePtx);
  Function addOne = module.function("add_one");
  Stream stream = Stream::create();
  unsigned count = 300;
  std::vector<int> host(count);
  std::iota(host.begin(), host.end(), 0);
  DeviceBuffer first(count * sizeof(int)), second(count * sizeof(int));
  first.copyFromHost(host.data(), first.size());
  second.copyFromHost(host.data(), second.size());
  CUdeviceptr data = first.pointer();
  void *params[] = {&data, &count};
  LaunchConfig config = validateLaunch(addOne, {3, 1, 1}, {128, 1, 1}, 0);

  Graph::beginCapture(stream);
  launch(addOne, config, &stream, params);
  CUgraphNode node = Graph::lastCapturedNode(stream);
  launch(addOne, config, &stream, params);
  Graph graph = Graph::endCapture(stream);
  stream.synchronize();
  std::vector<int> result(count);
  first.copyToHost(result.data(), first.size());
  EXPECT_EQ(result, host) << "capturing ran the kernels";

  graph.launch(&stream);
  stream.synchronize();
  first.copyToHost(result.data(), first.size());
  EXPECT_EQ(result[10], 12);

  data = second.pointer();
  graph.setKernelParams(node, addOne, config, params);
  graph.launch(&stream);
  stream.synchronize();
  first.copyToHost(result.data(), first.size());
  EXPECT_EQ(result[10], 13) << "the second node still adds to the first buffer";
  second.copyToHost(result.data(), second.size());
  EXPECT_EQ(result[10], 11);
}

TEST_F(GraphTest, BeginCaptureRefusesTheDefaultStream) {
  EXPECT_THROW(Graph::beginCapture(Stream()), std::invalid_argument);
}

} // namespace
