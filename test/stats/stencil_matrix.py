#!/usr/bin/env python3
"""The communication matrix that bench/fidelity/stencil2d must give, as
pilgrim-stats --matrix prints it (docs/STATS.md, "Communication matrix"),
computed from the program's own grid, independently of the trace.

usage: stencil_matrix.py RANKS ITERATIONS L EVERY
Per iteration each rank sends L doubles to its north, south, west and east
neighbours on the periodic px x py grid of MPI_Dims_create (the same rank
twice where px or py is 2); every EVERY iterations an MPI_Allreduce of one
double, which the matrix counts all to all (8 bytes to each other rank).
"""
import sys


def dims_create(n):
    # MPI_Dims_create(n, 2): the most balanced factors, the larger first.
    d = int(n ** 0.5)
    while n % d:
        d -= 1
    return n // d, d


def main():
    ranks, iters, l, every = (int(a) for a in sys.argv[1:5])
    px, py = dims_create(ranks)
    p2p = {}
    for rank in range(ranks):
        cx, cy = rank // py, rank % py
        for peer in (((cx + px - 1) % px) * py + cy, ((cx + 1) % px) * py + cy,
                     cx * py + (cy + py - 1) % py, cx * py + (cy + 1) % py):
            m, b = p2p.get((rank, peer), (0, 0))
            p2p[(rank, peer)] = (m + iters, b + iters * l * 8)
    reductions = iters // every
    coll = {(s, r): (reductions, reductions * 8)
            for s in range(ranks) for r in range(ranks) if s != r and reductions}
    print("kind,communicator,sender,receiver,messages,bytes")
    for kind, cells in (("p2p", p2p), ("collective", coll)):
        for comm in ("all", "MPI_COMM_WORLD"):
            for (s, r), (m, b) in sorted(cells.items()):
                print("%s,%s,%d,%d,%d,%d" % (kind, comm, s, r, m, b))


main()
