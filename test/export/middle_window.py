#!/usr/bin/env python3
"""Prints FROM:TO (seconds) covering the middle third of the call slices of a
trace-event JSON file (pilgrim-export --chrome): a window for --time that
holds some calls and leaves others out, whatever the run's own times.

usage: middle_window.py FILE"""
import json
import sys

with open(sys.argv[1]) as f:
    starts = sorted(e['ts'] for e in json.load(f)['traceEvents'] if e.get('ph') == 'X')
print('%.9f:%.9f' % (starts[len(starts) // 3] / 1e6, starts[2 * len(starts) // 3] / 1e6))
