extension TextEngine {
    /// The size GtkLabel requests for `request`'s text (``LabelSize``). Pixels only.
    public func labelSize(_ request: MeasureRequest) throws(FitTextError) -> LabelSize {
        guard request.unit == .px else {
            throw .invalidArgument(name: "unit", reason: "label sizes are in px, not cells")
        }
        let natural = try measure(LabelSize.naturalRequest(for: request))
        guard let narrowestRequest = LabelSize.narrowestRequest(for: request) else {
            return LabelSize(request: request, natural: natural, narrowest: nil, allocated: nil)
        }
        let narrowest = try measure(narrowestRequest)
        let minimum = LabelSize.minimumWidth(natural: natural, narrowest: narrowest)
        let allocated = try LabelSize.allocatedRequest(for: request, minimumWidth: minimum).map { (r) throws(FitTextError) in try measure(r) }
        return LabelSize(request: request, natural: natural, narrowest: narrowest, allocated: allocated)
    }
}
