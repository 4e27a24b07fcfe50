// The side channels' options (see side_channels.h).
#include "plan/side_channels.h"

#include "core/clock.h"
#include "core/config/server_view.h"
#include "core/config/target.h"
#include "server/side_channel.h"
#include "workload/request_builder.h"

namespace llmperf {

HttpPoolOptions side_channel_options(const TargetConfig& target) {
  HttpPoolOptions http;
  http.header_lines = server_header_lines(target);
  http.connect_timeout_ms = seconds_to_ms(target.connect_timeout_s);
  http.total_timeout_ms = seconds_to_ms(target.read_timeout_s);
  http.insecure = target.insecure;
  http.cacert = target.cacert;
  http.max_in_flight = 16;
  return http;
}

ServerViewOptions server_view_options(const TargetConfig& target, const ServerViewConfig& view) {
  ServerViewOptions options;
  options.base_url = base_url_of(target.url);
  options.urls = target.urls;
  options.http = side_channel_options(target);
  options.server_metrics = view.server_metrics;
  options.metrics_url = view.metrics_url;
  options.metrics_interval_s = view.metrics_interval_s;
  options.profile = view.profile;
  return options;
}

}  // namespace llmperf
