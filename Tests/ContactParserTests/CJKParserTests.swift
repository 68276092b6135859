import Testing
@testable import ContactParser

/// Japanese, Chinese and Korean cards, made up, parsed by those countries' conventions.
@Suite struct CJKParserTests {
    /// A card's lines with their type sizes, top to bottom.
    static func card(_ lines: [(String, Double)]) -> [TextLine] {
        var top = 40.0
        return lines.map { text, height in
            defer { top += height * 1.6 }
            return TextLine(text: text, confidence: 0.9, height: height, top: top, left: 60)
        }
    }

    @Test func japaneseCardFamilyNameFirstWithItsReading() {
        let contact = ContactParser(fallbackRegion: nil).parse(lines: Self.card([
            ("株式会社みどり製作所", 32), ("営業部 課長", 24), ("ミドリカワ ハナコ", 16), ("緑川 花子", 50),
            ("〒123-4567 東京都千代田区丸の内9-8-7", 20), ("TEL：０３-１２３４-５６７８", 18), ("携帯 090-1234-5678", 18),
            ("hanako@midori-example.co.jp", 18),
        ]))
        #expect(contact.name?.full == "緑川 花子")
        #expect(contact.name?.family == "緑川")
        #expect(contact.name?.given == "花子")
        #expect(contact.name?.phonetic == "ミドリカワ ハナコ")
        #expect(contact.organization == "株式会社みどり製作所")
        #expect(contact.title == "営業部 課長")
        #expect(contact.region?.code == "JP")
        #expect(contact.address?.postalCode == "123-4567")
        #expect(contact.address?.region == "東京都")
        #expect(contact.address?.city == "千代田区")
        #expect(contact.phones.map(\.type) == [.work, .mobile])
        #expect(contact.phones.first?.e164 == "+81312345678")
        #expect(contact.emails == ["hanako@midori-example.co.jp"])
    }

    /// A Japanese card whose only kana are the given name's, among many Han characters (company,
    /// title, a long address), is still read as Japanese: its name of five letters is a name.
    @Test func aFewKanaAmongManyHanCharactersMakeACardJapanese() {
        let contact = ContactParser(fallbackRegion: nil).parse(lines: Self.card([
            ("海山運輸株式会社", 32), ("代表取締役社長", 24), ("高橋さくら", 50),
            ("〒123-4567 東京都千代田区大手町九丁目8番7号", 20), ("携帯電話 090-1234-5678", 18),
        ]))
        #expect(contact.name?.full == "高橋さくら")
        #expect(contact.name?.family == "高橋")
        #expect(contact.name?.given == "さくら")
        #expect(contact.organization == "海山運輸株式会社")
        #expect(CJKText.script(CJKText.counts("高橋さくら海山運輸株式会社代表取締役社長東京都千代田区大手町九丁目番号携帯電話")) == .japanese)
        #expect(CJKText.script(CJKText.counts("海山运输有限公司总经理北京市朝阳区")) == .chinese)
    }

    /// Han numerals (一, 二, 三) are letters of names and titles, not digits.
    @Test func namesAndTitlesWithHanNumeralsAreNamesAndTitles() {
        let contact = ContactParser(fallbackRegion: nil).parse(lines: Self.card([
            ("海山運輸株式会社", 32), ("第二営業部 課長", 24), ("森野 健一", 50), ("〒123-4567 東京都千代田区丸の内9-8-7", 20),
        ]))
        #expect(contact.name?.full == "森野 健一")
        #expect(contact.name?.given == "健一")
        #expect(contact.title == "第二営業部 課長")
        #expect(CJKText.isDigit("７") && CJKText.isDigit("7") && !CJKText.isDigit("一") && !CJKText.isDigit("十"))
    }

    /// A name read as one word whose characters Tesseract boxed apart: the widest gap, a third of a
    /// character or more and clearly wider than the others, is the printed space.
    @Test func aNameReadAsOneIsPartedAtItsWidestGap() {
        func line(_ gaps: [Double]) -> CJKLine {
            var left = 100.0
            let words = zip(["欧", "凤", "兰"], [0.0] + gaps).map { text, gap -> TextWord in
                left += gap
                defer { left += 40 }
                return TextWord(text: text, left: left, right: left + 40, confidence: 0.9)
            }
            return CJKLine(text: "欧凤兰", folded: "欧凤兰", height: 42, top: 100, index: 0, words: words, confidence: 0.9)
        }
        let people = CJKPeople(script: .chinese)
        #expect(people.personName(line([24, 8])).full == "欧 凤兰")
        #expect(people.personName(line([10, 8])).full == "欧凤兰")
        #expect(people.personName(line([20, 18])).full == "欧凤兰")
    }

