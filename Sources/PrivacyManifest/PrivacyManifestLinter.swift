import Foundation

/// One problem found in a privacy manifest, with the line of the offending key.
public struct PrivacyFinding: Sendable, Equatable {
    public enum Severity: String, Sendable { case error, warning }
    public let file: String
    public let line: Int
    public let severity: Severity
    public let message: String

    /// "FILE:LINE: error|warning: message".
    public var description: String { "\(file):\(line): \(severity.rawValue): \(message)" }
}

/// Checks a PrivacyInfo.xcprivacy against Apple's rules (see `PrivacyRules`).
public enum PrivacyManifestLinter {
    /// The offset of the first byte that is not valid UTF-8, nil when all are.
    static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    public static func lint(data: Data, file: String) -> [PrivacyFinding] {
        var findings: [PrivacyFinding] = []
        func report(_ line: Int, _ severity: PrivacyFinding.Severity, _ message: String) {
            findings.append(PrivacyFinding(file: file, line: line, severity: severity, message: message))
        }
        guard let (entries, rootLine) = rootEntries(data, report: report) else { return findings }
        for entry in entries where !PrivacyRules.rootKeys.contains(entry.key) {
            report(entry.keyLine, .warning, "unknown key \(entry.key)")
        }
        var seen = Set<String>()
        for entry in entries {
            if !seen.insert(entry.key).inserted { report(entry.keyLine, .error, "\(entry.key) is declared twice") }
        }
        let tracking = lintTracking(entries, rootLine: rootLine, report: report)
        if let c = entries.first(where: { $0.key == "NSPrivacyCollectedDataTypes" }) {
            if case .array(let items, _) = c.value {
                for item in items { lintCollected(item, tracking: tracking, report: report) }
            } else {
                report(c.keyLine, .error, "NSPrivacyCollectedDataTypes must be an array of dictionaries")
            }
        }
        if let a = entries.first(where: { $0.key == "NSPrivacyAccessedAPITypes" }) {
            lintAccessedTypes(a, report: report)
        }
        return findings.sorted { $0.line < $1.line }
    }

    typealias Entry = (key: String, keyLine: Int, value: PlistNode)
    typealias Report = (Int, PrivacyFinding.Severity, String) -> Void

    /// The root dictionary's entries; nil (with the finding reported) when the file is not UTF-8,
    /// not a property list, or its root is not a dictionary.
    private static func rootEntries(_ data: Data, report: Report) -> ([Entry], Int)? {
        // A property list in XML is UTF-8; other bytes never reach the XML reader.
        let bytes = [UInt8](data)
        if let bad = Self.firstInvalidUTF8(bytes) {
            report(1 + bytes[..<bad].filter { $0 == 0x0A }.count, .error,
                   "not valid UTF-8 (byte \(bad)); a privacy manifest is an XML property list in UTF-8")
            return nil
        }
        switch PlistReader.read(bytes) {
        case .failure(let error):
            report(error.line, .error, "not a well-formed property list: \(error.message)")
            return nil
        case .success(let root):
            guard case .dict(let entries, _) = root else {
                report(root.line, .error, "the root of a privacy manifest must be a dictionary (<dict>)")
                return nil
            }
            return (entries, root.line)
        }
    }

    /// NSPrivacyTracking and NSPrivacyTrackingDomains, which must agree; returns whether the
    /// manifest declares tracking.
    private static func lintTracking(_ entries: [Entry], rootLine: Int, report: Report) -> Bool {
        var tracking = false
        if let t = entries.first(where: { $0.key == "NSPrivacyTracking" }) {
            if case .bool(let value, _) = t.value {
                tracking = value
            } else {
                report(t.keyLine, .error, "NSPrivacyTracking must be a boolean (<true/> or <false/>), not \(t.value.kindName)")
            }
        } else {
            report(rootLine, .error, "NSPrivacyTracking is missing; declare <false/> when the code does not track")
        }
        let domainsEntry = entries.first { $0.key == "NSPrivacyTrackingDomains" }
        var domainCount = 0
        if let d = domainsEntry {
            if case .array(let items, _) = d.value {
                domainCount = items.count
                for item in items {
                    guard case .string(let domain, let line) = item else {
                        report(item.line, .error, "NSPrivacyTrackingDomains holds strings (domain names), not \(item.kindName)")
                        continue
                    }
                    if !isDomainName(domain) { report(line, .error, "'\(domain)' is not a valid domain name") }
                }
            } else {
                report(d.keyLine, .error, "NSPrivacyTrackingDomains must be an array of domain names")
            }
        }
        if tracking && domainCount == 0 {
            let line = domainsEntry?.keyLine ?? entries.first { $0.key == "NSPrivacyTracking" }?.keyLine ?? rootLine
            report(line, .error, "NSPrivacyTracking is true, so NSPrivacyTrackingDomains must list the tracking domains")
        }
        if !tracking && domainCount > 0, let d = domainsEntry {
            report(d.keyLine, .warning, "tracking domains are listed but NSPrivacyTracking is false")
        }
        return tracking
    }

