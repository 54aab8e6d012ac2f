#!/usr/bin/python3
"""Generate the fitd measurement corpus (deterministic).

    /usr/bin/python3 Tests/oracle/corpus.py > Tests/oracle/corpus.jsonl

Every request gets a stable id "<group>-<n>".  No randomness except a
random.Random with a fixed seed used to pick combinations, so the output is
byte-identical on every run.  See README.md.
"""

import json
import random
import sys

SEED = 20240501

# ---------------------------------------------------------------- strings --
STRINGS = {
    "en": [
        "OK", "Cancel", "Apply", "Save", "Save As…", "Open File", "Close", "Quit",
        "Preferences", "Settings", "Undo Typing", "Redo", "Cut", "Copy", "Paste",
        "Select All", "Find and Replace…", "Print Preview", "Help", "About fitd",
        "Do you want to save changes to “Quarterly report.odt” before closing?",
        "Your changes will be lost if you don’t save them.",
        "Could not connect to server: connection refused (error 111)",
        "The file “IMG_20240105_183212.jpg” already exists. Replace it?",
        "3 new messages from Alice, Bob and 12 others",
        "Battery low — 7% remaining", "Wi-Fi: Home network (5 GHz)",
        "Download complete: ubuntu-24.04-desktop-amd64.iso (5.7 GB)",
        "Tuesday, 5 March 2024, 14:32", "2024-03-05T14:32:07Z", "1,234,567.89",
        "$ 19.99 / month", "100%", "0.5 ms", "1/1000 s", "f/2.8", "ISO 3200",
        "Remaining: 00:03:27", "Volume", "Brightness", "Do Not Disturb",
        "Show hidden files", "Sort by name, then by date modified",
        "supercalifragilisticexpialidocious", "https://example.org/a/very/long/path/to/some/resource?query=1&x=2",
        "/home/user/Documents/Projects/fitd/Sources/FitText/LineBreaker.swift",
        "office fluffy affine waffle", "  leading and trailing spaces  ", "tab\tseparated",
        "A", "i", "W", "Wi", "AVAWAY", "Ligatures: fi fl ffi ffl", "0123456789",
        "Error: permission denied", "Update available: version 2.14.1 → 2.15.0",
    ],
    "de": [
        "Änderungen speichern?", "Datei öffnen", "Einstellungen", "Rückgängig machen",
        "Donaudampfschifffahrtsgesellschaftskapitän", "Größe ändern",
        "Die Verbindung zum Server wurde unterbrochen. Erneut versuchen?",
        "Straße", "Übernehmen", "Schließen", "Bildschirmhelligkeit automatisch anpassen",
    ],
    "fr": [
        "Enregistrer sous…", "Fichier introuvable", "Préférences", "Paramètres système",
        "Voulez-vous vraiment supprimer « Photos de vacances » ?", "Éditer", "Œuvre complète",
        "L’opération a échoué : délai d’attente dépassé",
    ],
    "vi": [
        "Tiếng Việt", "Lưu thay đổi", "Người dùng", "Cài đặt hệ thống", "Đóng cửa sổ",
        "Bạn có muốn lưu các thay đổi không?", "Ngữ cảnh", "Chương trình đã bị lỗi",
        "Cập nhật phần mềm", "Tệp không tồn tại",
    ],
    "el": [
        "Αποθήκευση", "Άνοιγμα αρχείου", "Ρυθμίσεις", "Ακύρωση", "Η σύνδεση απέτυχε",
        "Θέλετε να αποθηκεύσετε τις αλλαγές;", "Ελληνικά",
    ],
    "ru": [
        "Сохранить", "Открыть файл", "Настройки", "Отмена", "Не удалось подключиться к серверу",
        "Сохранить изменения перед закрытием?", "Русский", "Выход", "Достопримечательности",
        "Вторник, 5 марта 2024 г.",
    ],
    "ar": [
        "حفظ", "فتح ملف", "الإعدادات", "إلغاء", "هل تريد حفظ التغييرات؟",
        "تعذر الاتصال بالخادم", "العربية", "رسالة جديدة من محمد", "١٢٣٤٥٦٧٨٩٠",
    ],
    "he": [
        "שמירה", "פתיחת קובץ", "הגדרות", "ביטול", "האם לשמור את השינויים?",
        "עברית", "החיבור לשרת נכשל", "שָׁלוֹם",
    ],
    "hi": [
        "सहेजें", "फ़ाइल खोलें", "सेटिंग्स", "रद्द करें", "क्या आप परिवर्तन सहेजना चाहते हैं?",
        "हिन्दी", "सर्वर से कनेक्ट नहीं हो सका", "क्षत्रिय",
    ],
    "th": [
        "บันทึก", "เปิดไฟล์", "การตั้งค่า", "ยกเลิก", "คุณต้องการบันทึกการเปลี่ยนแปลงหรือไม่",
        "ภาษาไทย", "ไม่สามารถเชื่อมต่อกับเซิร์ฟเวอร์ได้",
    ],
    "zh": [
        "保存", "打开文件", "设置", "取消", "是否保存对文档的更改？", "简体中文",
        "无法连接到服务器，请稍后再试。", "繁體中文", "關閉視窗", "2024年3月5日 星期二",
    ],
    "ja": [
        "保存", "ファイルを開く", "設定", "キャンセル", "変更を保存しますか？", "日本語",
        "サーバーに接続できませんでした。", "ダウンロード完了", "こんにちは、世界！",
        "令和6年3月5日（火）",
    ],
    "ko": [
        "저장", "파일 열기", "설정", "취소", "변경 사항을 저장하시겠습니까?", "한국어",
        "서버에 연결할 수 없습니다", "안녕하세요",
    ],
    "emoji": [
        "😀", "👍", "👍🏽", "👩‍💻", "👨‍👩‍👧‍👦", "🏳️‍🌈", "🇩🇪", "🇯🇵🇺🇸", "1️⃣", "#️⃣", "❤️", "❤",
        "☺️", "✔️ Done", "🎉 Congratulations!", "Meeting at 3pm 📅", "🔋 12%", "🙂🙃😉",
        "Thumbs up 👍🏿👍🏻", "🧑🏾‍🚀 launch", "©️ 2024", "⚠️ Warning", "🇫🇷 Français",
        "Ready ✅", "🐧 Linux", "👩🏽‍🔬👨🏼‍🍳", "Zürich ☕", "Rain ☔ later",
    ],
    "mixed": [
        "Message from محمد علي", "Call דוד at 10:00", "Open 東京タワー.pdf",
        "ファイル report-final.docx を保存しました", "Привет, John!", "Version 2.0 リリース",
        "Σ = 42 (total)", "Download 下载 Descargar", "Meeting with 김민수 📅",
        "Price: ₹1,299 (मूल्य)", "ไฟล์ photo.jpg ถูกลบแล้ว", "Đà Nẵng → Hà Nội",
        "English العربية English", "abc אבג 123", "「Hello」と言った",
        "Name: José Müller-Łukasiewicz", "日本語とEnglishのmixed文字列です",
    ],
}

