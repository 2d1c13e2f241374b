#!/usr/bin/env python3
"""Checks a PNG (the rendered heat map of pilgrim-stats --matrix-svg):
its size is WIDTH x HEIGHT and it is not blank: at least MIN_COLOURS
distinct colours, and a given share of pixels that are not the background
(the most common colour). Python's standard library only: the PNG is
decoded here (8-bit RGB or RGBA, non-interlaced, as rsvg-convert writes).

usage: check_png.py FILE WIDTH HEIGHT [MIN_COLOURS]
Prints "png: W x H, not blank: OK" or one line saying what is wrong, with
exit status 1.
"""
import struct
import sys
import zlib


def fail(why):
    print("png: " + why)
    sys.exit(1)


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def decode(data):
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail("not a PNG file")
    pos, idat, header = 8, b"", None
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
        pos += 12 + length
    if header is None:
        fail("no IHDR chunk")
    width, height, depth, colour_type, _, _, interlace = header
    channels = {2: 3, 6: 4}.get(colour_type)
    if depth != 8 or channels is None or interlace != 0:
        fail("unsupported PNG (depth %d, colour type %d, interlace %d)" %
             (depth, colour_type, interlace))
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = prev[i]
            c = prev[i - channels] if i >= channels else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                line[i] = (line[i] + paeth(a, b, c)) & 255
            elif f != 0:
                fail("bad filter type %d" % f)
        rows.append(bytes(line))
        prev = line
    return width, height, channels, rows


def main():
    if len(sys.argv) not in (4, 5):
        fail("usage: check_png.py FILE WIDTH HEIGHT [MIN_COLOURS]")
    width, height, channels, rows = decode(open(sys.argv[1], "rb").read())
    want_w, want_h = int(sys.argv[2]), int(sys.argv[3])
    min_colours = int(sys.argv[4]) if len(sys.argv) == 5 else 8
    if (width, height) != (want_w, want_h):
        fail("%d x %d, expected %d x %d" % (width, height, want_w, want_h))
    counts = {}
    for row in rows:
        for x in range(0, len(row), channels):
            px = row[x:x + channels]
            counts[px] = counts.get(px, 0) + 1
    background = max(counts.values())
    share = 100.0 * (width * height - background) / (width * height)
    if len(counts) < min_colours:
        fail("%d colours, expected at least %d: blank" % (len(counts), min_colours))
    if share < 5:
        fail("%.1f%% of pixels not background: blank" % share)
    print("png: %d x %d, not blank: OK" % (width, height))


main()
