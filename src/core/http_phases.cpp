// Stable text names of HttpVersion (see http_phases.h); they appear in requests.jsonl and
// summary.json.
#include "core/http_phases.h"

namespace llmperf {

std::string_view http_version_name(HttpVersion version) {
  switch (version) {
    case HttpVersion::kHttp10:
      return "http/1.0";
    case HttpVersion::kHttp11:
      return "http/1.1";
    case HttpVersion::kHttp2:
      return "h2";
    case HttpVersion::kHttp3:
      return "h3";
    case HttpVersion::kUnknown:
      break;
  }
  return "";
}

HttpVersion http_version_from_name(std::string_view name) {
  for (HttpVersion v :
       {HttpVersion::kHttp10, HttpVersion::kHttp11, HttpVersion::kHttp2, HttpVersion::kHttp3}) {
    if (http_version_name(v) == name) return v;
  }
  return HttpVersion::kUnknown;
}

}  // namespace llmperf