    /// A prefecture OCR misread by one character before its mark is the listed one, and the
    /// city after it is the card's city; a city's name one character from a listed city stays.
    @Test func aPrefectureMisreadByOneCharacterIsTheListedOne() {
        let contact = ContactParser(fallbackRegion: nil).parse(lines: Self.card([
            ("株式会社みどり製作所", 32), ("緑川 花子", 50), ("〒371-0001 税馬県前橋市大手町9-8-7", 20), ("携帯 090-1234-5678", 18),
        ]))
        #expect(contact.address?.region == "群馬県")
        #expect(contact.address?.city == "前橋市")
        #expect(contact.address?.street == "大手町9-8-7")
        #expect(CJKAddress.misreadSubregion(atStartOf: "福X県福岡市", regions: ["JP"]) == nil)
        #expect(CJKAddress.misreadSubregion(atStartOf: "上虞市百官街道1号", regions: ["CN"]) == nil)
    }

    /// A Korean road address read with its syllables parted and its number joined comes out as
    /// the standard form writes it: the road's name as one word, a space, the building's number.
    @Test func aKoreanRoadAddressTakesItsStandardForm() {
        #expect(CJKAddress.koreanStreet("예솔 대로261") == "예솔대로 261")
        #expect(CJKAddress.koreanStreet("한빛호 수로 250, 3층") == "한빛호수로 250, 3층")
        #expect(CJKAddress.koreanStreet("새봄로7길 22") == "새봄로7길 22")
        #expect(CJKAddress.koreanStreet("새봄로 12번길 8") == "새봄로12번길 8")
        #expect(CJKAddress.koreanStreet("예솔빌딩 5층") == "예솔빌딩 5층")
        let joined = CJKAddress.split("서울특별시 한솔구예솔로47", region: "KR")
        #expect(joined.city == "한솔구")
        #expect(joined.street == "예솔로 47")
    }

    @Test func aWardOfAJapaneseDesignatedCityIsPartOfItsMunicipality() {
        let city = CJKAddress.split("神奈川県例浜市港北区新町3-2-1", region: "JP")
        #expect(city.region == "神奈川県")
        #expect(city.city == "例浜市港北区")
        #expect(city.street == "新町3-2-1")
        #expect(CJKAddress.split("東京都例野市松が谷8-30-9", region: "JP").city == "例野市")
        // A Chinese city's district is not part of it.
        #expect(CJKAddress.split("广东省例圳市南山区科技路8号", region: "CN").city == "例圳市")
    }

    @Test func aSpaceReadInsideTheRegionsNameIsNoSpace() {
        let address = CJKAddress.split("神奈 川県例浜市港北区新町3-2-1", region: "JP")
        #expect(address.region == "神奈川県")
        #expect(address.city == "例浜市港北区")
        #expect(address.street == "新町3-2-1")
        let chinese = CJKAddress.split("广东 省例圳市南山区科技路8号", region: "CN")
        #expect(chinese.region == "广东省")
        #expect(chinese.city == "例圳市")
    }

    /// China's autonomous regions and special administrative regions are a province's level: the
    /// city follows them, also where OCR misread a character of the region's name or set a space
    /// inside it.
    @Test func aChineseAutonomousOrSpecialRegionIsTheRegionAndTheCityFollowsIt() {
        for (line, region) in [("香港特别行政区例州市南山区科技路8号", "香港特别行政区"), ("澳门特别行政区例州市南山区科技路8号", "澳门特别行政区"),
                               ("新疆维否尔自治区例州市南山区科技路8号", "新疆维吾尔自治区"), ("西藏自 治区例州市南山区科技路8号", "西藏自治区"),
                               ("广西壮族自治区例州市南山区科技路8号", "广西壮族自治区")] {
            let address = CJKAddress.split(line, region: "CN")
            #expect(address.region == region, "\(line)")
            #expect(address.city == "例州市", "\(line)")
            #expect(address.street == "南山区科技路8号", "\(line)")
        }
        // Two characters misread: not read as the listed region's name.
        #expect(CJKAddress.split("新疆维否东自治区例州市南山区科技路8号", region: "CN").region != "新疆维吾尔自治区")
    }

