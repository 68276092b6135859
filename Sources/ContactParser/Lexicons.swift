import Foundation

/// Word lists the parser leans on where no maintained data set exists: the words job titles are
/// made of and the words streets are named with, in the languages cards are printed in. Lower
/// case, accents kept. Legal forms, country names, postcodes and domains come from data instead
/// (see Data/README.md).
enum Lexicon {
    /// Words that make a line a job title.
    static let titleWords: Set<String> = [
        // English
        "engineer", "developer", "programmer", "manager", "director", "officer", "president", "vice",
        "vp", "svp", "evp", "ceo", "cto", "cfo", "coo", "cio", "cmo", "cso", "cpo", "founder", "co-founder", "cofounder",
        "partner", "consultant", "advisor", "adviser", "analyst", "architect", "designer", "scientist",
        "agent", "representative", "rep", "specialist", "coordinator", "assistant", "associate", "executive",
        "head", "lead", "chief", "owner", "principal", "administrator", "accountant", "attorney", "lawyer",
        "counsel", "solicitor", "barrister", "editor", "writer", "producer", "professor", "lecturer", "teacher",
        "instructor", "nurse", "technician", "supervisor", "intern", "broker", "realtor", "chairman",
        "chairwoman", "chair", "secretary", "treasurer", "controller", "comptroller", "strategist", "recruiter",
        "trainer", "coach", "therapist", "pharmacist", "dentist", "surgeon", "physician", "photographer",
        "artist", "planner", "buyer", "clerk", "operator", "inspector", "researcher", "curator", "librarian",
        "superintendent", "foreman", "auditor", "underwriter", "paralegal", "receptionist", "mechanic",
        "electrician", "plumber", "chef", "manageress", "evangelist", "advocate", "ambassador",
        "fellow", "dean", "provost", "registrar", "commissioner", "mayor", "senator", "minister", "pastor",
        "economist", "statistician", "estimator", "surveyor", "draftsman", "stylist", "translator",
        "interpreter", "journalist", "correspondent", "marketer", "salesperson", "merchandiser", "controller",
        // German
        "geschäftsführer", "geschäftsführerin", "leiter", "leiterin", "berater", "beraterin", "ingenieur",
        "ingenieurin", "entwickler", "entwicklerin", "inhaber", "inhaberin", "vorstand", "vorsitzender",
        "prokurist", "prokuristin", "referent", "referentin", "sachbearbeiter", "sachbearbeiterin",
        "projektleiter", "projektleiterin", "abteilungsleiter", "abteilungsleiterin", "assistent",
        "assistentin", "architektin", "rechtsanwalt", "rechtsanwältin", "steuerberater", "steuerberaterin",
        "vertriebsleiter", "vertriebsleiterin", "kundenberater", "kundenberaterin", "direktor", "direktorin",
        "gründer", "gründerin", "mitarbeiter", "mitarbeiterin", "teamleiter", "teamleiterin", "vertrieb",
        "leitung", "managerin", "designerin", "wissenschaftler", "wissenschaftlerin",
        "verkaufsleiter", "einkäufer", "einkäuferin", "buchhalter", "buchhalterin", "meister", "techniker",
        "technikerin", "kaufmann", "kauffrau", "dozent", "dozentin", "syndikus",
        // French
        "directeur", "directrice", "gérant", "gérante", "responsable", "chef", "ingénieur", "consultante",
        "conseiller", "conseillère", "commercial", "commerciale", "président", "présidente", "chargé", "chargée",
        "adjoint", "adjointe", "associé", "associée", "avocat", "avocate", "comptable", "fondateur", "fondatrice",
        // Spanish
        "director", "directora", "gerente", "jefe", "jefa", "responsable", "consultor", "consultora", "asesor",
        "asesora", "ingeniero", "ingeniera", "presidente", "presidenta", "socio", "socia", "coordinador",
        "coordinadora", "administrador", "administradora", "abogado", "abogada", "contable", "fundador", "fundadora",
        "técnico", "técnica", "comercial", "delegado", "delegada", "encargado", "encargada",
        // Italian
        "direttore", "direttrice", "responsabile", "amministratore", "amministratrice", "consulente", "ingegnere",
        "presidente", "socio", "titolare", "tecnico", "commerciale", "avvocato", "commercialista", "fondatore",
        "fondatrice", "coordinatore", "coordinatrice", "capo", "delegato", "addetto", "addetta",
        // Portuguese
        "diretor", "diretora", "gerente", "gestor", "gestora", "consultor", "engenheiro", "engenheira", "sócio",
        "sócia", "coordenador", "coordenadora", "advogado", "advogada", "fundador", "técnico", "comercial",
        // Dutch
        "directeur", "eigenaar", "adviseur", "accountmanager", "projectleider", "bedrijfsleider", "medewerker",
        "medewerkster", "hoofd", "ingenieur", "vennoot", "oprichter", "commercieel", "manager",
        // Scandinavian
        "vd", "chef", "direktör", "direktør", "konsult", "konsulent", "rådgivare", "rådgiver", "projektledare",
        "prosjektleder", "projektleder", "daglig", "leder", "säljare", "selger", "sælger", "ansvarig", "ansvarlig",
        "ägare", "eier", "ejer", "grundare", "gründer", "ingenjör", "ingeniør", "försäljningschef", "salgssjef",
        "salgschef", "ekonomichef", "økonomisjef", "økonomichef", "inköpschef", "innkjøpssjef", "indkøbschef",
        // Finnish
        "toimitusjohtaja", "johtaja", "päällikkö", "myyntipäällikkö", "projektipäällikkö", "asiantuntija",
        "talousjohtaja", "konsultti", "insinööri", "yrittäjä", "omistaja",
        // Polish, Czech
        "dyrektor", "kierownik", "prezes", "specjalista", "konsultant", "doradca", "właściciel", "inżynier",
        "ředitel", "ředitelka", "jednatel", "vedoucí", "konzultant", "manažer", "manažerka", "specialista",
        "obchodní", "nákupčí",
    ]

