import FitBus

/// The names of the org.fitd.Fit1 contract (protocol/org.fitd.Fit1.xml).
public enum FitNames {
    public static let busName = "org.fitd.Fit1"
    public static let objectPath = "/org/fitd/Fit1"
    public static let interface = "org.fitd.Fit1"
    public static let generationChanged = "GenerationChanged"
}

/// Error names of org.fitd.Fit1 (protocol/README.md, "Errors").
public enum FitErrorName {
    public static let invalidArgument: DBusError.Name = "org.fitd.Fit1.Error.InvalidArgument"
    public static let invalidFont: DBusError.Name = "org.fitd.Fit1.Error.InvalidFont"
    public static let unknownOption: DBusError.Name = "org.fitd.Fit1.Error.UnknownOption"
    public static let tooLarge: DBusError.Name = "org.fitd.Fit1.Error.TooLarge"
    public static let noFonts: DBusError.Name = "org.fitd.Fit1.Error.NoFonts"
    public static let invalidDocument: DBusError.Name = "org.fitd.Fit1.Error.InvalidDocument"
    public static let `internal`: DBusError.Name = "org.fitd.Fit1.Error.Internal"

    public static let all: [DBusError.Name] = [invalidArgument, invalidFont, unknownOption, tooLarge, noFonts, invalidDocument, `internal`]
}
