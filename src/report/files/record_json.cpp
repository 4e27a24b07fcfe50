// requests.jsonl: one lossless record per line (record_to_json), its inverse (record_from_json),
// and the one reader of the file (read_records_file), which `llmperf report` and `llmperf merge`
// stream. Record timestamps leave here as integer nanoseconds relative to the run's anchor.
#include <algorithm>
#include <fstream>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <string_view>

#include <fmt/format.h>

#include "metrics/catalogue.h"
#include "report/internal.h"

namespace llmperf {

namespace {

int64_t time_from_json(const nlohmann::json& object, const char* key) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return -1;
  const std::optional<int64_t> t = report_detail::json_integer<int64_t>(*it);
  if (!t) throw std::runtime_error(fmt::format("\"{}\" is not a time in nanoseconds", key));
  return *t;
}

ErrorKind error_kind_from_name(const std::string& name) {
  if (name.empty() || name == "none") return ErrorKind::kNone;
  if (name.rfind("http_", 0) == 0) return ErrorKind::kHttp;
  for (int k = 0; k <= static_cast<int>(ErrorKind::kCancelled); ++k) {
    auto kind = static_cast<ErrorKind>(k);
    if (failure_kind_name(kind, 0) == name) return kind;
  }
  return ErrorKind::kTransport;
}

TokenSource token_source_from_name(const std::string& name) {
  for (int s = 0; s <= static_cast<int>(TokenSource::kCharCount); ++s) {
    auto source = static_cast<TokenSource>(s);
    if (token_source_name(source) == name) return source;
  }
  return TokenSource::kNone;
}

// One requests.jsonl line, written field by field: the collector writes one per finished request
// while the run goes on, and building an nlohmann::json object for it cost about 10 us per record
// (mostly allocation), 5 to 10 times this. Strings that need escaping go through nlohmann's dump,
// so the output is what nlohmann would write.
class RecordLine {
 public:
  explicit RecordLine(size_t chunks) { out_.reserve(640 + 12 * chunks); }

  RecordLine& key(std::string_view name) {
    out_ += out_.empty() ? '{' : ',';
    out_ += '"';
    out_ += name;
    out_ += "\":";
    return *this;
  }
  // A key of a nested object: `first` opens it ({), the others follow a comma.
  RecordLine& key_in_object(std::string_view name, bool first) {
    out_ += first ? '{' : ',';
    out_ += '"';
    out_ += name;
    out_ += "\":";
    return *this;
  }
  void close_object() { out_ += '}'; }
  void null() { out_ += "null"; }
  void boolean(bool value) { out_ += value ? "true" : "false"; }
  void integer(int64_t value) { fmt::format_to(std::back_inserter(out_), "{}", value); }
  void time(int64_t t, int64_t anchor) { t < 0 ? null() : integer(t - anchor); }
  // A finite double, always with a fraction or exponent (as nlohmann writes it, so it reads back
  // as a floating-point number).
  void number(double value) {
    const size_t start = out_.size();
    fmt::format_to(std::back_inserter(out_), "{}", value);
    if (out_.find_first_of(".e", start) == std::string::npos) out_ += ".0";
  }
  void string(std::string_view text) {
    const bool plain = std::all_of(text.begin(), text.end(), [](char c) {
      return c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
    });
    if (!plain) {
      out_ += nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
      return;
    }
    out_ += '"';
    out_ += text;
    out_ += '"';
  }
  // [t - base for each t in times]
  void offsets(const std::vector<int64_t>& times, int64_t base) {
    out_ += '[';
    for (size_t i = 0; i < times.size(); ++i) {
      if (i > 0) out_ += ',';
      integer(times[i] - base);
    }
    out_ += ']';
  }
  std::string finish() && {
    out_ += '}';
    return std::move(out_);
  }

