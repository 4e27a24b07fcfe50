// Synthetic PNGs and image data URLs (see png_image.h). The PNG layout follows the PNG
// specification (W3C, 2nd edition): signature, IHDR, IDAT chunks holding one zlib stream of the
// filtered scanlines (filter type 0, "None", before every row), IEND; each chunk's CRC-32 covers
// its type and data.
#include "workload/synthetic/png_image.h"

#include "core/text.h"

#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#include <fmt/format.h>

namespace llmperf {
namespace {

// IDAT chunks carry at most this many bytes of the zlib stream each.
constexpr size_t kPngIdatChunkBytes = size_t{1} << 20;
// Scanline bytes made per deflate call: small enough to stay in cache between the noise generator
// and zlib, so that the only large buffer an image touches is the PNG itself.
constexpr size_t kPngBatchBytes = size_t{64} << 10;
// Signature, IHDR chunk (12 + 13 bytes) and IEND chunk (12 bytes).
constexpr size_t kPngFixedBytes = 8 + 25 + 12;
constexpr size_t kPngChunkOverhead = 12;  // length, type and CRC around each chunk's data

// splitmix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", 2014):
// every seed starts a different stream, and one multiply-xorshift round per 8 bytes keeps the
// noise far cheaper than its deflate stream.
struct PngNoise {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  void fill(unsigned char* out, size_t n) {
    size_t k = 0;
    for (; k + 8 <= n; k += 8) {
      const uint64_t word = next();
      std::memcpy(out + k, &word, 8);
    }
    if (k < n) {
      const uint64_t word = next();
      std::memcpy(out + k, &word, n - k);
    }
  }
};

// A deflate stream that ends itself, also when an exception leaves make_png.
struct PngDeflater {
  z_stream stream{};
  PngDeflater() {
    // Stored blocks (level 0): noise does not compress at any level, and level 1 spends ~15 ms on
    // a 512x512 image looking for matches that are not there, level 0 under 1 ms, for a stream of
    // the same size (measured with zlib 1.2.13; tests/workload/png_image_test.cpp prints timings).
    if (deflateInit(&stream, Z_NO_COMPRESSION) != Z_OK) {
      throw std::runtime_error("synthetic image: zlib deflateInit failed");
    }
  }
  ~PngDeflater() { deflateEnd(&stream); }
  PngDeflater(const PngDeflater&) = delete;
  PngDeflater& operator=(const PngDeflater&) = delete;
};

void png_store_u32(std::string& png, size_t at, uint32_t value) {
  png[at] = static_cast<char>(value >> 24);
  png[at + 1] = static_cast<char>((value >> 16) & 0xFF);
  png[at + 2] = static_cast<char>((value >> 8) & 0xFF);
  png[at + 3] = static_cast<char>(value & 0xFF);
}

// Completes the chunk at png[at] whose data_size bytes of data are already in place at png[at + 8]:
// writes its length and type before the data and the CRC-32 of type and data after it. Returns
// where the next chunk starts.
size_t png_seal_chunk(std::string& png, size_t at, const char (&type)[5], size_t data_size) {
  png_store_u32(png, at, static_cast<uint32_t>(data_size));
  std::memcpy(png.data() + at + 4, type, 4);
  const auto* crc_from = reinterpret_cast<const Bytef*>(png.data() + at + 4);
  png_store_u32(png, at + 8 + data_size,
                static_cast<uint32_t>(crc32(0L, crc_from, static_cast<uInt>(4 + data_size))));
  return at + kPngChunkOverhead + data_size;
}

// Writes the zlib stream of `height` rows of `row_bytes` bytes (a filter byte 0, then noise) as
// IDAT chunks from png[at] on. Returns where the next chunk starts.
size_t png_put_scanlines(std::string& png, size_t at, size_t row_bytes, size_t height,
                         uint64_t seed, PngDeflater& deflater) {
  PngNoise noise{seed};
  const size_t batch_rows = std::max<size_t>(1, kPngBatchBytes / row_bytes);
  std::vector<unsigned char> batch(batch_rows * row_bytes);
  z_stream& zs = deflater.stream;
  size_t rows_done = 0;
  bool finished = false;
  while (!finished) {
    // Room for this chunk's data, keeping 12 bytes for IEND after it.
    if (png.size() <= at + kPngChunkOverhead + 12) {
      throw std::logic_error("synthetic image: deflate wrote more than deflateBound");
    }
    const size_t room = png.size() - at - kPngChunkOverhead - 12;
    const size_t capacity = std::min(kPngIdatChunkBytes, room);
    zs.next_out = reinterpret_cast<Bytef*>(png.data() + at + 8);
    zs.avail_out = static_cast<uInt>(capacity);
    while (zs.avail_out > 0) {
      if (zs.avail_in == 0 && rows_done < height) {
        const size_t rows = std::min(batch_rows, height - rows_done);
        for (size_t row = 0; row < rows; ++row) {
          unsigned char* line = batch.data() + row * row_bytes;
          line[0] = 0;  // filter type None
          noise.fill(line + 1, row_bytes - 1);
        }
        rows_done += rows;
        zs.next_in = batch.data();
        zs.avail_in = static_cast<uInt>(rows * row_bytes);
      }
      const int status = deflate(&zs, rows_done == height ? Z_FINISH : Z_NO_FLUSH);
      if (status == Z_STREAM_END) {
        finished = true;
        break;
      }
      if (status != Z_OK) {
        throw std::runtime_error(fmt::format("synthetic image: zlib deflate failed ({})", status));
      }
    }
    at = png_seal_chunk(png, at, "IDAT", capacity - zs.avail_out);
  }
  return at;
}

constexpr char kBase64Alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// Appends the RFC 4648 base64 of `bytes` (standard alphabet, '=' padding) to `out`.
void append_base64_to(std::string& out, std::string_view bytes) {
  const size_t start = out.size();
  out.resize(start + (bytes.size() + 2) / 3 * 4);
  const auto* in = reinterpret_cast<const unsigned char*>(bytes.data());
  char* dst = out.data() + start;
  size_t k = 0;
  for (; k + 3 <= bytes.size(); k += 3) {
    const uint32_t group = (uint32_t{in[k]} << 16) | (uint32_t{in[k + 1]} << 8) | in[k + 2];
    *dst++ = kBase64Alphabet[group >> 18];
    *dst++ = kBase64Alphabet[(group >> 12) & 0x3F];
    *dst++ = kBase64Alphabet[(group >> 6) & 0x3F];
    *dst++ = kBase64Alphabet[group & 0x3F];
  }
  const size_t rest = bytes.size() - k;
  if (rest > 0) {
    uint32_t group = uint32_t{in[k]} << 16;
    if (rest == 2) group |= uint32_t{in[k + 1]} << 8;
    *dst++ = kBase64Alphabet[group >> 18];
    *dst++ = kBase64Alphabet[(group >> 12) & 0x3F];
    *dst++ = rest == 2 ? kBase64Alphabet[(group >> 6) & 0x3F] : '=';
    *dst++ = '=';
  }
}

bool image_url_has_scheme(const std::string& text, std::string_view scheme) {
  if (text.size() < scheme.size()) return false;
  for (size_t k = 0; k < scheme.size(); ++k) {
    if (std::tolower(static_cast<unsigned char>(text[k])) != scheme[k]) return false;
  }
  return true;
}

// The MIME type of an image file: its magic bytes first, then its extension.
std::string image_mime_type(std::string_view bytes, const std::filesystem::path& path) {
  auto starts = [&](std::string_view magic, size_t at = 0) {
    return bytes.size() >= at + magic.size() && bytes.substr(at, magic.size()) == magic;
  };
  if (starts("\x89PNG\r\n\x1A\n")) return "image/png";
  if (starts("\xFF\xD8\xFF")) return "image/jpeg";
  if (starts("GIF87a") || starts("GIF89a")) return "image/gif";
  if (starts("RIFF") && starts("WEBP", 8)) return "image/webp";
  const std::string extension = ascii_lower(path.extension().string());
  if (extension == ".png") return "image/png";
  if (extension == ".jpg" || extension == ".jpeg") return "image/jpeg";
  if (extension == ".gif") return "image/gif";
  if (extension == ".webp") return "image/webp";
  if (extension == ".bmp") return "image/bmp";
  return "application/octet-stream";
}

std::string read_image_file(const std::string& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec) {
    throw std::runtime_error(
        fmt::format("image file '{}': cannot read it: {}", path, ec.message()));
  }
  if (!std::filesystem::is_regular_file(status)) {
    throw std::runtime_error(fmt::format(
        "image file '{}': not a regular file (give an image file or an http(s) URL)", path));
  }
  const uintmax_t size = std::filesystem::file_size(path, ec);
  std::ifstream in(path, std::ios::binary);
  std::string bytes(ec ? 0 : static_cast<size_t>(size), '\0');
  if (ec || !in || !in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()))) {
    throw std::runtime_error(fmt::format("image file '{}': cannot read it", path));
  }
  return bytes;
}

}  // namespace

