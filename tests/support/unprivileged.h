// Runs a piece of a test as an unprivileged user, for checks that root would pass for the wrong
// reason (root reads files whatever their permission bits say): the body runs in a forked child
// that, when the test runs as root, first drops to the user `nobody`, and its text comes back
// through a pipe. It does not sandbox anything else: the child sees the same files and memory
// image, and must not use GoogleTest assertions (the parent asserts on the text).
#pragma once
#include <functional>
#include <string>

namespace facet::test {

struct ChildOutcome {
  enum class Status {
    Ran,         // the body returned: `text` is what it returned
    CannotDrop,  // running as root, the child could not become `nobody`: `text` says why
    Failed,      // the body threw or the child died: `text` says how
  };
  Status status = Status::Failed;
  std::string text;
};

// Forks; in the child drops to `nobody` (getpwnam, else uid and gid 65534) if the process is
// root, runs `body` and sends back what it returns.
ChildOutcome run_unprivileged(const std::function<std::string()>& body);

}  // namespace facet::test
