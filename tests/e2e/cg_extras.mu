// Cooperative groups beyond the basics, in the style of the CUDA samples and the "warp-aggregated
// atomics" and "cooperative groups" blog posts: coalesced groups under divergence (size, rank,
// shuffles, votes, partitions), reduce and scans with every function object, shuffles of types
// wider than 64 bits, dynamic tiles, invoke_one, block and grid queries, and __activemask().
#include "check.h"
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>

namespace cg = cooperative_groups;

// Warp-aggregated atomic increment: one atomicAdd per coalesced group.
__device__ int atomicAggInc(int *counter) {
  cg::coalesced_group g = cg::coalesced_threads();
  int prev;
  if (g.thread_rank() == 0)
    prev = atomicAdd(counter, int(g.size()));
  return g.shfl(prev, 0) + int(g.thread_rank());
}

__global__ void filterPositive(const int *in, int n, int *out, int *count, int *groupSize) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] > 0) {
    groupSize[i] = int(cg::coalesced_threads().size());
    out[atomicAggInc(count)] = in[i];
  }
}

struct Triple {
  int a, b, c;
};

// One record per thread; the host recomputes every field.
enum Field {
  BranchSize, BranchRank, BranchLeader, BranchBallot, BranchAny, BranchAll, ActiveMask,
  LabelSize, LabelRank, LabelSum, BinarySize, SubTileRank, SubTileMeta, SubTileMetaSize,
  TileMax, TileMin, TileAnd, TileOr, TileXor, TileSumD, TileInclusive, TileExclusive,
  CoalescedInclusive, CoalescedExclusive, WideTriple, WideDouble2, WideCoalesced, MatchAny,
  DynamicRank, DynamicSize, InvokeOne, Broadcast, BlockQueries, GridRank, TileMeta,
  Fields
};

