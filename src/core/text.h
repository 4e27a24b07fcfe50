// Small text helpers every stage shares.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace llmperf {

// `text` without leading and trailing ASCII white space (space, \t, \n, \v, \f, \r).
constexpr std::string_view trim(std::string_view text) {
  constexpr std::string_view kSpace = " \t\n\v\f\r";
  const size_t first = text.find_first_not_of(kSpace);
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(kSpace) - first + 1);
}

// The parts of `text` between each `separator` (views into it): "a,,b" -> {"a", "", "b"}; one
// part, "", for "".
inline std::vector<std::string_view> split_text(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (true) {
    const size_t at = text.find(separator, start);
    parts.push_back(text.substr(start, at == std::string_view::npos ? text.npos : at - start));
    if (at == std::string_view::npos) return parts;
    start = at + 1;
  }
}

// `text` with ASCII letters in lower case (other bytes, UTF-8 included, unchanged).
inline std::string ascii_lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

// The userinfo of a URL ("user:password" in "http://user:password@host/..."), or "" when it has
// none.
inline std::string_view url_userinfo(std::string_view url) {
  const size_t scheme = url.find("://");
  if (scheme == std::string_view::npos) return {};
  const std::string_view rest = url.substr(scheme + 3);
  const std::string_view authority = rest.substr(0, rest.find_first_of("/?#"));
  const size_t at = authority.rfind('@');
  return at == std::string_view::npos ? std::string_view() : authority.substr(0, at);
}

// `url` without its userinfo, to be shown or written: "http://u:p@host/x" -> "http://host/x".
inline std::string url_without_userinfo(std::string_view url) {
  const std::string_view userinfo = url_userinfo(url);
  if (userinfo.empty()) return std::string(url);
  const size_t at = url.find(userinfo);
  return std::string(url.substr(0, at)) + std::string(url.substr(at + userinfo.size() + 1));
}

// `text` with each of `secrets` (credential values: ReportOptions::secrets) replaced by "***":
// the last scrub of everything llmperf writes.
inline std::string redact(std::string text, const std::vector<std::string>& secrets) {
  constexpr std::string_view kMask = "***";
  for (const std::string& secret : secrets) {
    for (size_t pos = text.find(secret); pos != std::string::npos;
         pos = text.find(secret, pos + kMask.size())) {
      text.replace(pos, secret.size(), kMask);
    }
  }
  return text;
}

}  // namespace llmperf
