// run_load: splits the slots of a run across worker threads, runs them, and passes the records of
// finished requests to the caller's sink while they run: every kDrainPeriod a collector thread
// takes what each worker has handed over (one lock per worker, constant time) and gives it to the
// sink kSinkSlice records at a time, yielding its core between slices. Where it shares a core with
// a worker (a client pinned to one core), the worker so waits for one slice of the collector's
// work (tens of microseconds) rather than a scheduler tick of it (4 ms at HZ=250). The collector
// keeps the normal priority: under SCHED_IDLE it got no time at all beside a worker that spins for
// its send times, and the records of a long open-loop run piled up in memory.
#include "engine/engine.h"

#include <curl/curl.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <span>
#include <stdexcept>
#include <thread>

#include "core/clock.h"
#include "engine/cpu_readings.h"
#include "engine/worker.h"

namespace llmperf {
namespace {

// How often the collector passes finished records to the sink, and how many at a time (about
// 50 us of writing them to requests.jsonl and summarising them).
constexpr auto kDrainPeriod = std::chrono::milliseconds(100);
constexpr size_t kSinkSlice = 32;

// Runs in this process: running now, and started so far. With both read at a run's start and
// end, the runs that overlapped it are those running when it started and those started since
// (tune --slots runs several at once; their CPU is not this run's: cpu_readings.h).
std::atomic<int> g_runs_active{0};
std::atomic<int64_t> g_runs_started{0};

// One run's place among them, from its start to its end (or its exception).
class RunsSideBySide {
 public:
  RunsSideBySide()
      : started_before_(g_runs_started.fetch_add(1)), active_before_(g_runs_active.fetch_add(1)) {}
  ~RunsSideBySide() { end(); }
  RunsSideBySide(const RunsSideBySide&) = delete;
  RunsSideBySide& operator=(const RunsSideBySide&) = delete;
  // Ends the run; the other runs that overlapped it.
  int end() {
    if (!ended_) {
      ended_ = true;
      g_runs_active.fetch_sub(1);
      overlapped_ = active_before_ + static_cast<int>(g_runs_started.load() - started_before_ - 1);
    }
    return overlapped_;
  }

