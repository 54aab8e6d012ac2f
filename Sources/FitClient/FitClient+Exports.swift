// The client types FitDBusClient defines, exported by FitClient so that its users find them
// there too, one by one: re-exporting the whole module would also export FitLayout (which
// FitDBusClient exports for programs that import it alone). FitClient's users import FitLayout
// themselves.
@_exported import class FitDBusClient.FitDBusClient
@_exported import enum FitDBusClient.FitClientError
@_exported import struct FitDBusClient.GenerationChange
@_exported import struct FitDBusClient.TextMeasurement
@_exported import struct FitDBusClient.TextScaleInfo
