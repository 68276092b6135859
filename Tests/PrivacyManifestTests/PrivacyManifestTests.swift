import Foundation
import Testing
import TestSupport
import CardScan
@testable import PrivacyManifest

@Suite struct PrivacyManifestTests {
    static var manifest: URL { TestPaths.packageRoot.appendingPathComponent("Sources/CardScan/Resources/PrivacyInfo.xcprivacy") }

    @Test func ourManifestShipsAsAResourceAndLintsClean() throws {
        let bundled = try #require(CardScanPrivacy.manifestURL)
        let data = try Data(contentsOf: bundled)
        #expect(data == (try Data(contentsOf: Self.manifest)))
        #expect(PrivacyManifestLinter.lint(data: data, file: "PrivacyInfo.xcprivacy").isEmpty)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE plist"))
    }

    /// Required-reason APIs by category, as Apple lists them (symbols as they appear in source).
    static let requiredReasonAPIs: [String: [String]] = [
        "NSPrivacyAccessedAPICategoryFileTimestamp": [
            "creationDate", "modificationDate", "fileModificationDate", "contentModificationDateKey", "creationDateKey",
            "getattrlist", "getattrlistbulk", "fgetattrlist", "getattrlistat", "stat(", "fstat(", "fstatat(", "lstat(",
            "NSFileCreationDate", "NSFileModificationDate",
        ],
        "NSPrivacyAccessedAPICategorySystemBootTime": ["systemUptime", "mach_absolute_time"],
        "NSPrivacyAccessedAPICategoryDiskSpace": [
            "volumeAvailableCapacity", "volumeTotalCapacity", "systemFreeSize", "systemSize", "statfs(", "statvfs(", "fstatfs(", "fstatvfs(",
        ],
        "NSPrivacyAccessedAPICategoryActiveKeyboards": ["activeInputModes"],
        "NSPrivacyAccessedAPICategoryUserDefaults": ["UserDefaults", "NSUserDefaults"],
    ]

    /// Fails when the code starts using a required-reason API the manifest does not declare (or
    /// stops using one it does).
    @Test func theManifestDeclaresExactlyTheRequiredReasonAPIsTheCodeUses() throws {
        let sources = TestPaths.packageRoot.appendingPathComponent("Sources")
        let files = (FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String } ?? [])
            .filter { name in [".swift", ".c", ".cpp", ".h"].contains { name.hasSuffix($0) } }
        var used: [String: [String]] = [:]
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            // Comments and string literals do not call anything.
            let code = text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
                .map { $0.replacingOccurrences(of: #""[^"]*""#, with: "\"\"", options: .regularExpression) }
                .joined(separator: "\n")
            for (category, symbols) in Self.requiredReasonAPIs {
                for symbol in symbols where code.contains(symbol) {
                    used[category, default: []].append("\(file): \(symbol)")
                }
            }
        }
        let declared = try Self.declaredCategories(Data(contentsOf: Self.manifest))
        #expect(Set(used.keys) == declared, "used: \(used), declared: \(declared)")
    }

    static func declaredCategories(_ data: Data) throws -> Set<String> {
        let plist = try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
        let entries = plist?["NSPrivacyAccessedAPITypes"] as? [[String: Any]] ?? []
        return Set(entries.compactMap { $0["NSPrivacyAccessedAPIType"] as? String })
    }

