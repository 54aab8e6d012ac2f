#if canImport(Glibc)
import Glibc
#endif

/// The process's environment variables, read from environ(7) and getenv(3): what
/// `ProcessInfo.processInfo.environment` gives, without linking Foundation into the daemon.
enum ProcessEnvironment {
    /// Every variable; for a name set twice the first wins, as getenv(3) answers.
    static func all() -> [String: String] {
        var variables: [String: String] = [:]
        // Never NULL here: the kernel always passes an envp array, and fitd never calls clearenv(3).
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            // "NAME=value"; an entry without "=" is not a variable (execve(2) lets one through).
            if let equals = text.firstIndex(of: "=") {
                let name = String(text[..<equals])
                if variables[name] == nil { variables[name] = String(text[text.index(after: equals)...]) }
            }
            entry += 1
        }
        return variables
    }

    /// One variable, nil when unset.
    static func value(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
