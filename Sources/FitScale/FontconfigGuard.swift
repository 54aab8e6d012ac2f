import Logging
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Keeps fontconfig from waiting on a file. fontconfig opens every configuration file it is
/// told to include with a plain blocking open(2) and reads it to its end (fcxml.c,
/// _FcConfigParse): a FIFO at `~/.config/fontconfig/fonts.conf` held fitd's start (and every
/// program's) until a writer came. fitd cannot change how fontconfig opens files, so before
/// fontconfig loads, this walks the files it would read and, when one is not a regular file or
/// directory of a sane size, writes a configuration that leaves that one out, for fontconfig
/// to load instead (through FONTCONFIG_FILE, set before fontconfig is first used).
///
/// The walk follows fontconfig 2.14's rules (src/fcxml.c FcParseInclude, src/fccfg.c
/// FcConfigGetFilename and FcConfigParseAndLoadDir), which are also what Debian's
/// /etc/fonts/conf.d/50-user.conf relies on to reach the user's files
/// (`fontconfig/conf.d` and `fontconfig/fonts.conf` below $XDG_CONFIG_HOME, `~/.fonts.conf.d`,
/// `~/.fonts.conf`):
/// - the first file is $FONTCONFIG_FILE, else `fonts.conf`;
/// - an `<include>` with `prefix="xdg"` is below $XDG_CONFIG_HOME (else ~/.config); one that
///   starts with `~` is below $HOME; another relative one is looked up in each directory of
///   $FONTCONFIG_PATH, then /etc/fonts;
/// - an included directory stands for its files named `[0-9]*.conf`, in byte order.
///
/// Why rewrite rather than parse into memory (FcConfigParseAndLoadFromMemory): the text
/// engine (FitText) and the text-scale reader each load their configuration with
/// FcInitLoadConfigAndFonts, which reads FONTCONFIG_FILE; a file is the one thing both take.
/// Only the files on the way to a bad one are rewritten (their other elements verbatim; the
/// bad include becomes a comment saying why), into a directory of fitd's own; every other file
/// is still fontconfig's to read where it is. When nothing is wrong, nothing is written and
/// fontconfig loads as it always does.
///
/// The check and fontconfig's own open are two opens: a file swapped in between is not caught.
public final class FontconfigGuard: Sendable {
    /// A configuration file over this is passed over: Debian's largest is 13 KB.
    public static let fileLimit = 1 << 20
    /// Files and directories walked at most (Debian's configuration is some 60).
    public static let maximumFiles = 4096
    /// Includes followed within includes, at most (a loop of includes stops here).
    public static let maximumDepth = 16

    /// What fontconfig will load.
    public enum Outcome: Equatable, Sendable {
        /// Its own configuration, as is: nothing it reads is amiss.
        case unchanged
        /// `file`, fitd's copy, in which the files in `skipped` are left out.
        case rewritten(file: String, skipped: [FitScaleError])
        /// Files are amiss, and fontconfig could only be kept from them by a FONTCONFIG_FILE it
        /// does not have (after start, fitd does not change its environment): do not load.
        case blocked([FitScaleError])
    }

    private let home: String?
    private let configHome: String?
    private let first: String
    private let searchPath: [String]
    /// Where the rewritten files may go, in order of preference.
    public let directories: [String]
    /// The first of ``directories`` fitd could write to, once a copy was needed: every later
    /// copy goes there too, so that FONTCONFIG_FILE keeps naming it.
    private let chosen = Mutex<String?>(nil)
    /// The FONTCONFIG_FILE this process set (``prepareAtStart()``), if it set one.
    private let installed = Mutex<String?>(nil)

