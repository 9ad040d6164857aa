"""Prints each PNG file of a directory, sorted, with whether it starts
with the PNG signature and whether it holds more than its header."""
import sys
from pathlib import Path

for f in sorted(Path(sys.argv[1]).glob("*.png")):
    data = f.read_bytes()
    print(f.name, "PNG" if data.startswith(b"\x89PNG\r\n\x1a\n") else "not PNG",
          "non-empty" if len(data) > 1000 else "empty")
