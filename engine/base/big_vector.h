// BigVector<T>: the scene's and the meshlets' arrays (scene.h, meshlets.h). A std::vector whose
// resize(n) and BigVector(n) leave new elements of a trivial type unwritten, where std::vector
// zeroes them on one thread: for a model of tens of millions of triangles that fill would be the
// longest serial step of a load (big_array.h fills in parallel where a value is wanted). Whoever
// grows one writes every new element. A header of its own, without the thread pool's, so that
// every file that sees a Scene can include it.
#pragma once
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace facet {

// std::allocator, but constructing without arguments default-initialises: no write for a trivial
// type, where std::allocator's value-initialisation zeroes.
template <class T>
struct DefaultInitAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = DefaultInitAllocator<U>;
  };
  DefaultInitAllocator() noexcept = default;
  template <class U>
  DefaultInitAllocator(const DefaultInitAllocator<U>&) noexcept {}
  template <class U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible<U>::value) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

template <class T>
using BigVector = std::vector<T, DefaultInitAllocator<T>>;

}  // namespace facet
