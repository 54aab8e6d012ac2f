// FitScale's API speaks FitTypes' SizeCategory and TextStyle (TextScale.category,
// TextStyleFont): a program that imports FitScale names them without a second import.
@_exported import FitTypes
