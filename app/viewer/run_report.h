// What a scripted run (--frames) measured, printed when it ends: frame times early and late, host
// and device memory after a warm-up and at the end. For the long-run reliability checks
// (memory flat, no growth in per-frame time) and for the figures in closing notes.
#pragma once
#include <string>
#include <vector>

namespace facet {

class RunReport {
 public:
  // Memory is measured from after `warmup_frames` frames: the first model reload grows the
  // overlay's GL buffers once (a few MiB of device memory that then stays flat, none with the
  // overlay off), which is not a trend a long run should flag.
  explicit RunReport(int warmup_frames = 1) : m_warmup(warmup_frames < 1 ? 1 : warmup_frames) {}
  void frame(float ms);  // once per frame, after the first one has been drawn
  // One line per measurement, "facet view: ..." on stdout.
  void print(int models_installed) const;

 private:
  std::vector<float> m_ms;
  size_t m_host_start = 0, m_device_start = 0;
  bool m_device_known = false;
  bool m_started = false;
  int m_warmup = 1;
  int m_seen = 0;
};

}  // namespace facet
