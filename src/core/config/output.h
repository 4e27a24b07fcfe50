// The output: where a run's files go and what they and the terminal show, the history database,
// JUnit, vLLM's result file and the Pushgateway's live figures.
// A section of core/config.h's Config (Config::output); a stage that reads only this includes
// this header, not the whole Config.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace llmperf {

// vLLM's result-file flags (`vllm bench serve` / benchmark_serving.py): what vllm_result.json
// says about the run, and where a copy goes under vLLM's name.
struct VllmResultOptions {
  std::string backend;    // --backend as given ("": from the API); "backend" and "endpoint_type"
  std::string label;      // --label ("": null in the file; the backend in the default file name)
  std::string model_id;   // --model when --served-model-name names the model sent ("": --model)
  std::string tokenizer;  // --tokenizer: accepted (tokens are counted by the server); tokenizer_id
  std::vector<std::pair<std::string, std::string>> metadata;  // --metadata KEY=VALUE, in order
  bool save = false;      // --save-result (or --result-dir / --result-filename): write the copy
  bool detailed = false;  // the copy keeps the per-request arrays (always without `bench serve`)
  std::string dir;        // --result-dir ("": the working directory)
  std::string filename;   // --result-filename ("": vLLM's {label}-{rate}qps...-{date}.json)
};

struct OutputConfig {
  std::string outputs_dir = "outputs";  // --outputs-dir
  std::string name;                     // --name: run name (defaults to the model)
  // --tag key=value, in the order given (cli/tags.h): the run's labels in the history database,
  // its filters and on the pushed live figures
  std::vector<std::pair<std::string, std::string>> tags;
  bool no_timestamp = false;       // --no-timestamp: no <YYYYmmdd_HHMMSS> level
  int64_t log_every_n_query = 10;  // --log-every-n-query
  bool debug = false;              // --debug
  bool verbose = false;            // --verbose: the text summary adds detail tables (HTTP phases)
  std::vector<double> percentiles = {10, 25, 50, 66, 75, 80, 90, 95, 98, 99};  // --percentiles
  std::string summary_format = "default";  // --summary-format: default | evalscope-legacy | vllm
  // vLLM's --percentile-metrics and --metric-percentiles: which metrics and percentiles its
  // console block (--summary-format vllm) and vllm_result.json give.
  std::vector<std::string> percentile_metrics = {"ttft", "tpot", "itl"};
  std::vector<double> metric_percentiles = {99};
  VllmResultOptions vllm;  // --save-result, --result-dir, --metadata, ...
  // --keep-text: MiB of answer text a run keeps for vllm_result.json's generated_texts (and
  // requests.jsonl's output_text); requests beyond it keep none. 0: keep none.
  double keep_text_mib = 64;
  std::string junit_path;  // --junit FILE: JUnit XML of the SLO verdicts
  // --results-db FILE: every run appended to this history database (app/results_db.h; "": off)
  std::string results_db;
  bool results_db_requests = false;  // --results-db-requests: requests.jsonl's lines stored too

  // --- live figures for Prometheus ---
  std::string push_gateway;    // --push-gateway URL: a Pushgateway's base URL ("" = no pushes)
  double push_interval_s = 5;  // --push-interval: seconds between pushes during a run
};

}  // namespace llmperf
