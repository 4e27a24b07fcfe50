// XML 1.0 escaping shared by every XML-based report (SVG charts, HTML pages, JUnit).
#pragma once

#include <string>
#include <string_view>

namespace llmperf {

// Escapes text for XML text nodes and attribute values: & < > " ' become entities; tab, newline
// and carriage return become character references (so attributes keep them); other control
// characters, which XML 1.0 forbids, become '?'.
std::string xml_escape(std::string_view text);

}  // namespace llmperf
