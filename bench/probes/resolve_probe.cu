// Probe: why a streaming pass over a 4K visibility buffer (66 MB of uint64, read then reset to
// all ones, plus 33 MB of RGBA8 written) runs far below copy bandwidth. Times variants of that
// pass with CUDA events (median of 50) on buffers allocated like the renderer's (cudaMalloc).
// Not part of the product; its findings go to docs/performance.md.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

#define CK(x)                                             \
  do {                                                    \
    cudaError_t e = (x);                                  \
    if (e != cudaSuccess) {                               \
      std::printf("%s: %s\n", #x, cudaGetErrorString(e)); \
      return 1;                                           \
    }                                                     \
  } while (0)

constexpr int W = 3840, H = 2160;

__global__ void pass_2d(uint64_t* vis, uint32_t* out, uint64_t reset) {
  int x = blockIdx.x * 16 + threadIdx.x % 16, y = blockIdx.y * 16 + threadIdx.x / 16;
  size_t i = (size_t)y * W + x;
  uint64_t k = vis[i];
  vis[i] = reset;
  out[i] = (uint32_t)k | 0xff000000u;
}
__global__ void pass_1d(uint64_t* vis, uint32_t* out, uint64_t reset) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  uint64_t k = vis[i];
  vis[i] = reset;
  out[i] = (uint32_t)k | 0xff000000u;
}
__global__ void pass_1d_noreset(uint64_t* vis, uint32_t* out) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = (uint32_t)vis[i] | 0xff000000u;
}
__global__ void pass_1d_reset_index(uint64_t* vis, uint32_t* out) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  uint64_t k = vis[i];
  vis[i] = ~0ull ^ (i * 0x9E3779B97F4A7C15ull);  // incompressible pattern
  out[i] = (uint32_t)k | 0xff000000u;
}
__global__ void scatter_min(uint64_t* vis, uint32_t n, uint32_t seed) {
  uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  uint32_t h = (t * 2654435761u) ^ seed;
  size_t i = (size_t)(h % (W * H / 3)) + W * H / 3;  // a middle third of the frame
  atomicMin((unsigned long long*)&vis[i], (unsigned long long)t);
}

template <class F>
float time_ms(F f) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  std::vector<float> t;
  for (int r = 0; r < 55; ++r) {
    cudaEventRecord(a);
    f();
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float ms;
    cudaEventElapsedTime(&ms, a, b);
    if (r >= 5) t.push_back(ms);
  }
  std::nth_element(t.begin(), t.begin() + t.size() / 2, t.end());
  return t[t.size() / 2];
}

int main() {
  const size_t n = (size_t)W * H;
  uint64_t* vis;
  uint32_t* out;
  CK(cudaMalloc(&vis, n * 8));
  CK(cudaMalloc(&out, n * 4));
  CK(cudaMemset(vis, 0xff, n * 8));
  const double bytes = n * (8.0 + 8.0 + 4.0);
  dim3 g2(W / 16, (H + 15) / 16);
  auto report = [&](const char* name, float ms, double b) {
    std::printf("%-44s %8.4f ms  %7.0f GB/s\n", name, ms, b / (ms * 1e-3) / 1e9);
  };
  report("memcpy d2d 66 MB (read+write)", time_ms([&] { cudaMemcpyAsync(out, vis, n * 4, cudaMemcpyDeviceToDevice); }),
         n * 8.0);
  report("memset vis 0xff", time_ms([&] { cudaMemsetAsync(vis, 0xff, n * 8); }), n * 8.0);
  report("2d read+reset(~0)+out", time_ms([&] { pass_2d<<<g2, 256>>>(vis, out, ~0ull); }), bytes);
  report("1d read+reset(~0)+out", time_ms([&] { pass_1d<<<n / 256, 256>>>(vis, out, ~0ull); }), bytes);
  report("1d read+reset(0)+out", time_ms([&] { pass_1d<<<n / 256, 256>>>(vis, out, 0ull); }), bytes);
  report("1d read+out (no reset)", time_ms([&] { pass_1d_noreset<<<n / 256, 256>>>(vis, out); }), n * 12.0);
  report("1d read+reset(incompressible)+out", time_ms([&] { pass_1d_reset_index<<<n / 256, 256>>>(vis, out); }), bytes);
  const uint32_t hits = 2000000;
  report("scatter atomicMin 2M then 1d pass", time_ms([&] {
           scatter_min<<<(hits + 255) / 256, 256>>>(vis, hits, 7);
           pass_1d<<<n / 256, 256>>>(vis, out, ~0ull);
         }),
         bytes);
  report("scatter atomicMin 2M then 2d pass", time_ms([&] {
           scatter_min<<<(hits + 255) / 256, 256>>>(vis, hits, 7);
           pass_2d<<<g2, 256>>>(vis, out, ~0ull);
         }),
         bytes);
  report("scatter atomicMin 2M alone", time_ms([&] { scatter_min<<<(hits + 255) / 256, 256>>>(vis, hits, 7); }),
         hits * 8.0);
  CK(cudaGetLastError());
  return 0;
}
