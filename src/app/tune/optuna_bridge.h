// The Optuna bridge of the learned searches (--strategy tpe:N, cmaes:N, nsga2:N): the Python
// helper share/llmperf/optuna_bridge.py started as a child (app/child_process.h) and spoken to in
// JSON lines over two pipes (study/sampler_space.h builds and reads the lines). Which Python: the
// first of --python PATH, the `python3` on $PATH and /usr/bin/python3 that imports optuna; the
// bridge itself is the probe, since its first line says whether the import worked.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

#include "study/sampler_space.h"
#include "study/space.h"

namespace llmperf {

// The bridge script: beside the installed llmperf (<bin>/../share/llmperf/optuna_bridge.py) or in
// the build tree (<build>/share/llmperf/, where CMake copies it). Throws std::runtime_error
// naming the places tried.
std::string find_optuna_bridge();

class OptunaBridge {
 public:
  // Starts the bridge under the first Python that imports optuna: `python` alone when given
  // (--python), else python3 on $PATH, then /usr/bin/python3. Throws std::invalid_argument when
  // none does, naming each Python tried and why, and the package to install (python3-optuna).
  explicit OptunaBridge(const std::string& python);
  ~OptunaBridge();
  OptunaBridge(const OptunaBridge&) = delete;
  OptunaBridge& operator=(const OptunaBridge&) = delete;

  const std::string& python() const { return python_; }   // the Python that runs it
  const std::string& optuna() const { return optuna_; }   // Optuna's version
  const std::string& passed_over() const { return passed_over_; }  // "" or the Pythons skipped

  // Sends one request line and returns the answer line. Throws std::runtime_error when the bridge
  // has gone or does not answer in time.
  std::string request(const std::string& line);

 private:
  bool start(const std::string& python, const std::string& script, std::string& why);
  std::string read_line(int timeout_ms);
  void stop();

  pid_t pid_ = -1;
  int to_child_ = -1;
  int from_child_ = -1;
  std::string buffer_;
  std::string python_;
  std::string optuna_;
  std::string passed_over_;
};

}  // namespace llmperf
