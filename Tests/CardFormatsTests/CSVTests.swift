import CardFormats
import ContactParser
import Foundation
import Testing
import TestSupport

/// CSV: the formula guard, and the Google and Outlook layouts read back with Python's csv.
@Suite struct CSVTests {
    /// OWASP's rule: every cell starting with = + - @ tab or CR (`-2+3 Foo Inc` and `+7+7 Ltd`
    /// run as formulas), but never a phone number in its E.164 form.
    @Test func theFormulaGuardSparesE164NumbersOnly() {
        #expect(CSV.field("=HYPERLINK(\"x\")") == "\"'=HYPERLINK(\"\"x\"\")\"")
        #expect(CSV.field("+14155550100") == "+14155550100")
        #expect(CSV.field("+14155550100; +442079460321") == "+14155550100; +442079460321")
        #expect(CSV.field("+1 415 555 0100") == "'+1 415 555 0100")
        #expect(CSV.field("+1415555010012345") == "'+1415555010012345")
        #expect(CSV.field("-2+3 Foo Inc") == "'-2+3 Foo Inc")
        #expect(CSV.field("+7+7 Ltd") == "'+7+7 Ltd")
        #expect(CSV.field("+0123") == "'+0123")
        #expect(CSV.field("@handle") == "'@handle")
        #expect(CSV.field("\tcmd") == "'\tcmd")
        #expect(CSV.field("\rcmd") == "\"'\rcmd\"")
        #expect(CSV.field("Acme") == "Acme")
    }

    /// The headers Google Contacts' and Outlook's own exports write (Google: numbered
    /// "E-mail 1 - Label/Value" pairs; Outlook: its fixed 92 columns).
    @Test func headersAreTheProductsOwn() {
        let google = AddressBookCSV.google.columns
        #expect(google.prefix(3) == ["First Name", "Middle Name", "Last Name"])
        for column in ["Organization Name", "Organization Title", "E-mail 1 - Label", "E-mail 1 - Value", "Phone 1 - Label",
                       "Phone 1 - Value", "Address 1 - Street", "Address 1 - City", "Address 1 - Region", "Address 1 - Postal Code",
                       "Address 1 - Country", "Website 1 - Value"] {
            #expect(google.contains(column), "\(column)")
        }
        let outlook = AddressBookCSV.outlook.columns
        #expect(outlook.count == 92 && outlook.first == "Title" && outlook.last == "Web Page")
        for column in ["First Name", "Last Name", "Company", "Job Title", "Business Phone", "Mobile Phone", "Business Fax",
                       "E-mail Address", "Business Street", "Business City", "Business State", "Business Postal Code",
                       "Business Country/Region"] {
            #expect(outlook.contains(column), "\(column)")
        }
        #expect(Set(google).count == google.count && Set(outlook).count == outlook.count)
    }

    @Test(arguments: AddressBookCSV.allCases) func pythonsCSVReadsEveryField(layout: AddressBookCSV) throws {
        let text = layout.header + layout.row(VCardTests.sample)
        let script = "import sys, csv, json; print(json.dumps(list(csv.DictReader(sys.stdin, dialect='excel'))))"
        let result = try runProcess(URL(fileURLWithPath: "/usr/bin/python3"), ["-c", script], stdin: Data(text.utf8))
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: String]])
        let row = try #require(rows.first)
        #expect(rows.count == 1 && row.count == layout.columns.count)
        let google = layout == .google
        #expect(row["First Name"] == "Zoë" && row["Last Name"] == "O'Neill-Brontë")
        #expect(row[google ? "Organization Name" : "Company"] == "Smith, Jones & Partners")
        #expect(row[google ? "Organization Title" : "Job Title"] == "Head of Research, Europe; Special Projects")
        #expect(row[google ? "E-mail 1 - Value" : "E-mail Address"] == "zoe@smithjones.co.uk")
        #expect(row[google ? "Phone 1 - Value" : "Business Phone"] == "+442079460321")
        #expect(row[google ? "Phone 2 - Value" : "Mobile Phone"] == "+447700900461")
        #expect(row[google ? "Phone 3 - Value" : "Business Fax"] == "020 7946 0999")
        #expect(row[google ? "Address 1 - Street" : "Business Street"] == "Flat 2, 14 Wharf Road")
        #expect(row[google ? "Address 1 - City" : "Business City"] == "London")
        #expect(row[google ? "Address 1 - Postal Code" : "Business Postal Code"] == "N1 7GR")
        #expect(row[google ? "Address 1 - Country" : "Business Country/Region"] == "United Kingdom")
        #expect(row[google ? "Website 1 - Value" : "Web Page"] == "https://www.smithjones.co.uk")
    }
}
