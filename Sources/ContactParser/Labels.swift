import Foundation

/// What a label before a value says the value is.
enum FieldLabel: Equatable {
    case phone(PhoneType)
    case email
    case web
    case address
}

/// Labels cards print before their values, in the languages cards are printed in, and the debris
/// OCR makes of pictograms (a handset, an envelope, a globe or a pin read as a stray glyph or two).
enum Labels {
    private static let table: [(FieldLabel, [String])] = [
        (.phone(.work), ["tel", "tel.", "tél", "tél.", "tel:", "telephone", "téléphone", "telefon", "telefono", "teléfono",
                         "telefone", "telèfon", "tlf", "tlf.", "tfn", "tfn.", "phone", "ph", "ph.", "p", "t", "o", "off", "off.",
                         "office", "oficina", "ufficio", "bureau", "büro", "buero", "kantoor", "kontor", "direct", "direct line",
                         "dir", "dir.", "d", "dl", "durchwahl", "zentrale", "main", "work", "festnetz", "fijo", "fisso", "fixe",
                         "puh", "puh.", "puhelin", "vaihde", "sentralbord", "växel", "vxl", "centralino", "centrale",
                         "switchboard", "landline", "telefonnummer", "numer", "tel. fisso", "tel. stacjonarny",
                         "telephone number", "phone number", "tel no", "tel. no.", "ph no", "voice", "fone", "fones", "pabx",
                         "telp", "telp.", "telepon", "fon", "fon.", "sabit", "tel/fax", "tel./fax", "telefone fixo",
                         "fixo", "ligne directe"]),
        (.phone(.mobile), ["mobile", "mob", "mob.", "mobil", "mobiel", "móvil", "movil", "móv", "móv.", "mov", "cell", "cell.",
                           "cellular", "cellulare", "cel", "cel.", "celular", "handy", "portable", "port", "port.", "gsm",
                           "kom", "kom.", "komórka", "telemóvel", "telemovel", "tm", "matkapuhelin", "mobiili", "natel",
                           "m", "c", "h", "mobile phone", "mobilnummer", "tel. kom.", "tel. cell.", "cellphone", "whatsapp", "whats",
                           "ponsel", "mobitel", "funk", "móvel", "movel", "tlm", "tlm.", "mobiltelefon"]),
        (.phone(.fax), ["fax", "fax.", "telefax", "faks", "faksi", "télécopie", "telecopie", "f", "fx", "telefaks", "facsimile",
                        "fac-simile", "fax no", "fax no."]),
        (.email, ["e", "email", "e-mail", "e mail", "mail", "correo", "correo electrónico", "courriel", "e-post", "epost",
                  "sähköposti", "posta", "e-posta", "emai", "emall", "e-mait", "e-mall", "email address", "eml"]),
        (.web, ["w", "web", "website", "web site", "www", "url", "internet", "webb", "site", "sito", "sitio", "nett",
                "homepage", "hjemmeside", "kotisivu", "strona", "web:", "webpage"]),
        (.address, ["a", "adr", "adr.", "address", "addr", "adresse", "dirección", "direccion", "indirizzo", "adres",
                    "osoite", "morada", "endereço", "endereco", "adress", "postadresse", "anschrift", "sede", "office address"]),
    ]

    /// Label text (lower case, no trailing ':' or '|') to what it marks.
    static let byText: [String: FieldLabel] = {
        var out: [String: FieldLabel] = [:]
        for (label, words) in table {
            for w in words {
                let key = w.trimmingCharacters(in: ParserCharacters.labelEnd)
                if out[key] == nil { out[key] = label }
                let folded = ParserData.fold(key)
                if out[folded] == nil { out[folded] = label }
            }
        }
        return out
    }()

    /// The label a token (or two) spells, when it does.
    static func label(_ token: String) -> FieldLabel? {
        let t = token.lowercased().trimmingCharacters(in: ParserCharacters.labelPunctuation)
        guard !t.isEmpty else { return nil }
        if let l = byText[t] { return l }
        if let l = byText[t + "."] { return l }
        if let l = byText[ParserData.fold(t)] { return l }
        return labelOneSlipAway(t)
    }

