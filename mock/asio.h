// The Boost.Asio headers llmperf-mock uses, included in one place. GCC 12 reports a false
// -Wnull-dereference inside Asio's scheduler when it inlines the epoll reactor into our code;
// the warning is silenced for these headers only.
#pragma once

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wnull-dereference"
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#pragma GCC diagnostic pop
