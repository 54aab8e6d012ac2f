#!/usr/bin/python3
"""Golden test of layout pictures (docs/pictures.md): for every layout document in
protocol/examples, at two widths and two size categories, the frames `fitctl fit --output
x.svg` DRAWS (each shown node's <rect class="node KIND"> with its id as <title>, in its sheet's
layout group) are the frames `fitctl fit --json` reports for the same arguments, node for node,
to the 1/100 px the SVG is written in. Not pixels of the whole picture: those change with any
font update, the frames only when the layout does. Every SVG validates against the SVG 1.1 DTD
(xmllint --nonet, Debian's w3c-sgml-lib: offline). A PNG of the same sheets is as large as the
SVG says, not blank, and its theme is the one asked. With --chromium, instead: a picture's SVG
as headless Chromium shows it has the text of fitctl's PNG of it (coverage in common ≥ 97 %,
measured 99.09 %), as compare_pango_view.py checks pictures of text.

Run by Tests/EndToEnd/layout_pictures.sh (fitctl then asks the activated daemon for the
layouts and draws them itself); by hand: check_layout_pictures.py --fitctl .build/debug/fitctl --local
"""
import argparse
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

import cairo

SVG_DTD = "/usr/share/xml/w3c-sgml-lib/schema/dtd/REC-SVG11-20110816/svg11.dtd"
SVG = "{http://www.w3.org/2000/svg}"
# A narrow width (texts broken after every few clusters, truncated, overflowing) and a common one.
WIDTHS = ["60", "320"]
# accessibility3 is fitctl's short name of accessibilityExtraLarge: both spellings are tested.
CATEGORIES = [("large", "large"), ("accessibility3", "accessibilityExtraLarge")]
# SVG numbers are written to 1/100 px (SVGWriter.number): half of that, and a float's error.
TOLERANCE = 0.005 + 1e-9


def layout_documents(directory):
    for name in sorted(os.listdir(directory)):
        if not name.endswith(".json"):
            continue
        with open(os.path.join(directory, name), encoding="utf-8") as f:
            document = json.load(f)
        if isinstance(document, dict) and ("nodes" in document or "root" in document):
            yield os.path.join(directory, name)


def fitctl(args, command):
    result = subprocess.run(args.fitctl + command, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"fitctl {' '.join(command)}: exit {result.returncode}: {result.stderr.strip()}")
    return result


def drawn_sheets(path):
    """[(desc, [(id, classes, (x, y, w, h))])] in document order."""
    sheets = []
    for sheet in ET.parse(path).getroot().iter(SVG + "g"):
        if sheet.get("class") != "sheet":
            continue
        desc = sheet.findtext(SVG + "desc")
        layout = [g for g in sheet.findall(SVG + "g") if g.get("class") == "layout"]
        if len(layout) != 1:
            raise AssertionError(f"{path}: sheet {desc!r} has {len(layout)} layout groups")
        rects = []
        for rect in layout[0].findall(SVG + "rect"):
            classes = (rect.get("class") or "").split()
            if not classes or classes[0] != "node":
                continue
            frame = tuple(float(rect.get(k)) for k in ("x", "y", "width", "height"))
            rects.append((rect.findtext(SVG + "title"), classes, frame))
        sheets.append((desc, rects))
    return sheets


