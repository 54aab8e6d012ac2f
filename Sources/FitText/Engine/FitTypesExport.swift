// The value types of a measurement (requests, metrics, options, errors) live in FitTypes,
// which has no C, so that FitDBusClient can use them without HarfBuzz, fontconfig or ICU.
// Re-exported: a program that imports FitText sees them as before.
@_exported import FitTypes
