// A frame recorded by stream capture and replayed as one CUDA graph: the GPU runs the frame's
// memsets, kernels, event records and the copy back to back, with no gap waiting for the host
// to launch the next one (what bounds a small scene's frame otherwise). The frame is
// captured again every time (camera and frame tag change its parameters) and the executable graph
// updated in place, which costs far less than instantiating; only a frame of another shape
// (other nodes: the visibility clear, a resize, a new scene) instantiates anew.
#pragma once
#include <cuda_runtime.h>

#include <functional>

namespace facet {

class FrameGraph {
 public:
  FrameGraph() = default;
  FrameGraph(const FrameGraph&) = delete;
  FrameGraph& operator=(const FrameGraph&) = delete;
  ~FrameGraph();

  // Captures what `record` enqueues on `stream` (it must not synchronise or allocate) and
  // launches it on `stream` as one graph. If `record` throws, the capture is abandoned and
  // nothing runs.
  void run(cudaStream_t stream, const std::function<void()>& record);
  // Executable graphs instantiated so far (an update in place does not count).
  int instantiations() const { return m_instantiations; }

 private:
  cudaGraphExec_t m_exec = nullptr;
  int m_instantiations = 0;
};

}  // namespace facet