    /// The postcode printed alone on the line above the address: the address is the next line,
    /// with the postcode, and its building on the line below.
    @Test func aPostcodeAloneAboveTheAddressTakesTheAddressWithIt() {
        let contact = ContactParser(fallbackRegion: nil).parse(lines: Self.card([
            ("株式会社例野商事", 30), ("営業部 部長", 22), ("例野 太郎", 48), ("〒123-4567", 18),
            ("東京都例野市松が谷8-30-9", 18), ("例野ビル 5階", 18), ("TEL 03-1234-5678", 18),
        ]))
        #expect(contact.region?.code == "JP")
        #expect(contact.address?.postalCode == "123-4567")
        #expect(contact.address?.region == "東京都")
        #expect(contact.address?.city == "例野市")
        #expect(contact.address?.street == "松が谷8-30-9")
        #expect(contact.address?.lines == ["〒123-4567", "東京都例野市松が谷8-30-9", "例野ビル 5階"])
    }

    @Test func aPostcodeDashReadAsABarOrALongVowelMarkIsStillADash() {
        for printed in ["〒123|4567", "〒123ー4567", "〒123一4567", "〒123.4567"] {
            let contact = ContactParser(fallbackRegion: nil).parse(lines: Self.card([
                ("株式会社例野商事", 30), ("例野 太郎", 48), (printed, 18),
                ("東京都例野市松が谷8-30-9", 18), ("例野ビル 5階", 18), ("TEL 03-1234-5678", 18),
            ]))
            #expect(contact.address?.postalCode == "123-4567", "\(printed)")
            #expect(contact.address?.region == "東京都", "\(printed)")
        }
    }

    /// A card printed in Chinese whose calling code OCR misread as another country's (+856, Laos's,
    /// for Taiwan's +886) is still Taiwan's: its address is read by Taiwan's units, with its
    /// postcode of three digits.
    @Test func aCardsScriptOutweighsACallingCodeOfACountryThatDoesNotWriteIt() {
        let contact = ContactParser(fallbackRegion: nil).parse(lines: Self.card([
            ("例辰光電股份有限公司", 30), ("總經理", 22), ("陳 例明", 48), ("106 台北市例安區和平東路二段99號", 18),
            ("Mobile: +856 912 345 678", 18), ("chen@lichen-example.com.tw", 18),
        ]))
        #expect(contact.region?.code == "TW")
        #expect(contact.address?.postalCode == "106")
        #expect(contact.address?.city == "台北市")
        // A country named in words is kept: a Japanese card of an office abroad.
        let abroad = ContactParser(fallbackRegion: nil).parse(lines: Self.card([
            ("株式会社例野商事", 30), ("例野 太郎", 48), ("例野ニューヨーク支店", 18), ("New York, NY 10001, USA", 18),
            ("TEL +1 212-555-0142", 18),
        ]))
        #expect(abroad.region?.code == "US")
    }

    /// A line read unsurely gives a valid number a label starts it with, typed by the label; an
    /// unlabelled run of digits on a line with an e-mail address gives none.
    @Test func anUnsureLabelledLineGivesItsNumberAndAnEmailLineNone() {
        func line(_ text: String, _ confidence: Double, _ index: Int) -> CJKLine {
            CJKLine(text: text, folded: text, height: 20, top: Double(index) * 30, index: index,
                    words: [TextWord(text: text, left: 0, right: 300, confidence: confidence)], confidence: confidence)
        }
        let found = CJKPhones.extract(from: [line("전화 02-345-6789", 0.9, 0), line("팩스 02-345-6790", 0.1, 1),
                                             line("사 비 54@1130030.00.0", 0.4, 2), line("7301130.00.0 12@3456", 0.1, 3)], region: "KR")
        #expect(found.phones.map(\.number) == ["02-345-6789", "02-345-6790"])
        #expect(found.phones.map(\.type) == [.work, .fax])
        // Unsure and unlabelled, or labelled by a single letter: no number.
        let unsure = CJKPhones.extract(from: [line("02-345-6790", 0.1, 0), line("F 02-345-6791", 0.1, 1)], region: "KR")
        #expect(unsure.phones.isEmpty)
        // A labelled number beside an e-mail address on one line stays.
        let both = CJKPhones.extract(from: [line("電話 03-1234-5678 info@example.co.jp", 0.9, 0)], region: "JP")
        #expect(both.phones.map(\.number) == ["03-1234-5678"])
    }