    /// - Parameter environment: the process's, as fontconfig reads it (HOME, XDG_CONFIG_HOME,
    ///   FONTCONFIG_FILE, FONTCONFIG_PATH).
    /// - Parameter directories: for rewritten files, the first that can be written to
    ///   (``defaultDirectories(environment:)``).
    public init(environment: [String: String], directories: [String]) {
        home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 }
        if let xdg = environment["XDG_CONFIG_HOME"], !xdg.isEmpty {
            configHome = xdg
        } else {
            configHome = home.map { $0 + "/.config" }
        }
        first = environment["FONTCONFIG_FILE"].flatMap { $0.isEmpty ? nil : $0 } ?? "fonts.conf"
        // FONTCONFIG_PATH, then the directory fontconfig was built with (Debian: /etc/fonts).
        searchPath = (environment["FONTCONFIG_PATH"] ?? "").split(separator: ":").map(String.init) + ["/etc/fonts"]
        self.directories = directories
    }

    convenience init(environment: [String: String], directory: String) {
        self.init(environment: environment, directories: [directory])
    }

    /// Where rewritten files may go: fitd's runtime directory (private to the user, gone at
    /// logout: systemd's `$RUNTIME_DIRECTORY`, else `$XDG_RUNTIME_DIR/fitd`), else its cache
    /// directory (`$CACHE_DIRECTORY`, which fitd.service's `CacheDirectory=fitd` makes
    /// writable under `ProtectSystem=strict` where `$XDG_RUNTIME_DIR` is not; else
    /// `$XDG_CACHE_HOME/fitd`, else `~/.cache/fitd`), each with `/fontconfig` below it.
    public static func defaultDirectories(environment: [String: String]) -> [String] {
        func unitDirectory(_ name: String) -> String? {
            environment[name]?.split(separator: ":").map(String.init).first { $0.hasPrefix("/") && $0.hasSuffix("/fitd") }
        }
        func absolute(_ name: String) -> String? { environment[name].flatMap { $0.hasPrefix("/") ? $0 : nil } }
        let home = absolute("HOME") ?? FitScaleEnvironment.passwordDatabaseHome()
        return [
            unitDirectory("RUNTIME_DIRECTORY"), absolute("XDG_RUNTIME_DIR").map { $0 + "/fitd" },
            unitDirectory("CACHE_DIRECTORY"), absolute("XDG_CACHE_HOME").map { $0 + "/fitd" }, home + "/.cache/fitd",
        ].compactMap { $0.map { $0 + "/fontconfig" } }
    }

    /// The directory copies go to: the one chosen before, else the first of ``directories``
    /// that exists or can be made and can be written to; nil when none can.
    private func copyDirectory() -> String? {
        chosen.withLock { chosen in
            if let chosen { return chosen }
            chosen = directories.first { directory in
                (try? ConfigFile.makeDirectories(directory)) != nil && access(directory, W_OK) == 0
            }
            return chosen
        }
    }

    /// Before fontconfig is first used: walks, and when a file is amiss writes the copy and
    /// points FONTCONFIG_FILE at it (setenv(3), while nothing else reads the environment yet).
    public func prepareAtStart() -> Outcome {
        let outcome = start()
        if case .rewritten(let file, _) = outcome { setenv("FONTCONFIG_FILE", file, 1) }
        return outcome
    }

    /// ``prepareAtStart()`` but for the environment (tests: the process's is shared).
    func start() -> Outcome {
        let outcome = walk(rewriteTop: false)
        if case .rewritten(let file, _) = outcome { installed.withLock { $0 = file } }
        return outcome
    }

    /// Before fontconfig loads again (a change to fonts or configuration): walks once more.
    /// With a copy installed at start, rewrites it for the files as they are now (all of them
    /// again, once they are fixed); without one, a file that became amiss blocks the reload,
    /// and the configuration loaded before stays.
    public func prepareForReload() -> Outcome {
        let copy = installed.withLock { $0 }
        let outcome = walk(rewriteTop: copy != nil)
        switch outcome {
        case .unchanged:
            return .unchanged
        case .rewritten(let file, let skipped):
            if file == copy { return outcome }
            return .blocked(skipped)
        case .blocked:
            return outcome
        }
    }

    /// Logs what `outcome` left out (a warning each) and whether fontconfig may load now.
    public static func mayLoad(_ outcome: Outcome, logger: Logger) -> Bool {
        switch outcome {
        case .unchanged:
            return true
        case .rewritten(let file, let skipped):
            for problem in skipped { logger.warning("fontconfig: left out of its configuration (\(file)): \(problem)") }
            return true
        case .blocked(let problems):
            for problem in problems { logger.warning("fontconfig: not reloading, the configuration loaded before stays: \(problem)") }
            return false
        }
    }

    // MARK: the walk

    private enum Verdict {
        /// Nothing below it is amiss (or it is absent: fontconfig skips a missing include).
        case fine
        /// It must not be read.
        case amiss(FitScaleError)
        /// Something below it is amiss; `copy` is the rewritten file to read instead.
        case rewritten(copy: String)
    }

    private final class Walk {
        var visited = 0
        var skipped: [FitScaleError] = []
        var failure: FitScaleError?
    }

    private func walk(rewriteTop: Bool) -> Outcome {
        let state = Walk()
        guard var top = resolve(first, prefix: nil) else { return .unchanged }
        var verdict = visit(top, depth: 0, state: state, force: rewriteTop)
        if case .amiss(let error) = verdict {
            // $FONTCONFIG_FILE itself is amiss: fontconfig's own default instead.
            state.skipped.append(error)
            top = "/etc/fonts/fonts.conf"
            verdict = visit(top, depth: 0, state: state, force: true)
        }
        if let failure = state.failure { return .blocked(state.skipped + [failure]) }
        switch verdict {
        case .fine: return .unchanged
        case .amiss(let error): return .blocked(state.skipped + [error])
        case .rewritten(let copy): return .rewritten(file: copy, skipped: state.skipped)
        }
    }

    /// `force`: write a copy even when nothing below is amiss (the installed top file).
    private func visit(_ path: String, depth: Int, state: Walk, force: Bool = false) -> Verdict {
        state.visited += 1
        guard depth <= Self.maximumDepth, state.visited <= Self.maximumFiles else { return .fine }
        let kind: SafeFile.Kind?
        do throws(FitScaleError) {
            kind = try SafeFile.check(path: path, limit: Self.fileLimit, directoryAllowed: true)
        } catch {
            // fontconfig skips a file it may not read (access(2) in FcConfigFileExists).
            if case .fileSystem(_, _, let code) = error, code == EACCES { return .fine }
            return .amiss(error)
        }
        switch kind {
        case nil: return .fine
        case .directory: return visitDirectory(path, depth: depth, state: state)
        case .regular: return visitFile(path, depth: depth, state: state, force: force)
        }
    }

    private func visitFile(_ path: String, depth: Int, state: Walk, force: Bool) -> Verdict {
        let bytes: [UInt8]
        do throws(FitScaleError) {
            guard let read = try SafeFile.read(path: path, limit: Self.fileLimit) else { return .fine }
            bytes = read
        } catch {
            return .amiss(error)
        }
        let text = String(decoding: bytes, as: UTF8.self)
        var replacements: [(range: Range<String.Index>, text: String)] = []
        for include in FontconfigIncludes.scan(text) {
            guard let target = resolve(include.name, prefix: include.prefix) else { continue }
            switch visit(target, depth: depth + 1, state: state) {
            case .fine:
                // fontconfig looks a relative name up in FONTCONFIG_PATH and /etc/fonts, not
                // beside the file; named in full, it stays the same file whichever copy reads it.
                if include.prefix == nil, !include.name.hasPrefix("/"), !include.name.hasPrefix("~") {
                    replacements.append((include.range, "<include\(include.attributes)>\(Self.xmlEscaped(target))</include>"))
                }
            case .amiss(let error):
                state.skipped.append(error)
                replacements.append((include.range, "<!-- fitd left out \(Self.commentSafe(target)): \(Self.commentSafe(error.description)) -->"))
            case .rewritten(let copy):
                replacements.append((include.range, "<include ignore_missing=\"yes\">\(Self.xmlEscaped(copy))</include>"))
            }
        }
        if replacements.isEmpty && !force { return .fine }
        var rewritten = text
        for replacement in replacements.reversed() {
            rewritten.replaceSubrange(replacement.range, with: replacement.text)
        }
        return write(rewritten, for: path, state: state)
    }

    private func visitDirectory(_ path: String, depth: Int, state: Walk) -> Verdict {
        guard let names = Self.configNames(in: path) else { return .fine }
        var lines: [String] = []
        var changed = false
        for name in names {
            let entry = path + "/" + name
            switch visit(entry, depth: depth + 1, state: state) {
            case .fine:
                lines.append("<include ignore_missing=\"yes\">\(Self.xmlEscaped(entry))</include>")
            case .amiss(let error):
                state.skipped.append(error)
                changed = true
                lines.append("<!-- fitd left out \(Self.commentSafe(entry)): \(Self.commentSafe(error.description)) -->")
            case .rewritten(let copy):
                changed = true
                lines.append("<include ignore_missing=\"yes\">\(Self.xmlEscaped(copy))</include>")
            }
        }
        guard changed else { return .fine }
        let text = """
            <?xml version="1.0"?>
            <!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
            <!-- fitd: the files of \(Self.commentSafe(path)) that fontconfig would read, in its order, without those that are amiss -->
            <fontconfig>
            \(lines.joined(separator: "\n"))
            </fontconfig>

            """
        return write(text, for: path, state: state)
    }

    private func write(_ text: String, for original: String, state: Walk) -> Verdict {
        guard let directory = copyDirectory() else {
            state.failure = .fileSystem(operation: "write a copy of", path: original, errno: EROFS)
            return .fine
        }
        let copy = directory + "/" + Self.copyName(for: original)
        do throws(FitScaleError) {
            try ConfigFile.writeAtomically(Array(text.utf8), to: copy)
        } catch {
            state.failure = error
            return .fine
        }
        return .rewritten(copy: copy)
    }

    // MARK: fontconfig's rules

    /// Where fontconfig looks for an `<include>` (or the first file): nil when it would not
    /// look anywhere (a `~` path without HOME).
    func resolve(_ name: String, prefix: String?) -> String? {
        var name = name
        if prefix == "xdg" {
            guard let configHome else { return nil }
            if !name.hasPrefix("/") { name = configHome + "/" + name }
        }
        if name.hasPrefix("/") { return name }
        if name.hasPrefix("~") {
            guard let home else { return nil }
            return home + name.dropFirst()
        }
        for directory in searchPath {
            let candidate = directory + "/" + name
            if access(candidate, F_OK) == 0 { return candidate }
        }
        return searchPath.last.map { $0 + "/" + name }
    }

    /// The names fontconfig reads in an included directory: `[0-9]*.conf`, in byte order
    /// (FcConfigParseAndLoadDir; FcSortCmpStr). nil when it cannot be listed.
    static func configNames(in directory: String) -> [String]? {
        guard let stream = opendir(directory) else { return nil }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream), names.count < maximumFiles {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let first = name.utf8.first, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first),
                name.utf8.count > 5, name.hasSuffix(".conf")
            else { continue }
            names.append(name)
        }
        return names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// A file name for the copy of `original`, the same every time (so that FONTCONFIG_FILE,
    /// set once, names the copy of the same file after every rewrite): its last component
    /// after a hash of the whole path (FNV-1a, 64 bits).
    static func copyName(for original: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in original.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        let base = original.split(separator: "/").last.map(String.init) ?? "fonts.conf"
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits + "-" + base + (base.hasSuffix(".conf") ? "" : ".conf")
    }

    /// XML comments may not contain "--" (XML 1.0, section 2.5).
    static func commentSafe(_ text: String) -> String {
        var out = text.replacingAll("--", with: "- -")
        if out.hasSuffix("-") { out += " " }
        return out
    }

    static func xmlEscaped(_ text: String) -> String {
        text.replacingAll("&", with: "&amp;").replacingAll("<", with: "&lt;").replacingAll(">", with: "&gt;")
    }
}