__global__ void groups(int *out, int *invoked) {
  __shared__ cg::block_tile_memory<64> scratch;
  cg::thread_block block = cg::this_thread_block(scratch);
  const unsigned r = block.thread_rank(), lane = r % 32;
  int *rec = out + (blockIdx.x * block.num_threads() + r) * Fields;

  // Divergent branches: each gets its own coalesced group.
  if (lane % 3 == 0) {
    cg::coalesced_group g = cg::coalesced_threads();
    rec[BranchSize] = int(g.size());
    rec[BranchRank] = int(g.thread_rank());
    rec[BranchLeader] = g.shfl(int(lane), 0);
    rec[BranchBallot] = int(g.ballot(g.thread_rank() % 2 == 0));
    rec[BranchAny] = g.any(lane == 9);
    rec[BranchAll] = g.all(lane % 3 == 0);
    rec[ActiveMask] = int(__activemask());
    g.sync();
  } else {
    cg::coalesced_group g = cg::coalesced_threads();
    rec[BranchSize] = int(g.size());
    rec[BranchRank] = int(g.thread_rank());
    rec[BranchLeader] = g.shfl(int(lane) + 100, 0); // the branches differ: none is merged
    rec[BranchBallot] = int(g.ballot(g.thread_rank() % 2 == 0));
    rec[BranchAny] = g.any(lane == 9);
    rec[BranchAll] = g.all(lane % 3 == 0);
    rec[ActiveMask] = int(__activemask());
  }

  // Partitions of a 32-thread tile.
  cg::thread_block_tile<32, cg::thread_block> tile32 = cg::tiled_partition<32>(block);
  cg::coalesced_group byLabel = cg::labeled_partition(tile32, int(lane % 5));
  rec[LabelSize] = int(byLabel.size());
  rec[LabelRank] = int(byLabel.thread_rank());
  rec[LabelSum] = cg::reduce(byLabel, int(lane), cg::plus<int>());
  cg::coalesced_group odd = cg::binary_partition(tile32, lane & 1);
  rec[BinarySize] = int(odd.size()) * 100 + int(odd.thread_rank());
  cg::coalesced_group sub = cg::tiled_partition(byLabel, 2);
  rec[SubTileRank] = int(sub.thread_rank());
  rec[SubTileMeta] = int(sub.meta_group_rank());
  rec[SubTileMetaSize] = int(sub.meta_group_size());

  // reduce and scans on a static tile.
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
  int v = int(r * 7 % 23);
  rec[TileMax] = cg::reduce(tile, v, cg::greater<int>());
  rec[TileMin] = cg::reduce(tile, v, cg::less<int>());
  rec[TileAnd] = int(cg::reduce(tile, unsigned(v) | 0x100u, cg::bit_and<unsigned>()));
  rec[TileOr] = int(cg::reduce(tile, 1u << (r % 16), cg::bit_or<unsigned>()));
  rec[TileXor] = int(cg::reduce(tile, unsigned(v), cg::bit_xor<unsigned>()));
  rec[TileSumD] = int(cg::reduce(tile, double(v) + 0.5, cg::plus<double>()) * 2);
  rec[TileInclusive] = cg::inclusive_scan(tile, v);
  rec[TileExclusive] = cg::exclusive_scan(tile, v, cg::plus<int>());
  rec[CoalescedInclusive] = cg::inclusive_scan(byLabel, 1);
  rec[CoalescedExclusive] = cg::exclusive_scan(byLabel, int(lane));

  // Shuffles of types wider than 64 bits.
  Triple t = {int(r), int(r) * 2, int(r) * 3};
  Triple from = tile.shfl_xor(t, 1);
  rec[WideTriple] = from.a + from.b + from.c;
  double2 d2 = make_double2(r + 0.25, r * 2.0);
  double2 got = tile.shfl(d2, 3);
  rec[WideDouble2] = int(got.x * 4) + int(got.y) * 1000;
  Triple fromLeader = byLabel.shfl(t, 0);
  rec[WideCoalesced] = fromLeader.c;
  rec[MatchAny] = int(tile.match_any(int(r % 4)));

  // Dynamic tiles of dynamic tiles, invoke_one, block and grid queries.
  cg::thread_group dyn = cg::tiled_partition(block, 8);
  cg::thread_group dyn4 = cg::tiled_partition(dyn, 4);
  dyn4.sync();
  rec[DynamicRank] = int(dyn.thread_rank()) * 10 + int(dyn4.thread_rank());
  rec[DynamicSize] = int(dyn.num_threads()) * 10 + int(dyn4.size());
  cg::invoke_one(tile, [&] { atomicAdd(invoked, 1); });
  rec[InvokeOne] = 1;
  rec[Broadcast] = cg::invoke_one_broadcast(tile, [&] { return int(r) + 1000; });
  dim3 dims = block.group_dim(), dt = block.dim_threads();
  rec[BlockQueries] = int(dims.x == blockDim.x && dims.y == blockDim.y && dt.x == dims.x &&
                          block.num_threads() == blockDim.x * blockDim.y &&
                          block.thread_rank() == threadIdx.x + blockDim.x * threadIdx.y);
  cg::grid_group grid = cg::this_grid();
  rec[GridRank] = int(grid.thread_rank()) + 10000 * int(grid.size() == gridDim.x * block.size());
  rec[TileMeta] = int(tile.meta_group_rank()) * 100 + int(tile.meta_group_size());
}

static int popcount(unsigned m) { return __builtin_popcount(m); }