    /// A postcode line whose mark OCR misread (a character of 邮编 wrong, a bracket for another,
    /// 〒 read as a quote) still gives the postcode, when the code has the region's own shape.
    @Test func aPostcodeWithAMisreadMarkIsStillThePostcode() {
        let chinese = ContactParser(fallbackRegion: nil).parse(lines: Self.card([
            ("例江科技有限公司", 30), ("张 例明", 48), ("广东省例圳市南山区科技路8号", 18), ("部编: 518057", 18),
            ("电话: 0755 2345 6789", 18),
        ]))
        #expect(chinese.address?.postalCode == "518057")
        #expect(chinese.address?.city == "例圳市")
        // The longest mark, one character of it misread, and its colon.
        let longMark = ContactParser(fallbackRegion: nil).parse(lines: Self.card([
            ("例江科技有限公司", 30), ("张 例明", 48), ("广东省例圳市南山区科技路8号", 18), ("邮政蝠码; 518057", 18),
            ("电话: 0755 2345 6789", 18),
        ]))
        #expect(longMark.address?.postalCode == "518057")
        let korean = ContactParser(fallbackRegion: nil).parse(lines: Self.card([
            ("(주)예솔상사", 30), ("김 예솔", 48), ("서울특별시 한솔구 예솔로 47", 18), ("( 우 ] 01234", 18),
            ("전화 02-123-4567", 18),
        ]))
        #expect(korean.address?.postalCode == "01234")
        let japanese = ContactParser(fallbackRegion: nil).parse(lines: Self.card([
            ("株式会社例野商事", 30), ("例野 太郎", 48), ("'123-4567", 18), ("東京都例野市松が谷8-30-9", 18),
            ("例野ビル 5階", 18), ("TEL 03-1234-5678", 18),
        ]))
        #expect(japanese.address?.postalCode == "123-4567")
        // A line of a few letters and a number of another shape is not a postcode.
        let other = ContactParser(fallbackRegion: nil).parse(lines: Self.card([
            ("例江科技有限公司", 30), ("张 例明", 48), ("广东省例圳市南山区科技路8号", 18), ("分机 1234", 18),
            ("电话: 0755 2345 6789", 18),
        ]))
        #expect(other.address?.postalCode == nil)
        // An extension's three digits beside a Taiwanese address (whose postcodes may be three digits).
        let taiwan = ContactParser(fallbackRegion: nil).parse(lines: Self.card([
            ("例江科技股份有限公司", 30), ("陳 例明", 48), ("台北市例江區科技路8號", 18), ("分機 123", 18),
            ("電話: 02 2345 6789", 18),
        ]))
        #expect(taiwan.address?.postalCode == nil)
    }

    /// An e-mail address the script's data read as an unsure run of digits holds no phone number.
    @Test func anUnsureRunOfDigitsGivesNoNumber() {
        var lines = Self.card([("(주)예솔상사", 30), ("김 예솔", 48), ("휴대폰 010-2345-6789", 18), ("0", 18)])
        lines[3] = TextLine(text: "10+0@02123456780.00.6", confidence: 0.15, height: 18, top: lines[3].top, left: 60)
        let contact = ContactParser(fallbackRegion: nil).parse(lines: lines)
        #expect(contact.phones.map(\.e164) == ["+821023456789"])
        // Read surely, it is still an e-mail address: its "@" says so.
        lines[3].confidence = 0.6
        #expect(ContactParser(fallbackRegion: nil).parse(lines: lines).phones.count == 1)
        // A run of digits alone gives a number when read surely only.
        lines[3] = TextLine(text: "02-123-4567", confidence: 0.15, height: 18, top: lines[3].top, left: 60)
        #expect(ContactParser(fallbackRegion: nil).parse(lines: lines).phones.count == 1)
        lines[3].confidence = 0.6
        #expect(ContactParser(fallbackRegion: nil).parse(lines: lines).phones.count == 2)
    }

    /// Digits of an address no plan knows (a postcode in brackets, a house number beside a
    /// building's) are no phone; a number no plan knows with a phone label before it is one, kept
    /// as printed.
    @Test func anUnlabelledNumberNoPlanKnowsOnALineOfWordsIsNoPhone() {
        let lines = Self.card([("(주)예솔상사", 30), ("김 예솔", 48), ("(34527) 경기도 오산시 봉은사로 451 8715", 18),
                               ("전화 7475-0691", 18), ("휴대폰 010-2345-6789", 18)])
        let contact = ContactParser(fallbackRegion: nil).parse(lines: lines)
        #expect(contact.phones.map(\.number) == ["7475-0691", "010-2345-6789"])
        #expect(contact.phones.map(\.valid) == [false, true])
    }

