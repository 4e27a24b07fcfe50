// Log lines tagged per thread (see log_tag.h).
#include "app/log_tag.h"

#include <spdlog/pattern_formatter.h>

#include <utility>

namespace llmperf {
namespace {

thread_local std::string tls_tag;  // this thread's tag

// `%*` in a pattern: the writing thread's tag.
class TagFlag : public spdlog::custom_flag_formatter {
 public:
  void format(const spdlog::details::log_msg&, const std::tm&,
              spdlog::memory_buf_t& dest) override {
    dest.append(tls_tag.data(), tls_tag.data() + tls_tag.size());
  }
  std::unique_ptr<custom_flag_formatter> clone() const override {
    return std::make_unique<TagFlag>();
  }
};

}  // namespace

ScopedLogTag::ScopedLogTag(std::string tag) : previous_(std::exchange(tls_tag, std::move(tag))) {}

ScopedLogTag::~ScopedLogTag() { tls_tag = std::move(previous_); }

const std::string& log_tag() { return tls_tag; }

std::unique_ptr<spdlog::formatter> tagged_log_formatter(const std::string& pattern) {
  auto formatter = std::make_unique<spdlog::pattern_formatter>();
  formatter->add_flag<TagFlag>('*').set_pattern(pattern);
  return formatter;
}

}  // namespace llmperf