std::string make_png(int width, int height, uint64_t seed) {
  if (width < 1 || width > kMaxPngSide || height < 1 || height > kMaxPngSide) {
    throw std::invalid_argument(fmt::format("image size {}x{}: width and height must be in [1, {}]",
                                            width, height, kMaxPngSide));
  }
  const size_t row_bytes = 1 + 3 * static_cast<size_t>(width);
  const size_t raw_bytes = row_bytes * static_cast<size_t>(height);
  PngDeflater deflater;
  const size_t stream_bound = deflateBound(&deflater.stream, static_cast<uLong>(raw_bytes));
  const size_t idat_chunks = stream_bound / kPngIdatChunkBytes + 2;  // + a short and an empty one
  std::string png(kPngFixedBytes + stream_bound + kPngChunkOverhead * idat_chunks, '\0');

  std::memcpy(png.data(), "\x89PNG\r\n\x1A\n", 8);
  size_t at = 8;
  png_store_u32(png, at + 8, static_cast<uint32_t>(width));
  png_store_u32(png, at + 12, static_cast<uint32_t>(height));
  png[at + 16] = 8;  // bit depth
  png[at + 17] = 2;  // colour type: RGB; compression, filter and interlace methods stay 0
  at = png_seal_chunk(png, at, "IHDR", 13);
  at = png_put_scanlines(png, at, row_bytes, static_cast<size_t>(height), seed, deflater);
  at = png_seal_chunk(png, at, "IEND", 0);
  png.resize(at);
  return png;
}

std::string base64_encode(std::string_view bytes) {
  std::string out;
  append_base64_to(out, bytes);
  return out;
}

std::string png_data_url(int width, int height, uint64_t seed) {
  const std::string png = make_png(width, height, seed);
  std::string url = "data:image/png;base64,";
  append_base64_to(url, png);
  return url;
}

std::string image_url_for(const std::string& path_or_url) {
  if (image_url_has_scheme(path_or_url, "http://") ||
      image_url_has_scheme(path_or_url, "https://") || image_url_has_scheme(path_or_url, "data:")) {
    return path_or_url;
  }
  const std::string bytes = read_image_file(path_or_url);
  std::string url = fmt::format("data:{};base64,", image_mime_type(bytes, path_or_url));
  append_base64_to(url, bytes);
  return url;
}

}  // namespace llmperf
