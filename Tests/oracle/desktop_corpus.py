#!/usr/bin/python3
"""Generate the desktop corpus (deterministic): what a GNOME/KDE desktop shows, in its fonts.

    /usr/bin/python3 Tests/oracle/desktop_corpus.py > Tests/oracle/desktop_corpus.jsonl

Unlike corpus.jsonl (pinned test fonts), this corpus is measured with the
system's fontconfig and the desktop font set scripts/bootstrap installs
(desktop_font_packages), in every locale of desktop_compare.py's locale set: a case has
no "language" field, desktop_compare.py adds one per locale (so the same corpus × each
locale).  Ids are "<group>-<n>"; the groups:

    ui       UI words and phrases in every script the fonts cover, unwrapped
    icon     Font Awesome private-use icons, alone and as "icon + label"
    sym      symbols: weather, comparison, check marks, warnings, arrows, math, keys
    space    special spaces (U+00A0 U+202F U+2009 U+3000 U+2007 …) between words/digits
    num      numbers, dates and times as ICU formats them (icu_formats.json)
    emoji    emoji alone and in labels
    markup   Pango markup ("markup": true), as gtk_label_set_markup; a few malformed
    var      font variations (@wght=…) and named styles/instances of the desktop families
    wrap     wrapped at 40–240 px, word / char / word-char
    ell      ellipsized start / middle / end, 1–3 lines
    min      the minimal case of each class (MINIMAL below)

Only a random.Random with a fixed seed picks combinations: the output is byte-identical
on every run.
"""

import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from corpus import STRINGS as BASE_STRINGS  # noqa: E402  (the pinned corpus' UI strings)

SEED = 20261124
HERE = os.path.dirname(os.path.abspath(__file__))

# ---------------------------------------------------------------- strings --
MORE_STRINGS = {
    "bn": [
        "সংরক্ষণ করুন", "ফাইল খুলুন", "সেটিংস", "বাতিল", "আপনি কি পরিবর্তনগুলি সংরক্ষণ করতে চান?",
        "বাংলা", "সার্ভারের সাথে সংযোগ করা যায়নি", "নতুন বার্তা", "ডাউনলোড সম্পূর্ণ হয়েছে",
        "ক্ষমা করবেন", "স্ক্রিনের উজ্জ্বলতা",
    ],
    "ta": [
        "சேமி", "கோப்பைத் திற", "அமைப்புகள்", "ரத்துசெய்", "மாற்றங்களைச் சேமிக்க வேண்டுமா?",
        "தமிழ்", "சேவையகத்துடன் இணைக்க முடியவில்லை", "புதிய செய்தி", "பதிவிறக்கம் முடிந்தது",
        "ஸ்ரீ க்ஷ", "திரை வெளிச்சம்",
    ],
    "ka": [
        "შენახვა", "ფაილის გახსნა", "პარამეტრები", "გაუქმება", "გსურთ ცვლილებების შენახვა?",
        "ქართული", "სერვერთან დაკავშირება ვერ მოხერხდა", "ახალი შეტყობინება", "ჩამოტვირთვა დასრულდა",
        "ეკრანის სიკაშკაშე",
    ],
    "fa": [
        "ذخیره", "باز کردن پرونده", "تنظیمات", "لغو", "آیا می‌خواهید تغییرات را ذخیره کنید؟",
        "فارسی", "نسخهٔ ۲٫۱۵ در دسترس است",
    ],
    "uk": ["Зберегти", "Відкрити файл", "Налаштування", "Українська", "Ґанок і їжак"],
    "zh-hant": [
        "儲存", "開啟檔案", "設定", "取消", "是否要儲存對文件的變更？", "無法連線到伺服器",
        "下載完成", "螢幕亮度",
    ],
    "ja2": [
        "ごみ箱を空にする", "ネットワークに接続されていません", "アップデートがあります",
        "画面の明るさ", "バッテリー残量：１２％", "ｶﾀｶﾅ ﾃｽﾄ",
    ],
    "ko2": ["휴지통 비우기", "네트워크에 연결되지 않음", "업데이트를 사용할 수 있습니다", "화면 밝기", "漢字와 한글"],
    "indic": [
        "ಕನ್ನಡ ಸೆಟ್ಟಿಂಗ್‌ಗಳು", "తెలుగు సెట్టింగ్‌లు", "മലയാളം ക്രമീകരണങ്ങൾ", "ગુજરાતી સેટિંગ્સ",
        "ਪੰਜਾਬੀ ਸੈਟਿੰਗਾਂ", "ଓଡ଼ିଆ", "सेटिंग्स (मराठी)", "नेपाली भाषा",
    ],
    "other": [
        "Հայերեն", "አማርኛ", "ລາວ", "ខ្មែរ", "မြန်မာ", "සිංහල", "ᏣᎳᎩ", "ܣܘܪܝܝܐ", "ދިވެހި", "བོད་ཡིག",
        "ꆈꌠꉙ", "Ελληνικά και English",
    ],
    "latin2": [
        "Benachrichtigungen", "Bildschirmsperre", "Tastenkürzel", "Hintergrund", "Barrierefreiheit",
        "Économie d’énergie", "Arrière-plan", "Thông báo", "Màn hình khóa", "Đồng hồ & lịch",
        "Ça marche", "ŁÓDŹ", "Ærøskøbing", "İstanbul’da ığdır", "Ẩm thực Việt Nam",
    ],
}