    /// Letters OCR reads for one another in small print ("Fox" for Fax, "Tei" for Tel, "Pax" for Fax).
    static let slips: [Character: Character] = ["o": "a", "a": "o", "i": "l", "l": "i", "1": "l", "0": "o", "c": "e", "e": "c", "p": "f"]

    /// The label of three letters or more that `t` spells with one of OCR's slips undone, or, for
    /// a word of four letters or more, with any one letter changed, added or lost ("Celt" for Cell)
    /// when only one label is that close.
    static func labelOneSlipAway(_ t: String) -> FieldLabel? {
        let chars = Array(t)
        guard chars.count >= 3, chars.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." }) else { return nil }
        for (i, ch) in chars.enumerated() {
            guard let other = slips[ch] else { continue }
            var candidate = chars
            candidate[i] = other
            if let l = byText[String(candidate)], candidate.filter(\.isLetter).count >= 3 { return l }
        }
        let word = t.filter(\.isLetter)
        // A word of an address is itself, not a label misread ("Suite" is no "Site").
        guard !Lexicon.streetWords.contains(word), !AddressExtractor.unitWords.contains(word) else { return nil }
        guard word.count >= 4, word.count == t.filter({ $0 != "." }).count, let first = word.first,
              let near = longLabels[first]?.filter({ abs($0.key.count - word.count) <= 1 && TextDistance.edits($0.key, word) == 1 }),
              let only = near.first, near.allSatisfy({ $0.value == only.value }) else { return nil }
        return only.value
    }

    /// Labels of four letters or more (letters only), by their first letter.
    static let longLabels: [Character: [(key: String, value: FieldLabel)]] = {
        var out: [Character: [(key: String, value: FieldLabel)]] = [:]
        for (key, value) in byText where key.count >= 4 && key.allSatisfy(\.isLetter) {
            out[key.first!, default: []].append((key, value))
        }
        return out
    }()

    /// True for a token that is pictogram debris: no more than three characters, at most one of
    /// them a letter or digit, or only symbols ("™", "®", "\\.", "0)", "©", "="); a digit and
    /// its comma ("6, rue ...") is a house number.
    static func isPictogramDebris(_ token: String) -> Bool {
        let t = token.trimmingCharacters(in: .whitespaces)
        guard !t.isEmpty else { return true }
        let alnum = t.filter { $0.isLetter || $0.isNumber }.count
        if alnum == 0 { return true }
        // A one-digit house number before its comma ("6, rue Klein") is no pictogram.
        if t.count == 2, t.first?.isNumber == true, t.last == "," { return false }
        return t.count <= 3 && alnum <= 1 && t.count > alnum
    }

    /// Splits a line into the label before its value and the value: "Tel.: 030 123" ->
    /// (phone(work), "030 123"); "™ harish@misra.co.in" -> (nil, "harish@misra.co.in"). Pictogram
    /// debris before the value is dropped. Callers use it where a value of a known shape follows
    /// (a number, an address); on a name or company line a single letter is not taken for a label.
    static func strip(_ text: String) -> (label: FieldLabel?, value: String) {
        var tokens = text.split(separator: " ").map(String.init)
        var found: FieldLabel?
        var dropped = 0
        while !tokens.isEmpty, dropped < 4 {
            let first = tokens[0]
            // Two-word labels first ("Direct line", "E mail").
            if tokens.count >= 2, let l = label(first + " " + tokens[1]) {
                found = found ?? l
                tokens.removeFirst(2)
                dropped += 2
                continue
            }
            // A label glued to its value with a colon: "E:jane@acme.com", "Tel.:+49 ...".
            if let colon = first.firstIndex(of: ":"), colon != first.startIndex, first.index(after: colon) != first.endIndex,
               !first.lowercased().hasPrefix("http"), let l = label(String(first[..<colon])) {
                found = found ?? l
                tokens[0] = String(first[first.index(after: colon)...])
                dropped += 1
                continue
            }
            if let l = label(first), tokens.count > 1 {
                found = found ?? l
                tokens.removeFirst()
                dropped += 1
                continue
            }
            if isPictogramDebris(first), tokens.count > 1 {
                tokens.removeFirst()
                dropped += 1
                continue
            }
            break
        }
        return (found, tokens.joined(separator: " "))
    }
}
