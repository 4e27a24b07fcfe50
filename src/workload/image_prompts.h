// Images in prompts: --image-num synthetic PNGs on every text prompt (EvalScope's random_vl,
// vLLM's random-mm), and image files that dataset lines name in their messages' image_url parts,
// read once and inlined as base64 data URLs so that the server sees the bytes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/config/workload.h"
#include "workload/dataset.h"

namespace llmperf {

// Marks every text prompt to carry --image-num synthetic images (made when each request's body is
// built, with pixels of their own, from `seed`), and drops their target input length: the server
// counts image tokens its own way, so input tokens come from usage. Prompts of messages or whole
// bodies are left as they are.
void attach_synthetic_images(std::vector<Prompt>& prompts, const WorkloadConfig& workload,
                             uint64_t seed);

// Rewrites the image_url parts of messages prompts whose URL is a file path (not http(s):// or
// data:) into data URLs of the file's bytes; a relative path is looked up next to the dataset
// file `dataset_path` when it is not found from the working directory. Returns how many images
// were inlined. Throws DatasetError naming the file that cannot be read.
int64_t inline_image_files(std::vector<Prompt>& prompts, const std::string& dataset_path);

}  // namespace llmperf
