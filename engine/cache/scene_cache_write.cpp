// SceneCacheWrite (scene_cache_write.h): the writer thread, its lowered priority (platform.h) and
// the join.
#include "engine/cache/scene_cache_write.h"

#include <utility>

#include "engine/base/platform.h"

namespace facet {

SceneCacheWrite::SceneCacheWrite(std::function<std::string()> job) : m_state(std::make_unique<State>()) {
  State* state = m_state.get();
  m_thread = std::thread([state, job = std::move(job)]() mutable {
    // Best effort: a refused priority change only leaves the write at the process's own.
    platform::lower_thread_priority(kSceneCacheWriteNice);
    state->warning = job();
    job = nullptr;  // the scene goes (or is freed) here, before anyone joins
    state->done.store(true, std::memory_order_release);
  });
}

SceneCacheWrite& SceneCacheWrite::operator=(SceneCacheWrite&& other) noexcept {
  if (this != &other) {
    join();
    m_state = std::move(other.m_state);
    m_thread = std::move(other.m_thread);
  }
  return *this;
}

std::string SceneCacheWrite::join() {
  if (!m_thread.joinable()) return {};
  m_thread.join();
  std::string warning = std::move(m_state->warning);
  m_state.reset();
  return warning;
}

}  // namespace facet