 private:
  int64_t started_before_;
  int active_before_;
  bool ended_ = false;
  int overlapped_ = 0;
};

}  // namespace

LoadResult run_load(const RequestSettings& settings, const LoadPlan& plan, const std::vector<Prompt>& prompts,
                    const RequestBuilder& builder, LoadProgress* progress, const StopControl& stop,
                    const RecordSink& sink) {
  if (plan.sessions != nullptr ? plan.sessions->empty() : prompts.empty()) {
    throw std::runtime_error("run_load: no prompts");
  }
  const int parallel = std::max(1, plan.parallel);
  const int threads = std::clamp(plan.threads, 1, parallel);

  CurlHeaders headers(builder.header_lines());
  WorkerShared shared;
  shared.settings = &settings;
  shared.prompts = &prompts;
  shared.sessions = plan.sessions;
  shared.builder = &builder;
  shared.transport.url = settings.url;
  shared.transport.headers = headers.list;
  shared.transport.connect_timeout_ms = seconds_to_ms(settings.connect_timeout_s);
  shared.transport.total_timeout_ms = seconds_to_ms(settings.total_timeout_s);
  shared.transport.insecure = settings.insecure;
  shared.transport.cacert = settings.cacert;
  shared.transport.http_mode = settings.http_mode;
  shared.transport.max_streams_per_connection = settings.max_streams_per_connection;
  shared.plan = &plan;
  shared.total = plan.shard_total();
  shared.threads = threads;
  if (!plan.schedule_ns.empty() && static_cast<int64_t>(plan.schedule_ns.size()) < shared.total) {
    throw std::runtime_error("run_load: the schedule has fewer entries than requests");
  }
  shared.read_timeout_ns = seconds_to_ms(settings.read_timeout_s) * 1'000'000;
  shared.progress = progress;
  shared.stop = stop;
  std::unique_ptr<ReplicaChooser> replicas;
  if (settings.urls.size() > 1) {
    replicas = std::make_unique<ReplicaChooser>(settings.urls, settings.least_inflight);
    shared.replicas = replicas.get();
  }

  std::vector<std::unique_ptr<Worker>> workers;
  for (int i = 0; i < threads; ++i) {
    const int slots = parallel / threads + (i < parallel % threads ? 1 : 0);
    workers.push_back(std::make_unique<Worker>(shared, static_cast<uint32_t>(i), slots));
  }

  LoadResult result;
  RunsSideBySide side_by_side;
  double collector_cpu_s = 0;
  const CpuSnapshot cpu_start = take_cpu_snapshot();
  result.start_ns = now_ns();
  shared.start_ns = result.start_ns;
  std::vector<std::exception_ptr> errors(workers.size());
  std::exception_ptr sink_error;
  // Passes what the workers handed over to the sink, kSinkSlice records at a time; after a sink
  // failure, stops every worker and drops further records.
  auto drain = [&] {
    size_t slices = 0;
    for (const auto& worker : workers) {
      for (std::vector<RequestRecord>& batch : worker->take_finished()) {
        for (size_t first = 0; first < batch.size() && !sink_error; first += kSinkSlice) {
          if (slices++ > 0) sched_yield();
          try {
            sink(std::span(batch).subspan(first, std::min(kSinkSlice, batch.size() - first)));
          } catch (...) {
            sink_error = std::current_exception();
            shared.abort.store(true, std::memory_order_relaxed);
          }
        }
      }
    }
  };
  {
    std::mutex mutex;
    std::condition_variable all_done;
    size_t running = workers.size();
    std::vector<std::jthread> threads_running;
    for (size_t i = 0; i < workers.size(); ++i) {
      threads_running.emplace_back([&, i] {
        try {
          workers[i]->run();
        } catch (...) {
          errors[i] = std::current_exception();
        }
        const std::lock_guard<std::mutex> lock(mutex);
        if (--running == 0) all_done.notify_one();
      });
    }
    std::jthread collector([&] {
      const int64_t cpu_start_ns = thread_cpu_ns();
      std::unique_lock<std::mutex> lock(mutex);
      while (!all_done.wait_for(lock, kDrainPeriod, [&] { return running == 0; })) {
        lock.unlock();
        drain();
        lock.lock();
      }
      lock.unlock();
      for (auto& thread : threads_running) thread.join();
      drain();
      collector_cpu_s = static_cast<double>(thread_cpu_ns() - cpu_start_ns) / 1e9;
    });
  }  // joins
  const CpuSnapshot cpu_end = take_cpu_snapshot();
  SideBySideRuns side;
  side.runs = side_by_side.end();
  side.own_cpu_s = collector_cpu_s;
  result.end_ns = result.start_ns;
  for (const auto& worker : workers) result.end_ns = std::max(result.end_ns, worker->end_ns());
  for (const auto& error : errors) {
    if (error) std::rethrow_exception(error);
  }
  if (sink_error) std::rethrow_exception(sink_error);

  ThreadSchedule workers_schedule{0, 0};
  for (const auto& worker : workers) {
    result.interrupted = result.interrupted || worker->interrupted();
    result.cpu_s +=
        static_cast<double>(std::max<int64_t>(0, worker->cpu_ns() - worker->spin_ns())) / 1e9;
    side.own_cpu_s += static_cast<double>(worker->cpu_ns()) / 1e9;
    result.stamp_delay_ns.merge(worker->stamp_delays());
    const ThreadSchedule& s = worker->schedule();
    workers_schedule.involuntary_switches += s.involuntary_switches;
    workers_schedule.run_queue_wait_ns =
        s.run_queue_wait_ns < 0 || workers_schedule.run_queue_wait_ns < 0
            ? -1
            : workers_schedule.run_queue_wait_ns + s.run_queue_wait_ns;
  }
  result.machine = machine_load_between(cpu_start, cpu_end, workers_schedule, side);
  return result;
}

}  // namespace llmperf
