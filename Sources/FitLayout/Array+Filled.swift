extension Array {
    /// `count` copies of `value`, as `init(repeating:count:)` makes them, but allocated in
    /// specialized code: `init(repeating:count:)` allocates through the standard library's
    /// unspecialized path, which looks the array's metadata up at run time (500–900
    /// instructions per array under callgrind; a layout makes a dozen arrays per stack).
    @inline(__always)
    init(filled value: Element, count: Int) {
        self.init(repeatElement(value, count: count))
    }
}
