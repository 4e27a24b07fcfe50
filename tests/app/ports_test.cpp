// /proc/net/tcp read for one port: the listeners and the server-side TIME_WAIT connections, on
// IPv4 and IPv6 lines as the kernel writes them; connections to the port from elsewhere (their
// remote end on it) and lines that do not read so are not counted.
#include "app/tune/ports.h"

#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <set>
#include <string>

namespace llmperf {
namespace {

// Port 8080 is 1F90. Lines cut after the fields read (the kernel writes more).
constexpr const char* kTcp =
    "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid\n"
    "   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000\n"
    "   1: 0100007F:1F90 0100007F:D431 06 00000000:00000000 03:00001562 00000000     0\n"
    "   2: 0100007F:1F90 0100007F:D433 06 00000000:00000000 03:00001562 00000000     0\n"
    "   3: 0100007F:D435 0100007F:1F90 06 00000000:00000000 03:00001562 00000000     0\n"
    "   4: 0100007F:1F91 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000\n"
    "   5: 0100007F:1F90 0100007F:D437 01 00000000:00000000 00:00000000 00000000  1000\n";

constexpr const char* kTcp6 =
    "  sl  local_address                         remote_address                        st\n"
    "   0: 00000000000000000000000000000000:1F90 00000000000000000000000000000000:0000 0A\n"
    "   1: 00000000000000000000000001000000:1F90 00000000000000000000000001000000:C001 06\n";

TEST(PortSockets, CountsListenersAndServerSideTimeWaitOnThePort) {
  const PortSockets v4 = count_port_sockets(kTcp, 8080);
  EXPECT_EQ(v4.listening, 1);
  EXPECT_EQ(v4.time_wait, 2);  // line 3 is a client's: its remote end is 8080, its own port not
  const PortSockets v6 = count_port_sockets(kTcp6, 8080);
  EXPECT_EQ(v6.listening, 1);
  EXPECT_EQ(v6.time_wait, 1);
  const PortSockets other = count_port_sockets(kTcp, 8081);
  EXPECT_EQ(other.listening, 1);
  EXPECT_EQ(other.time_wait, 0);
  const PortSockets none = count_port_sockets(kTcp, 54325);  // D435: only as a client's port
  EXPECT_EQ(none.listening, 0);
  EXPECT_EQ(none.time_wait, 1);
}

TEST(PortSockets, TheHeaderAndLinesThatDoNotReadSoCountNothing) {
  // The header alone; a header that looks like a listener; lines cut short or garbled.
  EXPECT_EQ(count_port_sockets("", 8080).listening, 0);
  EXPECT_EQ(count_port_sockets("   0: 0100007F:1F90 00000000:0000 0A\n", 8080).listening, 0);
  const std::string text = std::string("header\n") +
                           "   0: 0100007F:1F90\n"
                           "   1: 0100007F:1F9G 00000000:0000 0A\n"
                           "   2: 0100007F: 00000000:0000 0A\n"
                           "   3 0100007F:1F90 00000000:0000 0A\n"
                           "\n"
                           "   4: 0100007F:1F90 00000000:0000 0A";  // no newline at the end
  const PortSockets sockets = count_port_sockets(text, 8080);
  EXPECT_EQ(sockets.listening, 1);
  EXPECT_EQ(sockets.time_wait, 0);
}

// A picked port is one no outgoing connection takes (outside the kernel's ephemeral range, when
// the range leaves room, as Linux's default does) and one a server can bind.
TEST(PickFreePort, IsOutsideTheEphemeralRangeAndBindable) {
  const PortRange ephemeral = ephemeral_port_range();
  ASSERT_LE(ephemeral.low, ephemeral.high);
  const bool room = ephemeral.low - 1024 >= 1024 || 65535 - ephemeral.high >= 1024;
  std::set<int> ports;
  for (int i = 0; i < 20; ++i) {
    const int port = pick_free_port();
    ports.insert(port);
    if (room) {
      EXPECT_TRUE(port < ephemeral.low || port > ephemeral.high)
          << port << " is in " << ephemeral.low << "-" << ephemeral.high;
    }
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    ASSERT_GE(fd, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    EXPECT_EQ(bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address), 0) << port;
    close(fd);
  }
  EXPECT_GT(ports.size(), 10u);  // picked at random, not one port again and again
}

}  // namespace
}  // namespace llmperf

namespace llmperf {
namespace {

// Trials side by side never get the same port while both hold it; a released port may come back.
TEST(PortLeases, HeldPortsAreNeverHandedOutTwice) {
  PortLeases leases;
  std::set<int> held;
  for (int i = 0; i < 64; ++i) {
    const int port = leases.lease();
    EXPECT_GT(port, 0);
    EXPECT_TRUE(held.insert(port).second) << port;
  }
  for (const int port : held) leases.release(port);
}

}  // namespace
}  // namespace llmperf
