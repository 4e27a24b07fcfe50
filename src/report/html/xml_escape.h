// XML 1.0 escaping shared by every XML-based report (SVG charts, HTML pages, JUnit) and by the
// HTML special characters in study_summary.md's Markdown.
#pragma once

#include <string>
#include <string_view>

namespace llmperf {

// Escapes text for XML text nodes and attribute values: & < > " ' become entities; tab, newline
// and carriage return become character references (so attributes keep them); other control
// characters, which XML 1.0 forbids, become '?'.
std::string xml_escape(std::string_view text);

// The entity of one of XML's (and HTML's) special characters: &amp; &lt; &gt; &quot; &#39;
// for & < > " '; empty for any other character. xml_escape and the Markdown of study_summary.md
// (which escapes only & < >) both write these.
std::string_view xml_entity(char c);

}  // namespace llmperf
