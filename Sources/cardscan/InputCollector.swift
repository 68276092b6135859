import CardScan
import Foundation


/// Turns the command line's paths into inputs: files, folders walked in sorted order, stdin.
struct InputCollector {
    var items: [ScanInput] = []
    var problems: [String] = []

    static func collect(_ paths: [String]) -> InputCollector {
        var collector = InputCollector()
        for path in paths {
            if path == "-" {
                let data = FileHandle.standardInput.readDataToEndOfFile()
                collector.items.append(.bytes([UInt8](data), source: "-"))
                continue
            }
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue {
                var visited = Set<String>()
                collector.walk(path, visited: &visited)
            } else {
                // Named explicitly: scanned whatever it is, so a non-image gets an error record.
                collector.items.append(.file(path))
            }
        }
        return collector
    }

    /// Recursive, sorted walk; hidden entries skipped; symlink loops survived by real path.
    private mutating func walk(_ dir: String, visited: inout Set<String>) {
        let real = (dir as NSString).resolvingSymlinksInPath
        guard visited.insert(real).inserted else { return }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        } catch {
            problems.append("\(dir): the folder cannot be read; check its permissions")
            return
        }
        for name in names where !name.hasPrefix(".") {
            let path = dir.hasSuffix("/") ? dir + name : dir + "/" + name
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else { continue }
            if isDir.boolValue {
                walk(path, visited: &visited)
            } else if Self.looksLikeImage(path) {
                items.append(.file(path))
            }
        }
    }

    /// True when the file's first bytes are those of an image format cardscan reads.
    static func looksLikeImage(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 32)) ?? Data()
        return CardScanner.looksLikeImage([UInt8](head))
    }
}