    /// A company's name whose last word ends in a unit of addresses (반도체 ends in 도, as a
    /// province does) is the organization, not the address, when it holds a legal form.
    @Test func aCompanyWithALegalFormIsNotAnAddress() {
        let contact = ContactParser(fallbackRegion: nil).parse(lines: Self.card([
            ("예솔반도체 주식회사", 30), ("김 예솔", 48), ("수석연구원", 20), ("(01234) 서울특별시 한솔구 예솔로 47", 18),
            ("전화 02-123-4567", 18),
        ]))
        #expect(contact.organization == "예솔반도체 주식회사")
        #expect(contact.address?.postalCode == "01234")
        #expect(contact.address?.city == "한솔구")
        #expect(contact.address?.street == "예솔로 47")
    }

    @Test func aDeputyOrActingTitleIsATitle() {
        for title in ["情報システム部 課長代理", "営業部 部長補佐"] {
            let contact = ContactParser(fallbackRegion: nil).parse(lines: Self.card([
                ("株式会社例野商事", 30), (title, 22), ("例野 太郎", 48), ("TEL 03-1234-5678", 18),
            ]))
            #expect(contact.title == title)
            #expect(contact.name?.full == "例野 太郎")
        }
    }

    /// A Japanese city whose name holds a town's or a village's mark is the whole city; a town
    /// in a county, or before a market's name, ends at its mark.
    @Test func aCityWhoseNameHoldsATownsMarkIsTheWholeCity() {
        #expect(CJKAddress.split("東京都例村山市本町1-2-3", region: "JP").city == "例村山市")
        #expect(CJKAddress.split("新潟県十日町市本町5-6", region: "JP").city == "十日町市")
        #expect(CJKAddress.split("千葉県例生郡一宮町市野1-2", region: "JP").city == "例生郡一宮町")
        #expect(CJKAddress.split("長野県例村市場町1-2", region: "JP").city == "例村")
    }

    @Test func aJapanesePostcodeReadWithoutItsDashHasIt() {
        let contact = ContactParser(fallbackRegion: nil).parse(lines: Self.card([
            ("株式会社例野商事", 30), ("例野 太郎", 48), ("〒1234567 東京都千代田区丸の内9-8-7", 20), ("TEL +81 3-1234-5678", 18),
        ]))
        #expect(contact.address?.postalCode == "123-4567")
        #expect(CJKAddress.standardPostcode("1234567", region: "CN") == "1234567")
    }

    /// Japan's marks of a prefecture (都, 道, 府, 県) end no province's name on a Chinese card:
    /// a title whose word holds 都 there is a title, not an address.
    @Test func aPrefecturesMarkIsNoProvinceOnAChineseCard() {
        #expect(CJKAddress.subregion(atStartOf: "例场都经理", region: "CN") == nil)
        #expect(CJKAddress.subregion(atStartOf: "例例県例市1-2", region: "JP") == "例例県")
        let contact = ContactParser(fallbackRegion: nil).parse(lines: Self.card([
            ("青松示例科技有限公司", 32), ("例场都经理", 24), ("王小明", 48), ("电话 +86 10 1234 5678", 18),
        ]))
        #expect(contact.title == "例场都经理")
        #expect(contact.address == nil)
    }

    /// A Japanese card that prints no kana (company, name and address in kanji) is Japanese by
    /// the signs only Japanese writes: its number is read in Japan's plan, its name parted as a
    /// Japanese one.
    @Test func aJapaneseCardWithoutKanaIsJapanese() {
        let contact = ContactParser(fallbackRegion: nil).parse(lines: Self.card([
            ("株式会社例野商事", 30), ("例野 太郎", 48), ("〒123-4567 東京都千代田区丸内9-8-7", 20), ("TEL 03-1234-5678", 18),
        ]))
        #expect(contact.region?.code == "JP")
        #expect(contact.phones.first?.e164 == "+81312345678")
        #expect(CJKText.script(of: Self.card([("青松示例科技有限公司", 32), ("王小明", 48)])) == .chinese)
    }