def check_document(args, path):
    """The failures for one document (empty: it passed)."""
    common = ["fit", path, "--categories", ",".join(c for c, _ in CATEGORIES), "--widths", ",".join(WIDTHS)] + args.extra
    svg = os.path.join(args.out, os.path.basename(path)[:-5] + ".svg")
    # One run prints the layouts and draws them: the same results, and half the start-ups.
    drawing = fitctl(args, common + ["--json", "--output", svg])
    layouts = json.loads(drawing.stdout)["layouts"]
    failures = []
    if "note:" in drawing.stderr:
        failures.append(f"the picture's texts differ from the layout: {drawing.stderr.strip()}")
    sheets = drawn_sheets(svg)
    expected = [(category, width) for _, category in CATEGORIES for width in WIDTHS]
    if len(sheets) != len(layouts) or len(sheets) != len(expected):
        return failures + [f"{len(sheets)} sheets drawn, {len(layouts)} layouts, {len(expected)} asked"]
    for (desc, rects), layout, (category, width) in zip(sheets, layouts, expected):
        where = f"{category} at {width}"
        if desc != f"category {category}; width {width}":
            failures.append(f"{where}: the sheet says {desc!r}")
        shown = [node for node in layout["nodes"] if node["visible"]]
        if [r[0] for r in rects] != [node["id"] for node in shown]:
            failures.append(f"{where}: drawn {[r[0] for r in rects]}, shown {[n['id'] for n in shown]}")
            continue
        for (node_id, classes, frame), node in zip(rects, shown):
            f = node["frame"]
            want = tuple(float(f[k]) for k in ("x", "y", "width", "height"))
            if any(abs(a - b) > TOLERANCE for a, b in zip(frame, want)):
                failures.append(f"{where}: {node_id} drawn at {frame}, laid out at {want}")
            if ("hidden" in classes) != node["hidden"]:
                failures.append(f"{where}: {node_id} hidden {node['hidden']}, drawn with classes {classes}")
    valid = subprocess.run(["xmllint", "--noout", "--nonet", "--dtdvalid", SVG_DTD, svg], capture_output=True, text=True)
    if valid.returncode != 0:
        failures.append(f"not valid SVG 1.1: {valid.stderr.strip()[:500]}")
    return failures


def check_png(args, path):
    """A PNG of 2 categories × 3 widths: the SVG's size, ink in it, the theme's background."""
    failures = []
    common = ["fit", path, "--categories", "large,xxxLarge", "--widths", "160,240,320"] + args.extra
    sizes = {}
    for theme in ("light", "dark"):
        png = os.path.join(args.out, f"sheets-{theme}.png")
        svg = os.path.join(args.out, f"sheets-{theme}.svg")
        fitctl(args, common + ["--theme", theme, "--output", png])
        fitctl(args, common + ["--theme", theme, "--output", svg])
        root = ET.parse(svg).getroot()
        image = cairo.ImageSurface.create_from_png(png)
        size = (image.get_width(), image.get_height())
        if size != (int(root.get("width")), int(root.get("height"))):
            failures.append(f"{theme}: the PNG is {size}, the SVG {root.get('width')}×{root.get('height')}")
        sheets = len(drawn_sheets(svg))
        if sheets != 6:
            failures.append(f"{theme}: {sheets} sheets for 2 categories × 3 widths")
        data, stride = image.get_data(), image.get_stride()
        # ARGB32 in native (little-endian) order: B, G, R, A.
        def pixel(x, y):
            i = y * stride + 4 * x
            return (data[i + 2], data[i + 1], data[i])
        background = pixel(0, 0)
        if (theme == "light") != (sum(background) > 3 * 128):
            failures.append(f"{theme}: background {background}")
        # Text is black on light, near white on dark: count pixels of full ink.
        ink = 0
        for y in range(0, size[1]):
            for x in range(0, size[0]):
                r, g, b = pixel(x, y)
                if (theme == "light" and r + g + b < 60) or (theme == "dark" and r + g + b > 3 * 225):
                    ink += 1
        if ink < 200:
            failures.append(f"{theme}: only {ink} pixels of text ink: blank?")
        sizes[theme] = size
    if sizes.get("light") != sizes.get("dark"):
        failures.append(f"the themes differ in size: {sizes}")
    return failures


BROWSER_SCALE = 4  # Chromium at 4 device px per CSS px, box-filtered back (compare_pango_view.py uses 8 for thin strokes; here 8 gives 98.73 % against 99.03 % at 4)


def text_ink(surface):
    """Coverage 0…255 of the black text (the layout's glyphs and the labels) by (x, y): how dark
    a pixel is, where all three channels are dark (the frames' coloured strokes are not text)."""
    w, h, stride = surface.get_width(), surface.get_height(), surface.get_stride()
    data = bytes(surface.get_data())
    dark = {}
    for y in range(h):
        row = y * stride
        for x in range(w):
            b, g, r = data[row + 4 * x: row + 4 * x + 3]
            if max(r, g, b) < 128:
                dark[(x, y)] = 255 - max(r, g, b)
    return dark


