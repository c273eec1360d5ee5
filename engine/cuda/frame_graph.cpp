#include "engine/cuda/frame_graph.h"

#include "kernels/base/cuda_check.h"

namespace facet {

namespace {

// Owner of a captured (not yet instantiated) graph.
struct GraphOwner {
  cudaGraph_t graph = nullptr;
  ~GraphOwner() {
    if (graph) FACET_CUDA_CHECK_NOTHROW(cudaGraphDestroy(graph));
  }
};

}  // namespace

FrameGraph::~FrameGraph() {
  // An executable graph still running is freed by the driver once it completes.
  if (m_exec) FACET_CUDA_CHECK_NOTHROW(cudaGraphExecDestroy(m_exec));
}

void FrameGraph::run(cudaStream_t stream, const std::function<void()>& record) {
  GraphOwner captured;
  FACET_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  try {
    record();
  } catch (...) {
    (void)cudaStreamEndCapture(stream, &captured.graph);  // leave the stream usable
    (void)cudaGetLastError();
    throw;
  }
  FACET_CUDA_CHECK(cudaStreamEndCapture(stream, &captured.graph));
  if (m_exec) {
    cudaGraphExecUpdateResultInfo info{};
    if (cudaGraphExecUpdate(m_exec, captured.graph, &info) != cudaSuccess) {
      (void)cudaGetLastError();  // not an error: the frame's shape changed
      FACET_CUDA_CHECK(cudaGraphExecDestroy(m_exec));
      m_exec = nullptr;
    }
  }
  if (!m_exec) {
    FACET_CUDA_CHECK(cudaGraphInstantiate(&m_exec, captured.graph, 0));
    ++m_instantiations;
  }
  FACET_CUDA_CHECK(cudaGraphLaunch(m_exec, stream));
}

}  // namespace facet
