import Testing
@testable import ContactParser

/// The public suffixes the parser knows: the ICANN section of the system's Public Suffix List
/// (Debian's `publicsuffix`, which scripts/setup.sh installs), rules of one or two labels.
@Suite struct PublicSuffixTests {
    /// The system's list is the one read; `kids` is the most recent top-level domain in the list
    /// Debian 12 ships (delegated in 2021), so a frozen copy older than that would fail here.
    @Test func theSystemsListIsReadWithARecentSuffix() throws {
        #expect(ContactParser.publicSuffixListError == nil)
        let list = try PublicSuffixList.system()
        #expect(list.suffixes.count > 4_000)
        #expect(list.suffixes.isSuperset(of: ["com", "de", "co.uk", "com.au", "co.jp", "kids", "music"]))
        #expect(Domains.publicSuffix(of: "acme.kids") == "kids")
        #expect(Domains.registrableLabel(of: "www.acme.co.uk") == "acme")
    }

    /// A suffix is known as soon as the list holds it: no copy in the code to regenerate.
    @Test func aSuffixAddedToTheListIsKnown() {
        let text = """
            // ===BEGIN ICANN DOMAINS===
            com
            // newtld : 2030-01-01 A registry not yet delegated
            newtld
            co.newtld
            *.ck
            !www.ck
            a.b.c
            食狮.com.cn
            // ===END ICANN DOMAINS===
            // ===BEGIN PRIVATE DOMAINS===
            github.io
            // ===END PRIVATE DOMAINS===
            """
        #expect(PublicSuffixList(text: text).suffixes == ["com", "newtld", "co.newtld"])
    }

    /// The private section (blogspot.com, github.io ...) is not used: a page on a platform is
    /// named by the platform's label, as a company's own domain is by its own.
    @Test func privateSuffixesAreNotPublicSuffixes() {
        #expect(Domains.publicSuffix(of: "jane.github.io") == "io")
        #expect(Domains.registrableLabel(of: "jane.github.io") == "github")
        #expect(Domains.publicSuffix(of: "acme.blogspot.com") == "com")
    }

    /// A missing list is an error that names the file and the package to install.
    @Test func aMissingListNamesTheFileAndThePackage() {
        let missing = "/nonexistent/public_suffix_list.dat"
        #expect {
            try PublicSuffixList.system(environment: [PublicSuffixList.environmentVariable: missing])
        } throws: { error in
            let message = (error as? ContactParserError)?.message ?? ""
            return message.contains(missing) && message.contains("apt-get install publicsuffix")
        }
    }

    /// Without a list, a top-level domain is recognised by its shape.
    @Test func withoutAListATopLevelDomainGoesByItsShape() {
        #expect(PublicSuffixList.looksLikeTopLevelDomain("com"))
        #expect(PublicSuffixList.looksLikeTopLevelDomain("xn--p1ai"))
        #expect(!PublicSuffixList.looksLikeTopLevelDomain("c0m"))
        #expect(!PublicSuffixList.looksLikeTopLevelDomain("x"))
    }
}
