import Synchronization

/// The exported objects of one connection, by path. Locked because dispatching tasks read
/// it while the application exports and unexports.
final class ObjectRegistry: Sendable {
    private let objects = Mutex<[String: ExportedObject]>([:])

    func add(_ object: ExportedObject) { objects.withLock { $0[object.path] = object } }
    func remove(path: String) { _ = objects.withLock { $0.removeValue(forKey: path) } }
    func object(at path: String) -> ExportedObject? { objects.withLock { $0[path] } }

    /// The names of the nodes directly below `path`, for `<node name="…"/>` in the
    /// introspection (specification, "Introspection Data Format"), so tools can walk the tree.
    func children(of path: String) -> [String] {
        let prefix = path == "/" ? "/" : path + "/"
        let names = objects.withLock { objects in
            objects.keys.compactMap { key -> String? in
                guard key.hasPrefix(prefix), key != path else { return nil }
                return key.dropFirst(prefix.count).split(separator: "/").first.map(String.init)
            }
        }
        return Set(names).sorted()
    }
}

extension BusConnection {
    /// Exports an object; a later export at the same path replaces it.
    public func export(_ object: ExportedObject) { registry.add(object) }
}
