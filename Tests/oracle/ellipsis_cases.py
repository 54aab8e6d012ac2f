#!/usr/bin/python3
"""Generates ellipsis-cases.jsonl: what an ellipsis replaces and the shaping rules found with it
(PANGO_RULES.md §1, §7, §12 class 12), on the system's fonts (scripts/test runs it with
compare.py --fontconfig /etc/fonts/fonts.conf).  Every ellipsizing case asks for
"line_texts": the text each line shows must be Pango's, not only its width.

    /usr/bin/python3 Tests/oracle/ellipsis_cases.py > Tests/oracle/ellipsis-cases.jsonl
"""

import json
import sys

# (language, font, text): translated UI strings whose clusters differ by level (marks of
# their own in Indic scripts and Thai, ligatures in Latin), CJK for U+22EF and the middle.
STRINGS = [
    ("hi", "Sans 10", "नमस्ते दुनिया"),
    ("hi", "Noto Sans 10", "सेटिंग्स खोलें"),
    ("bn", "Noto Sans 10", "ফাইল খুলতে ব্যর্থ"),
    ("ta", "Noto Sans 10", "கோப்பைத் திறக்க முடியவில்லை"),
    ("kn", "Noto Sans 10", "ಲಕೋಟೆ ತೆರೆಯಿರಿ"),
    ("ml", "Cantarell 11", "ഫയൽ തുറക്കാൻ കഴിഞ്ഞില്ല"),
    ("th", "Noto Sans 10", "ไม่สามารถเปิดแฟ้มได้"),
    ("zh-tw", "system-ui 11", "錯誤太多，停止執行"),
    ("ja", "Noto Sans CJK JP 10", "ファイルを開けませんでした"),
    ("ar", "Noto Sans 10", "تعذر فتح الملف المطلوب"),
    ("en-us", "DejaVu Sans 10", "The quick brown fox jumps over the lazy dog"),
    ("en-us", "Cantarell 11", "office fluffy affine"),
    ("vi", "Noto Sans 10", "Không thể mở tệp tin"),
]


def cases():
    out = []

    def add(id, text, font, lang, **kw):
        q = {"id": id, "text": text, "font": font, "language": lang}
        q.update(kw)
        out.append(q)

    # The minimal cases: glyph clusters and the end of a span one character later (ಲಕೋಟೆ:
    # only the ellipsis is left, in Noto Sans's height), a mark left of the gap, the middle in
    # Pango units.
    add("ell-kn-start-all", "ಲಕೋಟೆ", "Noto Sans 10", "kn", max_width=30, ellipsize="start", line_texts=True)
    add("ell-hi-start-mark-left", "नमस्ते दुनिया", "Sans 10", "hi", max_width=40, ellipsize="start", line_texts=True)
    add("ell-zh-tw-middle", "錯誤太多，停止執行", "system-ui 11", "zh-tw", max_width=60, ellipsize="middle",
        line_texts=True)
    for n, (lang, font, text) in enumerate(STRINGS):
        for mode in ("start", "middle", "end"):
            for width in (30, 55, 80):
                add("ell-%02d-%s-%s-%d" % (n, lang, mode, width), text, font, lang, max_width=width, ellipsize=mode,
                    line_texts=True)
    # A negative advance counts as positive (shape.c).
    add("neg-advance-kn", "ನ್ಕೋ", "Noto Serif Kannada 10", "kn", line_texts=True)
    add("neg-advance-kn-wrap", "ನ್ಕೋ ನ್ಕೋ", "Noto Serif Kannada 10", "kn", max_width=30, line_texts=True)
    # A joiner joins the next character only inside its item (break-indic.c per item).
    add("zwj-ml-latin", "ല്\u200da", "Cantarell 11", "ml", line_texts=True)
    add("zwj-ml-space-wrap", "ന്\u200d ന്", "FreeSans 12", "ml", max_width=20, line_texts=True)
    add("zwnj-ml-space-wrap", "ന്\u200c ന്", "FreeSans 12", "ml", max_width=20, line_texts=True)
    add("zwj-ml-letter", "ന്\u200dന", "FreeSans 12", "ml", line_texts=True)
    add("zwj-hi-latin", "क्\u200dx", "Noto Sans 10", "hi", line_texts=True)
    return out


def main():
    for q in cases():
        sys.stdout.write(json.dumps(q, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
