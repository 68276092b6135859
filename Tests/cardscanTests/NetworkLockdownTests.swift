import Foundation
import Testing
import TestSupport

/// The no-network guarantee, tested the way an auditor would: from outside the process.
@Suite(.serialized) struct NetworkLockdownTests {
    static let strace = URL(fileURLWithPath: "/usr/bin/strace")

    @Test func inAChildProcessNetworkSocketsAreRefusedAndLocalOnesWork() throws {
        let result = try runProcess(TestPaths.binary, ["privacy", "status", "--format", "json"])
        #expect(result.status == 0, "\(result.stdout)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let sockets = try #require(object["sockets"] as? [String: String])
        #expect(sockets["AF_INET"] == "EACCES")
        #expect(sockets["AF_INET6"] == "EACCES")
        #expect(sockets["AF_PACKET"] == "EACCES")
        #expect(sockets["AF_UNIX"] == "created")
        #expect(object["filterPresent"] as? Bool == true)
        let version = try runProcess(TestPaths.binary, ["--version"])
        #expect(version.stdout.contains("network lockdown: active"))
    }

    /// x32 system calls carry AUDIT_ARCH_X86_64 as well, numbered with bit 30 set, so a filter
    /// comparing the number with socket's alone would let socket() through x32 by (a kernel built
    /// with x32 would open an AF_INET socket; this one answers ENOSYS). The
    /// binary, which links the filter, tries it: refused by the filter (EACCES), not by the kernel.
    @Test func x32SystemCallsAreRefusedByTheFilter() throws {
        #if arch(x86_64)
        let result = try runProcess(TestPaths.binary, ["privacy", "status", "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let sockets = try #require(object["sockets"] as? [String: String])
        #expect(sockets["AF_INET via x32"] == "EACCES", "\(result.stdout)")
        #expect(result.status == 0)
        let text = try runProcess(TestPaths.binary, ["privacy", "status"])
        #expect(text.stdout.contains("socket(AF_INET via x32): refused (EACCES)"), "\(text.stdout)")
        #else
        try Test.cancel("the x32 ABI exists on x86_64 only")
        #endif
    }

    /// Runs `cardscan` under strace; nil (with the reason printed) where strace cannot attach.
    static func traced(_ syscalls: String, _ arguments: [String], stdin: Data? = nil,
                       environment: [String: String]? = nil) throws -> (ProcessResult, String)? {
        guard FileManager.default.isExecutableFile(atPath: strace.path) else {
            try Test.cancel("strace is not installed")
        }
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("cardscan-strace-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).txt")
        defer { try? FileManager.default.removeItem(at: log) }
        let result = try runProcess(strace, ["-f", "-qq", "-e", "trace=\(syscalls)", "-o", log.path, TestPaths.binary.path] + arguments,
                                    stdin: stdin, environment: environment)
        if result.stderr.contains("Operation not permitted") && result.stderr.contains("ptrace") {
            try Test.cancel("strace cannot attach here (\(result.stderr.prefix(200)))")
        }
        return (result, (try? String(contentsOf: log, encoding: .utf8)) ?? "")
    }

    @Test func scanningTheFixturesTriesNoNetworkSocketUnderStrace() throws {
        guard let (result, trace) = try Self.traced("socket,connect,sendto,sendmsg", ["scan", TestPaths.cards.path]) else { return }
        #expect(result.status == 0)
        let lines = trace.split(separator: "\n")
        let network = lines.filter { $0.contains("AF_INET") || $0.contains("AF_INET6") || $0.contains("connect(") }
        #expect(network.isEmpty, "\(network.prefix(5))")
        print("strace: \(lines.filter { $0.contains("socket(") }.count) socket calls, \(network.count) network attempts while scanning \(try Self.records(result.stdout)) cards")
    }

    static func records(_ stdout: String) throws -> Int { stdout.split(separator: "\n").count }

    static func withoutTimings(_ stdout: String) throws -> [String] {
        try stdout.split(separator: "\n").map { line -> String in
            var r = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            r.removeValue(forKey: "timingsMs")
            return String(decoding: try JSONSerialization.data(withJSONObject: r, options: [.sortedKeys]), as: UTF8.self)
        }
    }

    @Test func aNetworkNamespaceWithNoInterfacesGivesTheSameRecords() throws {
        let unshare = URL(fileURLWithPath: "/usr/bin/unshare")
        let flags = getuid() == 0 ? ["-n"] : ["-r", "-n"]
        let probe = try runProcess(unshare, flags + ["true"])
        guard probe.status == 0 else { try Test.cancel("cannot create a network namespace here (\(probe.stderr.prefix(200)))") }
        let inside = try runProcess(unshare, flags + [TestPaths.binary.path, "scan", TestPaths.cards.path])
        let outside = try runProcess(TestPaths.binary, ["scan", TestPaths.cards.path])
        #expect(inside.status == 0 && outside.status == 0, "\(inside.stderr)")
        #expect(try Self.withoutTimings(inside.stdout) == Self.withoutTimings(outside.stdout))
    }

    @Test func noFileIsCreatedButTheOutputsAskedFor() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("cardscan-home-\(getpid())")
        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("cardscan-tmp-\(getpid())")
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("cardscan-out-\(getpid())")
        for d in [home, tmp, out] {
            try? FileManager.default.removeItem(at: d)
            try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true)
        }
        defer { for d in [home, tmp, out] { try? FileManager.default.removeItem(at: d) } }
        var env = ProcessInfo.processInfo.environment
        env["HOME"] = home.path
        env["TMPDIR"] = tmp.path
        let output = out.appendingPathComponent("cards.jsonl").path
        let traced = try Self.traced("openat,open,creat,rename,renameat,renameat2,mkdir,mkdirat,link,linkat,symlink,symlinkat",
                                     ["scan", "-o", output, TestPaths.cards.path], environment: env)
        let result = try traced?.0 ?? runProcess(TestPaths.binary, ["scan", "-o", output, TestPaths.cards.path], environment: env)
        #expect(result.status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.path).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.path).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path) == ["cards.jsonl"])
        guard let trace = traced?.1 else { return }
        // Every open that may create a file, every rename and every new directory or link.
        var created: [String] = []
        for line in trace.split(separator: "\n") where !line.contains("= -1") {
            let creating = (line.contains("openat(") || line.contains("open(")) && line.contains("O_CREAT")
            let other = ["creat(", "rename", "mkdir", "link(", "linkat(", "symlink"].contains { line.contains($0) }
            guard creating || other, let q1 = line.firstIndex(of: "\"") else { continue }
            let rest = line[line.index(after: q1)...]
            guard let q2 = rest.firstIndex(of: "\"") else { continue }
            created.append(String(rest[..<q2]))
        }
        let allowed = ["/dev/null", output, output + ".partial"]
        let unexpected = created.filter { !allowed.contains($0) && !$0.hasPrefix(output + ".partial.new-") }
        #expect(unexpected.isEmpty, "files created: \(unexpected)")
    }
}
