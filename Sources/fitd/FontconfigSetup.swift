import FitScale
import Logging

/// fontconfig's configuration checked before the text engine first loads it (FontconfigGuard):
/// a file it would wait on (a FIFO, a link to /dev/zero) or read forever is left out of a copy
/// that FONTCONFIG_FILE then names, with a warning for each.
enum FontconfigSetup {
    static func prepare(logger: Logger) -> FontconfigGuard {
        let environment = ProcessEnvironment.all()
        let check = FontconfigGuard(environment: environment, directories: FontconfigGuard.defaultDirectories(environment: environment))
        switch check.prepareAtStart() {
        case .unchanged:
            break
        case .rewritten(let file, let skipped):
            for problem in skipped {
                logger.warning("fontconfig: \(problem); left out of its configuration, which fitd loads from \(file) (restart fitd once it is fixed)")
            }
        case .blocked(let problems):
            for problem in problems {
                logger.error("fontconfig: \(problem); fitd could not write a configuration without it, and fontconfig may wait on it")
            }
        }
        return check
    }
}
