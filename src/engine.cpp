// run_load: splits the slots of a run across worker threads, runs them, and merges their records
// after they have all finished (no locks while running).
#include "llmperf/engine.h"

#include <curl/curl.h>
#include <sys/resource.h>

#include <algorithm>
#include <exception>
#include <memory>
#include <stdexcept>
#include <thread>

#include "llmperf/clock.h"
#include "worker.h"

namespace llmperf {
namespace {

int64_t seconds_to_ms(double seconds) { return static_cast<int64_t>(seconds * 1000.0 + 0.5); }

double process_cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const auto seconds = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
  };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

// curl_slist of the builder's header lines, freed on scope exit.
struct HeaderList {
  curl_slist* list = nullptr;
  explicit HeaderList(const std::vector<std::string>& lines) {
    for (const std::string& line : lines) {
      curl_slist* next = curl_slist_append(list, line.c_str());
      if (next == nullptr) throw std::runtime_error("curl_slist_append failed");
      list = next;
    }
  }
  ~HeaderList() { curl_slist_free_all(list); }
  HeaderList(const HeaderList&) = delete;
  HeaderList& operator=(const HeaderList&) = delete;
};

}  // namespace

void init_transport() {
  const CURLcode code = curl_global_init(CURL_GLOBAL_ALL);
  if (code != CURLE_OK) {
    throw std::runtime_error(std::string("curl_global_init: ") + curl_easy_strerror(code));
  }
}

LoadResult run_load(const Config& config, const LoadPlan& plan, const std::vector<Prompt>& prompts,
                    const RequestBuilder& builder, LoadProgress* progress,
                    const StopControl& stop) {
  if (prompts.empty()) throw std::runtime_error("run_load: no prompts");
  const int parallel = std::max(1, plan.parallel);
  const int threads = std::clamp(plan.threads, 1, parallel);

  HeaderList headers(builder.header_lines());
  WorkerShared shared;
  shared.config = &config;
  shared.prompts = &prompts;
  shared.builder = &builder;
  shared.transport.url = config.url;
  shared.transport.headers = headers.list;
  shared.transport.connect_timeout_ms = seconds_to_ms(config.connect_timeout_s);
  shared.transport.total_timeout_ms = seconds_to_ms(config.total_timeout_s);
  shared.transport.insecure = config.insecure;
  shared.transport.cacert = config.cacert;
  shared.plan = &plan;
  shared.total = plan.warmup + plan.number;
  shared.threads = threads;
  if (!plan.schedule_ns.empty() && static_cast<int64_t>(plan.schedule_ns.size()) < shared.total) {
    throw std::runtime_error("run_load: the schedule has fewer entries than requests");
  }
  shared.read_timeout_ns = seconds_to_ms(config.read_timeout_s) * 1'000'000;
  shared.progress = progress;
  shared.stop = stop;

  std::vector<std::unique_ptr<Worker>> workers;
  for (int i = 0; i < threads; ++i) {
    const int slots = parallel / threads + (i < parallel % threads ? 1 : 0);
    workers.push_back(std::make_unique<Worker>(shared, static_cast<uint32_t>(i), slots));
  }

  LoadResult result;
  const double cpu_before = process_cpu_seconds();
  result.start_ns = now_ns();
  shared.start_ns = result.start_ns;
  std::vector<std::exception_ptr> errors(workers.size());
  {
    std::vector<std::jthread> running;
    for (size_t i = 0; i < workers.size(); ++i) {
      running.emplace_back([&workers, &errors, i] {
        try {
          workers[i]->run();
        } catch (...) {
          errors[i] = std::current_exception();
        }
      });
    }
  }  // joins
  result.end_ns = now_ns();
  result.cpu_s = process_cpu_seconds() - cpu_before;
  for (const auto& error : errors) {
    if (error) std::rethrow_exception(error);
  }

  size_t total = 0;
  for (const auto& worker : workers) total += worker->records().size();
  result.records.reserve(total);
  for (const auto& worker : workers) {
    result.interrupted = result.interrupted || worker->interrupted();
    for (RequestRecord& record : worker->records()) result.records.push_back(std::move(record));
    result.cpu_s -= static_cast<double>(worker->spin_ns()) / 1e9;
    const auto& delays = worker->stamp_delays();
    result.stamp_delay_ns.insert(result.stamp_delay_ns.end(), delays.begin(), delays.end());
  }
  result.cpu_s = std::max(0.0, result.cpu_s);
  std::sort(result.records.begin(), result.records.end(),
            [](const RequestRecord& a, const RequestRecord& b) { return a.id < b.id; });
  return result;
}

}  // namespace llmperf
