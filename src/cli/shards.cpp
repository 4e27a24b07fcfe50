// Shard resolution and --start-at parsing (see shards.h).
#include "cli/shards.h"

#include <charconv>
#include <cmath>
#include <ctime>
#include <optional>
#include <string_view>

#include <fmt/format.h>

namespace llmperf {
namespace {

std::optional<int64_t> parse_int(std::string_view text) {
  int64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

// A rank/size pair of environment variables, checked.
std::optional<ShardChoice> from_env_pair(const EnvReader& env, const char* rank_name,
                                         const char* size_name, const char* launcher,
                                         std::vector<std::string>& errors) {
  const char* rank = env(rank_name);
  const char* size = env(size_name);
  if (rank == nullptr || size == nullptr) return std::nullopt;
  const std::optional<int64_t> i = parse_int(rank);
  const std::optional<int64_t> n = parse_int(size);
  if (!i || !n || *n < 1 || *n > 100000 || *i < 0 || *i >= *n) {
    errors.push_back(fmt::format("{}: {}={} and {}={} do not name a shard (0 <= rank < size)",
                                 launcher, rank_name, rank, size_name, size));
    return std::nullopt;
  }
  return ShardChoice{static_cast<int>(*i), static_cast<int>(*n),
                     fmt::format("{} ({}/{})", launcher, rank_name, size_name)};
}

}  // namespace

ShardChoice resolve_shard(const std::string& flag, int shards_flag, const EnvReader& env,
                          std::vector<std::string>& errors) {
  if (!flag.empty()) {
    const size_t slash = flag.find('/');
    const std::optional<int64_t> i =
        slash == std::string::npos ? std::nullopt : parse_int(std::string_view(flag).substr(0, slash));
    const std::optional<int64_t> n =
        slash == std::string::npos ? std::nullopt : parse_int(std::string_view(flag).substr(slash + 1));
    if (!i || !n || *n < 1 || *n > 100000 || *i < 0 || *i >= *n) {
      errors.push_back(fmt::format(
          "--shard must be I/N with 0 <= I < N, e.g. --shard 0/4 (got \"{}\")", flag));
      return {};
    }
    return ShardChoice{static_cast<int>(*i), static_cast<int>(*n), "--shard"};
  }
  if (const char* index = env("JOB_COMPLETION_INDEX"); index != nullptr) {
    const std::optional<int64_t> i = parse_int(index);
    if (shards_flag < 1) {
      errors.push_back(fmt::format(
          "JOB_COMPLETION_INDEX={} (a Kubernetes Indexed Job) needs --shards N, the Job's "
          "completions: the Job does not export it",
          index));
      return {};
    }
    if (!i || *i < 0 || *i >= shards_flag) {
      errors.push_back(fmt::format("JOB_COMPLETION_INDEX={} is not a shard of --shards {}", index,
                                   shards_flag));
      return {};
    }
    return ShardChoice{static_cast<int>(*i), shards_flag,
                       "Kubernetes Indexed Job (JOB_COMPLETION_INDEX, --shards)"};
  }
  const struct {
    const char* rank;
    const char* size;
    const char* launcher;
  } kLaunchers[] = {// mpirun inside a Slurm job passes SLURM_PROCID=0 on to every rank: the
                    // launcher that started this process directly comes first.
                    {"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "Open MPI"},
                    {"PMI_RANK", "PMI_SIZE", "PMI"},
                    {"SLURM_PROCID", "SLURM_NTASKS", "Slurm"}};
  for (const auto& launcher : kLaunchers) {
    if (auto choice = from_env_pair(env, launcher.rank, launcher.size, launcher.launcher, errors)) {
      return *choice;
    }
  }
  if (shards_flag > 1) {
    errors.push_back(fmt::format(
        "--shards {} needs this process's index: --shard I/{} or JOB_COMPLETION_INDEX", shards_flag,
        shards_flag));
  }
  return {};
}

int64_t parse_start_at(const std::string& text, std::vector<std::string>& errors) {
  const auto fail = [&] {
    errors.push_back(fmt::format(
        "--start-at must be RFC 3339 (2026-11-24T21:30:00Z) or Unix seconds (got \"{}\")", text));
    return int64_t{-1};
  };
  if (text.empty()) return fail();
  // Unix seconds, with an optional fraction (read as digits: a double would round it).
  if (text.find_first_not_of("0123456789.") == std::string::npos) {
    const size_t dot = text.find('.');
    const std::optional<int64_t> seconds = parse_int(std::string_view(text).substr(0, dot));
    if (!seconds || *seconds > 9'000'000'000) return fail();
    int64_t fraction_ns = 0;
    if (dot != std::string::npos) {
      const std::string_view digits = std::string_view(text).substr(dot + 1);
      if (digits.empty() || digits.find('.') != std::string_view::npos) return fail();
      int64_t scale = 100'000'000;
      for (const char c : digits) {
        fraction_ns += (c - '0') * scale;
        scale /= 10;
      }
    }
    return *seconds * 1'000'000'000 + fraction_ns;
  }
  // RFC 3339: YYYY-MM-DDTHH:MM:SS[.frac](Z|+HH:MM|-HH:MM)
  std::tm tm{};
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  char separator = 0;
  int consumed = 0;
  if (std::sscanf(text.c_str(), "%4d-%2d-%2d%c%2d:%2d:%2d%n", &year, &month, &day, &separator,
                  &hour, &minute, &second, &consumed) != 7 ||
      (separator != 'T' && separator != 't' && separator != ' ') || month < 1 || month > 12 ||
      day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) {
    return fail();
  }
  std::string_view rest = std::string_view(text).substr(static_cast<size_t>(consumed));
  int64_t fraction_ns = 0;
  if (!rest.empty() && rest.front() == '.') {
    rest.remove_prefix(1);
    int64_t scale = 100'000'000;
    size_t digits = 0;
    while (digits < rest.size() && rest[digits] >= '0' && rest[digits] <= '9') {
      if (scale > 0) fraction_ns += (rest[digits] - '0') * scale;
      scale /= 10;
      ++digits;
    }
    if (digits == 0) return fail();
    rest.remove_prefix(digits);
  }
  int64_t offset_s = 0;
  if (rest == "Z" || rest == "z") {
    offset_s = 0;
  } else if (rest.size() == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':') {
    const std::optional<int64_t> h = parse_int(rest.substr(1, 2));
    const std::optional<int64_t> m = parse_int(rest.substr(4, 2));
    if (!h || !m || *h > 23 || *m > 59) return fail();
    offset_s = (*h * 3600 + *m * 60) * (rest[0] == '+' ? 1 : -1);
  } else {
    return fail();
  }
  tm.tm_year = year - 1900;
  tm.tm_mon = month - 1;
  tm.tm_mday = day;
  tm.tm_hour = hour;
  tm.tm_min = minute;
  tm.tm_sec = second;
  const time_t utc = timegm(&tm);
  return (static_cast<int64_t>(utc) - offset_s) * 1'000'000'000 + fraction_ns;
}

}  // namespace llmperf
