// Tests for synthetic PNGs and image URLs: every PNG is decoded here with zlib alone (signature,
// chunk CRCs, IHDR fields, the inflated scanlines' size and filter bytes), base64 is checked
// against RFC 4648's test vectors and decoded back with a decoder written here, and image_url_for
// reads temporary files. One test prints how long make_png and png_data_url take.
#include "workload/synthetic/png_image.h"

#include <zlib.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>
#include <unistd.h>

namespace llmperf {
namespace {

constexpr std::string_view kPngSignature("\x89PNG\r\n\x1A\n", 8);

uint32_t read_u32(std::string_view bytes, size_t at) {
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data() + at);
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | p[3];
}

struct Chunk {
  std::string type;
  std::string data;
};

// Splits a PNG into its chunks, failing the test on a bad signature, a truncated chunk or a CRC
// that differs from zlib's crc32 of type and data.
std::vector<Chunk> parse_png(std::string_view png) {
  std::vector<Chunk> chunks;
  EXPECT_GE(png.size(), kPngSignature.size());
  if (png.substr(0, kPngSignature.size()) != kPngSignature) {
    ADD_FAILURE() << "bad PNG signature";
    return chunks;
  }
  size_t at = kPngSignature.size();
  while (at < png.size()) {
    if (png.size() - at < 12) {
      ADD_FAILURE() << "truncated chunk header at " << at;
      return chunks;
    }
    const uint32_t length = read_u32(png, at);
    if (png.size() - at - 12 < length) {
      ADD_FAILURE() << "chunk at " << at << " runs past the end";
      return chunks;
    }
    const std::string_view type_and_data = png.substr(at + 4, 4 + length);
    const uint32_t crc = read_u32(png, at + 8 + length);
    const auto* crc_from = reinterpret_cast<const Bytef*>(type_and_data.data());
    EXPECT_EQ(crc, crc32(0L, crc_from, static_cast<uInt>(type_and_data.size())))
        << "CRC of chunk " << chunks.size();
    chunks.push_back(
        {std::string(type_and_data.substr(0, 4)), std::string(type_and_data.substr(4))});
    at += 12 + length;
  }
  return chunks;
}

// Checks that `png` is a valid width x height 8-bit RGB PNG whose scanlines all use filter 0, and
// returns the inflated scanlines.
std::string check_png(std::string_view png, int width, int height) {
  const std::vector<Chunk> chunks = parse_png(png);
  if (chunks.size() < 3) {
    ADD_FAILURE() << "expected IHDR, IDAT..., IEND; got " << chunks.size() << " chunks";
    return {};
  }
  EXPECT_EQ(chunks.front().type, "IHDR");
  EXPECT_EQ(chunks.back().type, "IEND");
  EXPECT_TRUE(chunks.back().data.empty());
  const std::string& ihdr = chunks.front().data;
  EXPECT_EQ(ihdr.size(), 13u);
  if (ihdr.size() != 13) return {};
  EXPECT_EQ(read_u32(ihdr, 0), static_cast<uint32_t>(width));
  EXPECT_EQ(read_u32(ihdr, 4), static_cast<uint32_t>(height));
  EXPECT_EQ(ihdr[8], 8) << "bit depth";
  EXPECT_EQ(ihdr[9], 2) << "colour type RGB";
  EXPECT_EQ(ihdr[10], 0) << "compression method";
  EXPECT_EQ(ihdr[11], 0) << "filter method";
  EXPECT_EQ(ihdr[12], 0) << "interlace method";

  std::string stream;
  for (size_t k = 1; k + 1 < chunks.size(); ++k) {
    EXPECT_EQ(chunks[k].type, "IDAT") << "chunk " << k;
    stream += chunks[k].data;
  }
  const size_t row_bytes = 1 + 3 * static_cast<size_t>(width);
  const size_t expected = row_bytes * static_cast<size_t>(height);
  std::string raw(expected + 16, '\0');  // room to notice a stream that inflates to too much
  uLongf raw_size = raw.size();
  const int status = uncompress(reinterpret_cast<Bytef*>(raw.data()), &raw_size,
                                reinterpret_cast<const Bytef*>(stream.data()), stream.size());
  EXPECT_EQ(status, Z_OK);
  EXPECT_EQ(raw_size, expected);
  raw.resize(raw_size);
  for (size_t row = 0; row < static_cast<size_t>(height) && row * row_bytes < raw.size(); ++row) {
    if (raw[row * row_bytes] != 0) {
      ADD_FAILURE() << "row " << row << " has filter type " << int{raw[row * row_bytes]};
      break;
    }
  }
  return raw;
}

// RFC 4648 base64 decoding; fails the test on a character outside the alphabet or bad padding.
std::string base64_decode(std::string_view text) {
  static constexpr std::string_view kAlphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  EXPECT_EQ(text.size() % 4, 0u);
  std::string out;
  for (size_t k = 0; k + 4 <= text.size(); k += 4) {
    uint32_t group = 0;
    int pad = 0;
    for (size_t j = 0; j < 4; ++j) {
      const char c = text[k + j];
      uint32_t value = 0;
      if (c == '=') {
        EXPECT_EQ(k + 4, text.size()) << "padding before the end";
        ++pad;
      } else {
        EXPECT_EQ(pad, 0) << "data after padding";
        const size_t found = kAlphabet.find(c);
        if (found == std::string_view::npos) {
          ADD_FAILURE() << "not base64: '" << c << "'";
          return out;
        }
        value = static_cast<uint32_t>(found);
      }
      group = (group << 6) | value;
    }
    EXPECT_LE(pad, 2);
    out.push_back(static_cast<char>(group >> 16));
    if (pad < 2) out.push_back(static_cast<char>((group >> 8) & 0xFF));
    if (pad < 1) out.push_back(static_cast<char>(group & 0xFF));
  }
  return out;
}

// A directory of its own under the system's temporary directory, removed afterwards.
class TempDir {
 public:
  TempDir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ = std::filesystem::temp_directory_path() /
            ("llmperf_png_image_test_" + std::to_string(::getpid()) + "_" + info->name());
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string write(const std::string& name, std::string_view bytes) const {
    const std::filesystem::path file = path_ / name;
    std::ofstream out(file, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return file.string();
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

TEST(MakePng, IsAValidRgbPngOfTheAskedSize) {
  for (const auto& [width, height] :
       std::vector<std::pair<int, int>>{{1, 1}, {2, 3}, {7, 5}, {64, 48}, {333, 17}, {512, 512}}) {
    SCOPED_TRACE(testing::Message() << width << "x" << height);
    check_png(make_png(width, height, 42), width, height);
  }
}

TEST(MakePng, LargeImagesSpanSeveralIdatChunks) {
  // 1024 x 1024 x 3 bytes of noise do not compress below 3 MiB: several IDAT chunks.
  const std::string png = make_png(1024, 1024, 7);
  check_png(png, 1024, 1024);
  size_t idat = 0;
  for (const Chunk& chunk : parse_png(png)) idat += chunk.type == "IDAT" ? 1 : 0;
  EXPECT_GT(idat, 1u);
}

TEST(MakePng, TheSameSeedGivesTheSameBytesAndOthersDifferentPixels) {
  const std::string a = make_png(64, 64, 1);
  EXPECT_EQ(a, make_png(64, 64, 1));
  const std::string b = make_png(64, 64, 2);
  EXPECT_NE(a, b);
  const std::string pixels_a = check_png(a, 64, 64);
  const std::string pixels_b = check_png(b, 64, 64);
  EXPECT_NE(pixels_a, pixels_b);
  // Noise: not a flat image, and about as many distinct bytes as there are byte values.
  std::vector<bool> seen(256, false);
  size_t distinct = 0;
  for (const char c : pixels_a) {
    const auto value = static_cast<unsigned char>(c);
    if (!seen[value]) ++distinct;
    seen[value] = true;
  }
  EXPECT_GT(distinct, 250u);
  EXPECT_NE(make_png(64, 64, 0), make_png(64, 64, ~uint64_t{0}));
}

TEST(MakePng, RejectsSizesOutsideTheRange) {
  EXPECT_THROW(make_png(0, 10, 1), std::invalid_argument);
  EXPECT_THROW(make_png(10, 0, 1), std::invalid_argument);
  EXPECT_THROW(make_png(9000, 10, 1), std::invalid_argument);
  EXPECT_THROW(make_png(10, 9000, 1), std::invalid_argument);
  EXPECT_THROW(make_png(-1, 10, 1), std::invalid_argument);
  EXPECT_THROW(png_data_url(0, 0, 1), std::invalid_argument);
  EXPECT_NO_THROW(make_png(kMaxPngSide, 1, 1));
  EXPECT_NO_THROW(make_png(1, kMaxPngSide, 1));
}

TEST(Base64, MatchesRfc4648TestVectors) {
  EXPECT_EQ(base64_encode(""), "");
  EXPECT_EQ(base64_encode("f"), "Zg==");
  EXPECT_EQ(base64_encode("fo"), "Zm8=");
  EXPECT_EQ(base64_encode("foo"), "Zm9v");
  EXPECT_EQ(base64_encode("foob"), "Zm9vYg==");
  EXPECT_EQ(base64_encode("fooba"), "Zm9vYmE=");
  EXPECT_EQ(base64_encode("foobar"), "Zm9vYmFy");
}

TEST(Base64, UsesTheWholeAlphabetAndRoundTripsEveryByte) {
  EXPECT_EQ(base64_encode(std::string_view("\xFB\xEF\xBE", 3)), "++++");
  EXPECT_EQ(base64_encode(std::string_view("\xFF\xFF\xFF", 3)), "////");
  EXPECT_EQ(base64_encode(std::string_view("\0\0\0", 3)), "AAAA");
  std::string all;
  for (int k = 0; k < 256; ++k) all.push_back(static_cast<char>(k));
  for (size_t n = 0; n <= all.size(); n += 37) {
    EXPECT_EQ(base64_decode(base64_encode(all.substr(0, n))), all.substr(0, n)) << n;
  }
}

TEST(PngDataUrl, IsTheBase64OfThePng) {
  constexpr std::string_view kPrefix = "data:image/png;base64,";
  const std::string url = png_data_url(40, 30, 9);
  ASSERT_EQ(url.substr(0, kPrefix.size()), kPrefix);
  const std::string png = base64_decode(std::string_view(url).substr(kPrefix.size()));
  EXPECT_EQ(png, make_png(40, 30, 9));
  check_png(png, 40, 30);
}

TEST(ImageUrlFor, InlinesFilesWithTheirTypeFromMagicBytes) {
  TempDir dir;
  const std::string png = make_png(8, 8, 3);
  // The magic bytes decide, not the extension.
  const std::string png_path = dir.write("picture.bin", png);
  EXPECT_EQ(image_url_for(png_path), "data:image/png;base64," + base64_encode(png));

  const std::string jpeg("\xFF\xD8\xFF\xE0 not really a JPEG", 23);
  const std::string jpeg_path = dir.write("photo.png", jpeg);
  EXPECT_EQ(image_url_for(jpeg_path), "data:image/jpeg;base64," + base64_encode(jpeg));

  EXPECT_EQ(image_url_for(dir.write("a.img", "GIF89a...")).substr(0, 20), "data:image/gif;base6");
  EXPECT_EQ(image_url_for(dir.write("b.img", std::string_view("RIFF\x10\0\0\0WEBPVP8 ", 16)))
                .substr(0, 21),
            "data:image/webp;base6");
}

TEST(ImageUrlFor, FallsBackToTheExtension) {
  TempDir dir;
  EXPECT_EQ(image_url_for(dir.write("x.JPG", "abc")), "data:image/jpeg;base64,YWJj");
  EXPECT_EQ(image_url_for(dir.write("x.webp", "abc")), "data:image/webp;base64,YWJj");
  EXPECT_EQ(image_url_for(dir.write("x.dat", "abc")), "data:application/octet-stream;base64,YWJj");
}

TEST(ImageUrlFor, ThrowsNamingTheFileThatCannotBeRead) {
  TempDir dir;
  const std::string missing = (dir.path() / "no_such_image.png").string();
  try {
    image_url_for(missing);
    FAIL() << "expected std::runtime_error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(missing), std::string::npos) << e.what();
  }
  try {
    image_url_for(dir.path().string());
    FAIL() << "expected std::runtime_error for a directory";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(dir.path().string()), std::string::npos) << e.what();
  }
}

TEST(ImageUrlFor, PassesUrlsUnchanged) {
  for (const std::string url : {"http://example.com/cat.png", "https://example.com/a b.jpg",
                                "HTTPS://EXAMPLE.COM/x", "data:image/png;base64,iVBORw0KGgo="}) {
    EXPECT_EQ(image_url_for(url), url);
  }
}

// Not a pass/fail check (timings vary with the machine and sanitizers): prints the cost per image.
TEST(MakePng, Timing) {
  using Clock = std::chrono::steady_clock;
  auto per_call_ms = [](int calls, auto&& call) {
    const auto start = Clock::now();
    size_t sink = 0;
    for (int k = 0; k < calls; ++k) sink += call(static_cast<uint64_t>(k)).size();
    const auto elapsed = std::chrono::duration<double, std::milli>(Clock::now() - start);
    EXPECT_GT(sink, 0u);
    return elapsed.count() / calls;
  };
  const double png_512 = per_call_ms(20, [](uint64_t seed) { return make_png(512, 512, seed); });
  const double url_1024 =
      per_call_ms(10, [](uint64_t seed) { return png_data_url(1024, 1024, seed); });
  std::printf("make_png(512, 512): %.2f ms; png_data_url(1024, 1024): %.2f ms\n", png_512,
              url_1024);
}

}  // namespace
}  // namespace llmperf
