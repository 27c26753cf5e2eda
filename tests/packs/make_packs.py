#!/usr/bin/env python3
"""make_packs.py OUT_DIR — writes the pack fixtures of tests/cli/pack_test.sh into OUT_DIR, the zips
made here with Python's zipfile (never by hand): one good pack, folder and zip, and one pack for
each unsafe case that smalti must refuse.

  good/ good.zip         a pack.xml, a model with a rule image in resources/, a thumbnail
  slip_dotdot.zip        an entry "../evil.xml"                       (zip slip)
  slip_absolute.zip      an entry "/tmp/smalti-evil.xml"               (zip slip)
  slip_backslash.zip     an entry "models\\evil.xml"                  (zip slip)
  slip_drive.zip         an entry "C:/evil.xml"                       (zip slip)
  symlink.zip            an entry whose Unix mode is a symbolic link
  duplicate.zip          two entries named pack.xml
  file_and_folder.zip    a file "resources/a" and an entry "resources/a/b" (no folder holds both)
  bomb.zip               a bzip2 entry of 64 MiB of zeros, some bytes compressed
  big.zip                1.5 MiB stored (for --max-unpacked 1M)
  escape/                a folder pack whose rule image is a link out of the pack
  escape_root/           a folder pack whose resources/ folder is a link out of the pack
  escape_zip.zip         a model naming its rule image with ".."
  huge_grid.zip          a manifest asking for a 100000^3 grid
  bad_manifest.zip       pack.xml that is not well-formed (line 3)
  bad_model.zip          a model that is not well-formed (line 4)
  newer.zip              a pack that needs smalti 99.0.0
"""
import os
import sys
import zipfile
import zlib
import struct

MODEL = """<sequence values="BWR">
  <one in="B" out="W" steps="20"/>
  <one in="W" file="Dot" legend="BWR"/>
</sequence>
"""
# A 1x1 red pixel as the rule image "Dot" would need a PNG; the good model uses a plain rule instead.
GOOD_MODEL = """<sequence values="BWR">
  <one in="B" out="W" steps="20"/>
  <all in="BW" out="RW"/>
</sequence>
"""
IMAGE_MODEL = """<one values="BW" file="Dot" legend="BW"/>
"""
PACK = """<pack name="good" version="1.0.0" description="A small pack for the tests" license="CC0-1.0" smalti="0.1.0">
  <author name="Test" email="test@example.org"/>
  <model file="models/dots.xml" title="Dots" tags="test" size="12" seeds="3 4" thumbnail="thumbs/dots.png"/>
  <model file="models/image.xml" title="Image rule" size="6"/>
</pack>
"""


def png(width, height, rows):
    """A minimal RGB PNG; rows are lists of (r, g, b)."""
    raw = b"".join(b"\0" + bytes(c for px in row for c in px) for row in rows)
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


# "Dot": in B, out W, a 1x2 image (input on the left half, output on the right) as rule images are drawn.
DOT = png(2, 1, [[(0, 0, 0), (255, 241, 232)]])
GOOD_FILES = {
    "pack.xml": PACK,
    "models/dots.xml": GOOD_MODEL,
    "models/image.xml": IMAGE_MODEL,
    "resources/rules/Dot.png": DOT,
    "thumbs/dots.png": png(1, 1, [[(255, 0, 0)]]),
}


def write_folder(path, files):
    for name, data in files.items():
        full = os.path.join(path, name)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "wb") as f:
            f.write(data.encode() if isinstance(data, str) else data)


def write_zip(path, files, method=zipfile.ZIP_DEFLATED):
    with zipfile.ZipFile(path, "w", method) as z:
        for name, data in files.items():
            z.writestr(name, data)


def main(out):
    os.makedirs(out, exist_ok=True)
    write_folder(os.path.join(out, "good"), GOOD_FILES)
    write_zip(os.path.join(out, "good.zip"), GOOD_FILES)
    for case, name in [("slip_dotdot", "../evil.xml"), ("slip_absolute", "/tmp/smalti-evil.xml"),
                       ("slip_backslash", "models\\evil.xml"), ("slip_drive", "C:/evil.xml")]:
        write_zip(os.path.join(out, case + ".zip"), dict(GOOD_FILES, **{name: GOOD_MODEL}))
    with zipfile.ZipFile(os.path.join(out, "symlink.zip"), "w") as z:
        for name, data in GOOD_FILES.items():
            z.writestr(name, data)
        link = zipfile.ZipInfo("models/link.xml")
        link.create_system = 3  # Unix
        link.external_attr = (0o120777 << 16)
        z.writestr(link, "/etc/passwd")
    with zipfile.ZipFile(os.path.join(out, "duplicate.zip"), "w") as z:
        for name, data in GOOD_FILES.items():
            z.writestr(name, data)
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            z.writestr("pack.xml", PACK.replace("good", "evil"))
    write_zip(os.path.join(out, "file_and_folder.zip"), dict(GOOD_FILES, **{"resources/a": "a file", "resources/a/b": "below it"}))
    with zipfile.ZipFile(os.path.join(out, "bomb.zip"), "w") as z:
        for name, data in GOOD_FILES.items():
            z.writestr(name, data)
        z.writestr("resources/zeros.bin", bytes(64 << 20), compress_type=zipfile.ZIP_BZIP2)
    write_zip(os.path.join(out, "big.zip"), dict(GOOD_FILES, **{"resources/big.bin": os.urandom(3 << 19)}),
              zipfile.ZIP_STORED)
    escape = os.path.join(out, "escape")
    write_folder(escape, GOOD_FILES)
    write_folder(out, {"outside/Dot.png": DOT})
    os.remove(os.path.join(escape, "resources/rules/Dot.png"))
    os.symlink(os.path.abspath(os.path.join(out, "outside/Dot.png")), os.path.join(escape, "resources/rules/Dot.png"))
    escape_root = os.path.join(out, "escape_root")
    write_folder(escape_root, {k: v for k, v in GOOD_FILES.items() if not k.startswith("resources/")})
    write_folder(out, {"outside/rules/Dot.png": DOT})
    os.symlink(os.path.abspath(os.path.join(out, "outside")), os.path.join(escape_root, "resources"))
    write_zip(os.path.join(out, "escape_zip.zip"),
              dict(GOOD_FILES, **{"models/image.xml": IMAGE_MODEL.replace('file="Dot"', 'file="../../outside/Dot"')}))
    write_zip(os.path.join(out, "huge_grid.zip"),
              dict(GOOD_FILES, **{"pack.xml": PACK.replace('size="6"', 'size="100000" d="3"')}))
    write_zip(os.path.join(out, "bad_manifest.zip"),
              dict(GOOD_FILES, **{"pack.xml": '<pack name="bad" version="1.0.0"\n      description="x">\n  <model file="a.xml"\n</pack>\n'}))
    write_zip(os.path.join(out, "bad_model.zip"),
              dict(GOOD_FILES, **{"models/image.xml": '<sequence values="BW">\n  <one in="B" out="W"/>\n\n  <one in="W" out="B"\n</sequence>\n'}))
    write_zip(os.path.join(out, "newer.zip"), dict(GOOD_FILES, **{"pack.xml": PACK.replace('smalti="0.1.0"', 'smalti="99.0.0"')}))


if __name__ == "__main__":
    main(sys.argv[1])
