/// Word lists the parser leans on. Lower-case, accents kept.
enum Lexicon {
    /// Words that make a line a job title (English and German).
    static let titleWords: Set<String> = [
        // English
        "engineer", "developer", "programmer", "manager", "director", "officer", "president", "vice",
        "vp", "svp", "evp", "ceo", "cto", "cfo", "coo", "cio", "cmo", "cso", "founder", "co-founder", "cofounder",
        "partner", "consultant", "advisor", "adviser", "analyst", "architect", "designer", "scientist",
        "agent", "representative", "rep", "specialist", "coordinator", "assistant", "associate", "executive",
        "head", "lead", "chief", "owner", "principal", "administrator", "accountant", "attorney", "lawyer",
        "counsel", "solicitor", "barrister", "editor", "writer", "producer", "professor", "lecturer", "teacher",
        "instructor", "nurse", "technician", "supervisor", "intern", "broker", "realtor", "chairman",
        "chairwoman", "chair", "secretary", "treasurer", "controller", "comptroller", "strategist", "recruiter",
        "trainer", "coach", "therapist", "pharmacist", "dentist", "surgeon", "physician", "photographer",
        "artist", "planner", "buyer", "clerk", "operator", "inspector", "researcher", "curator", "librarian",
        "superintendent", "foreman", "auditor", "underwriter", "paralegal", "receptionist", "mechanic",
        "electrician", "plumber", "chef", "manageress", "officer", "evangelist", "advocate", "ambassador",
        "fellow", "dean", "provost", "registrar", "commissioner", "mayor", "senator", "minister", "pastor",
        "economist", "statistician", "estimator", "surveyor", "draftsman", "stylist", "translator",
        "interpreter", "journalist", "correspondent", "marketer", "salesperson", "merchandiser",
        // German
        "geschäftsführer", "geschäftsführerin", "leiter", "leiterin", "berater", "beraterin", "ingenieur",
        "ingenieurin", "entwickler", "entwicklerin", "inhaber", "inhaberin", "vorstand", "vorsitzender",
        "prokurist", "prokuristin", "referent", "referentin", "sachbearbeiter", "sachbearbeiterin",
        "projektleiter", "projektleiterin", "abteilungsleiter", "abteilungsleiterin", "assistent",
        "assistentin", "architektin", "rechtsanwalt", "rechtsanwältin", "steuerberater", "steuerberaterin",
        "vertriebsleiter", "vertriebsleiterin", "kundenberater", "kundenberaterin", "direktor", "direktorin",
        "gründer", "gründerin", "mitarbeiter", "mitarbeiterin", "teamleiter", "teamleiterin", "vertrieb",
        "leitung", "managerin", "beraterin", "designerin", "wissenschaftler", "wissenschaftlerin",
        "verkaufsleiter", "einkäufer", "einkäuferin", "buchhalter", "buchhalterin", "meister", "techniker",
        "technikerin", "kaufmann", "kauffrau", "dozent", "dozentin",
    ]

    /// Legal-form and company-kind words that mark an organisation's name.
    static let companySuffixes: [[String]] = [
        ["inc"], ["inc."], ["incorporated"], ["llc"], ["l.l.c."], ["ltd"], ["ltd."], ["limited"], ["plc"],
        ["llp"], ["lp"], ["gmbh"], ["ag"], ["kg"], ["ohg"], ["ug"], ["e.v."], ["se"], ["kgaa"], ["mbh"],
        ["sa"], ["s.a."], ["sarl"], ["s.a.r.l."], ["sas"], ["s.a.s."], ["bv"], ["b.v."], ["nv"], ["n.v."],
        ["pty", "ltd"], ["pty"], ["corp"], ["corp."], ["corporation"], ["co."], ["company"], ["group"],
        ["holdings"], ["and", "sons"], ["&", "sons"], ["partners"], ["associates"], ["srl"], ["s.r.l."],
        ["spa"], ["s.p.a."], ["oy"], ["ab"], ["as"], ["a/s"], ["aps"], ["kk"], ["studio"], ["agency"],
        ["solutions"], ["technologies"], ["systems"], ["consulting"], ["labs"], ["gbr"],
    ]

