// `llmperf tune --storage URL`: where several workers keep one shared study, Optuna's storage
// (an SQLAlchemy URL). Only what works across workers is accepted: PostgreSQL (`postgresql://`,
// `postgresql+psycopg2://`, the driver Debian's python3-psycopg2 gives SQLAlchemy) and an SQLite
// file (`sqlite:///study.db`, `sqlite:////abs/study.db`; workers on one host only). A URL may
// hold a password (`postgresql://user:secret@host/db`, or `?password=secret`): it is passed to
// the bridge and nowhere else, and every message, log line and file shows `redacted` instead,
// the password replaced by `***`. Pure.
#pragma once

#include <string>
#include <string_view>

namespace llmperf {

// What a password is shown as.
inline constexpr std::string_view kRedactedPassword = "***";

struct StorageUrl {
  std::string url;       // as given: for Optuna only, never shown
  std::string redacted;  // the URL with its password as ***: for every message, log and file
  std::string scheme;    // "sqlite", "postgresql" or "postgresql+psycopg2"
  std::string password;  // the password as written in the URL ("" when none)
  bool sqlite() const { return scheme == "sqlite"; }
};

// Parses and checks `--storage`. Throws std::invalid_argument naming --storage and showing the
// URL redacted: an unknown scheme (with a hint for `postgres://` and `sqlite:///`), an SQLite URL
// without a file (an in-memory database is no one's to share), a PostgreSQL URL without `//`,
// control characters.
StorageUrl parse_storage_url(std::string_view text);

// `text` with the password of every storage URL in it replaced by *** (`scheme://user:PASS@`
// and `password=PASS` up to the next `&`, space or quote), and every occurrence of `password`
// (the one a StorageUrl holds, as written and percent-decoded) as well: for error messages that
// quote a URL, or a driver's message that quotes the password alone.
std::string redact_storage_text(std::string_view text, std::string_view password = {});

// `--study-name`: 1 to 128 printable ASCII characters. Throws std::invalid_argument naming
// --study-name.
void check_study_name(std::string_view name);

}  // namespace llmperf
