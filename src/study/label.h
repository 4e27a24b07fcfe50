// Trial labels of `llmperf tune`: INDEX-v1-v2-... from the trial's values in --param order, as
// in the chunked-prefill field report ("0-enable-64"). A label names the trial in tables and
// charts and is part of its directory's name, so it is a safe file name. Pure.
//
// Each value reads: true/false (any case) as enable/disable; a flag parameter as the flag without
// its leading dashes when present ("enable-prefix-caching") and with "no-" before it when absent
// ("no-enable-prefix-caching"); any other value as it is. Then every character outside
// [A-Za-z0-9._+-] becomes '_', an empty value reads "_", and a value longer than 40 characters
// is cut to 40 (the index keeps labels apart).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "study/space.h"

namespace llmperf {

// The longest a value reads in a label.
inline constexpr size_t kMaxLabelValueLength = 40;

// How one value of `space` reads in a label.
std::string label_value(const ParamSpace& space, std::string_view value);

// The label of trial `index`: "0-enable-64". A value whose name is not among `spaces` reads as a
// plain value.
std::string trial_label(size_t index, const std::vector<ParamSpace>& spaces,
                        const Assignment& assignment);

}  // namespace llmperf
