/// A deterministic corpus of mixed-script UI strings (the whole-process figure: 20,000
/// of them): button labels, menu items, status lines and notifications in Latin (English,
/// German, French), CJK (Japanese, Chinese), Arabic, Hebrew, Devanagari and emoji, alone and
/// mixed in one string, with counts and file names so that almost every string is new (the
/// engine's result cache does not answer them). Fonts: the default and five of the pinned
/// set. A fixed seed and xorshift64: the same strings on every run and machine.
public enum UICorpus {
    static let fragments: [[String]] = [
        // Latin
        ["Save", "Cancel", "Open recent", "Preferences", "Delete permanently", "Undo", "Sign in", "Settings",
         "Speichern unter…", "Einstellungen", "Rückgängig", "Enregistrer sous…", "Paramètres", "Téléchargements",
         "Connected to Wi-Fi", "Battery low", "New message from", "Update available", "Show all", "Export as PDF"],
        // CJK
        ["保存", "キャンセル", "設定", "最近使ったファイル", "完全に削除", "元に戻す", "ログイン", "ダウンロード",
         "打开最近的文件", "首选项", "更新可用", "显示全部", "新消息", "电池电量低", "导出为 PDF"],
        // Arabic
        ["حفظ", "إلغاء", "الإعدادات", "فتح الملفات الأخيرة", "حذف نهائي", "تراجع", "تسجيل الدخول", "رسالة جديدة من",
         "تحديث متاح", "عرض الكل"],
        // Hebrew
        ["שמור", "ביטול", "הגדרות", "פתח קבצים אחרונים", "מחק לצמיתות", "בטל", "התחבר", "הודעה חדשה מאת", "עדכון זמין"],
        // Devanagari
        ["सहेजें", "रद्द करें", "सेटिंग्स", "हाल की फ़ाइलें खोलें", "स्थायी रूप से हटाएं", "पूर्ववत करें", "साइन इन करें",
         "नया संदेश", "अपडेट उपलब्ध है"],
        // Emoji
        ["👍", "🎉", "📁", "🔋", "✅", "⚠️", "👩‍💻", "🇩🇪", "👍🏽", "❤️"],
    ]

    static let names = ["Anna", "Jürgen", "Zoë", "李华", "محمد", "נועה", "प्रिया", "Łukasz", "Søren", "Ngozi"]
    static let files = ["report", "Rechnung", "写真", "تقرير", "מסמך", "दस्तावेज़", "notes", "budget-2026"]
    public static let fonts = ["", "DejaVu Sans 10", "Noto Sans 11", "DejaVu Serif 12", "Noto Sans Bold 14", "DejaVu Sans Mono 10"]

    public static func generate(count: Int, seed: UInt64 = 14) -> Corpus {
        var state = seed | 1
        func next(_ bound: Int) -> Int {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Int(state % UInt64(bound))
        }
        func pick<T>(_ list: [T]) -> T { list[next(list.count)] }
        var entries: [Corpus.Entry] = []
        entries.reserveCapacity(count)
        for index in 0..<count {
            let script = fragments[index % fragments.count]
            var text: String
            switch next(6) {
            case 0:  // a label in one script
                text = pick(script)
            case 1:  // a label and a count
                text = "\(pick(script)) (\(next(10_000)))"
            case 2:  // a notification: label, a name in any script, an emoji
                text = "\(pick(script)) \(pick(names)) \(pick(fragments[5]))"
            case 3:  // a file name and size, mixed with another script's label
                text = "\(pick(files))-\(next(1000)).pdf — \(pick(pick(fragments))) \(next(900) + 1) KB"
            case 4:  // two scripts in one string
                text = "\(pick(script)): \(pick(pick(fragments))) \(next(100))%"
            default:  // a status line
                text = "\(pick(fragments[0])) · \(pick(script)) · \(next(60)):\(String(next(60) + 100).dropFirst()) \(pick(fragments[5]))"
            }
            entries.append(Corpus.Entry(text: text, font: pick(fonts)))
        }
        return Corpus(entries: entries)
    }
}
