#if canImport(Glibc)
import Glibc
#endif
import FitProtocol
import FitService
import FitText
import Logging

/// Where and for which build the daemon keeps its results between runs (FitService.WarmStart).
enum WarmStartSetup {
    static func make(limits: ServiceLimits, engine: TextEngine, logger: Logger) -> WarmStart? {
        guard limits.persistResults else { return nil }
        guard let directory = WarmStart.directory(environment: ProcessEnvironment.all()) else {
            logger.info("warm start: neither XDG_CACHE_HOME nor HOME is set; results are not saved")
            return nil
        }
        return WarmStart(directory: directory, engine: engine, version: buildIdentity, logger: logger)
    }

    /// The release and this executable's size and modification time: two builds of one
    /// release may measure differently (a development build, a distribution's patch), and
    /// neither may answer with the other's results.
    static var buildIdentity: String {
        var status = stat()
        guard stat("/proc/self/exe", &status) == 0 else { return FitVersion.release }
        return "\(FitVersion.release) \(status.st_size) \(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec)"
    }
}