    /// Endings of compound title words ("Ekonomichef", "Projektleiterin", "Myyntipäällikkö").
    static let titleEndings = ["chef", "sjef", "leiter", "leiterin", "leder", "ledare", "johtaja", "päällikkö", "manager",
                               "direktor", "direktör", "direktør", "berater", "beraterin", "ingenieur", "führer", "führerin"]

    /// A title word as `titleWords` and `titleEndings` spell it, lower case, for a word read with
    /// its accents or without them (OCR drops them: "Projektipaallikko" for Projektipäällikkö,
    /// "Nakupci" for nákupčí); nil for a word that is none. A word read without accents is spelled
    /// with them only when one title word has that unaccented form.
    static func titleWord(_ word: String) -> String? {
        let w = word.lowercased()
        if titleWords.contains(w) { return w }
        let unaccented = w == ParserData.fold(w)
        if unaccented, let spelled = titleWordsByFold[w] { return spelled }
        if w.count >= 7, titleEndings.contains(where: { w.hasSuffix($0) }) { return w }
        guard unaccented, w.count >= 7, let ending = foldedTitleEndings.first(where: { w.hasSuffix($0.folded) }) else { return nil }
        return String(w.dropLast(ending.folded.count)) + ending.spelled
    }

    /// `titleWords` by their unaccented forms, those only one word has, that differ from it.
    private static let titleWordsByFold: [String: String] = {
        let byFold = Dictionary(grouping: titleWords, by: ParserData.fold)
        return byFold.compactMapValues { words in
            guard words.count == 1, let w = words.first, ParserData.fold(w) != w, ParserData.fold(w).count == w.count else { return nil }
            return w
        }
    }()

    /// `titleEndings` with their unaccented forms, longest first.
    private static let foldedTitleEndings: [(folded: String, spelled: String)] = titleEndings
        .filter { ParserData.fold($0).count == $0.count }
        .map { (ParserData.fold($0), $0) }
        .sorted { $0.folded.count > $1.folded.count }