    @Test func aCityAfterAProvinceLevelCityIsTheCity() {
        let address = CJKAddress.split("重庆市例江市南区科技路8号", region: "CN")
        #expect(address.region == "重庆市")
        #expect(address.city == "例江市")
        #expect(address.street == "南区科技路8号")
        let alone = CJKAddress.split("重庆市南区科技路8号", region: "CN")
        #expect(alone.city == "重庆市")
        #expect(alone.street == "南区科技路8号")
    }

    @Test func chineseCardLegalFormAfterTheName() {
        let contact = ContactParser(fallbackRegion: nil).parse(lines: Self.card([
            ("青松示例科技有限公司", 32), ("王小明", 48), ("技术总监", 24), ("电话 010 1234 5678", 18),
            ("手机 139 1234 5678", 18), ("传真 010 1234 5679", 18),
        ]))
        #expect(contact.name?.full == "王小明")
        #expect(contact.name?.family == "王")
        #expect(contact.organization == "青松示例科技有限公司")
        #expect(contact.title == "技术总监")
        #expect(contact.region?.code == "CN")
        #expect(contact.phones.map(\.type) == [.work, .mobile, .fax])
    }

    /// A Korean legal form written out is a word of its own, also where OCR read it against the
    /// name; the mark (주) stays against it.
    @Test func aKoreanLegalFormWrittenOutStandsApartFromTheName() {
        let people = CJKPeople(script: .korean)
        #expect(people.tidyOrganization("주식회사한울예시") == "주식회사 한울예시")
        #expect(people.tidyOrganization("한울예시주식회사") == "한울예시 주식회사")
        #expect(people.tidyOrganization("유한책임회사한울") == "유한책임회사 한울")
        #expect(people.tidyOrganization("주식회사 한울예시") == "주식회사 한울예시")
        #expect(people.tidyOrganization("(주)한울예시") == "(주)한울예시")
        #expect(CJKPeople(script: .japanese).tidyOrganization("株式会社 例示") == "株式会社例示")
    }

    /// Tesseract's Korean data reads the mark ㈜ as a syllable of its shape (쥐, 줘, 주): a line
    /// that starts so and holds only Hangul after it is the company, when no line holds a legal
    /// form; the name and a title that start with 주 stay what they are.
    @Test func theCorporationMarkReadAsASyllableIsTheMark() {
        for (read, organization) in [("쥐한울예시", "㈜한울예시"), ("줘 한울 예시", "㈜한울예시"), ("주한울테크", "㈜한울테크")] {
            let contact = ContactParser(fallbackRegion: nil).parse(lines: Self.card([
                (read, 30), ("주임연구원", 20), ("주가온", 48), ("휴대폰 010-1234-5678", 18),
            ]))
            #expect(contact.organization == organization)
            #expect(contact.name?.full == "주가온")
            #expect(contact.title == "주임연구원")
        }
        let legal = ContactParser(fallbackRegion: nil).parse(lines: Self.card([
            ("(주)한울예시", 30), ("주간 예시 소식", 20), ("한가온", 48), ("휴대폰 010-1234-5678", 18),
        ]))
        #expect(legal.organization == "(주)한울예시")
    }

    @Test func koreanCardLegalFormBeforeTheName() {
        let contact = ContactParser(fallbackRegion: nil).parse(lines: Self.card([
            ("(주)한울예시", 30), ("대표이사", 24), ("한가온", 48), ("휴대폰 010-1234-5678", 18), ("팩스 02-123-4567", 18),
        ]))
        #expect(contact.name?.full == "한가온")
        #expect(contact.name?.family == "한")
        #expect(contact.organization == "(주)한울예시")
        #expect(contact.title == "대표이사")
        #expect(contact.region?.code == "KR")
        #expect(contact.phones.map(\.type) == [.mobile, .fax])
    }

    /// As on Latin cards, a number the plan calls a mobile is a mobile under a generic label too
    /// (a 携帯 label OCR read as "TEL", or a card that labels every number so); a fax stays a fax.
    @Test func aMobileNumberUnderAGenericLabelIsAMobile() {
        let contact = ContactParser(fallbackRegion: nil).parse(lines: Self.card([
            ("株式会社あおば商事", 30), ("青葉 太郎", 48), ("〒150-0001 東京都渋谷区神宮前1-2-3", 20),
            ("TEL 03-1234-5678", 18), ("TEL 090-1234-5678", 18), ("FAX 090-8765-4321", 18),
        ]))
        #expect(contact.phones.map(\.type) == [.work, .mobile, .fax])
    }

