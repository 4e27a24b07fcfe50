// --storage's URL checked, and its password kept out of every message (storage_url.h).
#include "study/storage_url.h"

#include <array>
#include <cctype>
#include <stdexcept>

#include <fmt/format.h>

namespace llmperf {
namespace {

bool ends_query_value(char c) {
  return c == '&' || c == '"' || c == '\'' || c == '`' || c == ')' ||
         std::isspace(static_cast<unsigned char>(c)) != 0;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string percent_decoded(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size()) {
      const int high = hex_digit(text[i + 1]);
      const int low = hex_digit(text[i + 2]);
      if (high >= 0 && low >= 0) {
        out += static_cast<char>(high * 16 + low);
        i += 2;
        continue;
      }
    }
    out += text[i];
  }
  return out;
}

void replace_all(std::string& text, std::string_view what) {
  if (what.empty()) return;
  for (size_t at = text.find(what); at != std::string::npos;
       at = text.find(what, at + kRedactedPassword.size())) {
    text.replace(at, what.size(), kRedactedPassword);
  }
}

// The password of the URL whose "://" is at text[scheme_end], read as SQLAlchemy reads it
// (user, then ':' and the password up to the first '@'), in running text up to a space or quote:
// its [begin, end) in text, or begin == end when it has none.
std::pair<size_t, size_t> url_password(std::string_view text, size_t scheme_end) {
  const auto stops = [](char c) {
    return c == '"' || c == '\'' || c == '`' || std::isspace(static_cast<unsigned char>(c)) != 0;
  };
  size_t user_end = scheme_end + 3;
  while (user_end < text.size() && text[user_end] != ':' && text[user_end] != '/' &&
         text[user_end] != '@' && !stops(text[user_end])) {
    ++user_end;
  }
  if (user_end >= text.size() || text[user_end] != ':') return {0, 0};
  size_t at = user_end + 1;
  while (at < text.size() && text[at] != '@' && !stops(text[at])) ++at;
  if (at >= text.size() || text[at] != '@') return {0, 0};
  return {user_end + 1, at};
}

// One pass of redact_storage_text's two rules.
std::string redact_once(std::string_view text) {
  std::string out(text);
  // user:PASS@ after every "://".
  for (size_t at = out.find("://"); at != std::string::npos; at = out.find("://", at + 3)) {
    const auto [begin, end] = url_password(out, at);
    if (begin < end && out.compare(begin, end - begin, kRedactedPassword) != 0) {
      out.replace(begin, end - begin, kRedactedPassword);
    }
  }
  // password=PASS in a query (libpq's keyword too), whatever its case.
  static constexpr std::string_view kKey = "password=";
  for (size_t at = 0; at + kKey.size() <= out.size(); ++at) {
    bool match = true;
    for (size_t k = 0; k < kKey.size() && match; ++k) {
      match = std::tolower(static_cast<unsigned char>(out[at + k])) == kKey[k];
    }
    if (!match) continue;
    const size_t begin = at + kKey.size();
    size_t end = begin;
    while (end < out.size() && !ends_query_value(out[end])) ++end;
    if (end > begin && out.compare(begin, end - begin, kRedactedPassword) != 0) {
      out.replace(begin, end - begin, kRedactedPassword);
    }
    at = begin;
  }
  return out;
}

}  // namespace

std::string redact_storage_text(std::string_view text, std::string_view password) {
  // Until nothing changes: a password hidden by one rule may, once gone, let the other rule see
  // a URL it ended early (a '/' in a query value).
  std::string out(text);
  for (int pass = 0; pass < 16; ++pass) {
    std::string next = redact_once(out);
    if (next == out) break;
    out = std::move(next);
  }
  if (!password.empty()) {
    replace_all(out, password);
    const std::string decoded = percent_decoded(password);
    if (decoded != password) replace_all(out, decoded);
  }
  return out;
}

StorageUrl parse_storage_url(std::string_view text) {
  StorageUrl url;
  url.url = std::string(text);
  const size_t colon = text.find(':');
  url.scheme = std::string(text.substr(0, colon == std::string_view::npos ? 0 : colon));
  // The password first, so that every message below can show the URL without it.
  if (const size_t slashes = text.find("://"); slashes != std::string_view::npos && slashes == colon) {
    const auto [begin, end] = url_password(text, slashes);
    url.password = std::string(text.substr(begin, end - begin));
  }
  // A password=... query value too.
  {
    const std::string lowered = [&] {
      std::string s(text);
      for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      return s;
    }();
    if (const size_t at = lowered.find("password="); at != std::string::npos && url.password.empty()) {
      size_t end = at + 9;
      while (end < text.size() && text[end] != '&') ++end;
      url.password = std::string(text.substr(at + 9, end - at - 9));
    }
  }
  url.redacted = redact_storage_text(text, url.password);
  if (text.find("://") == std::string_view::npos && text.find('@') != std::string_view::npos) {
    // user:password@ without "//" (a typo): its password cannot be told apart, so none of it shows.
    url.redacted = url.scheme + ":" + std::string(kRedactedPassword);
  }
  const auto fail = [&](const std::string& why) {
    return std::invalid_argument(fmt::format("--storage '{}': {}", url.redacted, why));
  };
  for (const char c : text) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      throw fail("a control character (a URL is one line of printable text)");
    }
  }
  if (text.empty()) throw fail("empty (write sqlite:///study.db or postgresql://user@host/db)");
  static constexpr std::array<std::string_view, 3> kSchemes = {"sqlite", "postgresql",
                                                               "postgresql+psycopg2"};
  bool known = false;
  for (const std::string_view scheme : kSchemes) known = known || url.scheme == scheme;
  if (!known) {
    if (url.scheme == "postgres") {
      throw fail("write postgresql://, as SQLAlchemy does (it does not read postgres://)");
    }
    throw fail(
        "the shared study's storage is PostgreSQL (postgresql://user@host/db, or "
        "postgresql+psycopg2://) or, for workers on one host, an SQLite file (sqlite:///study.db)");
  }
  if (text.substr(colon, 3) != "://") throw fail(fmt::format("write {}://...", url.scheme));
  if (url.sqlite()) {
    if (text.substr(colon, 4) != ":///" || text.size() <= colon + 4) {
      throw fail(
          "name the SQLite file with three slashes: sqlite:///study.db (relative to the "
          "working directory) or sqlite:////abs/study.db (an in-memory database cannot be "
          "shared)");
    }
    if (text.substr(colon + 4) == ":memory:") {
      throw fail("an in-memory database cannot be shared: name a file");
    }
  }
  return url;
}

void check_study_name(std::string_view name) {
  if (name.empty() || name.size() > 128) {
    throw std::invalid_argument("--study-name: 1 to 128 characters");
  }
  for (const char c : name) {
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) {
      throw std::invalid_argument(
          "--study-name: printable ASCII only (letters, digits, '-', '_', '.', ...)");
    }
  }
}

}  // namespace llmperf