    /// NSPrivacyAccessedAPITypes: each entry checked, each category declared once.
    private static func lintAccessedTypes(_ a: Entry, report: Report) {
        guard case .array(let items, _) = a.value else {
            return report(a.keyLine, .error, "NSPrivacyAccessedAPITypes must be an array of dictionaries")
        }
        var categories: [String: Int] = [:]
        for item in items {
            guard let category = lintAccessed(item, report: report) else { continue }
            if let first = categories[category.name] {
                report(category.line, .error, "\(category.name) is declared twice (first on line \(first)); merge the reasons into one entry")
            } else {
                categories[category.name] = category.line
            }
        }
    }

    private static func lintCollected(_ item: PlistNode, tracking: Bool,
                                      report: (Int, PrivacyFinding.Severity, String) -> Void) {
        guard case .dict(let entries, let line) = item else {
            report(item.line, .error, "each NSPrivacyCollectedDataTypes entry must be a dictionary")
            return
        }
        for key in PrivacyRules.collectedDataKeys where !entries.contains(where: { $0.key == key }) {
            report(line, .error, "collected data type entry lacks \(key)")
        }
        for entry in entries {
            switch entry.key {
            case "NSPrivacyCollectedDataType":
                guard case .string(let type, _) = entry.value else {
                    report(entry.keyLine, .error, "NSPrivacyCollectedDataType must be a string"); continue
                }
                if !PrivacyRules.dataTypes.contains(type) { report(entry.keyLine, .error, "'\(type)' is not one of Apple's collected data types") }
            case "NSPrivacyCollectedDataTypeLinked":
                if case .bool = entry.value {} else { report(entry.keyLine, .error, "NSPrivacyCollectedDataTypeLinked must be a boolean, not \(entry.value.kindName)") }
            case "NSPrivacyCollectedDataTypeTracking":
                if case .bool(let value, _) = entry.value {
                    if value && !tracking {
                        report(entry.keyLine, .error, "a data type used for tracking requires NSPrivacyTracking to be true")
                    }
                } else {
                    report(entry.keyLine, .error, "NSPrivacyCollectedDataTypeTracking must be a boolean, not \(entry.value.kindName)")
                }
            case "NSPrivacyCollectedDataTypePurposes":
                guard case .array(let purposes, _) = entry.value else {
                    report(entry.keyLine, .error, "NSPrivacyCollectedDataTypePurposes must be an array"); continue
                }
                if purposes.isEmpty { report(entry.keyLine, .error, "NSPrivacyCollectedDataTypePurposes must name at least one purpose") }
                for p in purposes {
                    guard case .string(let purpose, let pLine) = p, PrivacyRules.purposes.contains(purpose) else {
                        report(p.line, .error, "'\(p.stringValue ?? p.kindName)' is not one of Apple's six purposes"); continue
                    }
                    _ = (purpose, pLine)
                }
            default:
                report(entry.keyLine, .warning, "unknown key \(entry.key) in a collected data type entry")
            }
        }
    }

    private static func lintAccessed(_ item: PlistNode, report: (Int, PrivacyFinding.Severity, String) -> Void) -> (name: String, line: Int)? {
        guard case .dict(let entries, let line) = item else {
            report(item.line, .error, "each NSPrivacyAccessedAPITypes entry must be a dictionary")
            return nil
        }
        for key in PrivacyRules.accessedAPIKeys where !entries.contains(where: { $0.key == key }) {
            report(line, .error, "accessed API entry lacks \(key)")
        }
        for entry in entries where !PrivacyRules.accessedAPIKeys.contains(entry.key) {
            report(entry.keyLine, .warning, "unknown key \(entry.key) in an accessed API entry")
        }
        var category: (String, Int)?
        if let c = entries.first(where: { $0.key == "NSPrivacyAccessedAPIType" }) {
            if case .string(let name, _) = c.value, PrivacyRules.reasonsByCategory[name] != nil {
                category = (name, c.keyLine)
            } else {
                report(c.keyLine, .error, "'\(c.value.stringValue ?? c.value.kindName)' is not a required-reason API category (file timestamp, system boot time, disk space, active keyboards, user defaults)")
            }
        }
        if let r = entries.first(where: { $0.key == "NSPrivacyAccessedAPITypeReasons" }) {
            if case .array(let reasons, _) = r.value {
                if reasons.isEmpty { report(r.keyLine, .error, "NSPrivacyAccessedAPITypeReasons must give at least one reason") }
                for reason in reasons {
                    guard case .string(let code, let rLine) = reason else {
                        report(reason.line, .error, "reasons are strings like \"C617.1\", not \(reason.kindName)"); continue
                    }
                    if let (name, _) = category, let valid = PrivacyRules.reasonsByCategory[name], !valid.contains(code) {
                        report(rLine, .error, "reason \(code) is not valid for \(name) (valid: \(valid.sorted().joined(separator: ", ")))")
                    }
                }
            } else {
                report(r.keyLine, .error, "NSPrivacyAccessedAPITypeReasons must be an array of reason codes")
            }
        }
        return category.map { ($0.0, $0.1) }
    }

