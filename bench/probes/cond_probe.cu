// Probe: what two empty kernels between a frame's geometry and its resolve cost inside a CUDA
// graph, and whether a conditional IF node around them (skipped when the first kernel queued
// nothing) costs less than launching them. Times each graph shape with event nodes captured
// inside it, as the renderer does (median of 200 launches).
// Not part of the product; its findings go to docs/performance.md.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x)                                                                       \
  do {                                                                              \
    cudaError_t e = (x);                                                            \
    if (e != cudaSuccess) {                                                         \
      std::printf("%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e)); \
      std::exit(1);                                                                 \
    }                                                                               \
  } while (0)

__device__ __forceinline__ void pdl_wait() { asm volatile("griddepcontrol.wait;" ::: "memory"); }
__device__ __forceinline__ void pdl_launch() { asm volatile("griddepcontrol.launch_dependents;"); }
__device__ __forceinline__ uint64_t now_ns() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// Stands in for geometry: busy for about `ns` on every SM; sets the condition when asked.
__global__ void work(uint32_t ns, float* sink, cudaGraphConditionalHandle h, int set, unsigned value) {
  pdl_launch();
  uint64_t t0 = now_ns();
  float a = threadIdx.x;
  while (now_ns() - t0 < ns) a = a * 1.0001f + 0.5f;
  if (a == 12345.0f) sink[0] = a;
  if (set && blockIdx.x == 0 && threadIdx.x == 0) cudaGraphSetConditional(h, value);
}
__global__ void empty_k(float* sink) {
  pdl_launch();
  pdl_wait();
  if (sink[1] == 777.0f) sink[2] = 1.0f;
}
// Stands in for resolve: a streaming pass over n floats.
__global__ void stream_k(const float* in, float* out, size_t n, int wait) {
  if (wait) pdl_wait();
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    out[i] = in[i] * 2.0f;
}

template <class... P, class... A>
void launch(void (*k)(P...), dim3 g, dim3 b, cudaStream_t s, bool pdl, A... a) {
  cudaLaunchConfig_t c{};
  c.gridDim = g;
  c.blockDim = b;
  c.stream = s;
  cudaLaunchAttribute at[1];
  at[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  at[0].val.programmaticStreamSerializationAllowed = 1;
  c.attrs = at;
  c.numAttrs = pdl ? 1 : 0;
  CK(cudaLaunchKernelEx(&c, k, a...));
}

int main() {
  cudaStream_t s, body;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  CK(cudaStreamCreateWithFlags(&body, cudaStreamNonBlocking));
  const size_t n = 2u << 20;  // 8 MB in, 8 MB out: about a 1080p resolve's streaming
  float *in, *out, *sink;
  CK(cudaMalloc(&in, n * 4));
  CK(cudaMalloc(&out, n * 4));
  CK(cudaMalloc(&sink, 64));
  CK(cudaMemset(in, 0, n * 4));
  CK(cudaMemset(sink, 0, 64));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  const uint32_t ns = 30000;
  const int sms = 132;

  // shape: 0 work->resolve, 1 work->e->e->resolve (PDL), 2 work->IF(false){e->e}->resolve,
  //        3 same with the condition true, 4 work->e->e->resolve without PDL
  for (int shape = 0; shape < 5; ++shape) {
    cudaGraph_t g;
    CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    CK(cudaEventRecordWithFlags(e0, s, cudaEventRecordExternal));
    cudaGraphConditionalHandle h = 0;
    // The graph being captured and the nodes the next one depends on.
    cudaGraph_t cg;
    const cudaGraphNode_t* deps;
    size_t nd;
    auto capture_state = [&] {
      cudaStreamCaptureStatus st;
      CK(cudaStreamGetCaptureInfo(s, &st, nullptr, &cg, &deps, nullptr, &nd));
    };
    if (shape == 2 || shape == 3) {
      capture_state();
      CK(cudaGraphConditionalHandleCreate(&h, cg, 0, cudaGraphCondAssignDefault));
    }
    launch(work, dim3(sms * 16), dim3(64), s, false, ns, sink, h, (int)(shape == 2 || shape == 3),
           (unsigned)(shape == 3));
    if (shape == 1 || shape == 4) {
      launch(empty_k, dim3(sms * 8), dim3(256), s, shape == 1, sink);
      launch(empty_k, dim3(sms * 6), dim3(256), s, shape == 1, sink);
    }
    if (shape == 2 || shape == 3) {
      capture_state();
      cudaGraphNodeParams cp{};
      cp.type = cudaGraphNodeTypeConditional;
      cp.conditional.handle = h;
      cp.conditional.type = cudaGraphCondTypeIf;
      cp.conditional.size = 1;
      cudaGraphNode_t node;
      CK(cudaGraphAddNode(&node, cg, deps, nullptr, nd, &cp));
      cudaGraph_t bodyg = cp.conditional.phGraph_out[0];
      CK(cudaStreamUpdateCaptureDependencies(s, &node, nullptr, 1, cudaStreamSetCaptureDependencies));
      CK(cudaStreamBeginCaptureToGraph(body, bodyg, nullptr, nullptr, 0, cudaStreamCaptureModeThreadLocal));
      launch(empty_k, dim3(sms * 8), dim3(256), body, false, sink);
      launch(empty_k, dim3(sms * 6), dim3(256), body, true, sink);
      CK(cudaStreamEndCapture(body, nullptr));
    }
    launch(stream_k, dim3(sms * 8), dim3(256), s, shape == 0 || shape == 1, (const float*)in, out, n,
           (int)(shape == 0 || shape == 1));
    CK(cudaEventRecordWithFlags(e1, s, cudaEventRecordExternal));
    CK(cudaStreamEndCapture(s, &g));
    cudaGraphExec_t x;
    CK(cudaGraphInstantiate(&x, g, 0));
    // Update in place from a fresh capture of the same shape, as the renderer does each frame.
    std::vector<float> ms;
    for (int i = 0; i < 220; ++i) {
      CK(cudaGraphLaunch(x, s));
      CK(cudaStreamSynchronize(s));
      float t;
      CK(cudaEventElapsedTime(&t, e0, e1));
      if (i >= 20) ms.push_back(t);
    }
    std::sort(ms.begin(), ms.end());
    const char* names[] = {"work->resolve (PDL)", "work->e->e->resolve (PDL)", "work->IF(false){e->e}->resolve",
                           "work->IF(true){e->e}->resolve", "work->e->e->resolve (no PDL)"};
    std::printf("%-36s median %.4f ms  p10 %.4f  p90 %.4f\n", names[shape], ms[ms.size() / 2], ms[ms.size() / 10],
                ms[ms.size() * 9 / 10]);
    CK(cudaGraphExecDestroy(x));
    CK(cudaGraphDestroy(g));
  }
  return 0;
}