    /// Country names (and common abbreviations) and their ISO codes.
    static let countries: [String: String] = [
        "usa": "US", "u.s.a.": "US", "united states": "US", "united states of america": "US", "us": "US",
        "canada": "CA", "united kingdom": "GB", "uk": "GB", "u.k.": "GB", "great britain": "GB", "england": "GB",
        "scotland": "GB", "wales": "GB", "germany": "DE", "deutschland": "DE", "australia": "AU",
        "france": "FR", "netherlands": "NL", "the netherlands": "NL", "nederland": "NL", "switzerland": "CH",
        "schweiz": "CH", "suisse": "CH", "ireland": "IE", "austria": "AT", "österreich": "AT",
        "new zealand": "NZ", "belgium": "BE", "belgique": "BE", "spain": "ES", "españa": "ES", "italy": "IT",
        "italia": "IT",
    ]

    /// Country-code top-level domains (and second-level forms) and their regions.
    static let domainRegions: [String: String] = [
        "uk": "GB", "de": "DE", "ca": "CA", "au": "AU", "fr": "FR", "nl": "NL", "ch": "CH", "ie": "IE",
        "at": "AT", "nz": "NZ", "be": "BE", "es": "ES", "it": "IT", "us": "US",
    ]

    static let usStates: Set<String> = [
        "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "FL", "GA", "HI", "ID", "IL", "IN", "IA", "KS", "KY",
        "LA", "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ", "NM", "NY", "NC", "ND",
        "OH", "OK", "OR", "PA", "RI", "SC", "SD", "TN", "TX", "UT", "VT", "VA", "WA", "WV", "WI", "WY", "DC",
        "AS", "GU", "MP", "PR", "VI", "UM", "FM", "MH", "PW", "AA", "AE", "AP",
    ]
    static let caProvinces: Set<String> = ["AB", "BC", "MB", "NB", "NL", "NS", "NT", "NU", "ON", "PE", "QC", "SK", "YT"]
    static let auStates: Set<String> = ["NSW", "VIC", "QLD", "WA", "SA", "TAS", "ACT", "NT"]

    /// Words that end or start a street line.
    static let streetWords: Set<String> = [
        "street", "st", "st.", "road", "rd", "rd.", "avenue", "ave", "ave.", "lane", "ln", "way", "drive", "dr",
        "dr.", "boulevard", "blvd", "court", "ct", "place", "pl", "square", "sq", "terrace", "highway", "hwy",
        "parkway", "pkwy", "suite", "apt.", "apt", "floor", "unit", "flat", "building", "po", "box",
        "straße", "strasse", "str.", "weg", "platz", "gasse", "allee", "ring", "damm", "ufer", "chaussee",
        "rue", "avenue", "chemin", "straat", "laan", "plein", "gracht", "via", "calle",
    ]

    /// Labels that say what a phone number is for.
    static let phoneLabels: [(String, PhoneTypeLabel)] = [
        ("mobile", .mobile), ("mobil", .mobile), ("mob", .mobile), ("cell", .mobile), ("handy", .mobile),
        ("m", .mobile), ("c", .mobile),
        ("fax", .fax), ("telefax", .fax), ("f", .fax),
        ("telephone", .work), ("phone", .work), ("tel", .work), ("telefon", .work), ("office", .work),
        ("direct", .work), ("work", .work), ("main", .work), ("t", .work), ("p", .work), ("o", .work),
        ("d", .work), ("ph", .work), ("fon", .work), ("durchwahl", .work), ("zentrale", .work),
    ]

    enum PhoneTypeLabel { case work, mobile, fax }
}