    static func isDomainName(_ s: String) -> Bool {
        let labels = s.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, s.count <= 253 else { return false }
        return labels.allSatisfy { label in
            !label.isEmpty && label.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        } && labels.last?.allSatisfy(\.isLetter) == true
    }
}

/// A property-list value with the line it starts on.
indirect enum PlistNode {
    case dict([(key: String, keyLine: Int, value: PlistNode)], Int)
    case array([PlistNode], Int)
    case string(String, Int)
    case bool(Bool, Int)
    case other(String, Int)   // integer, real, date, data

    var line: Int {
        switch self {
        case .dict(_, let l), .array(_, let l), .string(_, let l), .bool(_, let l), .other(_, let l): return l
        }
    }

    var kindName: String {
        switch self {
        case .dict: return "a dictionary"
        case .array: return "an array"
        case .string(let s, _): return "the string \"\(s)\""
        case .bool: return "a boolean"
        case .other(let kind, _): return "<\(kind)>"
        }
    }

    var stringValue: String? {
        if case .string(let s, _) = self { return s }
        return nil
    }
}

/// Reads an XML property list into `PlistNode`s from the events of `PlistXML`, keeping line numbers.
final class PlistReader {
    typealias Failure = PlistXML.Failure

    private enum Frame {
        case dict(entries: [(key: String, keyLine: Int, value: PlistNode)], pendingKey: (String, Int)?, line: Int)
        case array(items: [PlistNode], line: Int)
    }

    private var stack: [Frame] = []
    private var text = ""
    private var root: PlistNode?
    private var failure: Failure?
    private var sawPlist = false
    private var line = 1

    static func read(_ bytes: [UInt8]) -> Result<PlistNode, Failure> {
        let events: [PlistXML.Event]
        switch PlistXML.events(bytes) {
        case .failure(let f): return .failure(f)
        case .success(let e): events = e
        }
        let reader = PlistReader()
        for event in events {
            switch event {
            case .start(let name, let line):
                reader.line = line
                reader.start(name)
            case .text(let string): reader.text += string
            case .end(let name, let line):
                reader.line = line
                reader.end(name)
            }
            if let failure = reader.failure { return .failure(failure) }
        }
        guard reader.sawPlist, let root = reader.root else {
            return .failure(Failure(line: 1, message: "no <plist> element with a value"))
        }
        return .success(root)
    }

    private func fail(_ message: String) {
        if failure == nil { failure = Failure(line: line, message: message) }
    }

    private func start(_ name: String) {
        text = ""
        switch name {
        case "plist": sawPlist = true
        case "dict": stack.append(.dict(entries: [], pendingKey: nil, line: line))
        case "array": stack.append(.array(items: [], line: line))
        case "key", "string", "true", "false", "integer", "real", "date", "data": break
        default: fail("unexpected element <\(name)>")
        }
    }

    private func end(_ name: String) {
        switch name {
        case "plist": break
        case "key":
            guard case .dict(let entries, let pending, let l)? = stack.last else { return fail("<key> outside a <dict>") }
            if pending != nil { return fail("two keys in a row without a value") }
            stack[stack.count - 1] = .dict(entries: entries, pendingKey: (text, line), line: l)
        case "dict":
            guard case .dict(let entries, let pending, let l)? = stack.popLast() else { return fail("unbalanced </dict>") }
            if let pending { return fail("key \(pending.0) has no value") }
            add(.dict(entries, l))
        case "array":
            guard case .array(let items, let l)? = stack.popLast() else { return fail("unbalanced </array>") }
            add(.array(items, l))
        case "string": add(.string(text, line))
        case "true": add(.bool(true, line))
        case "false": add(.bool(false, line))
        case "integer", "real", "date", "data": add(.other(name, line))
        default: break
        }
        text = ""
    }

    private func add(_ node: PlistNode) {
        guard let top = stack.last else {
            if root != nil { return fail("more than one value at the top of the property list") }
            root = node
            return
        }
        switch top {
        case .dict(var entries, let pending, let l):
            guard let (key, keyLine) = pending else { return fail("a value in a <dict> without its <key>") }
            entries.append((key, keyLine, node))
            stack[stack.count - 1] = .dict(entries: entries, pendingKey: nil, line: l)
        case .array(var items, let l):
            items.append(node)
            stack[stack.count - 1] = .array(items: items, line: l)
        }
    }
}
