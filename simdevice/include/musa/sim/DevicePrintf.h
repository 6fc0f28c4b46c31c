// Device printf formatting (see DevicePrintf.cpp for the argument buffer layout).
#pragma once

#include <string>

namespace musa::sim {

/// Formats `fmt` against the packed argument buffer of one device printf call.
std::string formatDevicePrintf(const char *fmt, const char *args);

} // namespace musa::sim
