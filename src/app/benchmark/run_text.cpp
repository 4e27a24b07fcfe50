// See run_text.h.
#include "app/benchmark/run_text.h"

#include "report/formats/push_exposition.h"
#include "app/baseline_db.h"
#include "report/history/history_baseline_text.h"
#include "report/run_control.h"

namespace llmperf {

std::string render_run_text(const ReportOptions& report, const RunResult& run) {
  std::string text = render_text_summary(report, run.info, run.summary);
  text += render_load_text(run.info, run.summary, report.arrival);
  text += render_server_text(run.info, run.summary);
  text += render_verdicts_text(run.summary, run.verdict);
  if (run.baseline) text += render_baseline_table(*run.baseline);
  if (run.history_baseline) text += render_history_baseline(*run.history_baseline);
  text += render_length_warning(run.info, run.summary);
  text += render_stopped_early_text(run.info);
  if (run.info.push_gateway) text += render_push_gateway_text(*run.info.push_gateway);
  return text;
}

}  // namespace llmperf
