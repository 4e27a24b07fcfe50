// Reading servers' identity endpoints (see server_identity_api.h).
#include "protocol/server_identity_api.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <string>

namespace llmperf::identity_api {
namespace {

using nlohmann::json;

int64_t positive_int_of(const json& object, const char* key) {
  const auto it = object.find(key);
  if (it == object.end() || !it->is_number_integer()) return 0;
  return std::max<int64_t>(0, it->get<int64_t>());
}

void add_detail(ServerIdentity& id, const std::string& key, const std::string& value) {
  if (value.empty()) return;
  for (const auto& [k, v] : id.details) {
    if (k == key) return;
  }
  // At most 200 bytes, cut at a character boundary.
  size_t end = std::min<size_t>(value.size(), 200);
  while (end > 0 && end < value.size() && (static_cast<unsigned char>(value[end]) & 0xC0) == 0x80) {
    --end;
  }
  id.details.emplace_back(key, value.substr(0, end));
}

void set_max_len(ServerIdentity& id, int64_t value, const char* source) {
  if (value <= 0 || id.max_model_len != 0) return;
  id.max_model_len = value;
  id.max_model_len_source = source;
}

bool absorb_models(const json& doc, ServerIdentity& id) {
  const auto data = doc.find("data");
  if (data == doc.end() || !data->is_array()) return false;
  for (const json& model : *data) {
    if (!model.is_object()) continue;
    const std::string name = text_of(model, "id");
    if (name.empty()) continue;
    if (std::find(id.models.begin(), id.models.end(), name) == id.models.end() &&
        id.models.size() < 32) {
      id.models.push_back(name);
    }
    set_max_len(id, positive_int_of(model, "max_model_len"), "/v1/models max_model_len");
    add_detail(id, "owned_by", text_of(model, "owned_by"));
  }
  return true;
}

bool absorb_version(const json& doc, ServerIdentity& id) {
  const std::string version = text_of(doc, "version");
  if (version.empty()) return false;
  if (id.version.empty()) id.version = version;
  return true;
}

bool absorb_props(const json& doc, ServerIdentity& id) {
  const auto settings = doc.find("default_generation_settings");
  const bool llama = (settings != doc.end() && settings->is_object()) ||
                     doc.contains("total_slots") || doc.contains("build_info");
  if (!llama) return false;
  // n_ctx in /props is the context of one slot (the server's -c divided among --parallel slots).
  if (settings != doc.end() && settings->is_object()) {
    const int64_t n_ctx = positive_int_of(*settings, "n_ctx");
    if (n_ctx > 0) add_detail(id, "n_ctx_per_slot", std::to_string(n_ctx));
    set_max_len(id, n_ctx, "/props n_ctx per slot");
  }
  add_detail(id, "total_slots", text_of(doc, "total_slots"));
  add_detail(id, "model_path", text_of(doc, "model_path"));
  add_detail(id, "build_info", text_of(doc, "build_info"));
  if (id.engine.empty()) id.engine = "llama.cpp";
  if (id.version.empty()) id.version = text_of(doc, "build_info");
  return true;
}

bool absorb_tgi_info(const json& doc, ServerIdentity& id) {
  if (!doc.contains("model_id") || !doc.contains("max_total_tokens")) return false;
  add_detail(id, "model_id", text_of(doc, "model_id"));
  add_detail(id, "max_input_tokens", text_of(doc, "max_input_tokens"));
  add_detail(id, "max_total_tokens", text_of(doc, "max_total_tokens"));
  add_detail(id, "max_concurrent_requests", text_of(doc, "max_concurrent_requests"));
  add_detail(id, "model_dtype", text_of(doc, "model_dtype"));
  set_max_len(id, positive_int_of(doc, "max_total_tokens"), "/info max_total_tokens");
  if (id.engine.empty()) id.engine = "TGI";
  if (id.version.empty()) id.version = text_of(doc, "version");
  return true;
}

bool absorb_sglang_info(const json& doc, ServerIdentity& id) {
  if (!doc.contains("model_path") && !doc.contains("tp_size")) return false;
  add_detail(id, "model_path", text_of(doc, "model_path"));
  add_detail(id, "tp_size", text_of(doc, "tp_size"));
  add_detail(id, "dp_size", text_of(doc, "dp_size"));
  add_detail(id, "max_running_requests", text_of(doc, "max_running_requests"));
  add_detail(id, "chunked_prefill_size", text_of(doc, "chunked_prefill_size"));
  set_max_len(id, positive_int_of(doc, "context_length"), "/get_server_info context_length");
  id.engine = "SGLang";
  if (id.version.empty()) id.version = text_of(doc, "version");
  return true;
}

}  // namespace

std::string text_of(const json& object, const char* key) {
  const auto it = object.find(key);
  if (it == object.end()) return "";
  if (it->is_string()) return it->get<std::string>();
  // Unsigned first: is_number_integer() is true for unsigned numbers too.
  if (it->is_number_unsigned()) return std::to_string(it->get<uint64_t>());
  if (it->is_number_integer()) return std::to_string(it->get<int64_t>());
  if (it->is_boolean()) return it->get<bool>() ? "true" : "false";
  return "";
}

void absorb(std::string_view endpoint, std::string_view body, ServerIdentity& identity) {
  const json doc = json::parse(body, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) return;
  bool understood = false;
  try {
    if (endpoint == "/v1/models") {
      understood = absorb_models(doc, identity);
    } else if (endpoint == "/version") {
      understood = absorb_version(doc, identity);
    } else if (endpoint == "/props") {
      understood = absorb_props(doc, identity);
    } else if (endpoint == "/info") {
      understood = absorb_tgi_info(doc, identity);
    } else if (endpoint == "/get_server_info") {
      understood = absorb_sglang_info(doc, identity);
    }
  } catch (const json::exception&) {
    understood = false;  // a shape we did not expect: take what was read before it
  }
  if (understood) identity.answered.emplace_back(endpoint);
}

void guess_engine(ServerIdentity& identity) {
  if (!identity.engine.empty()) return;
  const std::string& header = identity.server_header;
  if (header.find("llama.cpp") != std::string::npos) {
    identity.engine = "llama.cpp";
  } else if (header.find("text-generation") != std::string::npos) {
    identity.engine = "TGI";
  } else if (header.starts_with("llmperf-mock")) {
    identity.engine = "llmperf-mock";
  } else if (std::find(identity.answered.begin(), identity.answered.end(), "/version") !=
                 identity.answered.end() &&
             header.find("uvicorn") != std::string::npos) {
    identity.engine = "vLLM";  // SGLang says so through /get_server_info, read first
  }
}

}  // namespace llmperf::identity_api
