// The mock's tokenizer and chat template (see tokenizer.h for the rules).
#include "tokenizer.h"

#include <nlohmann/json.hpp>

#include <array>

namespace llmperf::mock {
namespace {

constexpr TokenId kCodePointBase = TokenId{1} << 28;
constexpr TokenId kInvalidByteBase = kCodePointBase + 0x110000;
constexpr TokenId kSpecialBase = TokenId{1} << 29;
constexpr std::size_t kMaxPieceBytes = 4;

// The special markers, in id order (kSpecialBase + index).
constexpr std::array<std::string_view, 3> kSpecials = {"<s>", "<|im_start|>", "<|im_end|>"};

bool is_alnum(unsigned char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// Length of the well-formed UTF-8 sequence starting at text[i] (>= 2 bytes), or 0.
std::size_t utf8_sequence(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  std::size_t length = 0;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
  }
  // No overlongs, surrogates or code points above U+10FFFF.
  const unsigned char second = byte(i + 1);
  if (lead == 0xE0 && second < 0xA0) return 0;
  if (lead == 0xED && second > 0x9F) return 0;
  if (lead == 0xF0 && second < 0x90) return 0;
  if (lead == 0xF4 && second > 0x8F) return 0;
  return length;
}

TokenId code_point_of(std::string_view bytes) {
  const auto byte = [&](std::size_t k) { return static_cast<TokenId>(bytes[k]) & 0xFF; };
  switch (bytes.size()) {
    case 2:
      return ((byte(0) & 0x1F) << 6) | (byte(1) & 0x3F);
    case 3:
      return ((byte(0) & 0x0F) << 12) | ((byte(1) & 0x3F) << 6) | (byte(2) & 0x3F);
    default:
      return ((byte(0) & 0x07) << 18) | ((byte(1) & 0x3F) << 12) | ((byte(2) & 0x3F) << 6) |
             (byte(3) & 0x3F);
  }
}

void append_utf8(std::string& out, TokenId cp) {
  if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
  }
  out += static_cast<char>(0x80 | (cp & 0x3F));
}

TokenId ascii_piece_id(std::string_view piece) {
  TokenId id = 0;
  TokenId scale = 1;
  for (const char c : piece) {
    id += scale * static_cast<TokenId>(c);
    scale *= 128;
  }
  return id;
}

// Text of one message content: a string, or the text parts of an array.
std::string content_text(const nlohmann::json& content) {
  if (content.is_string()) return content.get<std::string>();
  std::string text;
  if (!content.is_array()) return text;
  for (const nlohmann::json& part : content) {
    if (!part.is_object()) continue;
    const auto found = part.find("text");
    if (found != part.end() && found->is_string()) text += found->get_ref<const std::string&>();
  }
  return text;
}

}  // namespace

std::vector<TokenSpan> tokenize_spans(std::string_view text) {
  std::vector<TokenSpan> tokens;
  std::size_t i = 0;
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  while (i < text.size()) {
    bool special = false;
    for (std::size_t s = 0; s < kSpecials.size(); ++s) {
      if (text.substr(i, kSpecials[s].size()) == kSpecials[s]) {
        tokens.push_back({kSpecialBase + static_cast<TokenId>(s), i, i + kSpecials[s].size()});
        i += kSpecials[s].size();
        special = true;
        break;
      }
    }
    if (special) continue;
    const unsigned char c = byte(i);
    const bool space_word = c == ' ' && i + 1 < text.size() && is_alnum(byte(i + 1));
    if (space_word || is_alnum(c)) {
      // The word's pieces: the first may start with the space.
      std::size_t start = i;
      i += space_word ? 1 : 0;
      while (i < text.size() && is_alnum(byte(i))) {
        ++i;
        if (i - start == kMaxPieceBytes) {
          tokens.push_back({ascii_piece_id(text.substr(start, i - start)), start, i});
          start = i;
        }
      }
      if (i > start) tokens.push_back({ascii_piece_id(text.substr(start, i - start)), start, i});
      continue;
    }
    if (c < 0x80 && c != 0) {
      tokens.push_back({static_cast<TokenId>(c), i, i + 1});
      ++i;
      continue;
    }
    const std::size_t length = utf8_sequence(text, i);
    if (length == 0) {
      tokens.push_back({kInvalidByteBase + c, i, i + 1});
      ++i;
      continue;
    }
    tokens.push_back({kCodePointBase + code_point_of(text.substr(i, length)), i, i + length});
    i += length;
  }
  return tokens;
}

std::vector<TokenId> tokenize(std::string_view text, bool add_special) {
  std::vector<TokenId> ids;
  if (add_special) ids.push_back(kSpecialBase);
  for (const TokenSpan& token : tokenize_spans(text)) ids.push_back(token.id);
  return ids;
}

std::optional<std::string> detokenize(std::span<const TokenId> ids) {
  std::string text;
  for (const TokenId id : ids) {
    if (id >= kSpecialBase && id < kSpecialBase + static_cast<TokenId>(kSpecials.size())) {
      text += kSpecials[static_cast<std::size_t>(id - kSpecialBase)];
    } else if (id >= kInvalidByteBase && id < kInvalidByteBase + 0x100) {
      text += static_cast<char>(id - kInvalidByteBase);
    } else if (id >= kCodePointBase + 0x80 && id < kInvalidByteBase) {
      append_utf8(text, id - kCodePointBase);
    } else if (id >= 1 && id < kCodePointBase) {
      // An ASCII piece: up to 4 base-128 digits, none of them 0.
      TokenId rest = id;
      while (rest > 0) {
        if (rest % 128 == 0) return std::nullopt;
        text += static_cast<char>(rest % 128);
        rest /= 128;
      }
    } else {
      return std::nullopt;
    }
  }
  return text;
}

std::optional<std::string> apply_chat_template(const nlohmann::json& messages,
                                               bool add_generation_prompt) {
  if (!messages.is_array()) return std::nullopt;
  std::string text;
  for (const nlohmann::json& message : messages) {
    if (!message.is_object()) return std::nullopt;
    std::string role = "user";
    std::string content;
    for (const auto& field : message.items()) {
      if (field.key() == "role" && field.value().is_string())
        role = field.value().get<std::string>();
      if (field.key() == "content") content = content_text(field.value());
    }
    text += "<|im_start|>" + role + "\n" + content + "<|im_end|>\n";
  }
  if (add_generation_prompt) text += "<|im_start|>assistant\n";
  return text;
}

std::optional<std::int64_t> chat_prompt_tokens(const nlohmann::json& messages) {
  const std::optional<std::string> text = apply_chat_template(messages, true);
  if (!text) return std::nullopt;
  return static_cast<std::int64_t>(tokenize_spans(*text).size()) + 1;
}

}  // namespace llmperf::mock
