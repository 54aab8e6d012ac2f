/// Matching a value's shape against a signature without building the value's own
/// signature string: comparing `item.signature == element` for every array item would
/// allocate the whole (nested) signature of each structure again and again, most of the cost
/// of encoding a 1,000-entry batch reply.
extension DBusValue {
    /// Whether this value's type is exactly `signature` (one complete type). Only the
    /// outer shape is compared: an array's or dictionary's element signatures are compared
    /// as text, their items are checked where the array itself is validated.
    func conforms(to signature: String) -> Bool {
        var signature = signature
        return signature.withUTF8 { bytes in matchEnd(bytes, 0) == bytes.count }
    }

    /// The index just after the complete type this value matches at `start`, or nil.
    /// Every read is bounds-checked: the signature may come from a peer.
    func matchEnd(_ sig: UnsafeBufferPointer<UInt8>, _ start: Int) -> Int? {
        guard start < sig.count else { return nil }
        let code = sig[start]
        func single(_ expected: Character) -> Int? { code == expected.asciiValue! ? start + 1 : nil }
        switch self {
        case .byte: return single("y")
        case .boolean: return single("b")
        case .int16: return single("n")
        case .uint16: return single("q")
        case .int32: return single("i")
        case .uint32: return single("u")
        case .int64: return single("x")
        case .uint64: return single("t")
        case .double: return single("d")
        case .string: return single("s")
        case .objectPath: return single("o")
        case .signature: return single("g")
        case .variant: return single("v")
        case .array(let element, _):
            guard code == UInt8(ascii: "a") else { return nil }
            return Self.matchText(element, sig, start + 1)
        case .dictionary(let key, let value, _):
            guard code == UInt8(ascii: "a"), start + 1 < sig.count, sig[start + 1] == UInt8(ascii: "{"),
                let afterKey = Self.matchText(key, sig, start + 2),
                let afterValue = Self.matchText(value, sig, afterKey),
                afterValue < sig.count, sig[afterValue] == UInt8(ascii: "}")
            else { return nil }
            return afterValue + 1
        case .structure(let fields):
            guard code == UInt8(ascii: "(") else { return nil }
            var index = start + 1
            for field in fields {
                guard let next = field.matchEnd(sig, index) else { return nil }
                index = next
            }
            guard index < sig.count, sig[index] == UInt8(ascii: ")") else { return nil }
            return index + 1
        }
    }

    /// The index after `text` if `sig` holds it at `start`.
    private static func matchText(_ text: String, _ sig: UnsafeBufferPointer<UInt8>, _ start: Int) -> Int? {
        var index = start
        for byte in text.utf8 {
            guard index < sig.count, sig[index] == byte else { return nil }
            index += 1
        }
        return index
    }
}
