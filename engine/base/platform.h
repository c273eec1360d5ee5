// The operating system, behind plain functions and two RAII types: user folders, the running
// process, memory advice, the allocator's settings and files (status, folders, mappings, atomic
// writes). This is the only place for OS calls that standard C++ does not offer (POSIX and Linux:
// mmap, XDG folders, /proc, priorities, mallopt); everything else in facet calls these, so that a
// Windows or macOS port replaces platform.cpp and platform_reads.cpp alone. Errors come back as
// the system's text (strerror), for the caller to put in its own message. It knows no file format
// and no model.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace facet::platform {

// ---- User folders and this process ----

// $XDG_CONFIG_HOME when set and absolute, else $HOME/.config; "" when neither is set.
std::string user_config_dir();
// $XDG_CACHE_HOME when set and absolute, else $HOME/.cache, else /tmp/.cache.
std::string user_cache_dir();
// This program's executable file (/proc/self/exe); "" when unknown.
std::string executable_path();
// This process's id (getpid), for names of temporary files.
long process_id();
// Resident set size of this process, bytes (/proc/self/statm); 0 when unknown.
size_t resident_memory_bytes();

// CPU time this process has used so far, on all its threads, and the page faults it took
// without reading a disk (first touches of fresh memory).
struct CpuTimes {
  double user_ms = 0;    // in user mode
  double system_ms = 0;  // in the kernel on its behalf
  long page_faults = 0;  // minor faults
};
CpuTimes process_cpu_times();

// Lowers the calling thread's priority by `nice` steps (on Linux nice is per thread). Best
// effort: a refused change leaves the thread at the process's priority.
void lower_thread_priority(int nice);

// Whether an NVIDIA driver is installed: the kernel module's /proc entry, else (WSL) whether
// libcuda loads. Looks every time: callers keep the answer.
bool nvidia_driver_installed();

// ---- Memory ----

// Faults in the pages of [begin, begin + bytes) (page-aligned) for writing without changing their
// bytes (madvise MADV_POPULATE_WRITE, Linux 5.14). False where the system cannot; nothing is
// faulted in then, and a failure only costs time.
bool populate_for_writing(void* begin, size_t bytes);
// glibc's malloc: the main heap maps no block of its own and never trims its top, so that freed
// memory stays for reuse (mallopt). No effect with another allocator.
void keep_freed_memory_in_heap();
// glibc's malloc: returns the heap's free memory to the system when more than `at_least` bytes
// of it are free (malloc_trim); whether it did. False with another allocator.
bool trim_heap(size_t at_least);

// ---- Files and folders ----

// What the file system says about a path, or an open file.
struct FileStatus {
  bool exists = false;     // false: it could not be examined; `error` says why
  bool regular = false;    // a regular file (not a folder, device, FIFO or socket)
  bool directory = false;  // a folder
  uint64_t size = 0;       // bytes
  int64_t mtime_ns = -1;   // last modification, ns since 1970; -1 when it does not exist
  uint64_t device = 0;     // the file system holding it, and the file's number there: one pair is
  uint64_t inode = 0;      //   one file under every name (a Windows port: the volume's serial
                           //   number and the file index, GetFileInformationByHandle)
  std::string error;       // the system's reason when !exists ("No such file or directory")
};
FileStatus file_status(const std::string& path);  // follows symbolic links (stat)
FileStatus file_status(std::FILE* file);          // the file already open (fstat)
// Whether both exist and are one file, whatever names, links or folders led to them.
inline bool same_file(const FileStatus& a, const FileStatus& b) {
  return a.exists && b.exists && a.device == b.device && a.inode == b.inode;
}

// `path` made absolute, symbolic links resolved (realpath); "" when it cannot be.
std::string real_path(const std::string& path);
// Makes the folder `path` (its parent must exist); "" when made or already there, else the reason.
std::string make_directory(const std::string& path);
// The names in the folder `path`, without "." and ".."; none when it cannot be read.
std::vector<std::string> list_directory(const std::string& path);
// Removes the file `path`; whether it is gone (removed now, or not there).
bool remove_file(const std::string& path);
// Renames `from` to `to`, replacing `to` in one step (atomic within a folder); "" or the reason.
std::string rename_file(const std::string& from, const std::string& to);
// Sets the file's modification time to now; best effort.
void touch_file(const std::string& path);

