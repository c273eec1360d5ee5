// What a load's head start (LoadOptions::while_preparing, on a thread of its own) hands the meshlet
// build running beside it: the triangles' Morton order (meshlet_ranges.h) sorted where the scene
// was sent. The build asks once, at the start of its patch ranges; the head start says first
// whether an order will come, so the build waits only for one that will.
#pragma once
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>

namespace facet {

class HeadStart {
 public:
  // The head start's side, each at most once, in this order. promise_order: an order will come
  // (give_order follows, with null if it failed). no_order: none will. Either before anything
  // slow: the build waits for the word. If neither is said the build hears "none" when the head
  // start ends (finish).
  void promise_order();
  void no_order();
  void give_order(std::unique_ptr<uint32_t[]> order);
  // The load's side, once the head start has returned or thrown: whatever was not said is "none".
  void finish();

  // The build's side: waits for the word, then, if an order was promised, for it. Null: the CPU
  // sorts. Once.
  std::unique_ptr<uint32_t[]> take_order();

 private:
  enum class State { Undecided, Promised, Given, None };
  std::mutex m_mutex;
  std::condition_variable m_changed;
  State m_state = State::Undecided;
  std::unique_ptr<uint32_t[]> m_order;
};

}  // namespace facet
