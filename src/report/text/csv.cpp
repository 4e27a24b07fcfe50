// RFC 4180 quoting (see csv.h).
#include "report/text/csv.h"

namespace llmperf::report_detail {

std::string csv_field(std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
  std::string quoted = "\"";
  for (const char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

}  // namespace llmperf::report_detail
