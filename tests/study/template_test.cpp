// Command templates: {name} for parameters and builtins, the {{ }} escapes, JSON and the shell's
// ${...} passing unchanged, the unknown-name error (naming the flag and the known names),
// check_template and template_names.
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "study/template.h"

namespace llmperf {
namespace {

const TemplateValues kTemplateValues = {{"port", "41234"}, {"trial", "3"}, {"outdir", "/s/trial_3"},
                                        {"mnbt", "64"},    {"cp", "true"}, {"pc", ""}};

std::string fill(const std::string& text) { return substitute(text, kTemplateValues, "--serve"); }

std::string template_error(const std::string& text) {
  try {
    fill(text);
  } catch (const std::invalid_argument& error) {
    return error.what();
  }
  return "";
}

TEST(Template, SubstitutesParametersAndBuiltins) {
  EXPECT_EQ(fill("vllm serve m --port {port} --max-num-batched-tokens {mnbt} "
                 "--enable-chunked-prefill {cp} {pc}"),
            "vllm serve m --port 41234 --max-num-batched-tokens 64 --enable-chunked-prefill true ");
  EXPECT_EQ(fill("http://127.0.0.1:{port}/v1/chat/completions"),
            "http://127.0.0.1:41234/v1/chat/completions");
  EXPECT_EQ(fill("{outdir}/x-{trial}{trial}"), "/s/trial_3/x-33");
  EXPECT_EQ(fill(""), "");
  EXPECT_EQ(fill("no names"), "no names");
}

TEST(Template, DoubledBracesAreLiteral) {
  EXPECT_EQ(fill("{{port}}"), "{port}");
  EXPECT_EQ(fill("{{{port}}}"), "{41234}");
  EXPECT_EQ(fill("a {{ b"), "a { b");
  // A '}}' closes the '{{' before it; with none open it is left as it is.
  EXPECT_EQ(fill("{{\"a\": {\"b\": 1}}}"), "{\"a\": {\"b\": 1}}");
  EXPECT_EQ(fill("x }} y"), "x }} y");
  EXPECT_EQ(fill("{\"a\": {{mnbt}}}"), "{\"a\": {mnbt}}");
}

TEST(Template, JsonAndOtherBracesPassUnchanged) {
  for (const std::string text :
       {"{\"temperature\": 0}", "{\"chat_template_kwargs\": {\"enable_thinking\": false}}", "{}",
        "{ port }", "{port", "port}", "{9x}", "{a-b}", "{", "}", "[{\"a\": [1, {\"b\": 2}]}]"}) {
    EXPECT_EQ(fill(text), text);
  }
  EXPECT_EQ(fill("{\"max_tokens\": {mnbt}}"), "{\"max_tokens\": 64}");
}

TEST(Template, ShellVariablesAreLeftAlone) {
  EXPECT_EQ(fill("HF_HOME=${HOME}/hf vllm --port {port}"), "HF_HOME=${HOME}/hf vllm --port 41234");
  EXPECT_EQ(fill("${PORT:-8000} ${port}"), "${PORT:-8000} ${port}");
  EXPECT_EQ(fill("${unclosed {port}"), "${unclosed {port}");
  EXPECT_EQ(fill("$HOME {port}$"), "$HOME 41234$");
}

TEST(Template, UnknownNameIsAnErrorNamingTheKnownOnes) {
  EXPECT_EQ(template_error("vllm --port {prot}"),
            "--serve 'vllm --port {prot}': unknown name {prot}; known: port, trial, outdir, mnbt, "
            "cp, pc (write {{prot}} for the literal text)");
  EXPECT_NE(template_error("{PORT}"), "");  // names are case-sensitive
  try {
    substitute("{x}", {}, "--stop-cmd");
    FAIL() << "an unknown name was substituted";
  } catch (const std::invalid_argument& error) {
    EXPECT_STREQ(error.what(),
                 "--stop-cmd '{x}': unknown name {x}; known: (none) (write {{x}} for the literal "
                 "text)");
  }
}

TEST(Template, CheckTemplateThrowsAsSubstituteWould) {
  const std::vector<std::string> known = {"port", "trial", "outdir", "mnbt"};
  EXPECT_NO_THROW(check_template("--port {port} {mnbt} {{cp}} ${cp}", known, "--serve"));
  try {
    check_template("--parallel {mns}", known, "--parallel");
    FAIL() << "an unknown name passed the check";
  } catch (const std::invalid_argument& error) {
    EXPECT_STREQ(error.what(),
                 "--parallel '--parallel {mns}': unknown name {mns}; known: port, "
                 "trial, outdir, mnbt (write {{mns}} for the literal text)");
  }
}

TEST(Template, NamesAreListedOnceInOrderOfFirstUse) {
  EXPECT_EQ(template_names("{mnbt} --port {port} {cp} {mnbt} {{x}} ${y} {\"z\": 1} {unknown}"),
            (std::vector<std::string>{"mnbt", "port", "cp", "unknown"}));
  EXPECT_TRUE(template_names("{\"temperature\": 0}").empty());
}

}  // namespace
}  // namespace llmperf
