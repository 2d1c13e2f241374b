// Ranks in a Cartesian communicator coded as a displacement in the process
// grid, so that every rank of a periodic stencil names its neighbors with the
// same number (FORMAT.md §8.3, Rank): the lower neighbor across a wrapped
// edge is "one step down", as it is for an interior rank.
//
// A displacement d_i per dimension is one digit of a mixed-radix number:
// a periodic dimension of n processes has the n digits
// [-floor((n-1)/2), floor(n/2)] (the displacement taken modulo n); an open
// dimension has the 2n-1 digits [-(n-1), n-1]. The offset is
//   y = ((d_0 * R_1 + d_1) * R_2 + d_2) ...,
// and since every digit range holds exactly R_i consecutive integers, y
// decodes back to one displacement per dimension. Ranks are numbered in
// row-major order of the coordinates, as the MPI standard requires.
//
// Header-only: the runtime encodes, the readers decode. The proxy's prelude
// (proxygen/proxy_prelude.cpp) carries its own copy of cart_decode, since a
// proxy depends on MPI only.
#pragma once

#include <cstdint>

namespace pilgrim {

// Grids of more dimensions are refused (MPI implementations allow far fewer).
constexpr int kCartMaxDims = 64;

struct CartDigit {
  int64_t lo;    // the smallest displacement
  int64_t radix; // how many displacements
};

inline CartDigit cart_digit(int64_t n, bool periodic) {
  if (n < 1)
    n = 1;
  if (periodic)
    return {-((n - 1) / 2), n};
  return {-(n - 1), 2 * n - 1};
}

inline int64_t floor_mod(int64_t a, int64_t m) {
  const int64_t r = a % m;
  return r < 0 ? r + m : r;
}

// The coordinates of `rank` in a row-major grid; false if it is outside.
inline bool cart_coords(int ndims, const int *dims, int64_t rank, int64_t *coords) {
  if (rank < 0)
    return false;
  for (int i = ndims - 1; i >= 0; --i) {
    const int64_t n = dims[i] < 1 ? 1 : dims[i];
    coords[i] = rank % n;
    rank /= n;
  }
  return rank == 0;
}

// The offset y of `peer` seen from `me` (both ranks of the grid). False when
// a rank is outside the grid or y would overflow.
inline bool cart_encode(int ndims, const int *dims, const int *periods, int64_t me, int64_t peer,
                        int64_t &y) {
  if (ndims < 0 || ndims > kCartMaxDims)
    return false;
  int64_t mc[kCartMaxDims], pc[kCartMaxDims];
  if (!cart_coords(ndims, dims, me, mc) || !cart_coords(ndims, dims, peer, pc))
    return false;
  y = 0;
  for (int i = 0; i < ndims; ++i) {
    const CartDigit d = cart_digit(dims[i], periods[i] != 0);
    int64_t disp = pc[i] - mc[i];
    if (periods[i])
      disp = floor_mod(disp - d.lo, d.radix) + d.lo;
    if (__builtin_mul_overflow(y, d.radix, &y) || __builtin_add_overflow(y, disp, &y))
      return false;
  }
  return true;
}

// The displacement per dimension that offset y stands for; false when y has
// digits left over.
inline bool cart_displacements(int ndims, const int *dims, const int *periods, int64_t y,
                               int64_t *disp) {
  for (int i = ndims - 1; i >= 0; --i) {
    const CartDigit d = cart_digit(dims[i], periods[i] != 0);
    int64_t shifted;
    if (__builtin_sub_overflow(y, d.lo, &shifted))
      return false;
    disp[i] = floor_mod(shifted, d.radix) + d.lo;
    if (__builtin_sub_overflow(y, disp[i], &y))
      return false;
    y /= d.radix;
  }
  return y == 0;
}

// The rank at offset y from `me`; false when y names no rank of the grid
// (a displacement off an open edge, digits left over, or `me` outside).
inline bool cart_decode(int ndims, const int *dims, const int *periods, int64_t me, int64_t y,
                        int64_t &peer) {
  if (ndims < 0 || ndims > kCartMaxDims)
    return false;
  int64_t mc[kCartMaxDims], disp[kCartMaxDims];
  if (!cart_coords(ndims, dims, me, mc) || !cart_displacements(ndims, dims, periods, y, disp))
    return false;
  for (int i = 0; i < ndims; ++i) {
    const int64_t n = dims[i] < 1 ? 1 : dims[i];
    int64_t c = mc[i] + disp[i];
    if (periods[i])
      c = floor_mod(c, n);
    else if (c < 0 || c >= n)
      return false;
    mc[i] = c;
  }
  peer = 0;
  for (int i = 0; i < ndims; ++i) {
    const int64_t n = dims[i] < 1 ? 1 : dims[i];
    if (__builtin_mul_overflow(peer, n, &peer) || __builtin_add_overflow(peer, mc[i], &peer))
      return false;
  }
  return true;
}

} // namespace pilgrim
