/// org.freedesktop.DBus.Properties (specification, "org.freedesktop.DBus.Properties"):
/// Get(ss)→v, GetAll(s)→a{sv}, Set(ssv), and the PropertiesChanged(sa{sv}as) signal.
enum PropertiesInterface {
    static func handle(
        _ call: IncomingCall, _ arguments: [DBusValue], object: ExportedObject, context: MessageContext
    ) async -> Result<[DBusValue], DBusError> {
        let expected = ["Get": "ss", "GetAll": "s", "Set": "ssv"]
        guard let signature = expected[call.member] else { return .failure(MethodDispatcher.unknownMethod(call)) }
        guard call.signature == signature else {
            return .failure(.invalidArgs("expected signature \(signature), got \(call.signature)"))
        }
        guard case .string(let interfaceName)? = arguments.first else { return .failure(.invalidArgs("missing interface")) }
        guard let interface = object.interface(interfaceName) else {
            return .failure(DBusError(.unknownInterface, "No such interface '\(interfaceName)'"))
        }
        do throws(DBusError) {
            switch call.member {
            case "GetAll":
                var entries: [(key: DBusValue, value: DBusValue)] = []
                for property in interface.properties {
                    entries.append((.string(property.name), .variant(try await read(property, in: interface))))
                }
                return .success([.dictionary(keySignature: "s", valueSignature: "v", entries)])
            case "Get":
                let property = try lookup(arguments, in: interface)
                return .success([.variant(try await read(property, in: interface))])
            default:
                let property = try lookup(arguments, in: interface)
                guard let setter = property.set else {
                    throw DBusError(.propertyReadOnly, "Property '\(property.name)' is read-only")
                }
                guard arguments.count == 3, case .variant(let value) = arguments[2] else {
                    throw .invalidArgs("missing value")
                }
                guard value.signature == property.signature.rawValue else {
                    throw .invalidArgs("expected signature \(property.signature.rawValue), got \(value.signature)")
                }
                try await setter(value)
                if property.emitsChanged && !property.setterAnnounces {
                    try? context.connection.emitPropertiesChanged(
                        path: object.path, interface: interface.name, changed: [property.name: value])
                }
                return .success([])
            }
        } catch {
            return .failure(error)
        }
    }

    private static func lookup(_ arguments: [DBusValue], in interface: DBusInterface) throws(DBusError) -> DBusProperty {
        guard arguments.count >= 2, case .string(let name) = arguments[1] else { throw .invalidArgs("missing property name") }
        guard let property = interface.property(name) else {
            throw DBusError(.unknownProperty, "No such property '\(name)' in interface '\(interface.name)'")
        }
        return property
    }

    private static func read(_ property: DBusProperty, in interface: DBusInterface) async throws(DBusError) -> DBusValue {
        let value = try await property.get()
        guard value.signature == property.signature.rawValue else {
            throw .failed("\(interface.name).\(property.name) produced \(value.signature), declared \(property.signature)")
        }
        return value
    }
}

extension BusConnection {
    /// Emits PropertiesChanged for `interface` at `path`, keys sorted so the signal is
    /// deterministic.
    public func emitPropertiesChanged(
        path: String, interface: String, changed: [String: DBusValue], invalidated: [String] = []
    ) throws(DBusError) {
        let entries = changed.sorted { $0.key < $1.key }.map { (key: DBusValue.string($0.key), value: DBusValue.variant($0.value)) }
        try emitSignal(
            path: path, interface: StandardInterface.properties, member: "PropertiesChanged",
            arguments: [
                .string(interface),
                .dictionary(keySignature: "s", valueSignature: "v", entries),
                .array(elementSignature: "s", invalidated.map(DBusValue.string)),
            ])
    }
}