 private:
  std::string out_;
};

// "connection", "http_version" and "phases_ns" of a request curl finished (http_phases.h).
void write_http_phases(RecordLine& line, const HttpPhases& p) {
  line.key("connection").string(p.new_connection ? "new" : "reused");
  line.key("http_version");
  p.version == HttpVersion::kUnknown ? line.null() : line.string(http_version_name(p.version));
  line.key("phases_ns");
  line.key_in_object("dns", true).integer(p.dns_ns);
  line.key_in_object("connect", false).integer(p.connect_ns);
  line.key_in_object("tls", false).integer(p.tls_ns);
  line.key_in_object("send", false).integer(p.send_ns);
  line.key_in_object("wait", false).integer(p.wait_ns);
  line.key_in_object("receive", false).integer(p.receive_ns);
  line.close_object();
}

// The inverse of write_http_phases (absent: not measured).
HttpPhases http_phases_from_json(const nlohmann::json& j) {
  HttpPhases p;
  const auto it = j.find("phases_ns");
  if (it == j.end() || !it->is_object()) return p;
  p.measured = true;
  p.new_connection = j.value("connection", "") == "new";
  const auto& version = j.value("http_version", nlohmann::json());
  if (version.is_string()) p.version = http_version_from_name(version.get<std::string>());
  auto phase = [&](const char* key, int64_t& field) {
    const auto value = it->find(key);
    if (value == it->end()) return;
    const auto ns = report_detail::json_integer<int64_t>(*value);
    if (!ns) throw std::runtime_error(fmt::format("\"phases_ns.{}\" is not an integer", key));
    field = *ns;
  };
  phase("dns", p.dns_ns);
  phase("connect", p.connect_ns);
  phase("tls", p.tls_ns);
  phase("send", p.send_ns);
  phase("wait", p.wait_ns);
  phase("receive", p.receive_ns);
  return p;
}

}  // namespace