/// The `<include>` elements of a fontconfig file, outside comments, as far as fitd needs them.
enum FontconfigIncludes {
    struct Include: Equatable {
        /// The whole element, `<include …>…</include>`.
        var range: Range<String.Index>
        var name: String
        var prefix: String?
        /// The start tag's attributes as written (`ignore_missing="yes"`), with the space before.
        var attributes: String
    }

    static func scan(_ text: String) -> [Include] {
        var found: [Include] = []
        var index = text.startIndex
        while let open = text[index...].firstRange(of: "<") {
            let rest = text[open.lowerBound...]
            if rest.hasPrefix("<!--") {
                guard let close = rest.firstRange(of: "-->") else { break }
                index = close.upperBound
                continue
            }
            guard rest.hasPrefix("<include") else {
                index = open.upperBound
                continue
            }
            // No ">" after it: no tag after it can end either (and looking again from each
            // later "<include" would make the scan quadratic).
            guard let tagEnd = rest.firstIndex(of: ">") else { break }
            let attributes = text[text.index(open.lowerBound, offsetBy: 8)..<tagEnd]
            guard attributes.first.map({ $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "/" }) ?? true else {
                index = open.upperBound
                continue
            }
            if attributes.hasSuffix("/") {
                index = text.index(after: tagEnd)
                continue
            }
            let contentStart = text.index(after: tagEnd)
            guard let end = text[contentStart...].firstRange(of: "</include>") else { break }
            let name = String(text[contentStart..<end.lowerBound]).trimmingNewlines()
            found.append(Include(
                range: open.lowerBound..<end.upperBound, name: unescaped(name), prefix: attribute("prefix", in: attributes),
                attributes: String(attributes)))
            index = end.upperBound
        }
        return found
    }

