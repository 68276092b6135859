import ArgumentParser
import CardScan
import CardScanService
import FileAccess
import Foundation

struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve scans over HTTP/1.1 on a Unix socket, with the OCR engines kept warm.",
        discussion: """
            Endpoints: POST /scan (body: the image; query: region, lang, format=json|vcard, name) \
            answers the record `cardscan scan` prints; POST /strip (query: orientation=keep|drop, \
            icc=keep|drop) answers the image without its metadata; GET /health; GET /metrics \
            (Prometheus text). Only a Unix socket is opened, after the network lockdown; its file \
            is created with mode 0600, never replaces anything but a stale socket, and is removed \
            on exit. SIGTERM or SIGINT: stop accepting, finish the requests in flight, exit 0.
            """
    )

    @Option(name: .long, help: "The socket's path (at most \(ServiceConfiguration.maxSocketPathBytes) bytes).")
    var socket: String

    @Option(name: .long, help: "The socket file's mode, in octal (default 600: only this user may connect).",
            transform: { text in
                guard let mode = UInt32(text, radix: 8), mode <= 0o777 else {
                    throw ValidationError("--socket-mode takes an octal mode such as 600 or 660")
                }
                return mode
            })
    var socketMode: UInt32 = 0o600

    @Option(name: .long, help: "Requests that may wait beyond those being worked on (default: 4 per worker); more are answered 503 with Retry-After.")
    var queue: Int?

    @Option(name: .long, help: "Seconds from a request's last byte to its answer before it is given up with 503.")
    var timeout: Int = 60

    @Option(name: .long, help: "Seconds a request may take to arrive from its first byte, beyond which it must keep coming at 64 KB/s; slower clients are answered 408 and disconnected.")
    var readTimeout: Int = 20

    @Option(name: .long, help: "Connections held at once (default: the descriptor limit, ulimit -n, less 32); at the limit a new one replaces the idlest.")
    var maxConnections: Int?

    @Option(name: .long, help: "Request bodies held at once over all connections, in megabytes (default: 512, or --max-megabytes when more); more are answered 503.")
    var maxUploadsMegabytes: Int?

    @Option(name: .long, help: "Serve only peers with this user ID (checked with SO_PEERCRED); repeat for several.")
    var allowUid: [UInt32] = []

    @Flag(name: .shortAndLong, help: "Log each start, stop and failed request on stderr (never card text).")
    var verbose = false

    @OptionGroup(title: "Reading") var reading: ReadingOptions
    @OptionGroup(title: "Limits") var limits: LimitOptions

    func validate() throws {
        if socket.utf8.count > ServiceConfiguration.maxSocketPathBytes {
            throw ValidationError("--socket \(DisplayText.escaping(socket)): a socket path holds at most \(ServiceConfiguration.maxSocketPathBytes) bytes (this one has \(socket.utf8.count)); choose a shorter one")
        }
        if let queue, queue < 1 { throw ValidationError("--queue must be at least 1") }
        if timeout < 1 { throw ValidationError("--timeout must be at least 1 second") }
        if readTimeout < 1 { throw ValidationError("--read-timeout must be at least 1 second") }
        if let maxConnections, maxConnections < 1 { throw ValidationError("--max-connections must be at least 1") }
        if let maxUploadsMegabytes, maxUploadsMegabytes < 1 { throw ValidationError("--max-uploads-megabytes must be at least 1") }
    }

    func run() throws {
        Diagnostics.setVerbose(verbose)
        var scan = ScanConfiguration()
        reading.apply(to: &scan)
        limits.apply(to: &scan)
        var configuration = ServiceConfiguration(socketPath: socket, scan: scan)
        configuration.socketMode = socketMode
        if let queue { configuration.queueCapacity = queue }
        configuration.requestTimeout = .seconds(timeout)
        configuration.readTimeout = .seconds(readTimeout)
        configuration.maxConnections = maxConnections
        configuration.allowedUIDs = allowUid.isEmpty ? nil : Set(allowUid)
        configuration.maxHeldBodyBytes = maxUploadsMegabytes.map { $0 << 20 }
        let service: ScanService
        do {
            service = try ScanService(configuration: configuration, logger: Diagnostics.logger)
            try service.start()
        } catch {
            Diagnostics.error(error.message)
            throw ExitCode(error.code == .engineFailed ? 2 : 1)
        }
        signal(SIGPIPE, SIG_IGN)
        let interruption = Interruption.install { service.shutdown() }
        service.waitUntilStopped()
        withExtendedLifetime(interruption) {}
    }
}
