// Loopback TCP ports for the servers `llmperf tune` starts: a free one for each trial, what the
// kernel still holds on a port after a server stopped, and whether a server could bind it again.
#pragma once

#include <mutex>
#include <set>
#include <string>
#include <string_view>

namespace llmperf {

// The kernel's ephemeral port range (/proc/sys/net/ipv4/ip_local_port_range): where it takes the
// local port of an outgoing connection and of a socket bound to port 0. {32768, 60999}, Linux's
// default, when the file cannot be read.
struct PortRange {
  int low = 32768;
  int high = 60999;
};
PortRange ephemeral_port_range();

// A TCP port free on 127.0.0.1 at this moment, for a server to bind: picked at random outside the
// ephemeral range (below it, or above it when there is no room below), where no outgoing
// connection of any process takes a port, and checked by binding it (without SO_REUSEADDR: no
// socket of any kind, not even in TIME_WAIT, holds it). Still racy: another process may bind the
// port before the server does; a server that cannot bind fails at start-up with its own "Address
// already in use" line (the trial runner starts it again on another port). Falls back to a port
// the kernel picks (bind to port 0) when the range leaves no room or 64 picks are taken. Throws
// std::runtime_error when no socket can be bound at all.
int pick_free_port();

// The ports of trials that run side by side (--slots): pick_free_port, but never a port another
// running trial holds, which the kernel may hand out again once the socket that picked it is
// closed, before that trial's server has bound it. Thread-safe.
class PortLeases {
 public:
  int lease();  // throws as pick_free_port
  void release(int port);

 private:
  std::mutex mutex_;
  std::set<int> held_;  // guarded by mutex_
};

// The kernel's TCP sockets whose local end is one port, on any address (IPv4 and IPv6).
struct PortSockets {
  int listening = 0;  // in LISTEN: some process accepts connections on the port
  // In TIME_WAIT: connections on the port that its server closed first (an HTTP server closing a
  // kept-alive connection), which the kernel keeps for 60 s. Connections to the port from
  // another local port (llmperf's own, closed by llmperf) are not counted: they hold their own
  // port, not this one.
  int time_wait = 0;
};

// Counts the sockets on local port `port` in the text of /proc/net/tcp or /proc/net/tcp6 (a
// header line, then one socket a line: "sl local_address rem_address st ...", addresses as
// HEXADDR:HEXPORT, st in hex: 0A LISTEN, 06 TIME_WAIT). Lines that do not read so are skipped.
PortSockets count_port_sockets(std::string_view proc_net_tcp, int port);

// count_port_sockets over /proc/net/tcp and /proc/net/tcp6 (this network namespace, every
// process); a file that cannot be read counts nothing.
PortSockets port_sockets(int port);

// True when a server could bind `host`:`port` (an IPv4 address; anything else is taken as
// 127.0.0.1) as servers bind theirs: nothing listens on the port (port_sockets), and a socket
// with SO_REUSEADDR and SO_REUSEPORT binds it. The kernel lets such a bind share the port with
// connections in TIME_WAIT that were themselves reusable (those of a server that set either
// option on its listener, which its accepted connections inherit: vLLM's and SGLang's uvicorn,
// llama.cpp's SO_REUSEPORT), and refuses it while connections of a server that set neither last.
// The next server started by the same command binds the same way, so this is its answer too.
bool port_is_free(int port, const std::string& host = "127.0.0.1");

}  // namespace llmperf