// A small text file (a defaults file, a cameras file, an MTL, the viewer's settings) read whole,
// never more than `max_bytes`: "" and the bytes in `text`, or why not, in words for
// "PATH: REASON": it does not exist, "is a folder", "is not a regular file (a FIFO, a device or a
// socket)", or "is N bytes; at most M are read". A FIFO or device is refused before it is read
// (opened without blocking), so /dev/zero, /dev/stdin or a pipe nobody writes never hang a
// reader; a file that grows while it is read is cut at max_bytes + 1 and refused.
std::string read_small_file(const std::string& path, uint64_t max_bytes, std::string& text);
// fopen(path, "rb") that never waits: opened without blocking, then refused (null, errno EINVAL)
// unless it is a regular file, so that a path swapped for a FIFO after the caller's check cannot
// hang the reader. The caller closes the file.
std::FILE* open_regular_file(const std::string& path);

// A whole file written so that `target` is either the new file, complete, or what it was before;
// never a truncated file. open() creates ".NAME.tmp-XXXXXX" beside the target (beside the file a
// symbolic link names: the link stays), write() appends, every write checked, and commit() closes
// (a close may report a write that failed late) and renames it over the target in one step. A
// failure anywhere, or destruction before commit(), removes the temporary file. A target that
// exists and is neither a regular file nor a folder (a device such as /dev/stdout or /dev/full, a
// FIFO) is written straight into: nothing may be renamed over it. A folder is refused (EISDIR).
// Errors are the system's reasons, for the caller's "PATH: cannot write: REASON". A Windows port:
// CreateFileW with CREATE_NEW beside the target, WriteFile, CloseHandle, then MoveFileExW with
// MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH.
class ReplacingFile {
 public:
  explicit ReplacingFile(std::string target);
  ~ReplacingFile();  // abandon() unless committed
  ReplacingFile(const ReplacingFile&) = delete;
  ReplacingFile& operator=(const ReplacingFile&) = delete;

  // Creates the temporary file (with the permissions a new file gets: 0666 less the umask), or
  // opens the device. "" or the reason.
  std::string open();
  // Appends [data, data + bytes). "" or the reason (the file is abandoned then).
  std::string write(const void* data, uint64_t bytes);
  // Closes and puts the file in the target's place. "" or the reason (the file is abandoned then).
  std::string commit();
  // Closes and removes the temporary file; the target stays as it was. Nothing once committed.
  void abandon();
  // The file being written: the temporary file, or the target itself when written straight into.
  const std::string& writing() const { return m_temp.empty() ? m_target : m_temp; }

 private:
  std::string m_target;  // the target, symbolic links resolved once open
  std::string m_temp;    // the temporary file; "" when none (not open, or a device)
  intptr_t m_file = -1;  // the descriptor (a HANDLE on Windows); -1: not open
};

// A whole file mapped read-only into memory; data is null for an empty file.
struct FileMapping {
  const char* data = nullptr;
  uint64_t size = 0;
};
// Opens and maps `path` at its size now. `read_ahead`: the system reads the whole file ahead at
// once (a reader that jumps about, or parses on many threads), else page by page in order. On a
// failure returns {} with `error` set ("cannot open: REASON", or "cannot map the file into
// memory (REASON, N bytes)"); `error` is left alone otherwise.
FileMapping map_file(const std::string& path, bool read_ahead, std::string& error);
// Undoes map_file (nothing for an empty mapping).
void unmap_file(FileMapping mapping);

// A file open for writing at given offsets, closed by close() or the destructor. The atomic
// write: create_unique beside the target, write, close, rename_file over the target.
class OutputFile {
 public:
  OutputFile() = default;
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  // Creates a new file `name` whose last six characters, "XXXXXX", are replaced so that no other
  // file has the name (mkstemp); `name` becomes the name chosen. "" or the reason.
  std::string create_unique(std::string& name);
  // Room for `bytes` at offset `at`: the blocks reserved up front where the file system can (a
  // full disk fails here), else only the file's size set. "" or the problem ("cannot reserve N
  // MiB: REASON", or the reason).
  std::string reserve(uint64_t at, uint64_t bytes);
  // Writes all of [data, data + bytes) at offset `at`. "" or the reason.
  std::string write_at(const void* data, uint64_t bytes, uint64_t at);
  // Closes the file (a close may report a write that failed late). "" or the reason.
  std::string close();

 private:
  intptr_t m_file = -1;  // the descriptor (a HANDLE on Windows); -1: not open
};

}  // namespace facet::platform