def all_strings():
    for table in (BASE_STRINGS, MORE_STRINGS):
        for lang, items in table.items():
            for s in items:
                yield lang, s


# ------------------------------------------------------------------ fonts --
# The desktop set (scripts/bootstrap desktop_font_packages) and the generic names a
# desktop's settings use.  "Noto Sans UI" is not a family on Debian 12 (fontconfig
# substitutes), as on many real desktops whose settings still name it.
FONTS = [
    "Cantarell 11", "Cantarell 10", "Cantarell 13", "Cantarell 15px",
    "Liberation Sans 10", "Liberation Serif 12", "Liberation Mono 10",
    "Noto Sans 10", "Noto Sans 11", "Noto Serif 12", "Noto Sans Mono 10", "Noto Mono 10",
    "Noto Sans UI 10",
    "Noto Sans CJK JP 10", "Noto Sans CJK SC 11", "Noto Sans CJK KR 10",
    "Hack 10", "Roboto 10", "Roboto 14",
    "DejaVu Sans 10", "DejaVu Serif 11", "DejaVu Sans Mono 10",
    "FreeSans 11", "Nimbus Sans 10",
    "sans-serif 10", "Sans 10", "serif 11", "monospace 10", "Monospace 12", "system-ui 11",
]
MONO = ["Liberation Mono 10", "Noto Sans Mono 10", "Noto Mono 10", "Hack 10", "DejaVu Sans Mono 10",
        "monospace 10", "Monospace 12"]

# Font Awesome 4.7 (fonts-font-awesome): private-use code points U+F000…U+F2E0.
FA_ICONS = [0xF007, 0xF0C7, 0xF013, 0xF00C, 0xF00D, 0xF002, 0xF015, 0xF0E0, 0xF1EB, 0xF240,
            0xF242, 0xF244, 0xF028, 0xF026, 0xF011, 0xF023, 0xF09C, 0xF0F3, 0xF1F6, 0xF07B,
            0xF07C, 0xF15B, 0xF1C1, 0xF0C5, 0xF0EA, 0xF044, 0xF1F8, 0xF021, 0xF067, 0xF068,
            0xF053, 0xF054, 0xF077, 0xF078, 0xF0C9, 0xF141, 0xF142, 0xF05A, 0xF071, 0xF06A,
            0xF058, 0xF057, 0xF017, 0xF073, 0xF0AC, 0xF1D8, 0xF075, 0xF086, 0xF2BD, 0xF2C0]
ICON_LABELS = ["Save", "Settings", "Done", "Search", "Home", "Mail", "Wi-Fi", "Battery 80%",
               "Volume", "Power", "Lock", "Notifications", "Files", "Delete", "Refresh", "Add",
               "Speichern", "Настройки", "设置", "保存", "설정", "הגדרות", "الإعدادات", "सेटिंग्स",
               "সেটিংস", "அமைப்புகள்", "การตั้งค่า", "პარამეტრები"]

