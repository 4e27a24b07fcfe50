// See files.h.
#include "core/files.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

namespace llmperf {

std::runtime_error file_write_error(const std::string& path, int error) {
  return std::runtime_error(fmt::format("cannot write {}: {}", path, std::strerror(error)));
}

int sync_and_close_fd(int fd) {
  const int synced = ::fsync(fd) == 0 ? 0 : errno;
  const int closed = ::close(fd) == 0 ? 0 : errno;
  return synced != 0 ? synced : closed;
}

int write_all_fd(int fd, std::string_view data) {
  while (!data.empty()) {
    const ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno;
    data.remove_prefix(static_cast<size_t>(n));
  }
  return 0;
}

void write_file_atomic(const std::string& path, const std::string& content) {
  const std::string tmp = fmt::format("{}.tmp.{}", path, getpid());
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw file_write_error(path, errno);
  if (const int error = write_all_fd(fd, content); error != 0) {
    ::close(fd);
    ::unlink(tmp.c_str());
    throw file_write_error(path, error);
  }
  if (const int error = sync_and_close_fd(fd); error != 0) {
    ::unlink(tmp.c_str());
    throw file_write_error(path, error);
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    int error = errno;
    ::unlink(tmp.c_str());
    throw file_write_error(path, error);
  }
}

}  // namespace llmperf