# ------------------------------------------------------------------ fonts --
FONTS = [
    "DejaVu Sans 9", "DejaVu Sans 10", "DejaVu Sans 11", "DejaVu Sans 12", "DejaVu Sans 16",
    "Noto Sans 11", "Noto Serif 12", "DejaVu Sans Mono 10", "sans-serif 10",
    "Noto Sans Bold 14", "DejaVu Sans 13px", "monospace 9px",
]

MAX_WIDTHS = [40.0, 80.0, 120.0, 200.0]


def all_strings():
    for lang, items in STRINGS.items():
        for s in items:
            yield lang, s


def generate():
    rng = random.Random(SEED)
    reqs = []

    def add(group, req):
        req = dict(req)
        req["id"] = "%s-%04d" % (group, sum(1 for r in reqs if r["id"].startswith(group + "-")))
        reqs.append(req)

    strings = list(all_strings())

    # 1. every string, unwrapped, in 3 fonts (one fixed + two picked by seed)
    for lang, s in strings:
        fonts = ["DejaVu Sans 10"] + rng.sample([f for f in FONTS if f != "DejaVu Sans 10"], 2)
        for f in fonts:
            add("plain", {"text": s, "font": f})

    # 2. empty / whitespace-only / newline cases in every font
    for f in FONTS:
        for s in ["", " ", "a\nb", "Line one\nLine two\n", "\n"]:
            add("edge", {"text": s, "font": f})

    # 3. wrapping: longer strings (>= 8 chars) at several widths and modes
    longish = [(l, s) for l, s in strings if len(s) >= 8]
    for lang, s in longish:
        for wrap in ("word", "char", "word-char"):
            mw = rng.choice(MAX_WIDTHS)
            f = rng.choice(FONTS)
            add("wrap", {"text": s, "font": f, "max_width": mw, "wrap": wrap})

    # 4. ellipsis: single line (no max_lines) and multi line
    for lang, s in longish:
        mode = rng.choice(["end", "middle", "start"])
        f = rng.choice(FONTS)
        add("ell1", {"text": s, "font": f, "max_width": rng.choice([60.0, 100.0, 150.0]),
                     "ellipsize": mode})
        add("elln", {"text": s, "font": f, "max_width": rng.choice([60.0, 90.0, 120.0]),
                     "wrap": rng.choice(["word", "word-char"]), "ellipsize": mode,
                     "max_lines": rng.choice([1, 2, 3])})

    # 5. max_lines without ellipsis (clip semantics, see pango_measure.py)
    for lang, s in longish[::3]:
        add("clip", {"text": s, "font": rng.choice(FONTS), "max_width": rng.choice([60.0, 100.0]),
                     "max_lines": rng.choice([1, 2])})

    # 6. letter spacing (latin/cyrillic/greek/cjk/emoji/arabic)
    for lang, s in strings[::4]:
        add("ls", {"text": s, "font": rng.choice(FONTS),
                   "letter_spacing": rng.choice([0.5, 1.0, 2.0, -0.5])})
    for lang, s in longish[::6]:
        add("lswrap", {"text": s, "font": rng.choice(FONTS), "letter_spacing": 1.0,
                       "max_width": 100.0, "wrap": "word-char"})

    # 7. OpenType features
    feat_texts = ["0123456789", "1,111,111.11", "office fluffy affine waffle",
                  "Ligatures: fi fl ffi ffl", "Small Caps Title", "Remaining: 00:03:27",
                  "$ 19.99 / month", "Tuesday, 5 March 2024, 14:32"]
    for s in feat_texts:
        for f in ["DejaVu Sans 10", "Noto Sans 11", "Noto Serif 12", "DejaVu Sans Mono 10"]:
            for feats in ["tnum", "-liga", "smcp", "tnum,-liga", "onum"]:
                add("feat", {"text": s, "font": f, "features": feats})

    # 8. size ladder for one sentence per script group (vertical metrics)
    for lang in STRINGS:
        s = STRINGS[lang][0]
        for f in ["DejaVu Sans 9", "DejaVu Sans 12", "DejaVu Sans 16", "sans-serif 10",
                  "Noto Sans 11", "Noto Serif 12"]:
            add("size", {"text": s, "font": f})

    # 9. a few deliberately bad requests (must yield {"error": ...})
    for bad in [{"text": "x"}, {"text": "x", "font": ""}, {"text": 5, "font": "DejaVu Sans 10"},
                {"text": "x", "font": "DejaVu Sans 10", "wrap": "bogus"},
                {"text": "x", "font": "DejaVu Sans 10", "max_lines": 0}]:
        add("bad", bad)
    return reqs


def main():
    reqs = generate()
    out = sys.stdout
    for r in reqs:
        out.write(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n")
    print("%d requests" % len(reqs), file=sys.stderr)


if __name__ == "__main__":
    main()
