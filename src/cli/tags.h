// `--tag key=value`: labels a run in the history database (--results-db), in `llmperf history`'s
// filters, in --baseline db:'s choice of comparable runs and on the live figures pushed to a
// Prometheus Pushgateway. Keys follow Prometheus' label-name rule ([A-Za-z_][A-Za-z0-9_]*, not
// starting with "__"), so that every tag can be a label there; values are any text (a commit, a
// deploy id, "a=b" keeps everything after the first '=').
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace llmperf {

using Tag = std::pair<std::string, std::string>;  // key, value

// Parses "key=value". Throws std::invalid_argument naming `flag` and the text: no '=', an empty
// key, a key Prometheus would refuse, a value with a control character.
Tag parse_tag(std::string_view text, std::string_view flag = "--tag");

// Parses each text, and refuses a key given twice ("--tag commit given twice").
std::vector<Tag> parse_tags(const std::vector<std::string>& texts, std::string_view flag = "--tag");

}  // namespace llmperf
