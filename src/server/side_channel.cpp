// The server's base URL (see side_channel.h).
#include "server/side_channel.h"

namespace llmperf {

std::string base_url_of(const std::string& url) {
  const size_t scheme = url.find("://");
  const size_t path = url.find('/', scheme == std::string::npos ? 0 : scheme + 3);
  if (path == std::string::npos) return url;
  const size_t v1 = url.find("/v1/", path);
  if (v1 != std::string::npos) return url.substr(0, v1);
  if (url.size() >= 3 && url.compare(url.size() - 3, 3, "/v1") == 0) {
    return url.substr(0, url.size() - 3);
  }
  return url.substr(0, path);
}

}  // namespace llmperf
