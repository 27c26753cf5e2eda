"""grid_checks.py — properties of the text grids in a folder (smalti's -o NAME.txt), checked from the
files alone, apart from the <require> nodes that promise them. Used by tests/promises.sh,
tests/cli/require_test.sh and tests/cli/cave_tiles_test.sh.

Usage: python3 tests/grid_checks.py FOLDER CHECK...   each CHECK one of:
  one:SYMBOLS              the cells of SYMBOLS are one region (4 neighbours); none at all holds
  some:SYMBOL              there is such a cell
  count:SYMBOLS:N          exactly N such cells
  reach:FROM:TO:THROUGH    every FROM cell reaches a TO cell through cells of THROUGH, FROM and TO
  rougher:SYMBOLS:SIDE:A:B with the grid cut into SIDE x SIDE tiles ringed around the centre tile
                           (ring 0 the centre, ring 1 the tiles around it, ...), the tiles of ring A
                           have on average more than twice as many outvoted cells as those of ring B:
                           cells whose side (in SYMBOLS or not) loses the vote of their 3x3 square,
                           themselves included, the grid wrapping: the cells a majority vote would flip
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


def outvoted_by_ring(rows, symbols, side):
    """The mean count of outvoted cells per tile, by ring: {ring: mean}."""
    my, mx = len(rows), len(rows[0])
    solid = [[c in symbols for c in r] for r in rows]
    centre_x, centre_y = (mx // side) // 2, (my // side) // 2
    counts = {}
    for ty in range(my // side):
        for tx in range(mx // side):
            n = 0
            for y in range(ty * side, ty * side + side):
                for x in range(tx * side, tx * side + side):
                    votes = sum(solid[(y + dy) % my][(x + dx) % mx] for dy in (-1, 0, 1) for dx in (-1, 0, 1))
                    n += (votes >= 5) != solid[y][x]
            counts.setdefault(max(abs(tx - centre_x), abs(ty - centre_y)), []).append(n)
    return {ring: sum(c) / len(c) for ring, c in counts.items()}


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
    if kind == "rougher":
        means = outvoted_by_ring(rows, args[0], int(args[1]))
        a, b = int(args[2]), int(args[3])
        if a not in means or b not in means:
            return "no ring %d or %d of %s-cell tiles" % (a, b, args[1])
        if means[a] <= 2 * means[b]:
            return "ring %d has %.2f outvoted cells a tile, not more than twice ring %d's %.2f" % (a, means[a], b, means[b])
    if kind not in ("some", "count", "one", "reach", "rougher"):
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