    /// Words that name a kind of business ("Lantern Systems", "Grupo Fénix", "Müller Bau"): not a
    /// legal form, but as telling of a company as one.
    static let companyWords: Set<String> = [
        "group", "systems", "labs", "laboratories", "solutions", "technologies", "technology", "tech", "consulting",
        "consultants", "holdings", "partners", "associates", "studio", "studios", "agency", "foundation", "works",
        "industries", "enterprises", "international", "ventures", "capital", "media", "software", "services",
        "logistics", "trading", "precision", "robotics", "electronics", "pharma", "pharmaceuticals", "design",
        "engineering", "construction", "insurance", "bank", "motors", "foods", "realty", "properties", "network",
        "networks", "digital", "analytics", "dynamics", "energy", "medical", "health", "healthcare", "institute",
        "university", "college", "clinic", "hotel", "restaurant", "bakery", "brewery", "corporation", "company",
        "gruppe", "werke", "werk", "bau", "technik", "systeme", "beratung", "verlag", "stiftung", "handel", "logistik",
        "groupe", "conseil", "société", "grupo", "construcciones", "talleres", "hermanos", "hnos", "servicios",
        "ingeniería", "consultores", "gruppo", "costruzioni", "officine", "servizi", "consulenze", "fratelli",
        "groep", "bouw", "techniek", "advies", "gruppen", "bygg", "konsult", "teknik", "tekniikka", "rakennus",
        "grupa", "budownictwo", "usługi", "skupina", "stavby",
    ]

    /// Endings of compound street names ("Jäkelweg", "Grangatan", "Friedrichstraße", "Buntmagervej").
    static let streetEndings = ["straße", "strasse", "str.", "weg", "gasse", "platz", "allee", "damm", "ring", "gatan", "vägen",
                                "gata", "veien", "vej", "gade", "katu", "tie", "laan", "straat", "plein", "gracht", "kade"]

    /// Words that name a street and hardly ever a town (unlike "Park", "Green" or "Hill").
    static let streetTypeWords: Set<String> = ["street", "road", "avenue", "lane", "drive", "boulevard", "blvd", "highway",
                                               "parkway", "calle", "avenida", "carrer", "via", "viale", "corso", "vicolo",
                                               "rua", "travessa", "rue", "chemin", "impasse", "ulica", "ul", "strasse", "straße"]

    /// True for a word that names a street or a compound street name ("Jäkelweg", "Grangatan").
    static func isStreetWord(_ word: String) -> Bool {
        let w = word.lowercased().trimmingCharacters(in: ParserCharacters.commaDot)
        guard w.count >= 2 else { return false }
        if streetTypeWords.contains(w) { return true }
        return w.count >= 6 && streetEndings.contains { w.hasSuffix($0) }
    }

    /// Words that end or start a street line.
    static let streetWords: Set<String> = [
        "street", "st", "st.", "road", "rd", "rd.", "avenue", "ave", "ave.", "lane", "ln", "way", "drive", "dr",
        "dr.", "boulevard", "blvd", "court", "ct", "place", "pl", "square", "sq", "terrace", "highway", "hwy",
        "parkway", "pkwy", "suite", "apt.", "apt", "floor", "unit", "flat", "building", "po", "box", "close",
        "crescent", "grove", "gardens", "row", "mews", "walk", "hill", "park", "green", "circle", "trail",
        "straße", "strasse", "str.", "weg", "platz", "gasse", "allee", "ring", "damm", "ufer", "chaussee",
        "rue", "chemin", "impasse", "quai", "cours", "straat", "laan", "plein", "gracht", "kade", "via", "viale",
        "piazza", "corso", "vicolo", "calle", "avenida", "plaza", "paseo", "carrer", "rua", "travessa", "largo",
        "gatan", "vägen", "gata", "väg", "gate", "veien", "vej", "gade", "katu", "tie", "ulica", "ul.", "al.",
        "ulice", "náměstí", "marg", "nagar", "chome", "cho", "machi",
        // Kinds of street in Brazil's and Portugal's postal address lists (logradouros) and Spain's
        // (tipos de vía), not those that also name a district ("Vila", "Jardim", "Parque") or are
        // common family names ("Estrada", "Cuesta", "Ronda").
        "alameda", "praça", "pátio", "rodovia", "ladeira", "viela", "carretera", "glorieta", "pasaje", "travesía",
        "callejón", "rambla", "passeig", "plaça",
    ]

    /// `streetWords` without accents (`ParserData.fold`), for words OCR read without them
    /// ("Praca", "Patio").
    static let foldedStreetWords: Set<String> = Set(streetWords.map(ParserData.fold))
}