def check_chromium(args, path):
    """A layout picture's SVG as headless Chromium shows it against fitctl's PNG of it: the text
    in common, weighted by coverage (as compare_pango_view.py compares pictures of text)."""
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if not browser:
        return ["chromium not found (scripts/bootstrap installs it)"]
    common = ["fit", path, "--categories", "large,accessibility3", "--widths", "200,320"] + args.extra
    svg, png = os.path.join(args.out, "browser.svg"), os.path.join(args.out, "browser.png")
    fitctl(args, common + ["--output", svg])
    fitctl(args, common + ["--output", png])
    ours = cairo.ImageSurface.create_from_png(png)
    w, h = ours.get_width(), ours.get_height()
    html = os.path.join(args.out, "browser.html")
    with open(html, "w") as f:
        f.write(f"<!DOCTYPE html><html><body style='margin:0'><img src='browser.svg' width='{w}' height='{h}'></body></html>")
    shot = os.path.join(args.out, "browser-shot.png")
    profile = tempfile.mkdtemp(prefix="fitd-chromium-")
    try:
        subprocess.run(
            [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             f"--force-device-scale-factor={BROWSER_SCALE}", "--allow-file-access-from-files", f"--user-data-dir={profile}",
             f"--window-size={w},{h}", f"--screenshot={shot}", "file://" + html],
            capture_output=True, timeout=60)
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    if not os.path.exists(shot):
        return ["chromium wrote no screenshot"]
    big = cairo.ImageSurface.create_from_png(shot)
    small = cairo.ImageSurface(cairo.FORMAT_RGB24, w, h)
    cr = cairo.Context(small)
    cr.scale(1 / BROWSER_SCALE, 1 / BROWSER_SCALE)
    cr.set_source_surface(big, 0, 0)
    cr.get_source().set_filter(cairo.FILTER_GOOD)
    cr.paint()
    a, b = text_ink(ours), text_ink(small)
    both = sum(min(d, b.get(p, 0)) for p, d in a.items())
    total = max(sum(a.values()), sum(b.values()))
    overlap = 100.0 * both / total if total else 0.0
    print(f"     Chromium: {overlap:.2f} % of the text's coverage in common with fitctl's PNG ({len(a)} px of text)")
    if len(a) < 500 or overlap < args.min_overlap:
        return [f"Chromium shows {overlap:.2f} % of the text fitctl draws (at least {args.min_overlap} % asked)"]
    return []


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fitctl", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--examples", default=os.path.join(os.path.dirname(__file__), "../../protocol/examples"))
    parser.add_argument("--local", action="store_true", help="lay out in fitctl's process, not the daemon")
    parser.add_argument("--chromium", action="store_true",
                        help="only: a layout picture's SVG in headless Chromium against fitctl's PNG of it")
    parser.add_argument("--min-overlap", type=float, default=97.0)
    args = parser.parse_args()
    args.fitctl = [args.fitctl]
    args.extra = ["--local"] if args.local else []
    args.out = os.path.abspath(args.out)  # Chromium opens file:// URLs
    os.makedirs(args.out, exist_ok=True)
    if args.chromium:
        failures = check_chromium(args, os.path.join(args.examples, "first-fit-card.json"))
        print(("FAIL " + "; ".join(failures)) if failures else "ok   Chromium shows the layout picture's text as fitctl draws it")
        print(f"{0 if failures else 1} passed, {1 if failures else 0} failed")
        return 1 if failures else 0
    failed = 0
    documents = list(layout_documents(args.examples))
    if len(documents) < 10:
        print(f"FAIL only {len(documents)} layout documents found in {args.examples}")
        return 1
    def checked(path):
        try:
            return check_document(args, path)
        except (RuntimeError, AssertionError, ET.ParseError, ValueError) as error:
            return [str(error)]

    # Three fitctl processes at a time: most of each is its start-up (fontconfig, the engine).
    with concurrent.futures.ThreadPoolExecutor(max_workers=3) as pool:
        results = list(pool.map(checked, documents))
    for path, failures in zip(documents, results):
        name = os.path.basename(path)
        if failures:
            failed += 1
            print(f"FAIL {name}")
            for failure in failures[:10]:
                print(f"     {failure}")
        else:
            print(f"ok   {name}: frames drawn = frames laid out, {len(WIDTHS)} widths × {len(CATEGORIES)} categories; valid SVG 1.1")
    try:
        png_failures = check_png(args, os.path.join(args.examples, "first-fit-card.json"))
    except (RuntimeError, cairo.Error, ET.ParseError) as error:
        png_failures = [str(error)]
    if png_failures:
        failed += 1
        print("FAIL PNG: " + "; ".join(png_failures))
    else:
        print("ok   PNG: the SVG's size, text ink, light and dark backgrounds")
    print(f"{len(documents) + 1 - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
