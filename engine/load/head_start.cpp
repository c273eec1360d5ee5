// HeadStart (head_start.h): a small state machine under one mutex.
#include "engine/load/head_start.h"

#include <utility>

namespace facet {

void HeadStart::promise_order() {
  std::lock_guard<std::mutex> lock(m_mutex);
  if (m_state == State::Undecided) m_state = State::Promised;
  m_changed.notify_all();
}

void HeadStart::no_order() {
  std::lock_guard<std::mutex> lock(m_mutex);
  if (m_state == State::Undecided || m_state == State::Promised) m_state = State::None;
  m_changed.notify_all();
}

void HeadStart::give_order(std::unique_ptr<uint32_t[]> order) {
  std::lock_guard<std::mutex> lock(m_mutex);
  if (m_state != State::Promised) return;  // not promised, or the build no longer waits
  m_order = std::move(order);
  m_state = m_order ? State::Given : State::None;
  m_changed.notify_all();
}

void HeadStart::finish() { no_order(); }

std::unique_ptr<uint32_t[]> HeadStart::take_order() {
  std::unique_lock<std::mutex> lock(m_mutex);
  m_changed.wait(lock, [this] { return m_state == State::Given || m_state == State::None; });
  State taken = m_state;
  m_state = State::None;  // an order given later is dropped
  return taken == State::Given ? std::move(m_order) : nullptr;
}

}  // namespace facet
