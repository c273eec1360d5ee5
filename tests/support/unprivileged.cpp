// Runs a piece of a test as an unprivileged user in a forked child (unprivileged.h).
#include "tests/support/unprivileged.h"

#include <grp.h>
#include <pwd.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <exception>

namespace facet::test {
namespace {

// The child's exit codes, one per ChildOutcome::Status.
constexpr int kExitRan = 0, kExitCannotDrop = 2, kExitFailed = 3;
// The id of `nobody` on Debian and most distributions, for a container without a passwd entry.
constexpr uid_t kNobodyId = 65534;

void write_all(int fd, const std::string& text) {
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += (size_t)n;
  }
}

// In the child: become uid/gid, with no supplementary groups; "" or why not.
std::string drop_to(uid_t uid, gid_t gid) {
  if (setgroups(0, nullptr) != 0) return std::string("setgroups: ") + std::strerror(errno);
  if (setgid(gid) != 0) return "setgid(" + std::to_string(gid) + "): " + std::strerror(errno);
  if (setuid(uid) != 0) return "setuid(" + std::to_string(uid) + "): " + std::strerror(errno);
  if (geteuid() == 0 || getegid() == 0) return "still root after setuid";
  return "";
}

[[noreturn]] void run_child(int fd, bool drop, uid_t uid, gid_t gid, const std::function<std::string()>& body) {
  int code = kExitRan;
  std::string text;
  if (drop && !(text = drop_to(uid, gid)).empty()) {
    text = "cannot run as nobody (uid " + std::to_string(uid) + "): " + text;
    code = kExitCannotDrop;
  } else {
    try {
      text = body();
    } catch (const std::exception& e) {
      text = std::string("the body threw: ") + e.what();
      code = kExitFailed;
    } catch (...) {
      text = "the body threw something that is not a std::exception";
      code = kExitFailed;
    }
  }
  write_all(fd, text);
  close(fd);
  _exit(code);  // no atexit handlers, no GoogleTest teardown in the child
}

}  // namespace

ChildOutcome run_unprivileged(const std::function<std::string()>& body) {
  // Looked up before fork: getpwnam is not safe to call in the child of a threaded process.
  const bool drop = geteuid() == 0;
  uid_t uid = kNobodyId;
  gid_t gid = kNobodyId;
  if (const passwd* pw = getpwnam("nobody")) {
    uid = pw->pw_uid;
    gid = pw->pw_gid;
  }
  ChildOutcome out;
  int fds[2];
  if (pipe(fds) != 0) {
    out.text = std::string("pipe: ") + std::strerror(errno);
    return out;
  }
  const pid_t pid = fork();
  if (pid < 0) {
    out.text = std::string("fork: ") + std::strerror(errno);
    close(fds[0]);
    close(fds[1]);
    return out;
  }
  if (pid == 0) {
    close(fds[0]);
    run_child(fds[1], drop, uid, gid, body);
  }
  close(fds[1]);
  char buf[4096];
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    out.text.append(buf, (size_t)n);
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  if (WIFEXITED(status) && WEXITSTATUS(status) == kExitRan) {
    out.status = ChildOutcome::Status::Ran;
  } else if (WIFEXITED(status) && WEXITSTATUS(status) == kExitCannotDrop) {
    out.status = ChildOutcome::Status::CannotDrop;
  } else if (WIFSIGNALED(status)) {
    out.text += "child killed by signal " + std::to_string(WTERMSIG(status));
  } else if (WIFEXITED(status) && WEXITSTATUS(status) != kExitFailed) {
    out.text += "child exited with code " + std::to_string(WEXITSTATUS(status));
  }
  return out;
}

}  // namespace facet::test
