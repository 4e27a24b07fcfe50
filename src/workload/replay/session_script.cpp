// Conversations for --multi-turn (see session_script.h).
#include "workload/replay/session_script.h"

#include <nlohmann/json.hpp>

namespace llmperf {
namespace {

using Json = nlohmann::json;

bool is_user(const std::string& role) { return role == "human" || role == "user"; }
bool is_assistant(const std::string& role) {
  return role == "gpt" || role == "assistant" || role == "chatgpt" || role == "bard" ||
         role == "model";
}

void join(std::string& into, const std::string& text) {
  if (!into.empty()) into += "\n\n";
  into += text;
}

}  // namespace

std::string turn_messages(const SessionScript& script, size_t turn,
                          const std::vector<std::string>& received, bool recorded, int64_t* chars) {
  Json messages = Json::array();
  int64_t length = 0;
  const auto add = [&](const char* role, const std::string& content) {
    messages.push_back({{"role", role}, {"content", content}});
    length += utf8_length(content);
  };
  if (!script.system.empty()) add("system", script.system);
  for (size_t k = 0; k < turn; ++k) {
    const ScriptTurn& earlier = script.turns[k];
    add("user", earlier.user);
    const std::string& live = k < received.size() ? received[k] : earlier.recorded_answer;
    add("assistant", recorded && !earlier.recorded_answer.empty() ? earlier.recorded_answer : live);
  }
  add("user", script.turns[turn].user);
  if (chars != nullptr) *chars = length;
  return messages.dump(-1, ' ', false, Json::error_handler_t::replace);
}

SessionScript script_from_conversation(const Conversation& conversation, size_t max_turns) {
  SessionScript script;
  enum class Last { kNone, kUser, kAssistant } last = Last::kNone;
  for (size_t i = 0; i < conversation.turns.size(); ++i) {
    const ShareGptTurn& message = conversation.turns[i];
    if (i == 0 && message.role == "system") {
      script.system = message.text;
    } else if (is_user(message.role)) {
      if (last != Last::kUser) {
        if (script.turns.size() == max_turns) break;
        script.turns.emplace_back();
      }
      join(script.turns.back().user, message.text);
      last = Last::kUser;
    } else if (is_assistant(message.role) && last != Last::kNone) {
      join(script.turns.back().recorded_answer, message.text);
      last = Last::kAssistant;
    }
  }
  return script;
}

}  // namespace llmperf