std::string record_to_json(const RequestRecord& record, const RunInfo& info) {
  const int64_t anchor = info.anchor_steady_ns;
  const bool sent = record.sent_ns >= 0;
  RecordLine line(record.chunk_ns.size());
  // A catalogue time from the send, keyed and in the unit it names (`ttft_ms`, `latency_s`).
  auto interval = [&](Metric metric, int64_t later) {
    line.key(metric_key(metric));
    if (!record.ok() || !sent || later < 0) return line.null();
    line.number(static_cast<double>(later - record.sent_ns) / base_per_unit(metric_info(metric)));
  };

  line.key("id").integer(static_cast<int64_t>(record.id));
  line.key("worker").integer(record.worker);
  line.key("prompt_index").integer(record.prompt_index);
  line.key("stream").boolean(record.stream);
  line.key("warmup").boolean(record.warmup);
  if (record.url_index >= 0) line.key("url_index").integer(record.url_index);  // several --url
  line.key("ok").boolean(record.ok());
  line.key("error_kind");
  record.ok() ? line.null() : line.string(failure_kind_name(record.error, record.http_status));
  line.key("error_message").string(record.error_message);
  line.key("http_status").integer(record.http_status);
  line.key("finish_reason").string(record.finish_reason);
  line.key("response_id").string(record.response_id);
  line.key("input_tokens").integer(record.input_tokens);
  line.key("output_tokens").integer(record.output_tokens);
  line.key("target_input_tokens");
  record.target_input_tokens < 0 ? line.null() : line.integer(record.target_input_tokens);
  line.key("target_output_tokens");
  record.target_output_tokens < 0 ? line.null() : line.integer(record.target_output_tokens);
  line.key("input_chars").integer(record.input_chars);
  if (record.prefix_group >= 0) {  // --dataset shared_prefix only
    line.key("prefix_group").integer(record.prefix_group);
    line.key("prefix_first_use").boolean(record.prefix_first_use);
  }
  if (record.session_id >= 0) {  // --multi-turn only
    line.key("session_id").integer(record.session_id);
    line.key("turn").integer(record.turn);
    line.key("session_turns").integer(record.session_turns);
  }
  if (record.cached_tokens >= 0) line.key("cached_tokens").integer(record.cached_tokens);
  if (record.items > 0) line.key("items").integer(record.items);  // embeddings and rerank
  if (record.reasoning_tokens >= 0) {                             // responses that reasoned
    line.key("reasoning_tokens").integer(std::max<int64_t>(0, record.reasoning_tokens));
    line.key("reasoning_token_source").string(token_source_name(record.reasoning_source));
    line.key("reasoning_chunks").integer(record.reasoning_chunks);
    line.key("first_answer_chunk").integer(record.first_answer_chunk);
    line.key("first_answer_ns").time(record.first_answer_ns, anchor);
  }
  line.key("input_token_source").string(token_source_name(record.input_source));
  line.key("output_token_source").string(token_source_name(record.output_source));
  line.key("output_chars").integer(record.output_chars);
  line.key("malformed_events").integer(record.malformed_events);
  if (record.resends > 0) line.key("resends").integer(record.resends);
  line.key("planned_ns").time(record.planned_ns, anchor);
  if (record.slot_wait_ns >= 0) line.key("slot_wait_ns").integer(record.slot_wait_ns);  // open loop
  line.key("sent_ns").time(record.sent_ns, anchor);
  line.key("first_byte_ns").time(record.first_byte_ns, anchor);
  line.key("first_content_ns").time(record.first_content_ns, anchor);
  line.key("last_event_ns").time(record.last_event_ns, anchor);
  line.key("end_ns").time(record.end_ns, anchor);
  line.key("sent_unix_ns");
  sent ? line.integer(info.anchor_unix_ns + record.sent_ns - anchor) : line.null();
  if (record.stream) {
    interval(Metric::kTtft, record.first_content_ns);
    if (record.reasoning_chunks > 0) interval(Metric::kTtfat, record.first_answer_ns);
  } else {
    line.key(metric_key(Metric::kTtft)).null();
  }
  interval(Metric::kTtfb, record.first_byte_ns);
  interval(Metric::kLatency, record.end_ns);
  line.key("chunk_ns").offsets(record.chunk_ns, sent ? record.sent_ns : anchor);
  if (record.phases.measured) write_http_phases(line, record.phases);
  if (!record.output_text.empty()) line.key("output_text").string(record.output_text);
  return std::move(line).finish();
}