SYMBOLS = ["☀", "☁", "☂", "☃", "★", "☆", "♥", "♪", "☎", "⌘", "⌥", "⇧", "⏎", "⌫", "⎋",
           "≤", "≥", "≠", "≈", "±", "×", "÷", "∞", "√", "∑", "∫", "∂", "∆", "∈", "∀", "µ",
           "✓", "✔", "✗", "✘", "⚠", "⚡", "⚙", "⛔", "ℹ", "©", "®", "™", "§", "¶", "†", "•",
           "←", "→", "↑", "↓", "↔", "⇒", "⇐", "⇄", "↻", "⟳", "▲", "▼", "◀", "▶", "■", "□", "●", "○",
           "♠", "♣", "♦", "€", "£", "¥", "₹", "₽", "₩", "₪", "°", "℃", "‰", "½", "¼", "…", "—"]
SYMBOL_PHRASES = ["☀ ≤", "☀ 23°C", "✓ Done", "✔ Saved", "⚠ Warning", "⚠ Disk almost full", "→ Next",
                  "← Back", "↑↓ Sort", "x ≤ 10", "a ≠ b", "∑ = 1 234", "√2 ≈ 1.414", "±0.5 mm",
                  "★★★★☆ (4.0)", "⌘C ⌘V", "⇧⌘Z Redo", "▶ Play", "■ Stop", "● Recording",
                  "Temperatur: 21 ℃", "€ 19,99", "₹ 1,299", "₽ 990", "₩ 12,000", "₪ 45",
                  "… more", "A — B", "§ 3 ¶ 2", "½ cup", "10 ‰", "✗ Failed", "⛔ Blocked",
                  "ℹ Info", "⚙ Settings", "⚡ Charging", "☎ +49 30 1234567", "♪ Now playing"]

SPACES = {"nbsp": "\u00a0", "nnbsp": "\u202f", "thin": "\u2009", "ideo": "\u3000",
          "figure": "\u2007", "en": "\u2002", "em": "\u2003", "hair": "\u200a", "zwsp": "\u200b"}
SPACE_TEMPLATES = ["12:45{}PM", "10{}%", "1{}000{}000", "5{}GB", "Nr.{}5", "M.{}Dupont", "«{}Bonjour{}»",
                   "東京{}大阪", "保存{}取消", "설정{}취소", "a{}b", "{}", "OK{}", "{}OK", "100{}km/h",
                   "Page{}3{}of{}12", "€{}5", "২৪{}নভেম্বর", "١٢{}٣٤"]

EMOJI = ["😀", "👍", "👍🏽", "👩‍💻", "🏳️‍🌈", "🇩🇪", "🇺🇦", "1️⃣", "❤️", "☺️", "✔️", "🔋", "🎉",
         "👋", "🔋 שינויים 🎉 👋", "📁 Documents", "📷 Photos 12", "🔇 Muted", "🔊 100%", "🌙 Night Light",
         "🕒 14:45", "📶 Wi‑Fi", "🙂 Hello", "✈️ Airplane mode", "🔒 Locked", "⭐ Favorites",
         "🗑️ Trash", "💾 Save", "🖨️ Print", "🔍 Search", "设置 ⚙️", "設定 🔧", "설정 🛠️"]

MARKUP = [
    "<b>Save</b>", "<i>Cancel</i>", "<b>Bold</b> and <i>italic</i>", "<small>Last updated 2 min ago</small>",
    "<big>Welcome</big>", "<tt>fitctl measure</tt>", "<s>Old price</s> New price", "<u>Underlined</u>",
    "H<sub>2</sub>O and x<sup>2</sup>", "<span weight='bold' size='larger'>Title</span>",
    "<span font_features='tnum'>1,111.11</span>", "<span font_features='-liga'>office</span>",
    "<span font_features='smcp'>Small caps</span>", "<span font='Noto Serif 14'>Serif</span> sans",
    "<span size='small'>small</span> <span size='x-large'>x-large</span>",
    "<span letter_spacing='2048'>SPACED</span>", "<span font_family='monospace'>mono</span> text",
    "Tom &amp; Jerry", "&lt;tag&gt; &quot;quoted&quot;", "Wait&#x2026;", "&#169; 2026", "a&#160;b",
    "<b>Speichern</b> unter…", "<b>Сохранить</b> изменения", "<i>設定</i>を開く", "<b>설정</b> 열기",
    "<b>حفظ</b> الملف", "<b>שמירה</b> קובץ", "<b>सहेजें</b> फ़ाइल", "<b>সংরক্ষণ</b> করুন",
    "<span lang='ja'>直</span> <span lang='zh-cn'>直</span>", "<span rise='5000'>raised</span>",
    "<span style='italic' weight='light'>Light italic</span>", "<span stretch='condensed'>Condensed</span>",
    "<span variant='smallcaps'>Smallcaps</span>", "<span font_scale='subscript'>sub</span>",
    "<span baseline_shift='superscript'>sup</span>", "<b><i>Both</i></b>", "Plain text, no tags",
    "<span foreground='red'>red</span> text", "<span weight='600'>Semibold</span>",
    "<span font_desc='Cantarell Bold 12'>Cantarell</span>", "<markup><b>nested</b></markup>",
]
MARKUP_BAD = ["<b>Save</i>", "<b>Save", "Tom & Jerry", "<blink>x</blink>", "<span foo='1'>x</span>",
              "&bogus;", "<span size='huge'>x</span>", "a < b"]