    static func plist(_ body: String) -> Data {
        Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \(body)
            </dict>
            </plist>
            """.utf8)
    }

    /// One broken manifest per rule, and the finding it must give (line, severity, words of the message).
    @Test(arguments: [
        ("<key>NSPrivacyTracking</key><string>false</string>", 5, "error", "must be a boolean"),
        ("<key>NSPrivacyTrackingDomains</key><array/>", 4, "error", "NSPrivacyTracking is missing"),
        ("<key>NSPrivacyTracking</key><true/>\n<key>NSPrivacyTrackingDomains</key><array/>", 6, "error", "must list the tracking domains"),
        ("<key>NSPrivacyTracking</key><true/>\n<key>NSPrivacyTrackingDomains</key><array><string>not a domain</string></array>", 6, "error", "not a valid domain name"),
        ("<key>NSPrivacyTracking</key><false/>\n<key>NSPrivacyCollectedDataTypes</key><array><dict>\n<key>NSPrivacyCollectedDataType</key><string>NSPrivacyCollectedDataTypeName</string>\n</dict></array>", 6, "error", "lacks NSPrivacyCollectedDataTypeLinked"),
        ("<key>NSPrivacyTracking</key><false/>\n<key>NSPrivacyCollectedDataTypes</key><array><dict>\n<key>NSPrivacyCollectedDataType</key><string>NSPrivacyCollectedDataTypeCards</string>\n<key>NSPrivacyCollectedDataTypeLinked</key><false/>\n<key>NSPrivacyCollectedDataTypeTracking</key><false/>\n<key>NSPrivacyCollectedDataTypePurposes</key><array><string>NSPrivacyCollectedDataTypePurposeAppFunctionality</string></array>\n</dict></array>", 7, "error", "not one of Apple's collected data types"),
        ("<key>NSPrivacyTracking</key><false/>\n<key>NSPrivacyCollectedDataTypes</key><array><dict>\n<key>NSPrivacyCollectedDataType</key><string>NSPrivacyCollectedDataTypeName</string>\n<key>NSPrivacyCollectedDataTypeLinked</key><string>no</string>\n<key>NSPrivacyCollectedDataTypeTracking</key><false/>\n<key>NSPrivacyCollectedDataTypePurposes</key><array><string>NSPrivacyCollectedDataTypePurposeAppFunctionality</string></array>\n</dict></array>", 8, "error", "Linked must be a boolean"),
        ("<key>NSPrivacyTracking</key><false/>\n<key>NSPrivacyCollectedDataTypes</key><array><dict>\n<key>NSPrivacyCollectedDataType</key><string>NSPrivacyCollectedDataTypeName</string>\n<key>NSPrivacyCollectedDataTypeLinked</key><false/>\n<key>NSPrivacyCollectedDataTypeTracking</key><false/>\n<key>NSPrivacyCollectedDataTypePurposes</key><array/>\n</dict></array>", 10, "error", "at least one purpose"),
        ("<key>NSPrivacyTracking</key><false/>\n<key>NSPrivacyCollectedDataTypes</key><array><dict>\n<key>NSPrivacyCollectedDataType</key><string>NSPrivacyCollectedDataTypeName</string>\n<key>NSPrivacyCollectedDataTypeLinked</key><false/>\n<key>NSPrivacyCollectedDataTypeTracking</key><false/>\n<key>NSPrivacyCollectedDataTypePurposes</key><array><string>Marketing</string></array>\n</dict></array>", 10, "error", "six purposes"),
        ("<key>NSPrivacyTracking</key><false/>\n<key>NSPrivacyCollectedDataTypes</key><array><dict>\n<key>NSPrivacyCollectedDataType</key><string>NSPrivacyCollectedDataTypeName</string>\n<key>NSPrivacyCollectedDataTypeLinked</key><false/>\n<key>NSPrivacyCollectedDataTypeTracking</key><true/>\n<key>NSPrivacyCollectedDataTypePurposes</key><array><string>NSPrivacyCollectedDataTypePurposeAnalytics</string></array>\n</dict></array>", 9, "error", "requires NSPrivacyTracking to be true"),
        ("<key>NSPrivacyTracking</key><false/>\n<key>NSPrivacyAccessedAPITypes</key><array><dict>\n<key>NSPrivacyAccessedAPIType</key><string>NSPrivacyAccessedAPICategoryCamera</string>\n<key>NSPrivacyAccessedAPITypeReasons</key><array><string>C617.1</string></array>\n</dict></array>", 7, "error", "not a required-reason API category"),
        ("<key>NSPrivacyTracking</key><false/>\n<key>NSPrivacyAccessedAPITypes</key><array><dict>\n<key>NSPrivacyAccessedAPIType</key><string>NSPrivacyAccessedAPICategoryUserDefaults</string>\n<key>NSPrivacyAccessedAPITypeReasons</key><array><string>C617.1</string></array>\n</dict></array>", 8, "error", "not valid for NSPrivacyAccessedAPICategoryUserDefaults"),
        ("<key>NSPrivacyTracking</key><false/>\n<key>NSPrivacyAccessedAPITypes</key><array><dict>\n<key>NSPrivacyAccessedAPIType</key><string>NSPrivacyAccessedAPICategoryDiskSpace</string>\n<key>NSPrivacyAccessedAPITypeReasons</key><array><string>E174.1</string></array>\n</dict><dict>\n<key>NSPrivacyAccessedAPIType</key><string>NSPrivacyAccessedAPICategoryDiskSpace</string>\n<key>NSPrivacyAccessedAPITypeReasons</key><array><string>85F4.1</string></array>\n</dict></array>", 10, "error", "declared twice"),
        ("<key>NSPrivacyTracking</key><false/>\n<key>NSPrivacyTrackingDomain</key><array/>", 6, "warning", "unknown key NSPrivacyTrackingDomain"),
    ] as [(String, Int, String, String)])
    func eachBrokenManifestGivesItsFinding(body: String, line: Int, severity: String, words: String) {
        let findings = PrivacyManifestLinter.lint(data: Self.plist(body), file: "App/PrivacyInfo.xcprivacy")
        #expect(findings.contains { $0.line == line && $0.severity.rawValue == severity && $0.message.contains(words) },
                "\(findings.map(\.description))")
    }

    @Test func malformedXMLAndAWrongRootAreErrors() {
        let broken = PrivacyManifestLinter.lint(data: Data("<plist><dict><key>a</key>".utf8), file: "x")
        #expect(broken.first?.severity == .error && broken.first?.message.contains("not a well-formed property list") == true)
        let array = PrivacyManifestLinter.lint(data: Data("<plist><array/></plist>".utf8), file: "x")
        #expect(array.first?.message.contains("root of a privacy manifest must be a dictionary") == true)
    }
}

@Suite struct PrivacyReadmeExampleTests {
    /// The documented example gives exactly the findings docs/library.md shows (docs/examples/lint-output.txt).
    @Test func theDocumentedExampleGivesTheDocumentedFindings() throws {
        let folder = TestPaths.packageRoot.appendingPathComponent("docs/examples")
        let data = try Data(contentsOf: folder.appendingPathComponent("PrivacyInfo.xcprivacy"))
        let expected = try String(contentsOf: folder.appendingPathComponent("lint-output.txt"), encoding: .utf8)
        let got = PrivacyManifestLinter.lint(data: data, file: "PrivacyInfo.xcprivacy").map { $0.description + "\n" }.joined()
        #expect(got == expected)
        let guide = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("docs/library.md"), encoding: .utf8)
        #expect(guide.contains(expected))
    }
}

/// Inputs the fuzzer found (Fuzz/Regressions): each gives findings, never a crash.
@Suite struct PrivacyFuzzRegressionTests {
    @Test func everyRegressionFileLintsWithoutCrashing() throws {
        let folder = TestPaths.packageRoot.appendingPathComponent("Fuzz/Regressions/privacy-linter")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(!names.isEmpty)
        for name in names {
            let findings = PrivacyManifestLinter.lint(data: try Data(contentsOf: folder.appendingPathComponent(name)), file: name)
            #expect(findings.contains { $0.severity == .error }, "\(name)")
        }
        // The one that made FoundationXML trap: element names that are not UTF-8.
        let bad = Data("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><dict><array".utf8) + Data([0xC2, 0xF5, 0xF6]) + Data("/></dict></plist>".utf8)
        #expect(PrivacyManifestLinter.lint(data: bad, file: "x").map(\.message) == ["not valid UTF-8 (byte 72); a privacy manifest is an XML property list in UTF-8"])
    }
}


/// The plist XML reader: what plists use, and nothing that could be abused.
@Suite struct PlistXMLTests {
    func events(_ text: String) -> Result<[PlistXML.Event], PlistXML.Failure> { PlistXML.events(Array(text.utf8)) }

    @Test func readsElementsTextEntitiesAndCDATAWithLines() throws {
        let text = "<?xml version=\"1.0\"?>\n<!DOCTYPE plist [ <!ENTITY x \"boom\"> ]>\n<!-- c -->\n<plist version=\"1.0\"><dict>\n<key>a&amp;b&#65;&#x42;</key><string><![CDATA[<x>]]></string><true/></dict></plist>\n"
        let result = try events(text).get()
        #expect(result.first == .start("plist", line: 4))
        #expect(result.contains(.text("a&bAB")))
        #expect(result.contains(.text("<x>")))
        #expect(result.contains(.start("true", line: 5)) && result.contains(.end("true", line: 5)))
    }

    @Test(arguments: [
        ("<plist><?pi?></plist>", "a processing instruction inside the document"),
        ("<plist>&x;</plist>", "&x; is not an entity a property list may use"),
        ("<plist><dict></plist>", "</plist> closes <dict>"),
        ("<plist>", "<plist> is never closed"),
        ("<plist/><plist/>", "a second root element <plist>"),
        ("text", "text outside the root element"),
        ("", "no root element"),
    ])
    func refusesWhatPlistsDoNotUse(text: String, message: String) {
        guard case .failure(let failure) = events(text) else { Issue.record("accepted \(text)"); return }
        #expect(failure.message == message)
    }

    @Test func nestingIsBounded() {
        let deep = String(repeating: "<array>", count: 100) + String(repeating: "</array>", count: 100)
        guard case .failure(let failure) = events(deep) else { Issue.record("accepted"); return }
        #expect(failure.message.contains("nested more than 64 deep"))
    }
}