    /// `name="value"` or `name='value'` among a tag's attributes.
    static func attribute(_ name: String, in attributes: Substring) -> String? {
        var rest = attributes[...]
        while let found = rest.firstRange(of: name) {
            let before = found.lowerBound == attributes.startIndex ? " " : attributes[attributes.index(before: found.lowerBound)]
            var after = rest[found.upperBound...].drop { $0 == " " || $0 == "\t" }
            rest = rest[found.upperBound...]
            guard before.isWhitespace, after.first == "=" else { continue }
            after = after.dropFirst().drop { $0 == " " || $0 == "\t" }
            guard let quote = after.first, quote == "\"" || quote == "'" else { continue }
            let value = after.dropFirst().prefix { $0 != quote }
            return String(value)
        }
        return nil
    }

    static func unescaped(_ text: String) -> String {
        text.replacingAll("&lt;", with: "<").replacingAll("&gt;", with: ">").replacingAll("&quot;", with: "\"")
            .replacingAll("&apos;", with: "'").replacingAll("&amp;", with: "&")
    }
}

extension String {
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty, contains(target) else { return self }
        var out = ""
        var rest = self[...]
        while let found = rest.firstRange(of: target) {
            out += rest[..<found.lowerBound]
            out += replacement
            rest = rest[found.upperBound...]
        }
        out += rest
        return out
    }

    func trimmingNewlines() -> String {
        var scalars = Substring(self).unicodeScalars
        while let first = scalars.first, first == "\n" || first == "\r" || first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == "\n" || last == "\r" || last == " " || last == "\t" { scalars.removeLast() }
        return String(scalars)
    }
}
