// The client types that moved to FitDBusClient, exported by FitClient as before they moved,
// one by one: re-exporting the whole module would also export FitLayout (which FitDBusClient
// exports for programs that import it alone), and a program that imports FitClient and
// FitScale would then find two `TextStyle`s (review of issue 12, item 3). FitClient's users
// import FitLayout themselves, as they always have.
@_exported import class FitDBusClient.FitDBusClient
@_exported import enum FitDBusClient.FitClientError
@_exported import struct FitDBusClient.GenerationChange
@_exported import struct FitDBusClient.TextMeasurement
@_exported import struct FitDBusClient.TextScaleInfo
