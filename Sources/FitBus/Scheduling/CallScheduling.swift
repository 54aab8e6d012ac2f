#if canImport(Glibc)
import Glibc
#endif

/// How a connection runs the method calls it receives, so that one client's heavy work never
/// holds up another client's cheap call (docs/reliability.md, "Guarantees and where they live"):
///
/// - **Two lanes.** A call whose body is at least ``heavyBodyBytes`` runs on the connection's
///   worker threads
///   (``WorkerExecutor``, one per core, at a higher nice value); every other call runs on
///   Swift's cooperative pool, which heavy work therefore never fills.
/// - **Fair between clients.** Heavy calls start in round-robin order of their senders, at
///   most ``workerThreads`` at a time, and a client with none running starts one at once on a
///   spare thread (``spareWorkerThreads``) while others hold every worker; a client's small calls run at most
///   ``lightCallsPerClient`` at a time, the rest wait in that client's queue. A client that
///   pipelines thousands of calls fills its own queue, not the pool.
/// - **Bounded.** A client's queued and running calls are limited in number and bytes, and
///   all clients' in bytes; past a limit, a call is refused at once with
///   `org.freedesktop.DBus.Error.LimitsExceeded` and its message freed. A client's first
///   call is never refused for bytes.
/// - **Replies a client does not read are bounded.** The bytes of replies sent to a client
///   are counted until a Peer.Ping sent after them is answered; past
///   ``unreadReplyBytesPerClient`` its calls are refused and its queued ones wait.
/// - **Cancelled when the client leaves.** With ``BusConnection/trackClientDisconnects()``,
///   a sender's queued calls are dropped and its running ones cancelled (`Task.isCancelled`)
///   when its unique name leaves the bus.
public struct CallScheduling: Sendable, Equatable {
    /// A call body of at least this many bytes is heavy work. 16 KiB: a Measure of a few
    /// thousand characters, a batch of a few hundred short strings, a layout of some 50 nodes.
    public var heavyBodyBytes = 16 * 1024
    /// Worker threads for heavy calls: the cores the process may use. A client's heavy calls
    /// run at most this many at once, and no more start while this many run, except:
    public var workerThreads = CallScheduling.onlineProcessors
    /// Threads beyond ``workerThreads`` for a client with no heavy call running while others
    /// hold every worker: its call starts at once, on a thread of its own, and the kernel
    /// shares the cores between them, so a long request (a 10,000-text batch, a large
    /// layout) delays another client's call by a share of the cores, not by its own length.
    /// Twice the cores: each running call holds its request and working memory.
    public var spareWorkerThreads = 2 * CallScheduling.onlineProcessors
    /// The workers' nice value (setpriority(2)); the cooperative pool's threads keep 0.
    public var workerNice: Int32 = 5
    /// A client's small calls running at once; more wait in its queue.
    public var lightCallsPerClient = 16
    /// A client's calls queued or running, both lanes together; a call past it is refused.
    public var callsPerClient = 4_096
    /// The bytes of a client's queued or running call bodies; a call past it is refused,
    /// unless the client has nothing else waiting or running (so one call of any size the
    /// bus passes is always heard, and answered by the method's own limits).
    /// 16 MiB: ten pipelined batches of 10,000 UI strings, or a dozen 10,000-node layouts;
    /// every MiB waiting is a MiB of the daemon's memory (256 MB in all, whatever it is asked).
    public var bytesPerClient = 16 << 20
    /// The bytes of all clients' queued or running call bodies; past it, a client that
    /// already has a call waiting or running is refused (its first call still gets in).
    public var bytesTotal = 64 << 20
    /// Reply bytes sent to one client that it may leave unread. Past it, its calls are
    /// refused (LimitsExceeded) and its queued ones wait, until it reads: the bus buffers
    /// what a client does not read, and a client that never reads would otherwise make the
    /// bus stop reading the daemon's socket — every other client's replies stuck behind.
    /// 16 MiB: a dozen large batch replies in flight.
    public var unreadReplyBytesPerClient = 16 << 20
    /// After this many reply bytes to one client, the daemon asks whether it has read them:
    /// an org.freedesktop.DBus.Peer.Ping to it, which it answers only once it has read every
    /// message the bus delivered before (libdbus, GDBus and sd-bus answer Peer itself; an
    /// error reply is as good an answer).
    public var replyProbeBytes = 4 << 20

    public init() {}

    /// The specification's largest message (DBUS_MAXIMUM_MESSAGE_LENGTH, 128 MiB): no body is
    /// larger, so sums of body sizes stay far from overflowing.
    public static let largestMessage = 128 << 20

    /// Processors online (sysconf(_SC_NPROCESSORS_ONLN)), at least 1.
    public static var onlineProcessors: Int { max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))) }
}
