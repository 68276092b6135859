import CardFormats
import ContactParser
import Foundation
import Testing
import TestSupport

/// The JSON reader (RFC 8259) and the one JSON form of a contact, written and read back.
@Suite struct JSONTests {
    @Test func valuesAreReadAsWritten() throws {
        let v = try JSONValue.parse(#" {"a": [1, -2.5, 3e2, true, false, null], "s": "x\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00", "e": {}, "l": []} "#)
        #expect(v["a"] == .array([.integer(1), .number(-2.5), .number(300), .bool(true), .bool(false), .null]))
        #expect(v["s"]?.stringValue == "x\"\\/\u{08}\u{0C}\n\r\té😀")
        #expect(v["e"] == .object([]) && v["l"] == .array([]) && v["missing"] == nil)
        #expect(try JSONValue.parse("-0") == .integer(0))
        #expect(try JSONValue.parse("12345678901234567890") == .number(12345678901234567890))
    }

    @Test(arguments: ["", " ", "{", "[1,]", "[1 2]", #"{"a" 1}"#, #"{"a":1,}"#, "{1:2}", "01", "1.", "1e", "-", ".5", "+1",
                      "tru", "nul", "NaN", "1e999", #""\x""#, "\"a\u{01}\"", #""\ud800""#, #""\udc00x""#, #""\u12g4""#, #""abc"#,
                      "1 2", "[] []", "'a'"])
    func malformedTextIsRefused(_ text: String) {
        #expect(throws: FormatError.self) { try JSONValue.parse(text) }
    }

    @Test func nestingIsBounded() throws {
        let deepest = String(repeating: "[", count: JSONValue.maxDepth) + String(repeating: "]", count: JSONValue.maxDepth)
        _ = try JSONValue.parse(deepest)
        let tooDeep = "[" + deepest + "]"
        #expect(throws: FormatError(.nestedTooDeep, "JSON nested deeper than 64 levels at byte 65")) { try JSONValue.parse(tooDeep) }
    }

    @Test func aRefusalNeverQuotesTheText() {
        do {
            _ = try JSONValue.parse(#"{"name": "Ana Ruiz", "phone": +34}"#)
            Issue.record("must be refused")
        } catch {
            #expect(!error.message.contains("Ana") && !error.message.contains("34"))
            #expect(error.message.contains("at byte"))
        }
    }

    /// Random values, strings full of escapes and non-Latin text, written and read back; Foundation
    /// reads the same text to the same strings.
    @Test func whatIsWrittenReadsBackTheSame() throws {
        var g = SeededGenerator(state: 7)
        let pieces = ["a", "é", "\"", "\\", "\n", "\u{01}", "\u{1F}", "😀", "山田", "/", " ", "\u{7F}", "\u{2028}"]
        func text() -> String { (0..<Int.random(in: 0...6, using: &g)).map { _ in pieces.randomElement(using: &g)! }.joined() }
        func value(_ depth: Int) -> JSONValue {
            switch Int.random(in: depth > 3 ? 0...4 : 0...6, using: &g) {
            case 0: return .null
            case 1: return .bool(Bool.random(using: &g))
            case 2: return .integer(Int.random(in: -1_000_000...1_000_000, using: &g))
            case 3: return .number(Double.random(in: -1e6...1e6, using: &g))
            case 4: return .string(text())
            case 5: return .array((0..<Int.random(in: 0...4, using: &g)).map { _ in value(depth + 1) })
            default: return .object((0..<Int.random(in: 0...4, using: &g)).map { _ in (text(), value(depth + 1)) })
            }
        }
        for _ in 0..<300 {
            let v = value(0)
            let written = v.serialized()
            #expect(try JSONValue.parse(written) == v)
            if case .string(let s) = v {
                #expect(try JSONSerialization.jsonObject(with: Data(written.utf8), options: .fragmentsAllowed) as? String == s)
            }
        }
    }

    static let full: Contact = {
        var c = Contact()
        c.name = PersonName(full: "山田 太郎", given: "太郎", family: "山田", phonetic: "やまだ たろう")
        c.title = "部長"
        c.organization = "Example \"Quoted\" K.K."
        c.phones = [Phone(type: .mobile, number: "090-1234-5678", e164: "+819012345678"),
                    Phone(type: .fax, number: "1234-5678", e164: nil, valid: false)]
        c.emails = ["taro@example.jp"]
        c.urls = ["https://example.jp"]
        c.address = PostalAddress(lines: ["〒100-0005", "東京都千代田区丸の内1-1"], city: "千代田区", region: "東京都", postalCode: "100-0005", country: "JP")
        c.region = RegionGuess(code: "JP", sources: ["phone", "postcode"])
        return c
    }()

    @Test func aContactReadsBackFromItsJSON() throws {
        let back = try Contact(json: JSONValue.parse(Self.full.json().serialized()))
        #expect(back == Self.full)
        #expect(try Contact(json: JSONValue.parse(Contact().json().serialized())) == Contact())
        for field in Contact.Field.allCases {
            var one = Contact()
            try one.set(field, json: #require(Self.full.json(of: field)))
            #expect(one.json(of: field) == Self.full.json(of: field), "\(field)")
            try one.set(field, json: .null)
            #expect(one == Contact(), "\(field)")
        }
    }

    @Test(arguments: [#"[]"#, #"{"name": "Ana"}"#, #"{"name": {"given": "Ana"}}"#, #"{"phones": [{"number": "1"}]}"#,
                      #"{"phones": [{"type": "pager", "number": "1"}]}"#, #"{"emails": "a@b.c"}"#, #"{"emails": [1]}"#,
                      #"{"title": 3}"#, #"{"address": {"city": "X"}}"#, #"{"region": 1}"#, #"{"name": {"full": "A", "given": 2}}"#])
    func aContactOfTheWrongShapeIsRefused(_ text: String) throws {
        let value = try JSONValue.parse(text)
        #expect(throws: FormatError.self) { try Contact(json: value) }
    }
}