VARIATION_FONTS = [
    "Cantarell @wght=700 11", "Cantarell 11 @wght=700", "Cantarell 11 @wght=300", "Cantarell 11 @wght=900",
    "Noto Sans 10 @wght=600", "Noto Sans 10 @wdth=75", "Roboto 10 @wght=500", "Roboto 14 @wght=300,wdth=100",
    "DejaVu Sans 10 @wght=700", "sans-serif 10 @wght=600", "Cantarell 11 @opsz=12",
    "Cantarell Bold 11", "Cantarell Light 11", "Cantarell Thin 11", "Cantarell Extra Bold 11",
    "Cantarell Semi-Bold 11", "Roboto Medium 10", "Roboto Light 10", "Roboto Black 10", "Roboto Thin 10",
    "Roboto Condensed 10", "Liberation Sans Narrow 10", "DejaVu Sans Condensed 10", "DejaVu Sans Light 10",
    "Noto Sans Display 12", "Nimbus Sans Bold 10", "Noto Sans Italic 10", "Noto Serif Bold Italic 12",
    "Hack Bold 10", "FreeSans Oblique 11",
]
VARIATION_TEXTS = ["Save", "Settings", "Wi-Fi Network", "Ελληνικά", "Настройки", "12:45", "设置", "সেটিংস"]

# The minimal case of each class of difference from Pango, numbered in the comments (classes 1-2:
# PANGO_RULES.md §10, 3-8: §14, 9-12: §12); the locale they need comes from the locale set.
MINIMAL = [
    {"text": "ש0", "font": "Monospace 12"},                                          # 1 (c)
    {"text": "Settings 12:45", "font": "Sans 10"},                                   # 2 (bn)
    {"text": "☀ ≤", "font": "Noto Sans Mono 10"},                                    # 3
    {"text": "\uf007 Save", "font": "Monospace 10"},                                 # 3
    {"text": "12:45\u202fPM", "font": "Cantarell 11"},                               # 4
    {"text": "通ಳು", "font": "Noto Sans 10"},                                         # 5
    {"text": "aש \uf007", "font": "Monospace 10"},                                   # 6
    {"text": "স“d”", "font": "Sans 10"},                                             # 7
    {"text": "🔋 שינויים 🎉 👋", "font": "Noto Sans 11", "max_width": 90.0, "ellipsize": "end"},  # 8
    {"text": "الإشعارات", "font": "DejaVu Sans 10", "max_width": 30.0, "wrap": "char"},  # 9
    {"text": "ภาษาไทยไม่มีช่องว่างระหว่างคำ", "font": "sans-serif 10", "max_width": 80.0},  # 10
    {"text": "abcdefg  hi", "font": "Hack 10", "max_width": 60.0, "wrap": "word-char"},  # 11
    {"text": "सेटिंग्स", "font": "Noto Sans 10", "max_width": 5.0, "wrap": "char"},  # 12
    # 10 again: on the desktop fonts the case above breaks differently but into as many lines
    # of the same widest width, which the comparison cannot see; here the count differs (3 → 2).
    {"text": "ภาษาไทยไม่มีช่องว่างระหว่างคำ", "font": "Cantarell 11", "max_width": 100.0},  # 10
]

WIDTHS = [40.0, 60.0, 80.0, 120.0, 160.0, 240.0]


def load_icu():
    with open(os.path.join(HERE, "icu_formats.json"), encoding="utf-8") as f:
        return json.load(f)["locales"]


