// Stable text names for the enums in record.h. These strings appear in summaries and
// requests.jsonl, so changing one is a breaking change to the output contract.
#include "core/record.h"

namespace llmperf {

std::string failure_kind_name(ErrorKind kind, int http_status) {
  switch (kind) {
    case ErrorKind::kNone:
      return "none";
    case ErrorKind::kConnectRefused:
      return "connect_refused";
    case ErrorKind::kConnectTimeout:
      return "connect_timeout";
    case ErrorKind::kResolve:
      return "resolve";
    case ErrorKind::kTimeoutRead:
      return "timeout_read";
    case ErrorKind::kTimeoutTotal:
      return "timeout_total";
    case ErrorKind::kHttp:
      return http_status > 0 ? "http_" + std::to_string(http_status) : "http_error";
    case ErrorKind::kStreamError:
      return "stream_error";
    case ErrorKind::kStreamTruncated:
      return "stream_truncated";
    case ErrorKind::kBadResponse:
      return "bad_response";
    case ErrorKind::kNoOutput:
      return "no_output";
    case ErrorKind::kItemCount:
      return "item_count";
    case ErrorKind::kTransport:
      return "transport";
    case ErrorKind::kInterrupted:
      return "interrupted";
    case ErrorKind::kCancelled:
      return "cancelled";
    case ErrorKind::kNoResponse:
      return "no_response";
  }
  return "transport";
}

std::string_view token_source_name(TokenSource source) {
  switch (source) {
    case TokenSource::kNone:
      return "none";
    case TokenSource::kUsage:
      return "usage";
    case TokenSource::kChunkCount:
      return "chunk_count";
    case TokenSource::kCharCount:
      return "char_count";
  }
  return "none";
}

}  // namespace llmperf
