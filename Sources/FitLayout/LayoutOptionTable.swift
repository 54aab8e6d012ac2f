import FitTypes

/// The one table of Layout's options, as ``MeasureOptions`` is Measure's: the D-Bus codec
/// (FitProtocol's LayoutCodec) reads and sends them through it, fitctl's `fit` and `check`
/// check their flags with its rows and show their help, and tests check it against
/// protocol/README.md's Layout table and against ``LayoutCacheKey``'s digest, so an option is
/// added in one place (docs/architecture.md, "How to add an option").
public enum LayoutOptionTable {
    public typealias Option = RequestOption<LayoutOptions>

    public static let unit = Option(
        name: "unit", kind: .string, signature: "s", words: LayoutOptions.Unit.allCases.map(\.rawValue),
        help: "px (logical pixels at 96 dpi) or cells (terminal columns and rows).",
        apply: { options, value throws(FitTextError) in options.unit = try LayoutOptions.Unit(parsing: value.string(for: "unit")) },
        value: { $0.unit == .px ? nil : .string($0.unit.rawValue) }, sample: .string("cells"))
    /// Always has a value: a client that leaves the user's category to the daemon does not send
    /// it (LayoutCodec's `sendSizeCategory`).
    public static let sizeCategory = Option(
        name: "size_category", kind: .string, signature: "s", words: SizeCategory.allCases.map(\.name),
        help: "Size category: xSmall … accessibilityExtraExtraExtraLarge.",
        apply: { options, value throws(FitTextError) in
            let name = try value.string(for: "size_category")
            guard let category = SizeCategory(name: name) else {
                throw .invalidArgument(name: "size_category", reason: "\"\(name)\" is not one of \(SizeCategory.nameList)")
            }
            options.sizeCategory = category
        },
        value: { .string($0.sizeCategory.name) }, sample: .string(SizeCategory.accessibilityLarge.name))
    public static let uiFont = Option(
        name: "ui_font", kind: .string, signature: "s",
        help: "UI font the default font and text styles derive from, e.g. \"Cantarell 11\".",
        apply: { options, value throws(FitTextError) in options.uiFont = try MeasureRequest.uiFontOption(value.string(for: "ui_font")) },
        value: { $0.uiFont.map(OptionValue.string) }, sample: .string("Cantarell 11"))
    public static let spacing = Option(
        name: "spacing", kind: .number, signature: "d",
        help: "Stack spacing and spacer minimum where the document gives none (default 8 px, 1 cell).",
        apply: { options, value throws(FitTextError) in
            let spacing = try value.number(for: "spacing")
            guard spacing.isFinite, spacing >= 0 else { throw .invalidArgument(name: "spacing", reason: "\(spacing) must be a finite length ≥ 0") }
            options.defaultSpacing = spacing
        },
        value: { $0.defaultSpacing.map(OptionValue.number) }, sample: .number(4))
    public static let language = Option(
        name: "language", kind: .string, signature: "s",
        help: "The context language of every text (BCP 47: \"bn-IN\", \"c\"); default: the locale's, as Pango's.",
        apply: { options, value throws(FitTextError) in options.language = try MeasureRequest.canonicalLanguage(value.string(for: "language")) },
        value: { $0.language.map(OptionValue.string) }, sample: .string("de"))
    public static let metrics = Option(
        name: "metrics", kind: .string, signature: "s",
        help: "The toolkit whose labels every text is measured as: gtk4 (default), gtk3 or gtk-4.N.",
        apply: { options, value throws(FitTextError) in
            let metrics = try value.string(for: "metrics")
            // Canonical: "gtk4" is the default, so it keys the cache like no option.
            options.metrics = try ToolkitProfile(parsing: metrics) == .gtk4 ? nil : metrics
        },
        value: { $0.metrics.map(OptionValue.string) }, sample: .string("gtk3"))
    public static let markup = Option(
        name: "markup", kind: .bool, signature: "b",
        help: "Every text of the document is Pango markup, measured as GTK draws a label's markup.",
        apply: { options, value throws(FitTextError) in options.markup = try value.bool(for: "markup") },
        value: { $0.markup ? .bool(true) : nil }, sample: .bool(true))
    public static let widgetSizes = Option(
        name: "widget_sizes", kind: .bool, signature: "b",
        help: "Also give every shown text the size a GtkLabel showing it at its frame's width requests (minimum and natural width and height, baseline; whole px; with --json).",
        apply: { options, value throws(FitTextError) in options.widgetSizes = try value.bool(for: "widget_sizes") },
        value: { $0.widgetSizes ? .bool(true) : nil }, sample: .bool(true))
    public static let labelSizes = Option(
        name: "label_sizes", kind: .bool, signature: "b",
        help: "Lay every text out at the size the GtkLabel showing it requests, rounded up to a whole px as gtklabel.c does, so decisions and breakpoints are the ones a GTK app's labels meet (px only).",
        apply: { options, value throws(FitTextError) in options.labelSizes = try value.bool(for: "label_sizes") },
        value: { $0.labelSizes ? .bool(true) : nil }, sample: .bool(true))
    public static let textScale = Option(
        name: "text_scale", kind: .number, signature: "d",
        help: "Take the document's font sizes at this text scale (0.25–4) instead of the user's; size categories stay the user's.",
        apply: { options, value throws(FitTextError) in
            let scale = try value.number(for: "text_scale")
            let range = TextLimits.textScaleRange
            guard scale.isFinite, range.contains(scale) else {
                throw .invalidArgument(name: "text_scale", reason: "\(scale) must be within \(range.lowerBound)…\(range.upperBound)")
            }
            options.textScale = scale
        },
        value: { $0.textScale.map(OptionValue.number) }, sample: .number(1))
    public static let breakpoints = Option(
        name: "breakpoints", kind: .range, signature: "(dd)",
        help: "Also find, per decision, the widths in MIN:MAX (whole px or cells from MIN) over which each outcome holds, where it flips exactly (to 1/1024 px, and in sp at the user's text scale), and the root's min- and max-content widths.",
        apply: { options, value throws(FitTextError) in
            let (low, high) = try value.range(for: "breakpoints")
            guard low.isFinite, high.isFinite else {
                throw .invalidArgument(name: "breakpoints", reason: "min \(low) and max \(high): both widths must be finite")
            }
            guard low >= 0, low <= high, high <= LayoutLimits.maxBreakpointWidth else {
                throw .invalidArgument(
                    name: "breakpoints", reason: "min \(low) and max \(high): give 0 ≤ min ≤ max ≤ \(Int(LayoutLimits.maxBreakpointWidth))")
            }
            options.breakpoints = BreakpointRange(from: low, to: high)
        },
        value: { $0.breakpoints.map { .range($0.from, $0.to) } }, sample: .range(100, 600))

    /// Every option, in the order of protocol/README.md's Layout table, which is the order the
    /// decoder checks them in (of two bad options, the first is named).
    public static let all: [Option] = [
        unit, sizeCategory, uiFont, spacing, language, metrics, markup, breakpoints, widgetSizes, labelSizes, textScale,
    ]

    public static let names: Set<String> = Set(all.map(\.name))
}

extension LayoutOptions.Unit: OptionWord {
    public static let optionName = "unit"
    public static let wordKind = "a unit"
}