static void checkGroups() {
  const int blocks = 2, threads = 64;
  const dim3 block(16, 4);
  int *d, *dInvoked, invoked = 0;
  static int h[blocks * threads * Fields];
  CHECK_MUSA(musaMalloc(&d, sizeof h));
  CHECK_MUSA(musaMalloc(&dInvoked, sizeof(int)));
  CHECK_MUSA(musaMemset(dInvoked, 0, sizeof(int)));
  groups<<<blocks, block>>>(d, dInvoked);
  CHECK_MUSA(musaGetLastError());
  CHECK_MUSA(musaMemcpy(h, d, sizeof h, musaMemcpyDeviceToHost));
  CHECK_MUSA(musaMemcpy(&invoked, dInvoked, sizeof(int), musaMemcpyDeviceToHost));
  CHECK(invoked == blocks * threads / 16, "invoke_one ran %d times", invoked);
  for (int b = 0; b < blocks; ++b)
    for (int r = 0; r < threads; ++r) {
      const int *rec = h + (b * threads + r) * Fields;
      unsigned lane = r % 32;
      bool inFirst = lane % 3 == 0;
      unsigned branch = 0, label = 0, oddLanes = 0;
      for (unsigned l = 0; l < 32; ++l) {
        branch |= unsigned((l % 3 == 0) == inFirst) << l;
        label |= unsigned(l % 5 == lane % 5) << l;
        oddLanes |= unsigned((l & 1) == (lane & 1)) << l;
      }
      unsigned below = (1u << lane) - 1;
      int rank = popcount(branch & below), size = popcount(branch);
      unsigned ballot = 0;
      for (int k = 0; k < size; k += 2)
        ballot |= 1u << k;
      CHECK(rec[BranchSize] == size, "block %d thread %d: branch group size %d, expected %d", b, r,
            rec[BranchSize], size);
      CHECK(rec[BranchRank] == rank, "thread %d: branch rank %d, expected %d", r,
            rec[BranchRank], rank);
      CHECK(rec[BranchLeader] == (inFirst ? 0 : 101), "thread %d: leader lane %d", r,
            rec[BranchLeader]);
      CHECK(unsigned(rec[BranchBallot]) == ballot, "thread %d: ballot %#x, expected %#x", r,
            rec[BranchBallot], ballot);
      CHECK(rec[BranchAny] == int(inFirst), "thread %d: any %d", r, rec[BranchAny]);
      CHECK(rec[BranchAll] == int(inFirst), "thread %d: all %d", r, rec[BranchAll]);
      CHECK(unsigned(rec[ActiveMask]) == branch, "thread %d: __activemask %#x, expected %#x", r,
            rec[ActiveMask], branch);
      int labelRank = popcount(label & below), labelSize = popcount(label), labelSum = 0;
      int labelLanes[32], k = 0;
      for (unsigned l = 0; l < 32; ++l)
        if (label >> l & 1)
          labelSum += int(l), labelLanes[k++] = int(l);
      CHECK(rec[LabelSize] == labelSize && rec[LabelRank] == labelRank,
            "thread %d: labeled_partition size %d rank %d, expected %d %d", r, rec[LabelSize],
            rec[LabelRank], labelSize, labelRank);
      CHECK(rec[LabelSum] == labelSum, "thread %d: coalesced reduce %d, expected %d", r,
            rec[LabelSum], labelSum);
      CHECK(rec[BinarySize] == 1600 + popcount(oddLanes & below),
            "thread %d: binary_partition %d", r, rec[BinarySize]);
      CHECK(rec[SubTileRank] == labelRank % 2 && rec[SubTileMeta] == labelRank / 2 &&
                rec[SubTileMetaSize] == (labelSize + 1) / 2,
            "thread %d: tiled_partition of a coalesced group: rank %d meta %d of %d", r,
            rec[SubTileRank], rec[SubTileMeta], rec[SubTileMetaSize]);
      int base = r / 16 * 16, mx = 0, mn = 1 << 30, sumD = 0, inclusive = 0, exclusive = 0;
      unsigned andAll = ~0u, xorAll = 0;
      for (int q = base; q < base + 16; ++q) {
        int w = q * 7 % 23;
        mx = w > mx ? w : mx, mn = w < mn ? w : mn;
        andAll &= unsigned(w) | 0x100u, xorAll ^= unsigned(w);
        sumD += 2 * w + 1;
        if (q <= r)
          inclusive += w;
        if (q < r)
          exclusive += w;
      }
      CHECK(rec[TileMax] == mx && rec[TileMin] == mn, "thread %d: tile max %d min %d", r,
            rec[TileMax], rec[TileMin]);
      CHECK(unsigned(rec[TileAnd]) == andAll && rec[TileOr] == 0xffff &&
                unsigned(rec[TileXor]) == xorAll,
            "thread %d: tile and %#x or %#x xor %#x", r, rec[TileAnd], rec[TileOr], rec[TileXor]);
      CHECK(rec[TileSumD] == sumD, "thread %d: double reduce %d, expected %d", r, rec[TileSumD],
            sumD);
      CHECK(rec[TileInclusive] == inclusive && rec[TileExclusive] == exclusive,
            "thread %d: tile scans %d %d, expected %d %d", r, rec[TileInclusive],
            rec[TileExclusive], inclusive, exclusive);
      int labelExclusive = 0;
      for (int q = 0; q < labelRank; ++q)
        labelExclusive += labelLanes[q];
      CHECK(rec[CoalescedInclusive] == labelRank + 1 && rec[CoalescedExclusive] == labelExclusive,
            "thread %d: coalesced scans %d %d", r, rec[CoalescedInclusive],
            rec[CoalescedExclusive]);
      int partner = r ^ 1;
      CHECK(rec[WideTriple] == partner * 6, "thread %d: struct shfl_xor %d", r, rec[WideTriple]);
      int src = base + 3;
      CHECK(rec[WideDouble2] == src * 4 + 1 + src * 2 * 1000, "thread %d: double2 shfl %d", r,
            rec[WideDouble2]);
      CHECK(rec[WideCoalesced] == (r - int(lane) + labelLanes[0]) * 3,
            "thread %d: coalesced struct shfl %d", r, rec[WideCoalesced]);
      CHECK(rec[MatchAny] == 0x1111 << (r % 4), "thread %d: tile match_any %#x", r,
            rec[MatchAny]);
      CHECK(rec[DynamicRank] == (r % 8) * 10 + r % 4 && rec[DynamicSize] == 84,
            "thread %d: dynamic tiles %d %d", r, rec[DynamicRank], rec[DynamicSize]);
      CHECK(rec[Broadcast] == base + 1000, "thread %d: invoke_one_broadcast %d", r,
            rec[Broadcast]);
      CHECK(rec[BlockQueries] == 1, "thread %d: thread_block queries", r);
      CHECK(rec[GridRank] == 10000 + b * threads + r, "thread %d: grid rank %d", r,
            rec[GridRank]);
      CHECK(rec[TileMeta] == (r / 16) * 100 + 4, "thread %d: tile meta group %d", r,
            rec[TileMeta]);
    }
  CHECK_MUSA(musaFree(d));
  CHECK_MUSA(musaFree(dInvoked));
}

