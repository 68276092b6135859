import Foundation

/// Why the service could not start or serve: a stable code and a sentence a person can act on.
public struct ServiceError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable {
        /// Another process is listening on the socket path.
        case socketInUse = "socket-in-use"
        /// The path names something that is not a socket (never replaced).
        case notASocket = "not-a-socket"
        /// The socket could not be created, bound or given its mode.
        case socketFailed = "socket-failed"
        /// The network lockdown is not engaged, so the service will not open a socket.
        case noLockdown = "no-lockdown"
        /// The OCR engines could not be created.
        case engineFailed = "engine-failed"
    }

    public var code: Code
    public var message: String
    public init(_ code: Code, _ message: String) { self.code = code; self.message = message }
    public var description: String { message }
}
