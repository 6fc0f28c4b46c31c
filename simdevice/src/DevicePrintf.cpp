// Device printf: formats a format string against the argument buffer clang packs.
//
// clang lowers device printf(fmt, ...) to vprintf(fmt, buf): each argument, after default
// promotion (float -> double, small integers -> int), is stored in `buf` aligned to its own
// size. We walk the format string, read each argument at its aligned offset and format it with
// the host's snprintf, one conversion at a time. The whole line is written with one fwrite so
// output of concurrent GPU threads never interleaves within a call.
#include "musa/sim/DevicePrintf.h"
#include "musa/sim/KernelAbi.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>

namespace {

class ArgReader {
public:
  explicit ArgReader(const char *buf) : buf_(buf) {}
  template <class T> T next() {
    offset_ = (offset_ + sizeof(T) - 1) / sizeof(T) * sizeof(T);
    T value{};
    if (buf_)
      std::memcpy(&value, buf_ + offset_, sizeof(T));
    offset_ += sizeof(T);
    return value;
  }

private:
  const char *buf_;
  size_t offset_ = 0;
};

template <class T> void append(std::string &out, const std::string &spec, T value) {
  char small[128];
  int n = std::snprintf(small, sizeof small, spec.c_str(), value);
  if (n < 0)
    return;
  if (size_t(n) < sizeof small) {
    out.append(small, size_t(n));
    return;
  }
  std::string big(size_t(n) + 1, '\0');
  std::snprintf(big.data(), big.size(), spec.c_str(), value);
  out.append(big.data(), size_t(n));
}

std::mutex &outputMutex() {
  static std::mutex m;
  return m;
}

} // namespace

std::string musa::sim::formatDevicePrintf(const char *fmt, const char *args) {
  std::string out;
  if (!fmt)
    return "<null format>";
  ArgReader reader(args);
  for (const char *p = fmt; *p;) {
    if (*p != '%') {
      out.push_back(*p++);
      continue;
    }
    if (p[1] == '%') {
      out.push_back('%');
      p += 2;
      continue;
    }
    std::string spec = "%";
    const char *q = p + 1;
    while (*q && std::strchr("-+ #0", *q))
      spec.push_back(*q++);
    auto number = [&]() {
      if (*q == '*') {
        spec += std::to_string(reader.next<int32_t>());
        ++q;
      }
      while (*q >= '0' && *q <= '9')
        spec.push_back(*q++);
    };
    number();
    if (*q == '.') {
      spec.push_back(*q++);
      number();
    }
    int longness = 0; // 0: int, 1: 64-bit
    while (*q && std::strchr("hlLqjzt", *q)) {
      if (*q == 'l' || *q == 'L' || *q == 'q' || *q == 'j' || *q == 'z' || *q == 't')
        longness = 1;
      ++q;
    }
    char conv = *q;
    if (!conv)
      break;
    ++q;
    switch (conv) {
    case 'd': case 'i':
      if (longness)
        append(out, spec + "lld", (long long)reader.next<int64_t>());
      else
        append(out, spec + "d", reader.next<int32_t>());
      break;
    case 'u': case 'x': case 'X': case 'o':
      if (longness)
        append(out, spec + "ll" + conv, (unsigned long long)reader.next<uint64_t>());
      else
        append(out, spec + conv, reader.next<uint32_t>());
      break;
    case 'c':
      append(out, spec + "c", reader.next<int32_t>());
      break;
    case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A':
      append(out, spec + conv, reader.next<double>());
      break;
    case 's': {
      const char *s = reader.next<const char *>();
      append(out, spec + "s", s ? s : "(null)");
      break;
    }
    case 'p':
      append(out, spec + "p", reader.next<const void *>());
      break;
    default: // unknown conversion: print it as written, as printf does
      out.append(p, size_t(q - p));
      break;
    }
    p = q;
  }
  return out;
}

extern "C" int __musa_sim_vprintf(const char *fmt, const char *args, musa::sim::ThreadContext *) {
  std::string text = musa::sim::formatDevicePrintf(fmt, args);
  std::lock_guard lock(outputMutex());
  std::fwrite(text.data(), 1, text.size(), stdout);
  return int(text.size());
}