static void checkAggregatedAtomics() {
  const int n = 1000;
  int h[n], hout[n], hsize[n];
  int expected = 0;
  for (int i = 0; i < n; ++i) {
    h[i] = (i * 37 % 11) - 4; // positives: 7 of every 11
    expected += h[i] > 0;
  }
  int *din, *dout, *dcount, *dsize, count = 0;
  CHECK_MUSA(musaMalloc(&din, sizeof h));
  CHECK_MUSA(musaMalloc(&dout, sizeof hout));
  CHECK_MUSA(musaMalloc(&dsize, sizeof hsize));
  CHECK_MUSA(musaMalloc(&dcount, sizeof(int)));
  CHECK_MUSA(musaMemcpy(din, h, sizeof h, musaMemcpyHostToDevice));
  CHECK_MUSA(musaMemset(dcount, 0, sizeof(int)));
  CHECK_MUSA(musaMemset(dsize, 0, sizeof hsize));
  filterPositive<<<(n + 127) / 128, 128>>>(din, n, dout, dcount, dsize);
  CHECK_MUSA(musaGetLastError());
  CHECK_MUSA(musaMemcpy(&count, dcount, sizeof(int), musaMemcpyDeviceToHost));
  CHECK_MUSA(musaMemcpy(hout, dout, sizeof hout, musaMemcpyDeviceToHost));
  CHECK_MUSA(musaMemcpy(hsize, dsize, sizeof hsize, musaMemcpyDeviceToHost));
  CHECK(count == expected, "filtered %d values, expected %d", count, expected);
  int histogram[8] = {};
  for (int i = 0; i < count && i < n; ++i)
    if (hout[i] > 0 && hout[i] < 8)
      ++histogram[hout[i]];
  for (int value = 1; value < 8; ++value) {
    int want = 0;
    for (int i = 0; i < n; ++i)
      want += h[i] == value;
    CHECK(histogram[value] == want, "value %d copied %d times, expected %d", value,
          histogram[value], want);
  }
  // Each group is the positive lanes of one 32-thread quarter (a warp on 32-lane devices).
  for (int i = 0; i < n; ++i) {
    if (h[i] <= 0)
      continue;
    int want = 0;
    for (int j = i - i % 32; j < i - i % 32 + 32 && j < n; ++j)
      want += h[j] > 0;
    if (!onHardware())
      CHECK(hsize[i] == want, "thread %d: coalesced group of %d, expected %d", i, hsize[i], want);
  }
  CHECK_MUSA(musaFree(din));
  CHECK_MUSA(musaFree(dout));
  CHECK_MUSA(musaFree(dsize));
  CHECK_MUSA(musaFree(dcount));
}

int main() {
  checkGroups();
  checkAggregatedAtomics();
  return finish("cg_extras");
}
