#!/usr/bin/env python3
"""Runs the test suite and ends with one line counting the tests that passed, failed and were
skipped (cancelled by the test itself, or disabled):

    python3 scripts/run-tests.py swift test --skip-build -Xswiftc -O
    ...
    tests: 264 passed, 0 failed, 2 skipped

The command is run with swift-testing's event stream written to .build/test-events.jsonl, and
its own output passes through unchanged. Exits 1 when a test failed, when the command failed,
or when a test was cancelled that Tests/cancellations.txt does not allow (there, with the
reasons a test may be cancelled for: a processor without AVX2, a sandbox where strace cannot
attach ...); entries marked `outside-ci` allow it only when CI is not set.
"""
import json
import os
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
EVENTS = ROOT / '.build' / 'test-events.jsonl'
ALLOWED = ROOT / 'Tests' / 'cancellations.txt'


def allowed_cancellations(in_ci):
    """The entries of the list that apply here: (test name or '*', reason prefix)."""
    entries = []
    for line in ALLOWED.read_text(encoding='utf-8').splitlines():
        if not line.strip() or line.lstrip().startswith('#'):
            continue
        where, test, reason = (part.strip() for part in line.split('|')[:3])
        if where == 'anywhere' or (where == 'outside-ci' and not in_ci):
            entries.append((test, reason))
    return entries


def test_name(test_id):
    """'Module.Suite/name(args:)/File.swift:12:5' -> 'Module.Suite/name(args:)'."""
    return re.sub(r'/[^/]*\.swift:\d+:\d+$', '', test_id or '')


def outcomes(path):
    """Each test function's outcome ('passed', 'failed', 'cancelled', 'skipped') and, for a
    cancelled test, the reason it gave (None when the stream does not carry it)."""
    functions, failed, cancelled, skipped, reasons = set(), set(), set(), set(), {}
    for line in path.read_text(encoding='utf-8').splitlines():
        record = json.loads(line)
        payload = record.get('payload', {})
        if record.get('kind') == 'test':
            if payload.get('kind') == 'function':
                functions.add(payload['id'])
            continue
        kind, test = payload.get('kind'), payload.get('testID')
        issue = payload.get('issue', {})
        if kind == 'issueRecorded' and not issue.get('isKnown', False) and issue.get('severity', 'error') != 'warning':
            failed.add(test)
        elif kind in ('testCancelled', 'testCaseCancelled'):
            cancelled.add(test)
        elif kind == 'testSkipped':
            skipped.add(test)
        elif kind == 'testEnded':
            for message in payload.get('messages', []):
                found = re.search(r'was cancelled after [^:]*: "(.*)"$', message.get('text', ''))
                if found:
                    reasons[test] = found.group(1)
    result = {}
    for test in functions:
        if test in failed:
            result[test] = ('failed', None)
        elif test in cancelled:
            result[test] = ('cancelled', reasons.get(test))
        elif test in skipped:
            result[test] = ('skipped', None)
        else:
            result[test] = ('passed', None)
    return result


def is_allowed(name, reason, entries):
    """True when an entry names this test (or any test, for a cancellation that gave its reason)
    and its reason, where known, starts with the entry's."""
    for test, prefix in entries:
        if test == '*' and reason is not None and reason.startswith(prefix):
            return True
        if test == name and (reason is None or reason.startswith(prefix)):
            return True
    return False


def main():
    command = sys.argv[1:]
    if not command:
        print(__doc__, file=sys.stderr)
        return 2
    EVENTS.parent.mkdir(exist_ok=True)
    if EVENTS.exists():
        EVENTS.unlink()  # the previous run's stream, which this script wrote
    status = subprocess.call(command + ['--event-stream-output-path', str(EVENTS), '--event-stream-version', '0'])
    if not EVENTS.exists():
        print('run-tests: the test run wrote no event stream', file=sys.stderr)
        return 1
    results = outcomes(EVENTS)
    entries = allowed_cancellations(os.environ.get('CI', '') not in ('', '0', 'false'))
    counts = {'passed': 0, 'failed': 0, 'skipped': 0}
    unlisted = []
    for test, (outcome, reason) in sorted(results.items()):
        counts['skipped' if outcome == 'cancelled' else outcome] += 1
        if outcome == 'cancelled':
            name = test_name(test)
            listed = is_allowed(name, reason, entries)
            print(f'cancelled: {name}: {reason or "(a test case; no reason in the event stream)"}'
                  + ('' if listed else '  <- not in Tests/cancellations.txt'))
            if not listed:
                unlisted.append(name)
    if unlisted:
        print(f'{len(unlisted)} test(s) cancelled that Tests/cancellations.txt does not allow here', file=sys.stderr)
    print(f"tests: {counts['passed']} passed, {counts['failed']} failed, {counts['skipped']} skipped")
    return 1 if status != 0 or counts['failed'] or unlisted else 0


if __name__ == '__main__':
    sys.exit(main())
