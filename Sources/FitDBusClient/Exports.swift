// One import gives a program every type the calls take and return: requests and metrics
// (FitTypes), documents and results (FitLayout), text-style rows, statistics and the error
// names (FitProtocol). None of them links C.
@_exported import FitLayout
@_exported import FitProtocol
@_exported import FitTypes