    @Test func traditionalCharactersPlaceACardInTaiwan() {
        let contact = ContactParser(fallbackRegion: nil).parse(lines: Self.card([
            ("範例電子股份有限公司", 30), ("陳大文", 48), ("業務經理", 24), ("電話 02 2345 6789", 18),
        ]))
        #expect(contact.region?.code == "TW")
        #expect(contact.title == "業務經理")
    }

    @Test func latinCardsAreNotEastAsian() {
        #expect(!ContactParser.isEastAsian(Self.card([("Jane Example", 40), ("Example Ltd", 30), ("+44 20 7946 0000", 18)])))
        #expect(ContactParser.isEastAsian(Self.card([("株式会社例", 30), ("山田 太郎", 40)])))
    }

    /// A bilingual card prints its name and company in both scripts and its e-mail and web
    /// addresses in Latin letters, which say nothing of the card's script.
    @Test func aBilingualCardsAddressesDoNotOutweighItsScript() {
        let lines = Self.card([
            ("株式会社例電機", 30), ("山田 太郎", 40), ("Example Denki Co., Ltd.", 24), ("Taro Yamada", 24),
            ("taro.yamada@example-denki.co.jp", 18), ("https://www.example-denki.co.jp", 18),
        ])
        #expect(ContactParser.isEastAsian(lines))
        #expect(!ContactParser.isEastAsian(Self.card([("株式会社例電機", 30), ("Example Denki Co., Ltd. Sales Department", 24),
                                                     ("Taro Yamada, General Manager", 24), ("Tokyo Head Office", 18)])))
        #expect(ContactParser(fallbackRegion: nil).parse(lines: lines).name?.family == "山田")
    }

    @Test func fullWidthFormsFold() {
        #expect(CJKText.folded("ＴＥＬ：０３－１２３４") == "TEL:03-1234")
        #expect(CJKText.joiningHanSpaces("技術 部 主任") == "技術部主任")
    }

    @Test func koreanWordsJoinByTheirGaps() {
        let words = [TextWord(text: "시", left: 0, right: 20, confidence: 0.9), TextWord(text: "너", left: 24, right: 44, confidence: 0.9),
                     TextWord(text: "부장", left: 60, right: 100, confidence: 0.9)]
        #expect(CJKText.joiningByGaps(words, height: 30) == "시너 부장")
    }

    /// Made-up words with Tesseract's loose boxes of single syllables.
    static func words(_ spans: [(String, Double, Double)]) -> [TextWord] {
        spans.map { TextWord(text: $0.0, left: $0.1, right: $0.2, confidence: 0.9) }
    }

    @Test func aLoneKoreanSyllableJoinsTheNearerWord() {
        let street = Self.words([("한빛", 0, 40), ("로", 50, 62), ("361", 72, 100)])
        #expect(CJKText.joiningByGaps(street, height: 23) == "한빛로 361")
        let title = Self.words([("기", 0, 18), ("술연구소", 27, 100), ("소장", 112, 150)])
        #expect(CJKText.joiningByGaps(title, height: 24) == "기술연구소 소장")
        let road = Self.words([("가", 0, 17), ("나", 34, 50), ("다", 52, 70), ("로", 71, 85), ("12", 95, 110)])
        #expect(CJKText.joiningByGaps(road, height: 20) == "가나다로 12")
        let district = Self.words([("중앙구", 0, 60), ("봉", 72, 90), ("은", 107, 125), ("로", 137, 150), ("5", 160, 170)])
        #expect(CJKText.joiningByGaps(district, height: 24) == "중앙구 봉은로 5")
    }

    /// A Korean line that a wide gap parts in two (a title beside the company, or something read
    /// in the paper beside the card) has the words of each piece joined by their gaps, as a whole
    /// line has; the company's name is one word, its legal form written out a word of its own.
    @Test func eachPieceOfAPartedKoreanLineIsJoinedByItsGaps() {
        let words = Self.words([("선", 0, 18), ("임", 27, 45), ("연구원", 50, 110),
                                ("유", 400, 418), ("한", 427, 445), ("회사", 458, 494), ("예", 506, 524), ("솔테크", 529, 596)])
        let line = TextLine(text: words.map(\.text).joined(separator: " "), confidence: 0.9, height: 24, top: 40, left: 0, words: words)
        #expect(CJKParser.lines([line], script: .korean).map(\.text) == ["선임연구원", "유한 회사 예솔테크"])
        let contact = ContactParser(fallbackRegion: nil).parse(lines: [line] + Self.card([("한가온", 48), ("휴대폰 010-1234-5678", 18)]).map {
            var moved = $0
            moved.top = ($0.top ?? 0) + 60
            return moved
        })
        #expect(contact.title == "선임연구원")
        #expect(contact.organization == "유한회사 예솔테크")
    }

    /// A space OCR set inside a Korean given name (after two syllables that are no compound
    /// family name) parts nothing; after a family name it stays.
    @Test func aSpaceInsideAKoreanGivenNameIsNoSpace() {
        for (read, full) in [("한가 온", "한가온"), ("남궁 민", "남궁 민"), ("한 가온", "한 가온")] {
            let contact = ContactParser(fallbackRegion: nil).parse(lines: Self.card([
                ("(주)한울예시", 30), ("대표이사", 24), (read, 48), ("휴대폰 010-1234-5678", 18),
            ]))
            #expect(contact.name?.full == full)
        }
    }

    @Test func aKoreanFamilyNameSetApartStaysApart() {
        let name = Self.words([("김", 0, 40), ("하늘", 70, 150)])
        #expect(CJKText.joiningByGaps(name, height: 40) == "김 하늘")
    }

    /// Words read unsurely in the paper under the card, at the ends of its lines: the name, the
    /// company and the title are read without them; a legal form's bracket, an e-mail's letters
    /// and words read surely stay.
    @Test func unsureLatinJunkAtALinesEndsIsNotPartOfIt() {
        func line(_ words: [(String, Double)], _ height: Double, _ top: Double) -> TextLine {
            var left = 40.0
            let read = words.map { text, confidence in
                defer { left += Double(text.count) * height + height / 2 }
                return TextWord(text: text, left: left, right: left + Double(text.count) * height, confidence: confidence)
            }
            return TextLine(text: words.map(\.0).joined(separator: " "), confidence: 0.7, height: height, top: top, left: 40, words: read)
        }
        let contact = ContactParser(fallbackRegion: nil).parse(lines: [
            line([("예솔상사", 0.9), ("(", 0.4), ("주", 0.9), (")", 0.4)], 30, 40),
            line([("4l0\\", 0.3), ("과장", 0.9)], 22, 90),
            line([("76", 0.2), ("(60560", 0.3), ("한", 0.9), ("솔민", 0.9), ("Gr", 0.4)], 48, 130),
            line([("전화", 0.9), ("02-234-5678", 0.9)], 18, 200),
            line([("solmin@yesol-example.co.kr", 0.5)], 18, 230),
        ])
        #expect(contact.name?.full == "한 솔민")
        #expect(contact.title == "과장")
        #expect(contact.organization == "예솔상사(주)")
        #expect(contact.emails == ["solmin@yesol-example.co.kr"])
        let people = CJKPeople(script: .korean)
        let sure = CJKLine(text: "TEL 한솔", folded: "TEL 한솔", height: 20, top: 0, index: 0,
                           words: [TextWord(text: "TEL", left: 0, right: 30, confidence: 0.9), TextWord(text: "한솔", left: 40, right: 80, confidence: 0.9)],
                           confidence: 0.9)
        #expect(people.withoutEdgeJunk(sure).text == "TEL 한솔")
    }

    /// One or two lower-case Latin letters at a line's end are a speck read as letters, however
    /// surely; a Latin word in capitals, or a longer one, stays.
    @Test func strayLowerCaseLettersAtALinesEndsAreNotPartOfIt() {
        let people = CJKPeople(script: .chinese)
        func line(_ words: [(String, Double)]) -> CJKLine {
            let text = words.map(\.0).joined(separator: " ")
            var left = 0.0
            let read = words.map { word, confidence in
                defer { left += Double(word.count) * 20 + 10 }
                return TextWord(text: word, left: left, right: left + Double(word.count) * 20, confidence: confidence)
            }
            return CJKLine(text: text, folded: text, height: 20, top: 0, index: 0, words: read, confidence: 0.9)
        }
        #expect(people.withoutEdgeJunk(line([("ss", 0.9), ("總經理", 0.9)])).text == "總經理")
        #expect(people.withoutEdgeJunk(line([("研發處", 0.9), ("處長", 0.9), ("a", 0.8)])).text == "研發處 處長")
        #expect(people.withoutEdgeJunk(line([("IT", 0.9), ("部長", 0.9)])).text == "IT 部長")
        #expect(people.withoutEdgeJunk(line([("sales", 0.9), ("部長", 0.9)])).text == "sales 部長")
    }
}

