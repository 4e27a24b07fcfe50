// write_file_atomic: a second write replaces the first and leaves no temporary file behind; a
// path that cannot be written is named in the error.
#include "core/files.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <string>

namespace llmperf {
namespace {

namespace fs = std::filesystem;

TEST(WriteFileAtomic, ReplacesAndReportsErrors) {
  const fs::path dir =
      fs::temp_directory_path() / ("llmperf_files_test_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string path = (dir / "f.txt").string();
  write_file_atomic(path, "one");
  write_file_atomic(path, "two");
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(), "two");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);

  const std::string missing = (dir / "no" / "such" / "f.txt").string();
  try {
    write_file_atomic(missing, "x");
    FAIL() << "expected an exception";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "cannot write " + missing + ": No such file or directory");
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace llmperf
