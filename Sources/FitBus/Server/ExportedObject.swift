/// An object to export at a path. Introspectable, Peer and Properties are added by the
/// dispatcher; interfaces here must not use those names.
public struct ExportedObject: Sendable {
    public var path: String
    public var interfaces: [DBusInterface]

    public init(path: String, interfaces: [DBusInterface]) throws(DBusError) {
        try DBusNames.requireObjectPath(path)
        if let clash = interfaces.first(where: { StandardInterface.names.contains($0.name) }) {
            throw .invalidArgs("\(clash.name) is provided by FitBus itself")
        }
        self.path = path
        self.interfaces = interfaces
    }

    func interface(_ name: String) -> DBusInterface? { interfaces.first { $0.name == name } }
}

enum StandardInterface {
    static let introspectable = "org.freedesktop.DBus.Introspectable"
    static let peer = "org.freedesktop.DBus.Peer"
    static let properties = "org.freedesktop.DBus.Properties"
    static let names: Set<String> = [introspectable, peer, properties]
}