def generate():
    rng = random.Random(SEED)
    reqs = []
    counts = {}

    def add(group, req):
        req = dict(req)
        n = counts.get(group, 0)
        counts[group] = n + 1
        req["id"] = "%s-%04d" % (group, n)
        reqs.append(req)

    strings = list(all_strings())
    longish = [(l, s) for l, s in strings if len(s) >= 6 and l != "emoji"]

    # 1. every UI string unwrapped in 4 desktop fonts (Cantarell, GNOME's UI font, always)
    for lang, s in strings:
        for f in ["Cantarell 11"] + rng.sample([f for f in FONTS if f != "Cantarell 11"], 3):
            add("ui", {"text": s, "font": f})

    # 2. icons: alone (fallback finds FontAwesome) and icon + label, also with FontAwesome named
    for cp in FA_ICONS:
        add("icon", {"text": chr(cp), "font": rng.choice(FONTS)})
        for _ in range(2):
            label = rng.choice(ICON_LABELS)
            add("icon", {"text": "%s %s" % (chr(cp), label), "font": rng.choice(FONTS)})
        add("icon", {"text": "%s %s" % (chr(cp), rng.choice(ICON_LABELS)), "font": rng.choice(MONO)})
    for label in ICON_LABELS[:8]:
        add("icon", {"text": "\uf013 %s \uf00c" % label, "font": "FontAwesome 12"})
        add("icon", {"text": "%s \uf054" % label, "font": rng.choice(FONTS)})

    # 3. symbols, alone and in phrases, proportional and monospace
    for sym in SYMBOLS:
        add("sym", {"text": sym, "font": rng.choice(FONTS)})
        add("sym", {"text": "%s %s" % (sym, rng.choice(SYMBOLS)), "font": rng.choice(MONO)})
    for p in SYMBOL_PHRASES:
        for f in rng.sample(FONTS, 3):
            add("sym", {"text": p, "font": f})

    # 4. special spaces in every template, in 2 fonts each
    for name, sp in sorted(SPACES.items()):
        for t in SPACE_TEMPLATES:
            text = t.replace("{}", sp)
            for f in rng.sample(FONTS, 2):
                add("space", {"text": text, "font": f})

    # 5. ICU's numbers, dates and times, every string of every locale in a font
    for loc, items in sorted(load_icu().items()):
        for s in items:
            add("num", {"text": s, "font": rng.choice(FONTS)})

    # 6. emoji alone and in labels
    for e in EMOJI:
        for f in rng.sample(FONTS, 3):
            add("emoji", {"text": e, "font": f})

    # 7. markup (valid in 4 fonts, malformed in 1)
    for m in MARKUP:
        for f in rng.sample(FONTS, 4):
            add("markup", {"text": m, "font": f, "markup": True})
    for m in MARKUP_BAD:
        add("markup", {"text": m, "font": rng.choice(FONTS), "markup": True})
    for m in MARKUP[:12]:
        add("markup", {"text": m, "font": rng.choice(FONTS), "markup": True,
                       "max_width": rng.choice([40.0, 80.0]), "wrap": "word-char"})

    # 8. variations and named styles
    for f in VARIATION_FONTS:
        for s in rng.sample(VARIATION_TEXTS, 4):
            add("var", {"text": s, "font": f})

    # 9. wrapping
    for lang, s in longish:
        for wrap in ("word", "char", "word-char"):
            add("wrap", {"text": s, "font": rng.choice(FONTS), "max_width": rng.choice(WIDTHS), "wrap": wrap})

    # 10. ellipsis: one line (no max_lines) and 1–3 lines
    for lang, s in longish:
        mode = rng.choice(["end", "middle", "start"])
        add("ell", {"text": s, "font": rng.choice(FONTS), "max_width": rng.choice([50.0, 80.0, 120.0]),
                    "ellipsize": mode})
        add("ell", {"text": s, "font": rng.choice(FONTS), "max_width": rng.choice([60.0, 90.0, 140.0]),
                    "wrap": rng.choice(["word", "char", "word-char"]), "ellipsize": mode,
                    "max_lines": rng.choice([1, 2, 3])})

    # 11. the minimal cases
    for m in MINIMAL:
        add("min", m)
    return reqs


def main():
    reqs = generate()
    for r in reqs:
        sys.stdout.write(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n")
    groups = {}
    for r in reqs:
        g = r["id"].rsplit("-", 1)[0]
        groups[g] = groups.get(g, 0) + 1
    print("%d requests: %s" % (len(reqs), ", ".join("%s %d" % kv for kv in groups.items())), file=sys.stderr)


if __name__ == "__main__":
    main()
