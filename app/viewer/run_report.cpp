// Measurements of a scripted run.
#include "app/viewer/run_report.h"

#include <algorithm>
#include <cstdio>

#include "app/viewer/window/cuda_interop.h"
#include "engine/base/platform.h"

namespace facet {

namespace {
float median(std::vector<float> v) {
  if (v.empty()) return 0;
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  return v[v.size() / 2];
}
double mib(size_t b) { return (double)b / (1024.0 * 1024.0); }
}  // namespace

void RunReport::frame(float ms) {
  ++m_seen;
  if (m_seen == m_warmup) {
    // What the warm-up allocated, every later frame reuses: measure from here.
    m_started = true;
    m_host_start = platform::resident_memory_bytes();
    m_device_known = cuda_device_memory_used(&m_device_start);
  }
  if (m_seen > 1) m_ms.push_back(ms);  // the first frame pays for start-up, not for drawing
}

void RunReport::print(int models_installed) const {
  size_t n = m_ms.size(), window = std::max<size_t>(1, std::min<size_t>(500, n / 2));
  std::vector<float> first(m_ms.begin(), m_ms.begin() + std::min(window, n));
  std::vector<float> last(m_ms.end() - std::min(window, n), m_ms.end());
  std::printf("facet view: %zu frames timed, median ms first %zu %.3f, last %zu %.3f; %d models installed\n", n,
              first.size(), median(first), last.size(), median(last), models_installed);
  std::printf("facet view: host memory %.1f MiB after %d warm-up frames, %.1f MiB at the end\n", mib(m_host_start),
              m_warmup, mib(platform::resident_memory_bytes()));
  size_t device_end = 0;
  if (m_device_known && cuda_device_memory_used(&device_end))
    std::printf("facet view: device memory %.1f MiB after %d warm-up frames, %.1f MiB at the end\n",
                mib(m_device_start), m_warmup, mib(device_end));
}

}  // namespace facet
