// The jump-ahead of the XORWOW generator of the device random-number header (murand_kernel.h):
// murand_init(seed, subsequence, offset, &state) starts `subsequence` * 2^67 + `offset` steps
// into the generator's sequence, as CUDA's curand_init does (subsequences 2^67 draws apart).
// XORWOW's xorshift part is linear over GF(2): one step is a 160 x 160 bit matrix M on the five
// state words, so a jump is a product of the powers M^(2^k) the step count's bits select.
// Those powers are squared once per process (for the offsets' bits and, from 2^67 on, the
// subsequences'), and each, the first time a jump needs it, gets a table of its products with
// every byte of a state, so applying it costs 20 lookups (CUDA ships the powers as constant
// tables; here they are computed, in a few milliseconds).
#include "musa/sim/KernelAbi.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>

namespace {

constexpr int Words = 5, Bits = 32 * Words, Bytes = Bits / 8;
/// M^(2^k) for k < 64 (offsets) and 2^(67 + k) (subsequences): 64 + 64 powers from 2^0 to
/// 2^130.
constexpr int SubsequenceShift = 67, Powers = 64 + SubsequenceShift;

using State = std::array<uint32_t, Words>;

/// One step of the xorshift part of XORWOW (the Weyl counter `d` is added separately).
State step(const State &v) {
  uint32_t t = v[0] ^ (v[0] >> 2);
  return {v[1], v[2], v[3], v[4], (v[4] ^ (v[4] << 4)) ^ (t ^ (t << 1))};
}

/// A linear map on states, by the images of the 160 unit states (bit j: word j / 32, bit
/// j % 32).
struct Matrix {
  std::array<State, Bits> column;
  State apply(const State &v) const {
    State out{};
    for (int j = 0; j < Bits; ++j)
      if (v[j / 32] >> (j % 32) & 1)
        for (int w = 0; w < Words; ++w)
          out[w] ^= column[j][w];
    return out;
  }
  Matrix squared() const {
    auto m = std::make_unique<Matrix>();
    for (int j = 0; j < Bits; ++j)
      m->column[j] = apply(column[j]);
    return *m;
  }
};

/// A matrix's products with each byte of a state: 20 lookups and XORs per product.
struct ByteTable {
  std::array<std::array<State, 256>, Bytes> entry;
  explicit ByteTable(const Matrix &m) {
    for (int b = 0; b < Bytes; ++b) {
      entry[b][0] = State{};
      for (int x = 1; x < 256; ++x) {
        const State &rest = entry[b][x & (x - 1)];
        const State &bit = m.column[8 * b + __builtin_ctz(unsigned(x))];
        for (int w = 0; w < Words; ++w)
          entry[b][x][w] = rest[w] ^ bit[w];
      }
    }
  }
  void apply(uint32_t *v) const {
    State out{};
    for (int b = 0; b < Bytes; ++b) {
      const State &e = entry[b][(v[b / 4] >> (8 * (b % 4))) & 0xff];
      for (int w = 0; w < Words; ++w)
        out[w] ^= e[w];
    }
    std::memcpy(v, out.data(), sizeof out);
  }
};

struct Jumps {
  std::once_flag squared;
  std::unique_ptr<Matrix> power[Powers]; // M^(2^k)
  std::once_flag tabled[Powers];
  std::unique_ptr<ByteTable> table[Powers];

  const ByteTable &of(int k) {
    std::call_once(squared, [this] {
      power[0] = std::make_unique<Matrix>();
      for (int j = 0; j < Bits; ++j) {
        State unit{};
        unit[j / 32] = 1u << (j % 32);
        power[0]->column[j] = step(unit);
      }
      for (int i = 1; i < Powers; ++i)
        power[i] = std::make_unique<Matrix>(power[i - 1]->squared());
    });
    std::call_once(tabled[k], [this, k] { table[k] = std::make_unique<ByteTable>(*power[k]); });
    return *table[k];
  }
};

Jumps &jumps() {
  static Jumps *j = new Jumps; // kernels may run from atexit handlers: never destroyed
  return *j;
}

} // namespace

extern "C" void __musa_sim_xorwow_skip(uint32_t *v, uint64_t subsequence, uint64_t offset) {
  Jumps &j = jumps();
  for (int k = 0; k < 64; ++k) {
    if (offset >> k & 1)
      j.of(k).apply(v);
    if (subsequence >> k & 1)
      j.of(k + SubsequenceShift).apply(v);
  }
}
