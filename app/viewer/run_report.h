// What a scripted run (--frames) measured, printed when it ends: frame times early and late, host
// and device memory after the first frame and at the end. For the long-run reliability checks
// (memory flat, no growth in per-frame time) and for the figures in closing notes.
#pragma once
#include <string>
#include <vector>

namespace facet {

class RunReport {
 public:
  void frame(float ms);  // once per frame, after the first one has been drawn
  // One line per measurement, "facet view: ..." on stdout.
  void print(int models_installed) const;

 private:
  std::vector<float> m_ms;
  size_t m_host_start = 0, m_device_start = 0;
  bool m_device_known = false;
  bool m_started = false;
};

// Resident set size of this process, bytes (Linux /proc/self/statm); 0 when unknown.
size_t host_resident_bytes();

}  // namespace facet
