#!/usr/bin/env python3
"""same_size.py [--tolerance T | --bytes N] A B: checks two files' sizes differ by at most T
(relative) or N bytes."""
import argparse
import os
import sys

p = argparse.ArgumentParser()
p.add_argument('--tolerance', type=float, default=0.01)
p.add_argument('--bytes', type=int, default=None)
p.add_argument('a')
p.add_argument('b')
args = p.parse_args()
sa, sb = os.path.getsize(args.a), os.path.getsize(args.b)
diff = abs(sa - sb) / max(sa, sb, 1)
if args.bytes is not None:
    print('%s: %d bytes, %s: %d bytes, difference %d bytes' % (args.a, sa, args.b, sb, abs(sa - sb)))
    if abs(sa - sb) > args.bytes:
        print('sizes differ by more than %d bytes' % args.bytes)
        sys.exit(1)
    print('same size within %d bytes' % args.bytes)
    sys.exit(0)
print('%s: %d bytes, %s: %d bytes, difference %.2f%%' % (args.a, sa, args.b, sb, 100 * diff))
if diff > args.tolerance:
    print('sizes differ by more than %g%%' % (100 * args.tolerance))
    sys.exit(1)
print('same size within %g%%' % (100 * args.tolerance))
