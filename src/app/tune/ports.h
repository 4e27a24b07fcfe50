// Loopback TCP ports for the servers `llmperf tune` starts: a free one for each trial, and whether
// one is free again after a server stopped.
#pragma once

#include <string>

namespace llmperf {

// A TCP port free on 127.0.0.1 at this moment: the kernel picks it for a socket bound to port 0,
// which is then closed. Racy by nature: another process may take the port before the server binds
// it (it comes from the ephemeral range, which outgoing connections use too), so the tuner checks
// port_is_free() again just before it starts each server, and a server that cannot bind fails at
// start-up with its own "Address already in use" line. Throws std::runtime_error when no socket can
// be bound at all.
int pick_free_port();

// True when a socket can bind `host`:`port` (an IPv4 address; anything else is taken as
// 127.0.0.1) with SO_REUSEADDR, as servers bind theirs: a listener on the port (on that address or
// on 0.0.0.0) makes it busy; connections lingering in TIME_WAIT do not.
bool port_is_free(int port, const std::string& host = "127.0.0.1");

}  // namespace llmperf
