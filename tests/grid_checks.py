"""grid_checks.py — properties of the text grids in a folder (smalti's -o NAME.txt), checked from the
files alone, apart from the <require> nodes that promise them. Used by tests/promises.sh and
tests/cli/require_test.sh.

Usage: python3 tests/grid_checks.py FOLDER CHECK...   each CHECK one of:
  one:SYMBOLS              the cells of SYMBOLS are one region (4 neighbours); none at all holds
  some:SYMBOL              there is such a cell
  count:SYMBOLS:N          exactly N such cells
  reach:FROM:TO:THROUGH    every FROM cell reaches a TO cell through cells of THROUGH, FROM and TO
Prints one line; exits 1 when a file breaks a check (or the folder has none)."""
import os
import sys


def grid_rows(path):
    lines = open(path).read().split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith("size "))
    return lines[at + 1:at + 1 + int(lines[at].split()[2])]


def region(rows, starts, through):
    """The cells reached from starts through cells whose symbol is in through."""
    seen, todo = set(), list(starts)
    while todo:
        x, y = todo.pop()
        if (x, y) in seen or not (0 <= y < len(rows) and 0 <= x < len(rows[y])) or rows[y][x] not in through:
            continue
        seen.add((x, y))
        todo += [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]
    return seen


def broken(rows, check):
    """What the grid breaks of check, or None."""
    kind, *args = check.split(":")
    cells = lambda symbols: [(x, y) for y, r in enumerate(rows) for x, c in enumerate(r) if c in symbols]
    if kind == "some" and not cells(args[0]):
        return "no " + args[0]
    if kind == "count" and len(cells(args[0])) != int(args[1]):
        return "%d cells of %s, not %s" % (len(cells(args[0])), args[0], args[1])
    if kind == "one":
        found = cells(args[0])
        if found and len(region(rows, found[:1], args[0])) != len(found):
            return "the cells of %s are not one region" % args[0]
    if kind == "reach":
        reached = region(rows, cells(args[1]), args[2] + args[0] + args[1])
        if any(c not in reached for c in cells(args[0])):
            return "%s does not reach %s through %s" % (args[0], args[1], args[2])
    if kind not in ("some", "count", "one", "reach"):
        sys.exit("grid_checks: unknown check " + check)
    return None


def main():
    folder, checks = sys.argv[1], sys.argv[2:]
    files = sorted(f for f in os.listdir(folder) if f.endswith(".txt"))
    bad = []
    for f in files:
        rows = grid_rows(os.path.join(folder, f))
        bad += ["%s: %s" % (f, b) for b in (broken(rows, c) for c in checks) if b]
    print("%s: %d outputs, %d broken%s" % (os.path.basename(folder), len(files), len(bad),
                                           (": " + "; ".join(bad[:5])) if bad else ""))
    sys.exit(1 if bad or not files else 0)


main()
