// The jump-ahead of the XORWOW generator of the device random-number header (murand_kernel.h):
// murand_init(seed, subsequence, offset, &state) starts `subsequence` * 2^67 + `offset` steps
// into the generator's sequence, as CUDA's curand_init does (subsequences 2^67 draws apart).
// XORWOW's xorshift part is linear over GF(2): one step is a 160 x 160 bit matrix M on the five
// state words, so a jump is a product of the powers M^(2^k) the step count's bits select.
// Those powers are squared once per process (for the offsets' bits and, from 2^67 on, the
// subsequences'), and each, the first time a jump needs it, gets a table of its products with
// every byte of a state, so applying it costs 20 lookups (CUDA ships the powers as constant
// tables; here they are computed, in a few milliseconds). MRG32k3a's two components are linear
// recurrences modulo primes, 3 x 3 matrices A1 and A2, and a jump of n * 2^shift steps (shift
// 0 for skipahead, 76 for subsequences, 127 for sequences) is a product of their powers
// A^(2^k) likewise.
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
    Matrix m;
    for (int j = 0; j < Bits; ++j)
      m.column[j] = apply(column[j]);
    return m;
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

namespace {

/// MRG32k3a: s1' = (1403580 s1[1] - 810728 s1[0]) mod m1 and s2' = (527612 s2[2] - 1370589
/// s2[0]) mod m2, each shifted in after the state's other two words.
constexpr uint64_t Mod1 = 4294967087u, Mod2 = 4294944443u;
constexpr int MrgPowers = 127 + 64; // A^(2^k), k < 191: sequence jumps reach 2^(127 + 63)

using Mat3 = std::array<std::array<uint64_t, 3>, 3>;

Mat3 multiply(const Mat3 &a, const Mat3 &b, uint64_t m) {
  Mat3 c{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      uint64_t sum = 0;
      for (int k = 0; k < 3; ++k)
        sum = (sum + a[i][k] * b[k][j] % m) % m;
      c[i][j] = sum;
    }
  return c;
}

struct MrgPowersTable {
  std::array<Mat3, MrgPowers> a1, a2;
  MrgPowersTable() {
    a1[0] = Mat3{{{0, 1, 0}, {0, 0, 1}, {Mod1 - 810728, 1403580, 0}}};
    a2[0] = Mat3{{{0, 1, 0}, {0, 0, 1}, {Mod2 - 1370589, 0, 527612}}};
    for (int k = 1; k < MrgPowers; ++k) {
      a1[k] = multiply(a1[k - 1], a1[k - 1], Mod1);
      a2[k] = multiply(a2[k - 1], a2[k - 1], Mod2);
    }
  }
};

void applyMod(const Mat3 &a, uint32_t *s, uint64_t m) {
  uint64_t out[3];
  for (int i = 0; i < 3; ++i)
    out[i] = (a[i][0] * s[0] % m + a[i][1] * s[1] % m + a[i][2] * s[2] % m) % m;
  for (int i = 0; i < 3; ++i)
    s[i] = uint32_t(out[i]);
}

} // namespace

extern "C" void __musa_sim_mrg32k3a_skip(uint32_t *s1, uint32_t *s2, uint64_t n,
                                         uint32_t shift) {
  static const MrgPowersTable *table = new MrgPowersTable; // never destroyed, as above
  for (int k = 0; k < 64 && n >> k; ++k)
    if (n >> k & 1 && k + shift < uint32_t(MrgPowers)) {
      applyMod(table->a1[k + shift], s1, Mod1);
      applyMod(table->a2[k + shift], s2, Mod2);
    }
}

extern "C" void __musa_sim_xorwow_skip(uint32_t *v, uint64_t subsequence, uint64_t offset) {
  Jumps &j = jumps();
  for (int k = 0; k < 64; ++k) {
    if (offset >> k & 1)
      j.of(k).apply(v);
    if (subsequence >> k & 1)
      j.of(k + SubsequenceShift).apply(v);
  }
}
