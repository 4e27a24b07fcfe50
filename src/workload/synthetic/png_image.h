// Images for prompts that carry them (EvalScope's random_vl, vLLM's random-mm): synthetic PNGs of
// random noise, reproducible from a seed, as bytes or as "data:image/png;base64,..." URLs, and the
// URL of a user's own image file (inlined as a data URL; http(s) and data URLs pass unchanged).
// Noise, because a server that caches or dedupes images by content must see a new image per seed.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace llmperf {

// Largest width or height make_png accepts, in pixels.
inline constexpr int kMaxPngSide = 8192;

// A synthetic RGB PNG (8 bits per channel, no interlace) of width x height pixels of random noise,
// the same bytes for the same (width, height, seed) and different pixels for different seeds.
// Throws std::invalid_argument for a width or height outside [1, kMaxPngSide].
std::string make_png(int width, int height, uint64_t seed);

// RFC 4648 base64 (standard alphabet, '=' padding).
std::string base64_encode(std::string_view bytes);

// "data:image/png;base64," + base64_encode(make_png(width, height, seed)).
std::string png_data_url(int width, int height, uint64_t seed);

// The image_url of a chat message for `path_or_url`: an http://, https:// or data: URL unchanged
// (the server fetches it); otherwise the file's bytes as "data:<mime>;base64,...", the MIME type
// from its magic bytes (PNG, JPEG, GIF, WebP), else from its extension, else
// application/octet-stream. Throws std::runtime_error naming the path when it cannot be read.
std::string image_url_for(const std::string& path_or_url);

}  // namespace llmperf
