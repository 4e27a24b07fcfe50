// Synthetic images and inlined image files for prompts (see image_prompts.h).
#include "workload/image_prompts.h"

#include <filesystem>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "workload/synthetic/png_image.h"

namespace llmperf {
namespace {
using Json = nlohmann::json;
}  // namespace

void attach_synthetic_images(std::vector<Prompt>& prompts, const WorkloadConfig& workload,
                             uint64_t seed) {
  if (workload.image_num <= 0) return;
  for (size_t i = 0; i < prompts.size(); ++i) {
    Prompt& prompt = prompts[i];
    if (!prompt.messages_json.empty() || !prompt.body_json.empty() || !prompt.token_ids.empty()) {
      continue;
    }
    prompt.synthetic_images = static_cast<int32_t>(workload.image_num);
    // The server counts an image's tokens its own way (patches, resolution): the prompt no longer
    // has a length llmperf can promise, and its input tokens come from usage.
    prompt.target_input_tokens = -1;
    prompt.image_seed = seed * 0x100000001B3ull + i;
  }
}

namespace {

// The path an image_url names, found from the working directory or next to the dataset file.
std::string image_file_path(const std::string& url, const std::string& dataset_path) {
  namespace fs = std::filesystem;
  std::error_code error;
  if (fs::exists(url, error) || fs::path(url).is_absolute() || dataset_path.empty()) return url;
  const fs::path beside = fs::path(dataset_path).parent_path() / url;
  return fs::exists(beside, error) ? beside.string() : url;
}

bool is_remote_or_inline(const std::string& url) {
  return url.rfind("http://", 0) == 0 || url.rfind("https://", 0) == 0 ||
         url.rfind("data:", 0) == 0;
}

}  // namespace

int64_t inline_image_files(std::vector<Prompt>& prompts, const std::string& dataset_path) {
  int64_t inlined = 0;
  for (Prompt& prompt : prompts) {
    if (prompt.messages_json.find("image_url") == std::string::npos) continue;
    Json messages = Json::parse(prompt.messages_json, nullptr, false);
    if (!messages.is_array()) continue;
    bool changed = false;
    for (Json& message : messages) {
      if (!message.is_object() || !message.contains("content")) continue;
      Json& content = message["content"];
      if (!content.is_array()) continue;
      for (Json& part : content) {
        if (!part.is_object() || !part.contains("image_url")) continue;
        Json& image = part["image_url"];
        // {"image_url": {"url": "..."}} (chat) or {"image_url": "..."} (the Responses API)
        Json& url = image.is_object() && image.contains("url") ? image["url"] : image;
        if (!url.is_string() || is_remote_or_inline(url.get<std::string>())) continue;
        try {
          url = image_url_for(image_file_path(url.get<std::string>(), dataset_path));
        } catch (const std::runtime_error& error) {
          throw DatasetError(std::string("dataset image: ") + error.what());
        }
        changed = true;
        ++inlined;
      }
    }
    if (changed) prompt.messages_json = messages.dump();
  }
  return inlined;
}

}  // namespace llmperf
