// Command templates of `llmperf tune`: `--serve`, `--stop-cmd`, `--between-cmd` and every
// benchmark argument may name a parameter as {name}, and the builtins {port}, {trial}, {outdir}.
// Pure text substitution; the values are put in as they are (no shell quoting).
//
// Rules, left to right:
//   {name}     name = [A-Za-z_][A-Za-z0-9_]* directly between the braces: its value; a name that
//              is neither a parameter nor a builtin is an error
//   ${...}     the shell's (${HOME}, ${PORT:-8000}): left alone up to its first '}'
//   {{         a literal '{'; the next '}}' after it is a literal '}', so {{name}} reads {name}
//   any other '{' or '}' (and a '}}' that closes no '{{') is left as it is, so JSON such as
//   '{"temperature": 0}' or '{"kwargs": {"enable_thinking": false}}' passes unchanged
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace llmperf {

// The value of each name a template may use, in the order the error message lists them (the
// builtins, then the parameters in --param order). The same type as Assignment (space.h).
using TemplateValues = std::vector<std::pair<std::string, std::string>>;

// `text` with every {name} replaced by its value. Throws std::invalid_argument naming `flag`, the
// text, the unknown name and the known ones, e.g. "--serve 'vllm --port {prot}': unknown name
// {prot}; known: port, trial, outdir, mnbt (write {{prot}} for the literal text)".
std::string substitute(std::string_view text, const TemplateValues& values, std::string_view flag);

// Throws as substitute() would when `text` names anything outside `known`; substitutes nothing.
void check_template(std::string_view text, const std::vector<std::string>& known,
                    std::string_view flag);

// The names `text` uses as {name}, each once, in the order of their first use.
std::vector<std::string> template_names(std::string_view text);

}  // namespace llmperf
