#!/usr/bin/env python3
"""same_picture.py KEPT.png FRESH.png: exit 0 when the two pictures have the
same size and every pixel the same colour; otherwise print one line saying
how they differ (size, or how many pixels and the box they lie in) and exit 1.
A missing or unreadable file is named, exit 2.  Uses Pillow (python3-pil)."""
import sys

from PIL import Image, ImageChops


def load(path):
    try:
        with Image.open(path) as im:
            return im.convert("RGB")
    except (OSError, ValueError) as e:
        print("%s: cannot read the picture: %s" % (path, e))
        sys.exit(2)


def main():
    if len(sys.argv) != 3:
        print("usage: same_picture.py KEPT.png FRESH.png")
        return 2
    kept, fresh = load(sys.argv[1]), load(sys.argv[2])
    if kept.size != fresh.size:
        print("%s is %dx%d, the fresh picture %dx%d" % (sys.argv[1], *kept.size, *fresh.size))
        return 1
    diff = ImageChops.difference(kept, fresh)
    box = diff.getbbox()
    if box is None:
        return 0
    n = sum(1 for p in diff.getdata() if p != (0, 0, 0))
    print("%s: %d of %d pixels differ from the fresh picture, within x %d-%d, y %d-%d"
          % (sys.argv[1], n, kept.size[0] * kept.size[1], box[0], box[2] - 1, box[1], box[3] - 1))
    return 1


if __name__ == "__main__":
    sys.exit(main())