namespace {

// record_from_json of a line already parsed into `j`.
RequestRecord record_from_parsed_line(const nlohmann::json& j, const std::string& line) {
  using report_detail::json_integer;
  if (!j.is_object() || !j.contains("id")) {
    throw std::runtime_error("not a requests.jsonl record: " + line.substr(0, 80));
  }
  // An integer field: its default when absent or null, else a value that fits `field`.
  auto integer = [&j](const char* key, auto& field) {
    auto it = j.find(key);
    if (it == j.end() || it->is_null()) return;
    const auto value = report_detail::json_integer<std::remove_reference_t<decltype(field)>>(*it);
    if (!value) throw std::runtime_error(fmt::format("\"{}\" is not an integer in range", key));
    field = *value;
  };
  try {
    RequestRecord r;
    integer("id", r.id);
    integer("worker", r.worker);
    integer("prompt_index", r.prompt_index);
    r.stream = j.value("stream", true);
    r.warmup = j.value("warmup", false);
    integer("url_index", r.url_index);
    r.planned_ns = time_from_json(j, "planned_ns");
    integer("slot_wait_ns", r.slot_wait_ns);
    r.sent_ns = time_from_json(j, "sent_ns");
    r.first_byte_ns = time_from_json(j, "first_byte_ns");
    r.first_content_ns = time_from_json(j, "first_content_ns");
    r.last_event_ns = time_from_json(j, "last_event_ns");
    r.end_ns = time_from_json(j, "end_ns");
    const int64_t chunk_base = r.sent_ns >= 0 ? r.sent_ns : 0;
    for (const auto& t : j.value("chunk_ns", nlohmann::json::array())) {
      const std::optional<int64_t> offset = report_detail::json_integer<int64_t>(t);
      int64_t chunk = 0;
      if (!offset || __builtin_add_overflow(chunk_base, *offset, &chunk)) {
        throw std::runtime_error("\"chunk_ns\" holds a value that is not a time in nanoseconds");
      }
      r.chunk_ns.push_back(chunk);
    }
    integer("input_tokens", r.input_tokens);
    integer("output_tokens", r.output_tokens);
    integer("target_input_tokens", r.target_input_tokens);
    integer("target_output_tokens", r.target_output_tokens);
    integer("input_chars", r.input_chars);
    integer("prefix_group", r.prefix_group);
    r.prefix_first_use = j.value("prefix_first_use", false);
    integer("session_id", r.session_id);
    integer("turn", r.turn);
    integer("session_turns", r.session_turns);
    integer("cached_tokens", r.cached_tokens);
    integer("items", r.items);
    integer("reasoning_tokens", r.reasoning_tokens);
    if (j.contains("reasoning_token_source")) {
      r.reasoning_source = token_source_from_name(j.value("reasoning_token_source", ""));
      if (r.reasoning_source == TokenSource::kNone) r.reasoning_tokens = -1;
    }
    integer("reasoning_chunks", r.reasoning_chunks);
    integer("first_answer_chunk", r.first_answer_chunk);
    r.first_answer_ns = time_from_json(j, "first_answer_ns");
    r.input_source = token_source_from_name(j.value("input_token_source", ""));
    r.output_source = token_source_from_name(j.value("output_token_source", ""));
    integer("output_chars", r.output_chars);
    integer("malformed_events", r.malformed_events);
    integer("resends", r.resends);
    integer("http_status", r.http_status);
    const auto& kind = j.value("error_kind", nlohmann::json());
    r.error = kind.is_string() ? error_kind_from_name(kind.get<std::string>()) : ErrorKind::kNone;
    r.error_message = j.value("error_message", "");
    r.finish_reason = j.value("finish_reason", "");
    r.response_id = j.value("response_id", "");
    r.output_text = j.value("output_text", "");
    r.phases = http_phases_from_json(j);
    return r;
  } catch (const std::exception& e) {
    throw std::runtime_error(
        fmt::format("bad requests.jsonl record ({}): {}", e.what(), line.substr(0, 80)));
  }
}

}  // namespace

RequestRecord record_from_json(const std::string& line) {
  return record_from_parsed_line(nlohmann::json::parse(line, nullptr, false), line);
}

void read_records_file(const std::string& path,
                       const std::function<void(RecordsLine&)>& on_record) {
  using report_detail::json_integer;
  std::ifstream lines(path, std::ios::binary);
  if (!lines) throw std::runtime_error(fmt::format("cannot read {}", path));
  std::string text;
  RecordsLine line;
  while (std::getline(lines, text)) {
    ++line.number;
    if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
    const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    try {
      line.record = record_from_parsed_line(j, text);
    } catch (const std::exception& e) {
      throw std::runtime_error(fmt::format("{}:{}: {}", path, line.number, e.what()));
    }
    // The records count from the anchor (0); their wall-clock times say where it was.
    const auto unix_ns = json_integer<int64_t>(j.value("sent_unix_ns", nlohmann::json()));
    const auto sent_ns = json_integer<int64_t>(j.value("sent_ns", nlohmann::json()));
    int64_t anchor = 0;
    line.anchor_unix_ns.reset();
    if (unix_ns && sent_ns && !__builtin_sub_overflow(*unix_ns, *sent_ns, &anchor)) {
      line.anchor_unix_ns = anchor;
    }
    on_record(line);
  }
}

}  // namespace llmperf
