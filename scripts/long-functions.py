#!/usr/bin/env python3
"""Lists the Swift functions, initializers and closures-bodied accessors, and the C and C++
functions, in Sources/ longer than a limit (default 50 lines, counted from the declaration to
its closing brace).

    python3 scripts/long-functions.py [--limit N] [DIR ...]

Exits 1 when any is found, so `make lint` can hold the line. Strings, comments and character
literals are skipped while braces are counted; a multi-line string literal ("\"\"\"") too.
"""
import argparse
import pathlib
import re
import sys

DECL = re.compile(r'^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|private|fileprivate|internal|package|static|'
                  r'class|override|final|mutating|nonisolated|convenience|required|@inlinable)\s+)*'
                  r'(func\s+[^\s(<]+|init[?!]?|deinit|subscript)\b')
# A C or C++ function definition: at the start of a line (not indented), a return type and a name
# followed by its parameters; a control statement, a macro or a declaration ending in ';' is not one.
C_DECL = re.compile(r'^(?!(?:if|for|while|switch|return|else|do|typedef|struct|enum|union)\b)'
                    r'[A-Za-z_][\w\s\*:<>,&]*?\b([A-Za-z_]\w*(?:::\w+)*)\s*\([^;]*$')
C_SUFFIXES = ('.c', '.h', '.cpp', '.cc')


def code_only(text):
    """The text with comments and string contents blanked, lines kept."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
            i = j
        elif text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r'[^\n]', ' ', text[i:j]))
            i = j
        elif text.startswith('"""', i):
            j = text.find('"""', i + 3)
            j = n if j < 0 else j + 3
            out.append(re.sub(r'[^\n]', ' ', text[i:j]))
            i = j
        elif c == '"':
            j = i + 1
            depth = 0
            while j < n:
                if text[j] == '\\' and j + 1 < n and text[j + 1] == '(':
                    depth += 1
                    j += 2
                    continue
                if depth and text[j] == ')':
                    depth -= 1
                elif text[j] == '\\':
                    j += 1
                elif text[j] == '"' and not depth:
                    break
                elif text[j] == '\n':
                    break
                j += 1
            out.append(' ' * (j + 1 - i))
            i = j + 1
        else:
            out.append(c)
            i += 1
    return ''.join(out)


def declaration(line, is_c):
    """The name a line declares a function by, or None."""
    if is_c:
        if line.startswith('#') or line.startswith('__attribute__'):
            return None
        m = C_DECL.match(line)
        return m.group(1) if m else None
    m = DECL.match(line)
    return m.group(1) if m else None


def long_functions(path, limit):
    is_c = path.suffix in C_SUFFIXES
    lines = code_only(path.read_text(encoding='utf-8')).split('\n')
    found = []
    for number, line in enumerate(lines):
        name = declaration(line, is_c)
        if not name:
            continue
        depth, opened = 0, False
        for end in range(number, len(lines)):
            for ch in lines[end]:
                if ch == '{':
                    depth += 1
                    opened = True
                elif ch == '}':
                    depth -= 1
            if opened and depth <= 0:
                break
            if not opened and is_c and lines[end].rstrip().endswith(';'):
                break  # a C prototype: no body
            if not opened and end > number + 8:
                break  # a protocol requirement: no body
        if opened:
            length = end - number + 1
            if length > limit:
                found.append((length, f'{path}:{number + 1}', name))
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--limit', type=int, default=50)
    parser.add_argument('dirs', nargs='*', default=['Sources'])
    args = parser.parse_args()
    found = []
    for d in args.dirs:
        for path in sorted(pathlib.Path(d).rglob('*')):
            if path.suffix == '.swift' or path.suffix in C_SUFFIXES:
                found += long_functions(path, args.limit)
    for length, where, name in sorted(found, reverse=True):
        print(f'{length:4d}  {where}  {name}')
    print(f'{len(found)} function(s) over {args.limit} lines')
    return 1 if found else 0


if __name__ == '__main__':
    sys.exit(main())
